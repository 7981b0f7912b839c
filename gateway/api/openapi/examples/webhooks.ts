/**
 * Examples of webhooks: the bodies the gateway POSTs for order `1042` (examples/payments.ts), the
 * event log of that payment, and a resent delivery.
 */
import type { z } from 'zod';
import type {
  eventBodySchema,
  eventLogSchema,
  resentDeliverySchema,
  transactionSnapshotSchema,
  webhookDeliveryBodySchema,
} from '../components.js';
import { paidPayment } from './payments.js';
import { refund } from './refunds.js';

const WEBHOOK_URL = 'https://shop.am/hooks/gateway';
const EVENT_ID = '01a1fdb0-7c3d-7a11-8f0e-5b2f3c4d5e6f';

const paidSnapshot = {
  uuid: paidPayment.uuid,
  order_id: paidPayment.order_id,
  status: 'completed',
  amount: paidPayment.amount,
  refunded_amount: 0,
  currency: paidPayment.currency,
  processor: paidPayment.processor,
  completed_at: paidPayment.completed_at,
  created_at: paidPayment.created_at,
  failure_code: null,
} satisfies z.output<typeof transactionSnapshotSchema>;

const paidEvent = {
  event: 'transaction.status.updated',
  livemode: false,
  transaction: paidSnapshot,
  refund: null,
  receipt: null,
} satisfies z.output<typeof eventBodySchema>;

/** `transaction.status.updated`: the payment was paid. */
export const statusUpdatedDelivery = {
  ...paidEvent,
  delivery_id: '01a1fdb0-7c3e-7d41-9a5e-3f1e2b7c9d10',
  timestamp: 1795257482,
} satisfies z.output<typeof webhookDeliveryBodySchema>;

/** `payment.refunded`: a partial refund succeeded; the payment is still `completed`. */
export const refundedDelivery = {
  event: 'payment.refunded',
  livemode: false,
  transaction: { ...paidSnapshot, refunded_amount: refund.amount },
  refund: { uuid: refund.uuid, amount: refund.amount, reason: refund.reason },
  receipt: null,
  delivery_id: '01a1fdb9-2a4f-7e60-b1c2-d3e4f5a6b7c8',
  timestamp: 1795258335,
} satisfies z.output<typeof webhookDeliveryBodySchema>;

/** The payment's one event; its first delivery failed and is retried a minute later. */
export const eventLog = {
  data: [
    {
      id: EVENT_ID,
      event: 'transaction.status.updated',
      livemode: false,
      created_at: '2026-11-21T10:38:02+00:00',
      body: paidEvent,
      deliveries: [
        {
          delivery_id: statusUpdatedDelivery.delivery_id,
          url: WEBHOOK_URL,
          status: 'pending',
          attempts: 1,
          next_attempt_at: '2026-11-21T10:39:02+00:00',
          last_attempt_at: '2026-11-21T10:38:02+00:00',
          last_status_code: 500,
          last_error: 'HTTP 500',
          delivered_at: null,
          attempt_log: [
            {
              attempt: 1,
              at: '2026-11-21T10:38:02+00:00',
              url: WEBHOOK_URL,
              http_status: 500,
              duration_ms: 84,
              error: 'HTTP 500',
              outcome: 'retry',
            },
          ],
        },
      ],
    },
  ],
} satisfies z.output<typeof eventLogSchema>;

export const resentDelivery = {
  event_id: EVENT_ID,
  delivery_id: '01a1fe12-0b9a-7c55-8e21-7d3b2a1c0f99',
  url: WEBHOOK_URL,
  status: 'pending',
  attempts: 0,
  next_attempt_at: '2026-11-21T11:00:00+00:00',
  created_at: '2026-11-21T11:00:00+00:00',
} satisfies z.output<typeof resentDeliverySchema>;
