import type { DashboardTokenPurpose, DashboardTokenRow } from './dashboard-token.table.js';
import type { Executor } from './database.js';

export async function insertDashboardToken(db: Executor, row: DashboardTokenRow): Promise<void> {
  await db.insertInto('dashboard_tokens').values(row).execute();
}

/** The token when it is unused and not expired at `now`, and has one of the `purposes`. */
export async function findUsableDashboardToken(
  db: Executor,
  tokenHash: string,
  purposes: readonly DashboardTokenPurpose[],
  now: string,
): Promise<DashboardTokenRow | undefined> {
  return db
    .selectFrom('dashboard_tokens')
    .selectAll()
    .where('token_hash', '=', tokenHash)
    .where('purpose', 'in', purposes)
    .where('used_at', 'is', null)
    .where('expires_at', '>', now)
    .executeTakeFirst();
}

/** Uses the token up; answers false when it was already used (another request won). */
export async function useDashboardToken(db: Executor, tokenHash: string, now: string): Promise<boolean> {
  const result = await db
    .updateTable('dashboard_tokens')
    .set({ used_at: now })
    .where('token_hash', '=', tokenHash)
    .where('used_at', 'is', null)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

/** Uses up every unused token of the user for `purpose` (a newer link replaces older ones). */
export async function useUserDashboardTokens(
  db: Executor,
  userId: string,
  purpose: DashboardTokenPurpose,
  now: string,
): Promise<void> {
  await db
    .updateTable('dashboard_tokens')
    .set({ used_at: now })
    .where('user_id', '=', userId)
    .where('purpose', '=', purpose)
    .where('used_at', 'is', null)
    .execute();
}
