/**
 * The events a payment emits (spec "Events", "Webhook delivery body"). The outbox keeps the body
 * without `delivery_id` and `timestamp`, which each delivery sets.
 */
import { toApiInstant } from '../domain/clock.js';
import { type CaptureMethod, type Payment, pricedAs } from '../domain/payment.js';

/**
 * `payment.authorized` (a `manual` payment's amount is held: docs/decisions.md "Holds") is the one
 * event of a status that is not final; the hold's capture and release reach final statuses and are
 * `transaction.status.updated`.
 */
export type EventName = 'transaction.status.updated' | 'payment.refunded' | 'payment.authorized';

export interface TransactionSnapshot {
  uuid: string;
  order_id: string;
  status: string;
  amount: number;
  refunded_amount: number;
  currency: string;
  processor: string | null;
  completed_at: string | null;
  created_at: string;
  failure_code: string | null;
  /**
   * Only for a payment created with `capture_method: manual` (docs/decisions.md "Holds"): the
   * deliveries of other payments stay exactly as they were.
   */
  capture_method?: CaptureMethod;
  /** Whole AMD held once authorized; null before. */
  authorized_amount?: number | null;
  /** ISO 8601 deadline of the hold; null unless authorized. */
  capture_before?: string | null;
}

export interface RefundSnapshot {
  uuid: string;
  amount: number;
  reason: string | null;
}

export interface EventBody {
  event: EventName;
  livemode: boolean;
  transaction: TransactionSnapshot;
  refund: RefundSnapshot | null;
  receipt: { receipt_id: string; qr_url: string } | null;
}

/** `amount` and `currency` as the payment object has them (what the merchant priced in); `refunded_amount` in AMD. */
export function transactionSnapshot(payment: Payment): TransactionSnapshot {
  const priced = pricedAs(payment);
  return {
    uuid: payment.uuid,
    order_id: payment.orderId,
    status: payment.status,
    amount: priced.amount,
    refunded_amount: payment.refundedAmount,
    currency: priced.currency,
    processor: payment.processor,
    completed_at: toApiInstant(payment.completedAt),
    created_at: toApiInstant(payment.createdAt) as string,
    failure_code: payment.failureCode,
    ...(payment.captureMethod === 'manual'
      ? {
          capture_method: payment.captureMethod,
          authorized_amount: payment.authorizedAmount,
          capture_before: toApiInstant(payment.captureBefore),
        }
      : {}),
  };
}

/** `transaction.status.updated`, emitted when a payment reaches completed, failed or expired. */
export function statusUpdatedEvent(payment: Payment): EventBody {
  return {
    event: 'transaction.status.updated',
    livemode: !payment.sandbox,
    transaction: transactionSnapshot(payment),
    refund: null,
    receipt: null,
  };
}

/** `payment.authorized`, emitted when a `manual` payment's amount is held (status `authorized`). */
export function authorizedEvent(payment: Payment): EventBody {
  return {
    event: 'payment.authorized',
    livemode: !payment.sandbox,
    transaction: transactionSnapshot(payment),
    refund: null,
    receipt: null,
  };
}

/** `payment.refunded`, emitted for every refund that succeeded; `payment` is the payment after it. */
export function refundedEvent(payment: Payment, refund: RefundSnapshot): EventBody {
  return {
    event: 'payment.refunded',
    livemode: !payment.sandbox,
    transaction: transactionSnapshot(payment),
    refund,
    receipt: null,
  };
}

/**
 * The payment uuid of a test event (the nil UUID): no payment ever has it, so a receiver can tell
 * a test event from a real one, as it can by `livemode: false` and the order id.
 */
export const TEST_EVENT_PAYMENT_UUID = '00000000-0000-0000-0000-000000000000';
export const TEST_EVENT_ORDER_ID = 'gateway-test-event';

/** The sample `transaction.status.updated` a merchant sends to check its receiver: a completed sandbox payment. */
export function testStatusUpdatedEvent(at: string): EventBody {
  const instant = toApiInstant(at);
  return {
    event: 'transaction.status.updated',
    livemode: false,
    transaction: {
      uuid: TEST_EVENT_PAYMENT_UUID,
      order_id: TEST_EVENT_ORDER_ID,
      status: 'completed',
      amount: 1000,
      refunded_amount: 0,
      currency: 'AMD',
      processor: 'sandbox',
      completed_at: instant,
      created_at: instant as string,
      failure_code: null,
    },
    refund: null,
    receipt: null,
  };
}
