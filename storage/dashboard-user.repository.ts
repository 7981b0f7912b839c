import type { DashboardUserRow, DashboardUserUpdate, NewDashboardUserRow } from './dashboard-user.table.js';
import type { Executor } from './database.js';

export async function insertDashboardUser(db: Executor, row: NewDashboardUserRow): Promise<void> {
  await db.insertInto('dashboard_users').values(row).execute();
}

export async function findDashboardUser(db: Executor, id: string): Promise<DashboardUserRow | undefined> {
  return db.selectFrom('dashboard_users').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function findDashboardUserByEmail(db: Executor, email: string): Promise<DashboardUserRow | undefined> {
  return db.selectFrom('dashboard_users').selectAll().where('email', '=', email).executeTakeFirst();
}

export async function updateDashboardUser(db: Executor, id: string, changes: DashboardUserUpdate): Promise<boolean> {
  const result = await db.updateTable('dashboard_users').set(changes).where('id', '=', id).executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

/**
 * Records that `userId` signed in from `address` at `now`; answers true when the address is new
 * for the user.
 */
export async function recordSignInAddress(
  db: Executor,
  userId: string,
  address: string,
  now: string,
): Promise<boolean> {
  const seen = await db
    .updateTable('dashboard_user_addresses')
    .set({ last_seen_at: now })
    .where('user_id', '=', userId)
    .where('address', '=', address)
    .executeTakeFirst();
  if (seen.numUpdatedRows > 0n) return false;
  const inserted = await db
    .insertInto('dashboard_user_addresses')
    .values({ user_id: userId, address, first_seen_at: now, last_seen_at: now })
    .onConflict((oc) => oc.columns(['user_id', 'address']).doNothing())
    .executeTakeFirst();
  return (inserted.numInsertedOrUpdatedRows ?? 0n) > 0n;
}

export async function listSignInAddresses(
  db: Executor,
  userId: string,
): Promise<Array<{ address: string; first_seen_at: string; last_seen_at: string }>> {
  return db
    .selectFrom('dashboard_user_addresses')
    .select(['address', 'first_seen_at', 'last_seen_at'])
    .where('user_id', '=', userId)
    .orderBy('last_seen_at', 'desc')
    .execute();
}
