import type { Selectable } from 'kysely';
import type { ConnectorDb, ConnectorExecutor, ReconciliationFindingTable, ReconciliationRunTable } from './database.js';

export type ReconciliationRun = Selectable<ReconciliationRunTable>;
export type ReconciliationFinding = Selectable<ReconciliationFindingTable>;

export async function saveRun(
  db: ConnectorDb,
  run: ReconciliationRun,
  findings: readonly ReconciliationFinding[],
): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await trx.insertInto('reconciliation_runs').values(run).execute();
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
  const findings = await db
    .selectFrom('reconciliation_findings')
    .selectAll()
    .where('run_id', '=', id)
    .orderBy('id')
    .execute();
  return { run, findings };
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
