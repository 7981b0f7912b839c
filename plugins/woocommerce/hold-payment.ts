/**
 * How a WooCommerce order whose card hold was captured is recorded paid through the REST API
 * (docs/decisions.md, "WooCommerce: authorize only, capture later"). `set_paid` calls
 * `WC_Order::payment_complete()` only when the order `needs_payment()` (pending or failed), and a
 * held order is on hold, or already set Processing or Completed by the shop owner. What WooCommerce
 * honours instead: `transaction_id` is writable, and setting the status to Processing runs
 * `WC_Order::maybe_set_date_paid()`, which sets the date paid on reaching the payment-complete status.
 */
import type { WooOrder } from './wire.js';

/** The statuses an order is put on hold from when its buyer's card is held: still waiting for payment. */
export const HOLDABLE_STATUSES: ReadonlySet<string> = new Set(['pending', 'failed']);

/**
 * The `PUT orders/{id}` body that records a captured hold on the order, or null when there is
 * nothing such to do (the order is paid with it already, waits for payment the usual way, or is in
 * a status that takes no payment).
 *
 * - On hold (captured from the order panel): Processing with the payment as transaction id, as
 *   `payment_complete()` would do; WooCommerce sets the date paid on that transition.
 * - Processing or Completed (the shop owner's own step, which set the date paid): the transaction id.
 */
export function capturedHoldUpdate(order: WooOrder, uuid: string): Record<string, unknown> | null {
  if (order.status === 'on-hold') return { status: 'processing', transaction_id: uuid };
  if (order.status === 'processing' || order.status === 'completed') {
    if (order.date_paid_gmt !== null && order.transaction_id === uuid) return null;
    return { transaction_id: uuid };
  }
  return null;
}
