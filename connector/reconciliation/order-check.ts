/**
 * One store order against the gateway: what the store says (paid, cancelled, its amount and
 * refunds) and what the gateway says (the order's payment and the others the connector made for
 * it), each mismatch a finding (./findings.ts). Only marking an order paid is repaired, and only
 * when the run asks to.
 */
import { toStoredInstant } from '../../gateway/domain/clock.js';
import type { gatewayOf } from '../connections/connection-access.js';
import type { GatewayPayment } from '../gateway-client/client.js';
import { applyPayment, paysAmount } from '../orders/apply-payment.js';
import { gatewayCall } from '../orders/calls.js';
import { PAID_AFTER_CANCEL, syncStorePaid } from '../orders/mark-paid.js';
import { linkOrder } from '../orders/order-map.js';
import type { StoreOrder } from '../platforms/platform.js';
import type { ConnectorDeps } from '../runtime/deps.js';
import type { StoreConnection } from '../storage/connection.repository.js';
import { findLink, findLinkById, paymentsOfLink, updateLink } from '../storage/order-link.repository.js';
import { noteLater } from './finding-notes.js';
import { adviceFor, awaitingDetail, type Finding, type FindingKind } from './findings.js';

const PAID: ReadonlySet<string> = new Set(['completed', 'refunded']);

export async function reconcileOrder(
  deps: ConnectorDeps,
  connection: StoreConnection,
  order: StoreOrder,
  repair: boolean,
  gateway: ReturnType<typeof gatewayOf>,
): Promise<Finding[]> {
  const findings: Finding[] = [];
  const found = (kind: FindingKind, paymentUuid: string | null, detail: string, action: Finding['action']) =>
    findings.push({
      kind,
      store_order_id: order.id,
      order_number: order.number,
      payment_uuid: paymentUuid,
      detail,
      action,
      repairable: kind === 'paid_at_gateway_unpaid_in_store' && action === 'flagged',
      advice: adviceFor(kind, action),
    });
  const flag = (kind: FindingKind, paymentUuid: string | null, detail: string) =>
    found(kind, paymentUuid, detail, 'flagged');
  const link = (await findLink(deps.db, connection.id, order.id)) ?? (await linkOrder(deps, connection, order));
  const payment = await gatewayCall(() => gateway.getOrderPayment(link.gateway_order_id));
  const paidAtGateway = payment !== null && PAID.has(payment.status);
  // A payment refunded in full took nothing to mark paid: the money went back (for a cancelled order
  // paid anyway, the owner did what its note asks).
  const kept = paidAtGateway && payment.refunded_amount < payment.amount;

  if (kept && !order.paid && order.status === 'cancelled') {
    // Never "repaired": the store takes no payment for a cancelled order, and a person decides.
    flag(
      'paid_after_cancel',
      payment.uuid,
      `Payment ${payment.uuid} completed at the gateway for order ${order.number}, which is cancelled in the store.`,
    );
  } else if (kept && !order.paid) {
    const detail = `Payment ${payment.uuid} completed at the gateway but order ${order.number} is unpaid in the store.`;
    if (repair && (await repairPaid(deps, connection, link.id, payment))) {
      found('paid_at_gateway_unpaid_in_store', payment.uuid, `${detail} Marked paid.`, 'repaired');
    } else if (await heldAfterCancel(deps, link.id, payment)) {
      // Paid after the order was cancelled, and the order since moved to a status that takes no
      // payment either (Refunded): the store was not asked to mark it paid, a person decides.
      flag(
        'paid_after_cancel',
        payment.uuid,
        `Payment ${payment.uuid} completed at the gateway for order ${order.number}, which was cancelled in the store and is now ${order.status}.`,
      );
    } else {
      flag(
        'paid_at_gateway_unpaid_in_store',
        payment.uuid,
        repair ? `${detail} The store did not accept the change.` : detail,
      );
    }
  }
  if (!paidAtGateway && order.paid) {
    flag(
      'paid_in_store_not_at_gateway',
      payment?.uuid ?? null,
      `Order ${order.number} is paid in the store, but the gateway has no completed payment for it (${payment === null ? 'no payment' : payment.status}).`,
    );
  }
  if (paidAtGateway && (!paysAmount(payment, order.amount) || payment.currency !== order.currency)) {
    flag(
      'amount_mismatch',
      payment.uuid,
      `Payment ${payment.uuid} is ${payment.amount} ${payment.currency}; order ${order.number} is ${order.amountText} ${order.currency}.`,
    );
  }
  if (paidAtGateway && payment.refunded_amount !== order.refundedAmount) {
    flag(
      'refund_mismatch',
      payment.uuid,
      `Refunded ${payment.refunded_amount} AMD at the gateway but ${order.refundedAmount} AMD in the store.`,
    );
  }
  const others = await otherPayments(deps, link.id, payment, gateway);
  if (paidAtGateway) {
    for (const other of others.filter((p) => PAID.has(p.status))) {
      flag(
        'paid_twice',
        other.uuid,
        `Order ${order.number} was paid twice: ${payment.uuid} and ${other.uuid}. Refund ${other.uuid} (${other.amount} ${other.currency}).`,
      );
    }
  }
  // The buyer may have paid these, and only a person can find out (Telcell: the invoice number in
  // its merchant cabinet). An older gateway, without the field, reports none.
  for (const waiting of [payment, ...others]) {
    if (waiting?.awaiting_processor_reference !== true) continue;
    flag(
      'awaiting_processor_reference',
      waiting.uuid,
      awaitingDetail(waiting, order.number, paidAtGateway ? payment : null),
    );
    const listed = findings.at(-1);
    if (waiting.status === 'processing' && listed !== undefined) noteLater(listed);
  }
  return findings;
}

/** Whether the order's payment is held as paid after the order was cancelled (mark-paid.ts). */
async function heldAfterCancel(deps: ConnectorDeps, linkId: string, payment: GatewayPayment): Promise<boolean> {
  const link = await findLinkById(deps.db, linkId);
  return link?.paid_payment_uuid === payment.uuid && link.flag === PAID_AFTER_CANCEL && link.store_sync === 'failed';
}

/** Marks the order paid; answers true when the store now has it paid. */
async function repairPaid(
  deps: ConnectorDeps,
  connection: StoreConnection,
  linkId: string,
  payment: GatewayPayment,
): Promise<boolean> {
  const link = await findLinkById(deps.db, linkId);
  if (link === undefined) return false;
  if (link.paid_payment_uuid === payment.uuid && link.store_sync !== 'pending') {
    // Claimed earlier but the store never took it (or gave up): try once more now.
    await updateLink(deps.db, link.id, {
      store_sync: 'pending',
      updated_at: toStoredInstant(deps.clock.nowMs()),
    });
    await syncStorePaid(deps, connection, link.id, payment);
  } else {
    await applyPayment(deps, connection, link, payment);
    await syncStorePaid(deps, connection, link.id, payment);
  }
  return (await findLinkById(deps.db, link.id))?.store_sync === 'done';
}

/**
 * The order's payments other than `read` (the one the order's answer named), as the gateway has
 * them now: the connector knows every payment it created. One gateway call each.
 */
async function otherPayments(
  deps: ConnectorDeps,
  linkId: string,
  read: GatewayPayment | null,
  gateway: ReturnType<typeof gatewayOf>,
): Promise<GatewayPayment[]> {
  const others: GatewayPayment[] = [];
  for (const known of await paymentsOfLink(deps.db, linkId)) {
    if (known.uuid === read?.uuid) continue;
    others.push(await gatewayCall(() => gateway.getPayment(known.uuid)));
  }
  return others;
}
