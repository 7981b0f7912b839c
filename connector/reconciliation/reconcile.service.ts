/**
 * Reconciliation: compares the store's orders paid with our payment method, created in a time range,
 * with what the gateway says about each, and lists every mismatch:
 *
 * | kind | meaning | with `repair` |
 * |---|---|---|
 * | `paid_at_gateway_unpaid_in_store` | the gateway has a completed payment, the store order is unpaid | marked paid (the same path as a webhook) |
 * | `paid_in_store_not_at_gateway` | the store order is paid, the gateway has no completed payment for it | flagged |
 * | `paid_twice` | two completed payments for one order | flagged; the finding names the payment to refund |
 * | `refund_mismatch` | the refunded totals differ between the store and the gateway | flagged |
 * | `amount_mismatch` | the completed payment's amount or currency is not the order's | flagged |
 *
 * Only marking an order paid is repaired automatically: it is what the buyer paid for, and it is
 * applied exactly once. Everything else moves money or needs a person's judgement.
 */
import { randomUUID } from 'node:crypto';
import { toStoredInstant } from '../../gateway/domain/clock.js';
import { gatewayOf, storeOf } from '../connections/connection.service.js';
import { ConnectorError } from '../errors.js';
import type { GatewayPayment } from '../gateway-client/client.js';
import { applyPayment, gatewayCall, linkOrder, platformCall, syncStorePaid } from '../orders/order.service.js';
import type { StoreOrder } from '../platforms/platform.js';
import type { ConnectorDeps } from '../runtime/deps.js';
import type { StoreConnection } from '../storage/connection.repository.js';
import { findLink, findLinkById, paymentsOfLink, updateLink } from '../storage/order-link.repository.js';
import {
  findRun,
  type ReconciliationFinding,
  type ReconciliationRun,
  saveRun,
} from '../storage/reconciliation.repository.js';

export type FindingKind =
  | 'paid_at_gateway_unpaid_in_store'
  | 'paid_in_store_not_at_gateway'
  | 'paid_twice'
  | 'refund_mismatch'
  | 'amount_mismatch';

export interface Finding {
  kind: FindingKind;
  store_order_id: string;
  payment_uuid: string | null;
  detail: string;
  action: 'repaired' | 'flagged';
}

export interface ReconciliationReport {
  id: string;
  connection_id: string;
  from: string;
  to: string;
  repair: boolean;
  orders_checked: number;
  started_at: string;
  finished_at: string;
  findings: Finding[];
}

const PAID: ReadonlySet<string> = new Set(['completed', 'refunded']);

export async function reconcile(
  deps: ConnectorDeps,
  connection: StoreConnection,
  range: { from: string; to: string; repair: boolean },
): Promise<ReconciliationReport> {
  const startedAt = toStoredInstant(deps.clock.nowMs());
  const store = storeOf(deps, connection);
  const gateway = gatewayOf(deps, connection);
  const orders = await platformCall(() => store.listOrders(range, deps.config.paymentMethodId));
  const findings: Finding[] = [];
  for (const order of orders) {
    findings.push(...(await reconcileOrder(deps, connection, order, range.repair, gateway)));
  }
  const run: ReconciliationRun = {
    id: randomUUID(),
    connection_id: connection.id,
    range_from: range.from,
    range_to: range.to,
    repair: range.repair ? 1 : 0,
    orders_checked: orders.length,
    started_at: startedAt,
    finished_at: toStoredInstant(deps.clock.nowMs()),
  };
  await saveRun(
    deps.db,
    run,
    // Ids sort in the order the findings were made, so the kept report reads the same.
    findings.map((f, i) => ({
      id: `${run.id}:${String(i).padStart(6, '0')}`,
      run_id: run.id,
      created_at: run.finished_at,
      ...f,
    })),
  );
  deps.logger.info(
    { connection_id: connection.id, orders: orders.length, findings: findings.length },
    'reconciliation finished',
  );
  return toReport(run, findings);
}

export async function getReport(
  deps: ConnectorDeps,
  connection: StoreConnection,
  id: string,
): Promise<ReconciliationReport> {
  const found = await findRun(deps.db, connection.id, id);
  if (found === undefined) throw new ConnectorError(404, 'not_found', `No reconciliation run ${id}.`);
  return toReport(found.run, found.findings);
}

async function reconcileOrder(
  deps: ConnectorDeps,
  connection: StoreConnection,
  order: StoreOrder,
  repair: boolean,
  gateway: ReturnType<typeof gatewayOf>,
): Promise<Finding[]> {
  const findings: Finding[] = [];
  const flag = (kind: FindingKind, paymentUuid: string | null, detail: string) =>
    findings.push({ kind, store_order_id: order.id, payment_uuid: paymentUuid, detail, action: 'flagged' });
  const link = (await findLink(deps.db, connection.id, order.id)) ?? (await linkOrder(deps, connection, order));
  const payment = await gatewayCall(() => gateway.getOrderPayment(link.gateway_order_id));
  const paidAtGateway = payment !== null && PAID.has(payment.status);

  if (paidAtGateway && !order.paid) {
    const detail = `Payment ${payment.uuid} completed at the gateway but order ${order.number} is unpaid in the store.`;
    if (repair && (await repairPaid(deps, connection, link.id, payment))) {
      findings.push({
        kind: 'paid_at_gateway_unpaid_in_store',
        store_order_id: order.id,
        payment_uuid: payment.uuid,
        detail: `${detail} Marked paid.`,
        action: 'repaired',
      });
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
  if (paidAtGateway && (payment.amount !== order.amount || payment.currency !== order.currency)) {
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
  if (paidAtGateway) {
    for (const other of await otherPaidPayments(deps, link.id, payment, gateway)) {
      flag(
        'paid_twice',
        other.uuid,
        `Order ${order.number} was paid twice: ${payment.uuid} and ${other.uuid}. Refund ${other.uuid} (${other.amount} ${other.currency}).`,
      );
    }
  }
  return findings;
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

/** Completed payments of the order other than `paid` (the connector knows every payment it created). */
async function otherPaidPayments(
  deps: ConnectorDeps,
  linkId: string,
  paid: GatewayPayment,
  gateway: ReturnType<typeof gatewayOf>,
): Promise<GatewayPayment[]> {
  const others: GatewayPayment[] = [];
  for (const known of await paymentsOfLink(deps.db, linkId)) {
    if (known.uuid === paid.uuid) continue;
    const current = await gatewayCall(() => gateway.getPayment(known.uuid));
    if (PAID.has(current.status)) others.push(current);
  }
  return others;
}

function toReport(
  run: ReconciliationRun,
  findings: readonly Finding[] | readonly ReconciliationFinding[],
): ReconciliationReport {
  return {
    id: run.id,
    connection_id: run.connection_id,
    from: run.range_from,
    to: run.range_to,
    repair: run.repair === 1,
    orders_checked: run.orders_checked,
    started_at: run.started_at,
    finished_at: run.finished_at,
    findings: findings.map((f) => ({
      kind: f.kind as FindingKind,
      store_order_id: f.store_order_id,
      payment_uuid: f.payment_uuid,
      detail: f.detail,
      action: f.action as Finding['action'],
    })),
  };
}
