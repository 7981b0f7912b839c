/**
 * WooCommerce's orders and refunds in the connector's terms, as pure functions: order ids, the
 * date filters, a `StoreOrder`, and how a gateway refund is recorded and found again.
 */
import { refundedAmd, wholeAmd } from '../../connector/platforms/money.js';
import type { GatewayRefund, StoreOrder } from '../../connector/platforms/platform.js';
import type { WooOrder, WooRefund } from './wire.js';

/** The meta key a recorded gateway refund carries, with the gateway refund uuid as its value. */
export const GATEWAY_REFUND_META_KEY = '_gateway_refund_uuid';

/** WooCommerce order ids are positive integers; anything else cannot name an order. */
export function isOrderId(orderId: string): boolean {
  return /^[1-9]\d{0,18}$/.test(orderId);
}

/** `2024-05-01T10:00:00` (GMT, whole seconds, no zone) as the `after`/`before` filters take it. */
export function gmtSeconds(epochMs: number): string {
  return new Date(epochMs).toISOString().slice(0, 19);
}

/** A GMT date-time as WooCommerce writes it (no zone) as ISO 8601 UTC with `Z`. */
export function utcIso(gmt: string): string {
  if (/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?$/.test(gmt)) return `${gmt}Z`;
  const parsed = Date.parse(gmt);
  return Number.isNaN(parsed) ? gmt : new Date(parsed).toISOString();
}

export function toStoreOrder(order: WooOrder): StoreOrder {
  const name = [order.billing.first_name.trim(), order.billing.last_name.trim()]
    .filter((part) => part !== '')
    .join(' ');
  const email = order.billing.email.trim();
  return {
    id: String(order.id),
    number: order.number,
    status: order.status,
    paid: order.date_paid_gmt !== null,
    transactionId: order.transaction_id === '' ? null : order.transaction_id,
    paymentMethod: order.payment_method,
    amount: wholeAmd(order.total),
    amountText: order.total,
    currency: order.currency.toUpperCase(),
    refundedAmount: refundedAmd(order.refunds),
    createdAt: utcIso(order.date_created_gmt),
    customerEmail: email === '' ? null : email,
    customerName: name === '' ? null : name,
  };
}

export function refundReason(refund: GatewayRefund): string {
  const reason = refund.reason?.trim() ?? '';
  return reason === ''
    ? `Refunded at the gateway (refund ${refund.uuid})`
    : `${reason} (gateway refund ${refund.uuid})`;
}

export function isGatewayRefund(refund: WooRefund, uuid: string): boolean {
  const tagged = refund.meta_data.some((meta) => meta.key === GATEWAY_REFUND_META_KEY && meta.value === uuid);
  return tagged || refund.reason.includes(`refund ${uuid})`);
}
