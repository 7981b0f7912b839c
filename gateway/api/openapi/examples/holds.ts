/**
 * Examples of holds (docs/decisions.md "Holds"): a third order (`1044`) created with
 * `capture_method: manual`, held on the buyer's card (`authorized`), then captured in part; and a
 * fourth (`1045`) whose hold was voided. test/api/openapi-examples.test.ts sends the requests to a
 * real server and compares each answer with its example.
 */
import type { z } from 'zod';
import type { captureBodySchema, voidBodySchema } from '../../schemas/hold.schema.js';
import type { paymentSchema, webhookDeliveryBodySchema } from '../components.js';
import { createdPayment, EXAMPLE_ORIGIN } from './payments.js';

type Payment = z.output<typeof paymentSchema>;

const HELD_CHECKOUT_URL = `${EXAMPLE_ORIGIN}/checkout/Hq7ZtV0cWm3pL2xR9sK4nB6yD1fG8jA5`;

/** Take 12,000 AMD of the 15,000 held; the rest is let go. */
export const captureRequest = { amount: 12000 } satisfies z.input<typeof captureBodySchema>;

/** A void takes no field: the body may be left out, or be `{}`. */
export const voidRequest = {} satisfies z.input<typeof voidBodySchema>;

/** The buyer paid: 15,000 AMD held on the card until captured, voided or `capture_before`. */
export const authorizedPayment = {
  ...createdPayment,
  uuid: '01a1fe02-5b7a-7c1d-9e4f-0a1b2c3d4e5f',
  order_id: '1044',
  checkout_url: HELD_CHECKOUT_URL,
  redirect_url: HELD_CHECKOUT_URL,
  created_at: '2026-11-21T11:10:03+00:00',
  customer_id: 'cus_D4XFNv9a6Tz2Vgit',
  status: 'authorized',
  processor: 'sandbox',
  rrn: '402918337561',
  capture_method: 'manual',
  authorized_amount: 15000,
  capture_before: '2026-11-28T11:11:20+00:00',
} satisfies Payment;

/** Captured in part: `completed` for 12,000 AMD, what refunds and billing count. */
export const capturedPayment = {
  ...authorizedPayment,
  status: 'completed',
  amount: 12000,
  completed_at: '2026-11-22T09:30:00+00:00',
} satisfies Payment;

const VOIDED_CHECKOUT_URL = `${EXAMPLE_ORIGIN}/checkout/Vd3kQ8wE1rT6yU9iO2pA7sD4fG5hJ0lZ`;

/** Voided: the hold released, nothing taken, the order free again. */
export const voidedPayment = {
  ...authorizedPayment,
  uuid: '01a1fe05-2c4d-7e6f-8a9b-0c1d2e3f4a5b',
  order_id: '1045',
  checkout_url: VOIDED_CHECKOUT_URL,
  redirect_url: VOIDED_CHECKOUT_URL,
  status: 'expired',
  failure_code: 'voided',
} satisfies Payment;

/** `payment.authorized`: the hold was placed; a manual payment's `transaction` carries the hold. */
export const authorizedDelivery = {
  event: 'payment.authorized',
  livemode: false,
  transaction: {
    uuid: authorizedPayment.uuid,
    order_id: authorizedPayment.order_id,
    status: 'authorized',
    amount: authorizedPayment.amount,
    refunded_amount: 0,
    currency: authorizedPayment.currency,
    processor: authorizedPayment.processor,
    completed_at: null,
    created_at: authorizedPayment.created_at,
    failure_code: null,
    capture_method: 'manual',
    authorized_amount: authorizedPayment.authorized_amount,
    capture_before: authorizedPayment.capture_before,
  },
  refund: null,
  receipt: null,
  delivery_id: '01a1fe03-6d8e-7f01-9a2b-3c4d5e6f7a8b',
  timestamp: 1795259480,
} satisfies z.output<typeof webhookDeliveryBodySchema>;
