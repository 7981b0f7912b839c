import type { Selectable } from 'kysely';
import type { ConnectorExecutor } from './database.js';
import type { ReconciliationBackoffTable } from './reconciliation.table.js';

export type ReconciliationBackoff = Selectable<ReconciliationBackoffTable>;

export async function findReconciliationBackoff(
  db: ConnectorExecutor,
  connectionId: string,
): Promise<ReconciliationBackoff | undefined> {
  return db
    .selectFrom('reconciliation_backoff')
    .selectAll()
    .where('connection_id', '=', connectionId)
    .executeTakeFirst();
}

/** Records a failed run: the row is created, or replaced by the newer count. */
export async function saveReconciliationBackoff(db: ConnectorExecutor, row: ReconciliationBackoff): Promise<void> {
  await db
    .insertInto('reconciliation_backoff')
    .values(row)
    .onConflict((oc) =>
      oc.column('connection_id').doUpdateSet({
        failures: row.failures,
        last_failed_at: row.last_failed_at,
        last_error: row.last_error,
        retry_at: row.retry_at,
      }),
    )
    .execute();
}

export async function clearReconciliationBackoff(db: ConnectorExecutor, connectionId: string): Promise<void> {
  await db.deleteFrom('reconciliation_backoff').where('connection_id', '=', connectionId).execute();
}
