/**
 * Reconciliation: compares the store's orders paid with our payment method, created in a time range,
 * with what the gateway says about each, and lists every mismatch (the kinds: ./findings.ts). Only
 * marking an order paid is repaired automatically; everything else is flagged for a person.
 *
 * A run is recorded as it starts (`running`) and closed as `finished` or `failed` (with what could
 * not be reached). `wait: false` runs it in the background. Each finding is written as a private
 * note on its order once per (order, kind, payment) across runs (finding-notes.ts). One order is
 * checked by order-check.ts; the report a run answers is reports.ts.
 */
import { randomUUID } from 'node:crypto';
import { toStoredInstant } from '../../gateway/domain/clock.js';
import { gatewayOf, storeOf } from '../connections/connection-access.js';
import { storeErrorMessage } from '../connections/connection-health.js';
import { ConnectorError, errorDetail, isCredentialRefusal, STORE_UNAUTHORIZED_MESSAGE } from '../errors.js';
import { platformCall } from '../orders/calls.js';
import { PlatformError } from '../platforms/platform.js';
import type { ConnectorDeps } from '../runtime/deps.js';
import type { StoreConnection } from '../storage/connection.repository.js';
import { finishRun, insertRun, type ReconciliationRun } from '../storage/reconciliation.repository.js';
import { noteFindings } from './finding-notes.js';
import type { Finding } from './findings.js';
import { reconcileOrder } from './order-check.js';
import { type ReconciliationReport, type RunTrigger, toReport } from './reports.js';

export interface RunRequest {
  from: string;
  to: string;
  repair: boolean;
  trigger: RunTrigger;
}

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
