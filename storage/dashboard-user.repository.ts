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

/** The account's dashboard users, the owner first, then by when they joined. */
export async function listMerchantDashboardUsers(db: Executor, merchantId: string): Promise<DashboardUserRow[]> {
  const rows = await db
    .selectFrom('dashboard_users')
    .selectAll()
    .where('merchant_id', '=', merchantId)
    .orderBy('created_at', 'asc')
    .orderBy('id', 'asc')
    .execute();
  return [...rows.filter((row) => row.role === 'owner'), ...rows.filter((row) => row.role !== 'owner')];
}

/** A dashboard user of the account by id (another account's: undefined). */
export async function findMerchantDashboardUser(
  db: Executor,
  merchantId: string,
  id: string,
): Promise<DashboardUserRow | undefined> {
  return db
    .selectFrom('dashboard_users')
    .selectAll()
    .where('merchant_id', '=', merchantId)
    .where('id', '=', id)
    .executeTakeFirst();
}

/** Deletes the user with their sessions, links and sign-in addresses (the audit log keeps their email). */
export async function deleteDashboardUser(db: Executor, id: string): Promise<void> {
  await db.deleteFrom('dashboard_sessions').where('user_id', '=', id).execute();
  await db.deleteFrom('dashboard_tokens').where('user_id', '=', id).execute();
  await db.deleteFrom('dashboard_user_addresses').where('user_id', '=', id).execute();
  await db.deleteFrom('dashboard_users').where('id', '=', id).execute();
}
