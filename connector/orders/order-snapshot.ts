/**
 * The order as the plugin sends it with `POST /v1/orders/{id}/payment` (`order`), so the connector
 * needs no store call while the plugin waits: a one-worker PHP store cannot answer the connector
 * while it is itself waiting for the connector. The plugin runs inside the store, so its view of the
 * order is the store's.
 */
import type { StoreOrder } from '../platforms/platform.js';

export interface OrderSnapshot {
  number: string;
  /** A decimal string as the store writes money: "1500.00". */
  total: string;
  currency: string;
  status: string;
  created_at: string;
  customer_email?: string | null | undefined;
  customer_name?: string | null | undefined;
  payment_method: string;
}

/** WooCommerce's paid statuses (`wc_get_is_paid_statuses()`), and a refunded order was paid. */
const PAID_STATUSES: ReadonlySet<string> = new Set(['processing', 'completed', 'refunded']);

/** "1500.00" -> 1500; null when there is a non-zero fraction or it is not a plain decimal. No floats. */
export function wholeAmountOf(total: string): number | null {
  const match = /^(\d{1,15})(?:\.(\d{1,8}))?$/.exec(total.trim());
  if (match === null) return null;
  const [, units = '', fraction = ''] = match;
  if (/[^0]/.test(fraction)) return null;
  const amount = Number(units);
  return Number.isSafeInteger(amount) ? amount : null;
}

export function storeOrderFromSnapshot(storeOrderId: string, snapshot: OrderSnapshot): StoreOrder {
  return {
    id: storeOrderId,
    number: snapshot.number,
    status: snapshot.status,
    paid: PAID_STATUSES.has(snapshot.status),
    transactionId: null,
    paymentMethod: snapshot.payment_method,
    amount: wholeAmountOf(snapshot.total),
    amountText: snapshot.total,
    currency: snapshot.currency.toUpperCase(),
    refundedAmount: 0,
    createdAt: new Date(Date.parse(snapshot.created_at)).toISOString(),
    customerEmail: snapshot.customer_email?.trim() ? snapshot.customer_email.trim() : null,
    customerName: snapshot.customer_name?.trim() ? snapshot.customer_name.trim() : null,
  };
}
