/**
 * Examples of the payments operations in the OpenAPI document: one order (`1042`, two lines) paid
 * with a test key, and a second attempt (`1043`) that was cancelled, then confirmed late. The
 * requests are sent to a real server by test/api/openapi-examples.test.ts, which also compares each
 * answer with its example; instants and ids are what such a server could answer.
 */

import type { z } from 'zod';
import { paginate } from '../../../domain/pagination.js';
import type { createPaymentSchema } from '../../schemas/payment.schema.js';
import type { testCardSchema } from '../../schemas/test-helpers.schema.js';
import type { paymentListSchema, paymentSchema } from '../components.js';

type Payment = z.output<typeof paymentSchema>;

/** The origin examples use for the gateway's own addresses (docs/api.md assumes it too). */
export const EXAMPLE_ORIGIN = 'http://localhost:8080';

export const PAYMENT_UUID = '01a1fdae-1fae-72a7-b5f2-afca07a53ffc';
const CHECKOUT_URL = `${EXAMPLE_ORIGIN}/checkout/SADcxDIVi3a-pb0p0OSH6DCQzNxqj_xr`;

export const createPaymentRequest = {
  amount: 15000,
  order_id: '1042',
  return_url: 'https://shop.am/orders/1042/thanks',
  cancel_url: 'https://shop.am/cart',
  callback_url: 'https://shop.am/hooks/gateway',
  description: '2 books',
  customer_email: 'buyer@example.am',
  customer_name: 'Anna Petrosyan',
  items: [
    { name: 'Armenian cookbook', quantity: 2, unit_price: 6000, classification_code: '4901', unit: 'pcs' },
    { name: 'Delivery', unit_price: 3000 },
  ],
} satisfies z.input<ReturnType<typeof createPaymentSchema>>;

/** A payment just created: waiting for the buyer at `checkout_url`. */
export const createdPayment = {
  uuid: PAYMENT_UUID,
  order_id: '1042',
  amount: 15000,
  refunded_amount: 0,
  currency: 'AMD',
  charge: null,
  customer_id: null,
  status: 'pending',
  checkout_url: CHECKOUT_URL,
  processor: null,
  created_at: '2026-11-21T10:36:49+00:00',
  completed_at: null,
  refunded_at: null,
  payment_flow: 'redirect',
  qr_code: null,
  rrn: null,
  redirect_url: CHECKOUT_URL,
  description: '2 books',
  livemode: false,
  failure_code: null,
  awaiting_processor_reference: false,
  capture_method: 'automatic',
  authorized_amount: null,
  capture_before: null,
  items: [
    { name: 'Armenian cookbook', quantity: 2, unit_price: 6000, classification_code: '4901', code: null, unit: 'pcs' },
    { name: 'Delivery', quantity: 1, unit_price: 3000, classification_code: null, code: null, unit: null },
  ],
} satisfies Payment;

/** The same payment once the buyer paid: the customer id it gave the buyer, the processor's RRN. */
export const paidPayment = {
  ...createdPayment,
  customer_id: 'cus_D4XFNv9a6Tz2Vgit',
  status: 'completed',
  processor: 'sandbox',
  completed_at: '2026-11-21T10:38:02+00:00',
  rrn: '967685711432',
} satisfies Payment;

export const testCardRequest = { card_number: '4242 4242 4242 4242' } satisfies z.input<typeof testCardSchema>;

const SECOND_CHECKOUT_URL = `${EXAMPLE_ORIGIN}/checkout/PRy172dF26a2u8o29z_hvMZDXEnKanTP`;

/** A second attempt at an order, given up by the merchant (`POST .../cancel`). */
export const cancelledPayment = {
  ...createdPayment,
  uuid: '01a1fdb4-5e02-7c19-8d3a-1b2c3d4e5f60',
  order_id: '1043',
  checkout_url: SECOND_CHECKOUT_URL,
  redirect_url: SECOND_CHECKOUT_URL,
  created_at: '2026-11-21T11:02:10+00:00',
  status: 'expired',
  failure_code: 'cancelled',
} satisfies Payment;

/** The cancelled payment confirmed late by the processor (the confirm test helper plays it). */
export const lateConfirmedPayment = {
  ...cancelledPayment,
  customer_id: 'cus_D4XFNv9a6Tz2Vgit',
  status: 'completed',
  processor: 'sandbox',
  completed_at: '2026-11-21T11:05:41+00:00',
  rrn: '833667392669',
  failure_code: null,
} satisfies Payment;

/** A Telcell invoice number, as the buyer's wallet shows it. */
export const processorReferenceRequest = { reference: '5071234' };

const PAYMENTS_URL = `${EXAMPLE_ORIGIN}/api/v1/payments`;

export const paymentList = paginate([paidPayment], 1, {
  path: PAYMENTS_URL,
  query: [],
  page: 1,
  perPage: 25,
}) satisfies z.output<typeof paymentListSchema>;
