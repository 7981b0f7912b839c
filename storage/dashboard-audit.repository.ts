import type { DashboardAuditEventRow } from './dashboard-audit.table.js';
import type { Executor } from './database.js';

export async function insertAuditEvent(db: Executor, row: DashboardAuditEventRow): Promise<void> {
  await db.insertInto('dashboard_audit_events').values(row).execute();
}

/** Where a page of the log starts: after this event (newest first). */
export interface AuditCursor {
  readonly created_at: string;
  readonly id: string;
}

/** Up to `limit` events of the merchant, newest first, after `cursor` when given. */
export async function listAuditEvents(
  db: Executor,
  merchantId: string,
  limit: number,
  cursor?: AuditCursor,
): Promise<DashboardAuditEventRow[]> {
  let query = db.selectFrom('dashboard_audit_events').selectAll().where('merchant_id', '=', merchantId);
  if (cursor !== undefined) {
    query = query.where((eb) =>
      eb.or([
        eb('created_at', '<', cursor.created_at),
        eb.and([eb('created_at', '=', cursor.created_at), eb('id', '<', cursor.id)]),
      ]),
    );
  }
  return query.orderBy('created_at', 'desc').orderBy('id', 'desc').limit(limit).execute();
}
