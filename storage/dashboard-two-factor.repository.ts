import type { DashboardPendingSignInTable, DashboardRecoveryCodeTable } from './dashboard-two-factor.table.js';
import type { Executor } from './database.js';

/** Replaces the user's recovery codes by `rows` (the earlier ones stop working). */
export async function replaceRecoveryCodes(
  db: Executor,
  userId: string,
  rows: readonly DashboardRecoveryCodeTable[],
): Promise<void> {
  await db.deleteFrom('dashboard_recovery_codes').where('user_id', '=', userId).execute();
  if (rows.length > 0)
    await db
      .insertInto('dashboard_recovery_codes')
      .values([...rows])
      .execute();
}

export async function deleteRecoveryCodes(db: Executor, userId: string): Promise<void> {
  await db.deleteFrom('dashboard_recovery_codes').where('user_id', '=', userId).execute();
}

/** Marks an unused code of the user used; answers whether one was (so two requests never both use it). */
export async function useRecoveryCode(db: Executor, userId: string, codeHash: string, now: string): Promise<boolean> {
  const result = await db
    .updateTable('dashboard_recovery_codes')
    .set({ used_at: now })
    .where('user_id', '=', userId)
    .where('code_hash', '=', codeHash)
    .where('used_at', 'is', null)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

export async function countUnusedRecoveryCodes(db: Executor, userId: string): Promise<number> {
  const row = await db
    .selectFrom('dashboard_recovery_codes')
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .where('user_id', '=', userId)
    .where('used_at', 'is', null)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/**
 * Records `step` as the user's last accepted TOTP step when it is later than the one recorded;
 * answers whether it was (false: this code, or a later one, was already used).
 */
export async function advanceTotpStep(db: Executor, userId: string, step: number): Promise<boolean> {
  const result = await db
    .updateTable('dashboard_users')
    .set({ totp_last_step: step })
    .where('id', '=', userId)
    .where('totp_enabled_at', 'is not', null)
    .where((eb) => eb.or([eb('totp_last_step', 'is', null), eb('totp_last_step', '<', step)]))
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

export async function insertPendingSignIn(db: Executor, row: DashboardPendingSignInTable): Promise<void> {
  await db.insertInto('dashboard_pending_sign_ins').values(row).execute();
}

export async function findPendingSignIn(
  db: Executor,
  idHash: string,
): Promise<DashboardPendingSignInTable | undefined> {
  return db.selectFrom('dashboard_pending_sign_ins').selectAll().where('id_hash', '=', idHash).executeTakeFirst();
}

/** Deletes a pending sign-in; answers whether this call deleted it (it is used once). */
export async function deletePendingSignIn(db: Executor, idHash: string): Promise<boolean> {
  const result = await db.deleteFrom('dashboard_pending_sign_ins').where('id_hash', '=', idHash).executeTakeFirst();
  return result.numDeletedRows > 0n;
}

/** Deletes the user's pending sign-ins that ended (and any, with `now` undefined). */
export async function deleteUserPendingSignIns(db: Executor, userId: string, now?: string): Promise<void> {
  let query = db.deleteFrom('dashboard_pending_sign_ins').where('user_id', '=', userId);
  if (now !== undefined) query = query.where('expires_at', '<=', now);
  await query.execute();
}
