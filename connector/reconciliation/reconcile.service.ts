/**
 * Reconciliation: compares the store's orders paid with our payment method, created in a time range,
 * with what the gateway says about each, and lists every mismatch (the kinds: ./findings.ts). Only
 * marking an order paid is repaired automatically; everything else is flagged for a person.
 *
 * A run is recorded as it starts (`running`) and closed as `finished` or `failed` (with what could
 * not be reached). `wait: false` runs it in the background. Each finding is written as a private
 * note on its order once per (order, kind, payment) across runs.
 */
import { randomUUID } from 'node:crypto';
import { toStoredInstant } from '../../gateway/domain/clock.js';
import { gatewayOf, storeOf } from '../connections/connection-access.js';
import { storeErrorMessage } from '../connections/connection-health.js';
import { ConnectorError, errorDetail, isCredentialRefusal, STORE_UNAUTHORIZED_MESSAGE } from '../errors.js';
import type { GatewayPayment } from '../gateway-client/client.js';
import { applyPayment } from '../orders/apply-payment.js';
import { gatewayCall, platformCall } from '../orders/calls.js';
import { syncStorePaid } from '../orders/mark-paid.js';
import { linkOrder } from '../orders/order-map.js';
import { PlatformError, type StoreOrder } from '../platforms/platform.js';
import type { ConnectorDeps } from '../runtime/deps.js';
import type { StoreConnection } from '../storage/connection.repository.js';
import { findLink, findLinkById, paymentsOfLink, updateLink } from '../storage/order-link.repository.js';
import {
  claimFindingNote,
  findRun,
  finishRun,
  insertRun,
  listRuns,
  type ReconciliationFinding,
  type ReconciliationRun,
  releaseFindingNote,
} from '../storage/reconciliation.repository.js';
import { adviceFor, awaitingDetail, type Finding, type FindingKind } from './findings.js';

export type RunTrigger = 'scheduled' | 'plugin' | 'cli';
export type RunStatus = 'running' | 'finished' | 'failed';

export interface ReconciliationReport {
  id: string;
  connection_id: string;
  status: RunStatus;
  /** Why a failed run failed (what could not be reached); null otherwise. */
  error: string | null;
  trigger: RunTrigger;
  from: string;
  to: string;
  repair: boolean;
  orders_checked: number;
  started_at: string;
  /** Null while the run is running. */
  finished_at: string | null;
  findings: Finding[];
}

export interface RunRequest {
  from: string;
  to: string;
  repair: boolean;
  trigger: RunTrigger;
}

const PAID: ReadonlySet<string> = new Set(['completed', 'refunded']);

/**
 * Findings listed but not written on their order: a payment still open at its payment system may be
 * one the buyer is paying at this very moment, and a note saying "not confirmed" would stay on an
 * order paid a minute later. Once the payment is over at the gateway, the next run notes it.
 */
const NOT_NOTED = new WeakSet<Finding>();

/** Runs a reconciliation and answers its report; a run that fails is recorded, then the error is thrown. */
export async function reconcile(
  deps: ConnectorDeps,
  connection: StoreConnection,
  request: RunRequest,
): Promise<ReconciliationReport> {
  const run = await openRun(deps, connection, request);
  return executeRun(deps, connection, run);
}

/** Starts a run in the background (`wait: false`) and answers it as `running`. */
export async function reconcileInBackground(
  deps: ConnectorDeps,
  connection: StoreConnection,
  request: RunRequest,
): Promise<ReconciliationReport> {
  const run = await openRun(deps, connection, request);
  deps.background.start('reconciliation', () => executeRun(deps, connection, run));
  return toReport(run, []);
}

async function openRun(
  deps: ConnectorDeps,
  connection: StoreConnection,
  request: RunRequest,
): Promise<ReconciliationRun> {
  // Before any work: a connection without store access is refused as it would be in the run.
  storeOf(deps, connection);
  const startedAt = toStoredInstant(deps.clock.nowMs());
  const run: ReconciliationRun = {
    id: randomUUID(),
    connection_id: connection.id,
    range_from: request.from,
    range_to: request.to,
    repair: request.repair ? 1 : 0,
    orders_checked: 0,
    started_at: startedAt,
    finished_at: startedAt,
    status: 'running',
    error: null,
    trigger: request.trigger,
  };
  await insertRun(deps.db, run);
  return run;
}

async function executeRun(
  deps: ConnectorDeps,
  connection: StoreConnection,
  run: ReconciliationRun,
): Promise<ReconciliationReport> {
  const range = { from: run.range_from, to: run.range_to };
  let findings: Finding[];
  let ordersChecked: number;
  try {
    const store = storeOf(deps, connection);
    const gateway = gatewayOf(deps, connection);
    const orders = await platformCall(() =>
      store.listOrders(range, store.paymentMethod ?? deps.config.paymentMethodId),
    );
    findings = [];
    for (const order of orders) {
      findings.push(...(await reconcileOrder(deps, connection, order, run.repair === 1, gateway)));
    }
    ordersChecked = orders.length;
    await noteFindings(deps, connection, findings);
  } catch (error) {
    const failed: ReconciliationRun = {
      ...run,
      status: 'failed',
      error: runError(error),
      finished_at: toStoredInstant(deps.clock.nowMs()),
    };
    await finishRun(
      deps.db,
      run.id,
      { status: failed.status, error: failed.error, finished_at: failed.finished_at },
      [],
    );
    deps.logger.warn(
      { connection_id: connection.id, run_id: run.id, err: errorDetail(error) },
      'reconciliation failed',
    );
    deps.metrics.reconciliationRun(run.trigger, 'failed', []);
    throw error;
  }
  const finished: ReconciliationRun = {
    ...run,
    status: 'finished',
    orders_checked: ordersChecked,
    finished_at: toStoredInstant(deps.clock.nowMs()),
  };
  await finishRun(
    deps.db,
    run.id,
    { status: 'finished', orders_checked: ordersChecked, finished_at: finished.finished_at },
    // Ids sort in the order the findings were made, so the kept report reads the same.
    findings.map((f, i) => ({
      id: `${run.id}:${String(i).padStart(6, '0')}`,
      run_id: run.id,
      created_at: finished.finished_at,
      kind: f.kind,
      store_order_id: f.store_order_id,
      order_number: f.order_number,
      payment_uuid: f.payment_uuid,
      detail: f.detail,
      action: f.action,
    })),
  );
  deps.logger.info(
    { connection_id: connection.id, orders: ordersChecked, findings: findings.length },
    'reconciliation finished',
  );
  deps.metrics.reconciliationRun(
    run.trigger,
    'finished',
    findings.map((f) => f.kind),
  );
  return toReport(finished, findings);
}

/** What a failed run could not reach, for the shop owner: no secrets, no network detail. */
function runError(error: unknown): string {
  if (isCredentialRefusal(error)) return STORE_UNAUTHORIZED_MESSAGE;
  if (error instanceof PlatformError) return `The store could not be reached. ${storeErrorMessage(error)}`;
  const cause = error instanceof ConnectorError && error.cause instanceof PlatformError ? error.cause : undefined;
  if (cause !== undefined) {
    return isCredentialRefusal(cause)
      ? STORE_UNAUTHORIZED_MESSAGE
      : `The store could not be reached. ${storeErrorMessage(cause)}`;
  }
  if (error instanceof ConnectorError) {
    if (error.code === 'gateway_unavailable') return 'The payment gateway could not be reached.';
    if (error.status === 401) return 'The payment gateway refused the connect token (revoked or expired).';
    return `The run stopped: ${error.message}`;
  }
  return 'The run stopped on an unexpected error; the connector log has the detail.';
}

/** Writes each finding as a private order note, once per (order, kind, payment) across runs. */
async function noteFindings(deps: ConnectorDeps, connection: StoreConnection, findings: readonly Finding[]) {
  if (findings.length === 0) return;
  const store = storeOf(deps, connection);
  for (const finding of findings) {
    if (NOT_NOTED.has(finding)) continue;
    const key = {
      connection_id: connection.id,
      store_order_id: finding.store_order_id,
      kind: finding.kind,
      payment_uuid: finding.payment_uuid,
    };
    if (!(await claimFindingNote(deps.db, key, toStoredInstant(deps.clock.nowMs())))) continue;
    try {
      await store.addNote(finding.store_order_id, `Reconciliation: ${finding.detail} ${finding.advice}`);
    } catch (error) {
      await releaseFindingNote(deps.db, key);
      deps.logger.warn(
        { connection_id: connection.id, order: finding.store_order_id, err: errorDetail(error) },
        'reconciliation note not written; the next run tries again',
      );
    }
  }
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

/** `GET /v1/reconciliation`: this connection's runs, newest first, each with its findings. */
export async function listReports(
  deps: ConnectorDeps,
  connection: StoreConnection,
  filter: { trigger?: RunTrigger | undefined; limit: number },
): Promise<ReconciliationReport[]> {
  const runs = await listRuns(deps.db, connection.id, {
    limit: filter.limit,
    ...(filter.trigger === undefined ? {} : { trigger: filter.trigger }),
  });
  return runs.map(({ run, findings }) => toReport(run, findings));
}

async function reconcileOrder(
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
    if (waiting.status === 'processing' && listed !== undefined) NOT_NOTED.add(listed);
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

function toReport(
  run: ReconciliationRun,
  findings: readonly Finding[] | readonly ReconciliationFinding[],
): ReconciliationReport {
  const status = run.status as RunStatus;
  return {
    id: run.id,
    connection_id: run.connection_id,
    status,
    error: run.error,
    trigger: run.trigger as RunTrigger,
    from: run.range_from,
    to: run.range_to,
    repair: run.repair === 1,
    orders_checked: run.orders_checked,
    started_at: run.started_at,
    finished_at: status === 'running' ? null : run.finished_at,
    findings: findings.map((f) => {
      const kind = f.kind as FindingKind;
      const action = f.action as Finding['action'];
      return {
        kind,
        store_order_id: f.store_order_id,
        order_number: f.order_number,
        payment_uuid: f.payment_uuid,
        detail: f.detail,
        action,
        repairable: kind === 'paid_at_gateway_unpaid_in_store' && action === 'flagged',
        advice: adviceFor(kind, action),
      };
    }),
  };
}
