import type { Selectable, Updateable } from 'kysely';
import type { ConnectorDb, ConnectorExecutor } from './database.js';
import type { ReconciliationFindingTable, ReconciliationRunTable } from './reconciliation.table.js';

export type ReconciliationRun = Selectable<ReconciliationRunTable>;
export type ReconciliationFinding = Selectable<ReconciliationFindingTable>;

/** Records a run as it starts (`status: running`). */
export async function insertRun(db: ConnectorExecutor, run: ReconciliationRun): Promise<void> {
  await db.insertInto('reconciliation_runs').values(run).execute();
}

/** Closes a run: its final status and counts, and its findings, in one transaction. */
export async function finishRun(
  db: ConnectorDb,
  id: string,
  changes: Updateable<ReconciliationRunTable>,
  findings: readonly ReconciliationFinding[],
): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await trx.updateTable('reconciliation_runs').set(changes).where('id', '=', id).execute();
    if (findings.length > 0)
      await trx
        .insertInto('reconciliation_findings')
        .values([...findings])
        .execute();
  });
}

export async function findRun(
  db: ConnectorExecutor,
  connectionId: string,
  id: string,
): Promise<{ run: ReconciliationRun; findings: ReconciliationFinding[] } | undefined> {
  const run = await db
    .selectFrom('reconciliation_runs')
    .selectAll()
    .where('id', '=', id)
    .where('connection_id', '=', connectionId)
    .executeTakeFirst();
  if (run === undefined) return undefined;
  return { run, findings: await findingsOf(db, [run.id]).then((all) => all.get(run.id) ?? []) };
}

/** A connection's runs, newest first, each with its findings. */
export async function listRuns(
  db: ConnectorExecutor,
  connectionId: string,
  filter: { trigger?: string; limit: number },
): Promise<{ run: ReconciliationRun; findings: ReconciliationFinding[] }[]> {
  let query = db.selectFrom('reconciliation_runs').selectAll().where('connection_id', '=', connectionId);
  if (filter.trigger !== undefined) query = query.where('trigger', '=', filter.trigger);
  const runs = await query.orderBy('started_at', 'desc').orderBy('id', 'desc').limit(filter.limit).execute();
  const findings = await findingsOf(
    db,
    runs.map((r) => r.id),
  );
  return runs.map((run) => ({ run, findings: findings.get(run.id) ?? [] }));
}

async function findingsOf(db: ConnectorExecutor, runIds: string[]): Promise<Map<string, ReconciliationFinding[]>> {
  const byRun = new Map<string, ReconciliationFinding[]>();
  if (runIds.length === 0) return byRun;
  const rows = await db
    .selectFrom('reconciliation_findings')
    .selectAll()
    .where('run_id', 'in', runIds)
    .orderBy('id')
    .execute();
  for (const row of rows) byRun.set(row.run_id, [...(byRun.get(row.run_id) ?? []), row]);
  return byRun;
}

export async function latestRunStart(db: ConnectorExecutor, connectionId: string): Promise<string | undefined> {
  const row = await db
    .selectFrom('reconciliation_runs')
    .select('started_at')
    .where('connection_id', '=', connectionId)
    .orderBy('started_at', 'desc')
    .limit(1)
    .executeTakeFirst();
  return row?.started_at;
}

/**
 * Claims writing a finding as an order note: true the first time for this (order, kind, payment),
 * false in every later run. Released again when the note could not be written.
 */
export async function claimFindingNote(
  db: ConnectorExecutor,
  key: { connection_id: string; store_order_id: string; kind: string; payment_uuid: string | null },
  now: string,
): Promise<boolean> {
  const result = await db
    .insertInto('reconciliation_notes')
    .values({
      connection_id: key.connection_id,
      store_order_id: key.store_order_id,
      kind: key.kind,
      payment_key: key.payment_uuid ?? '-',
      created_at: now,
    })
    .onConflict((oc) => oc.columns(['connection_id', 'store_order_id', 'kind', 'payment_key']).doNothing())
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0) === 1;
}

export async function releaseFindingNote(
  db: ConnectorExecutor,
  key: { connection_id: string; store_order_id: string; kind: string; payment_uuid: string | null },
): Promise<void> {
  await db
    .deleteFrom('reconciliation_notes')
    .where('connection_id', '=', key.connection_id)
    .where('store_order_id', '=', key.store_order_id)
    .where('kind', '=', key.kind)
    .where('payment_key', '=', key.payment_uuid ?? '-')
    .execute();
}
