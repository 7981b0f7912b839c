/**
 * What a verified webhook of the gateway carries (spec "Events", "Webhook delivery body"): the
 * event, the payment as it was then, the refund and the receipt.
 */

/** The events the gateway emits (spec "Events"). */
export type WebhookEventName = 'transaction.status.updated' | 'payment.refunded' | 'payment.authorized';

/** The payment as it was when the event was emitted. Read it back before acting on it. */
export interface WebhookTransaction {
  uuid: string;
  order_id: string;
  /** `pending`, `processing`, `authorized`, `completed`, `failed`, `expired` or `refunded`. */
  status: string;
  /** Whole AMD. */
  amount: number;
  refunded_amount: number;
  currency: string;
  /** The processor slug; null while no method was chosen (e.g. an expired payment). */
  processor: string | null;
  /** ISO 8601 with offset; null unless the payment completed. */
  completed_at: string | null;
  created_at: string;
}

export interface WebhookRefund {
  uuid: string;
  amount: number;
  reason: string | null;
}

export interface WebhookReceipt {
  receipt_id: string;
  qr_url: string;
}

interface WebhookEventBase {
  /** Unique per delivery, the same on each retry of it: the de-duplication key. */
  delivery_id: string;
  /** False for sandbox payments. */
  livemode: boolean;
  /** Unix time in seconds. */
  timestamp: number;
  transaction: WebhookTransaction;
  receipt: WebhookReceipt | null;
}

/** A payment reached completed, failed or expired (also after a late confirmation). */
export interface TransactionStatusUpdatedEvent extends WebhookEventBase {
  event: 'transaction.status.updated';
  refund: null;
}

/** A refund was made; `transaction` is the payment after it. */
export interface PaymentRefundedEvent extends WebhookEventBase {
  event: 'payment.refunded';
  refund: WebhookRefund;
}

/**
 * A payment created with `capture_method: "manual"` is `authorized`: its amount is held on the card
 * until it is captured or released (both then arrive as `transaction.status.updated`). The
 * `transaction` also carries `capture_method`, `authorized_amount` and `capture_before`.
 */
export interface PaymentAuthorizedEvent extends WebhookEventBase {
  event: 'payment.authorized';
  refund: null;
}

/**
 * The delivery body (spec "Webhook delivery body"). Keys the gateway adds later are kept on the object
 * at run time; they are not in this type.
 */
export type WebhookEvent = TransactionStatusUpdatedEvent | PaymentRefundedEvent | PaymentAuthorizedEvent;
