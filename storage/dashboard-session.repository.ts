import type { DashboardSessionRow } from './dashboard-session.table.js';
import type { Executor } from './database.js';

export async function insertDashboardSession(db: Executor, row: DashboardSessionRow): Promise<void> {
  await db.insertInto('dashboard_sessions').values(row).execute();
}

export async function findDashboardSession(db: Executor, idHash: string): Promise<DashboardSessionRow | undefined> {
  return db.selectFrom('dashboard_sessions').selectAll().where('id_hash', '=', idHash).executeTakeFirst();
}

/** Moves the session's last activity forward (never back, when requests of two instances cross). */
export async function touchDashboardSession(db: Executor, idHash: string, now: string): Promise<void> {
  await db
    .updateTable('dashboard_sessions')
    .set({ last_seen_at: now })
    .where('id_hash', '=', idHash)
    .where('last_seen_at', '<', now)
    .execute();
}

export async function deleteDashboardSession(db: Executor, idHash: string): Promise<void> {
  await db.deleteFrom('dashboard_sessions').where('id_hash', '=', idHash).execute();
}

/** Ends every session of the user, but `keepIdHash` when given; answers how many ended. */
export async function deleteUserSessions(db: Executor, userId: string, keepIdHash?: string): Promise<number> {
  let query = db.deleteFrom('dashboard_sessions').where('user_id', '=', userId);
  if (keepIdHash !== undefined) query = query.where('id_hash', '!=', keepIdHash);
  const result = await query.executeTakeFirst();
  return Number(result.numDeletedRows);
}

/** Deletes the user's sessions that ended (idle since `idleBefore`, or past their absolute end at `now`). */
export async function deleteEndedUserSessions(
  db: Executor,
  userId: string,
  idleBefore: string,
  now: string,
): Promise<void> {
  await db
    .deleteFrom('dashboard_sessions')
    .where('user_id', '=', userId)
    .where((eb) => eb.or([eb('last_seen_at', '<=', idleBefore), eb('expires_at', '<=', now)]))
    .execute();
}
