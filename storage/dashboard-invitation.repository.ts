import type { DashboardInvitationRow, DashboardInvitationUpdate } from './dashboard-invitation.table.js';
import type { Executor } from './database.js';

export async function insertInvitation(db: Executor, row: DashboardInvitationRow): Promise<void> {
  await db.insertInto('dashboard_invitations').values(row).execute();
}

/** The account's invitations not accepted yet (expired ones included), newest first. */
export async function listPendingInvitations(db: Executor, merchantId: string): Promise<DashboardInvitationRow[]> {
  return db
    .selectFrom('dashboard_invitations')
    .selectAll()
    .where('merchant_id', '=', merchantId)
    .where('accepted_at', 'is', null)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .execute();
}

/** A pending invitation of the account by id (another account's: undefined). */
export async function findPendingInvitation(
  db: Executor,
  merchantId: string,
  id: string,
): Promise<DashboardInvitationRow | undefined> {
  return db
    .selectFrom('dashboard_invitations')
    .selectAll()
    .where('merchant_id', '=', merchantId)
    .where('id', '=', id)
    .where('accepted_at', 'is', null)
    .executeTakeFirst();
}

export async function findPendingInvitationByEmail(
  db: Executor,
  merchantId: string,
  email: string,
): Promise<DashboardInvitationRow | undefined> {
  return db
    .selectFrom('dashboard_invitations')
    .selectAll()
    .where('merchant_id', '=', merchantId)
    .where('email', '=', email)
    .where('accepted_at', 'is', null)
    .executeTakeFirst();
}

/** The invitation of a link when it can still be accepted at `now`. */
export async function findUsableInvitation(
  db: Executor,
  tokenHash: string,
  now: string,
): Promise<DashboardInvitationRow | undefined> {
  return db
    .selectFrom('dashboard_invitations')
    .selectAll()
    .where('token_hash', '=', tokenHash)
    .where('accepted_at', 'is', null)
    .where('expires_at', '>', now)
    .executeTakeFirst();
}

export async function updateInvitation(db: Executor, id: string, changes: DashboardInvitationUpdate): Promise<boolean> {
  const result = await db
    .updateTable('dashboard_invitations')
    .set(changes)
    .where('id', '=', id)
    .where('accepted_at', 'is', null)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

/** Accepts the invitation; false when another request accepted (or it was replaced) first. */
export async function acceptInvitationRow(db: Executor, id: string, tokenHash: string, now: string): Promise<boolean> {
  const result = await db
    .updateTable('dashboard_invitations')
    .set({ accepted_at: now })
    .where('id', '=', id)
    .where('token_hash', '=', tokenHash)
    .where('accepted_at', 'is', null)
    .where('expires_at', '>', now)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

/** Deletes a pending invitation; false when it was accepted or deleted meanwhile. */
export async function deletePendingInvitation(db: Executor, id: string): Promise<boolean> {
  const result = await db
    .deleteFrom('dashboard_invitations')
    .where('id', '=', id)
    .where('accepted_at', 'is', null)
    .executeTakeFirst();
  return result.numDeletedRows > 0n;
}
