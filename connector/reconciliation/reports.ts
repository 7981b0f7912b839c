/**
 * A reconciliation run as the plugin and the CLI read it (its report: the run and its findings),
 * and the runs kept for a connection (`GET /v1/reconciliation`, `GET /v1/reconciliation/{id}`).
 */
import { ConnectorError } from '../errors.js';
import type { ConnectorDeps } from '../runtime/deps.js';
import type { StoreConnection } from '../storage/connection.repository.js';
import {
  findRun,
  listRuns,
  type ReconciliationFinding,
  type ReconciliationRun,
} from '../storage/reconciliation.repository.js';
import { adviceFor, type Finding, type FindingKind } from './findings.js';

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

export function toReport(
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
