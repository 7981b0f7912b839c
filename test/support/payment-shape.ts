/** The payment object as clients see it: the keys every answer carrying a payment must have. */

/** The keys of the spec's Payment table, all present in every answer. */
export const SPEC_PAYMENT_KEYS = [
  'uuid',
  'order_id',
  'amount',
  'refunded_amount',
  'currency',
  'charge',
  'customer_id',
  'status',
  'checkout_url',
  'processor',
  'created_at',
  'completed_at',
  'refunded_at',
  'payment_flow',
  'qr_code',
  'rrn',
  'redirect_url',
] as const;

/** Additive keys the gateway answers besides the spec's table (docs/decisions.md). */
export const ADDITIVE_PAYMENT_KEYS = [
  'description',
  'livemode',
  'failure_code',
  'items',
  'awaiting_processor_reference',
  'capture_method',
  'authorized_amount',
  'capture_before',
] as const;

/** Every key of a payment answer, sorted. */
export const ALL_PAYMENT_KEYS_SORTED: readonly string[] = [...SPEC_PAYMENT_KEYS, ...ADDITIVE_PAYMENT_KEYS].sort();

/** The webhook `transaction` object of a payment as the API answered it. */
export function expectedTransaction(payment: Record<string, unknown>): Record<string, unknown> {
  return {
    uuid: payment.uuid,
    order_id: payment.order_id,
    status: payment.status,
    amount: payment.amount,
    refunded_amount: payment.refunded_amount,
    currency: payment.currency,
    processor: payment.processor,
    completed_at: payment.completed_at,
    created_at: payment.created_at,
    failure_code: payment.failure_code,
    // Only a payment created with `capture_method: manual` carries its hold in a webhook.
    ...(payment.capture_method === 'manual'
      ? {
          capture_method: payment.capture_method,
          authorized_amount: payment.authorized_amount,
          capture_before: payment.capture_before,
        }
      : {}),
  };
}

/** The `transaction.status.updated` body a sandbox payment in its current state emits, as the outbox keeps it. */
export function expectedStatusEvent(payment: Record<string, unknown>): Record<string, unknown> {
  return {
    event: 'transaction.status.updated',
    livemode: false,
    transaction: expectedTransaction(payment),
    refund: null,
    receipt: null,
  };
}
