/**
 * What a reconciliation finds: each kind of mismatch, and what it asks of the shop owner.
 *
 * | kind | meaning | with `repair` |
 * |---|---|---|
 * | `paid_at_gateway_unpaid_in_store` | the gateway has a completed payment (not refunded in full), the store order is unpaid | marked paid (the same path as a webhook) |
 * | `paid_in_store_not_at_gateway` | the store order is paid, the gateway has no completed payment for it | flagged |
 * | `paid_twice` | two completed payments for one order | flagged; the finding names the payment to refund |
 * | `refund_mismatch` | the refunded totals differ between the store and the gateway | flagged |
 * | `amount_mismatch` | the completed payment's amount or currency is not the order's | flagged |
 * | `paid_after_cancel` | the gateway has a completed payment (not refunded in full) for an order the store cancelled | flagged: refund it, or reopen the order (then repaired) |
 * | `awaiting_processor_reference` | a payment of the order waits for its payment system's notice, without which the gateway cannot ask it (Telcell's invoice number): the buyer may have paid | flagged: settle it with the invoice number in the gateway dashboard, or wait |
 *
 * Only marking an order paid is repaired automatically: it is what the buyer paid for, and it is
 * applied exactly once. Everything else moves money or needs a person's judgement.
 */
import type { GatewayPayment } from '../gateway-client/client.js';
import { paymentSystemName, SETTLE_ADVICE, whyUnconfirmed } from '../orders/unconfirmed-payments.js';

export type FindingKind =
  | 'paid_at_gateway_unpaid_in_store'
  | 'paid_in_store_not_at_gateway'
  | 'paid_twice'
  | 'refund_mismatch'
  | 'amount_mismatch'
  | 'paid_after_cancel'
  | 'awaiting_processor_reference';

export interface Finding {
  kind: FindingKind;
  store_order_id: string;
  /** The number the shop owner sees; null in runs made before it was kept. */
  order_number: string | null;
  payment_uuid: string | null;
  detail: string;
  action: 'repaired' | 'flagged';
  /** True only for `paid_at_gateway_unpaid_in_store` not repaired yet: a run with `repair` fixes it. */
  repairable: boolean;
  /** What a repair does, or what the shop owner should do, in a sentence or two. */
  advice: string;
}

/** What each kind asks of the shop owner (or what a repair does). */
export function adviceFor(kind: FindingKind, action: Finding['action']): string {
  switch (kind) {
    case 'paid_at_gateway_unpaid_in_store':
      return action === 'repaired'
        ? 'The order was marked paid with the gateway payment.'
        : 'Repair marks the order paid with the gateway payment; no money moves.';
    case 'paid_in_store_not_at_gateway':
      return 'Check how this order was paid; if no money arrived, set it back to pending payment.';
    case 'paid_twice':
      return 'Refund the extra payment named here; the order stays paid by the other one.';
    case 'refund_mismatch':
      return 'Record the missing refund where it is missing so the store and the gateway show the same refunded total.';
    case 'amount_mismatch':
      return 'The order was not marked paid: check the order and refund the payment if it should not stand.';
    case 'paid_after_cancel':
      return 'Refund the payment, or set the order back to Pending payment to keep the sale: the next run marks it paid.';
    case 'awaiting_processor_reference':
      return SETTLE_ADVICE;
  }
}

/**
 * The detail of an `awaiting_processor_reference` finding: which payment, at which payment system,
 * in which state, and why the gateway cannot find out by itself. `paidBy`: the order's completed
 * payment when another one paid it already (then this one, if paid too, paid it twice).
 */
export function awaitingDetail(waiting: GatewayPayment, orderNumber: string, paidBy: GatewayPayment | null): string {
  const name = paymentSystemName(waiting.processor);
  const state = waiting.status === 'processing' ? 'still open' : waiting.status;
  const detail = `Payment ${waiting.uuid} of order ${orderNumber} at ${name} is ${state}: ${whyUnconfirmed(waiting)}`;
  return paidBy === null || paidBy.uuid === waiting.uuid
    ? detail
    : `${detail} The order is paid by payment ${paidBy.uuid}: if this invoice was paid as well, the buyer paid twice.`;
}
