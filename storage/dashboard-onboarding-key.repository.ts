import type { DashboardOnboardingKeyTable } from './dashboard-onboarding-key.table.js';
import type { Executor } from './database.js';

export async function insertOnboardingKey(db: Executor, row: DashboardOnboardingKeyTable): Promise<void> {
  await db.insertInto('dashboard_onboarding_keys').values(row).execute();
}

/**
 * Takes the sealed key out: answers it only to the one request whose delete removed the row, so
 * two views at once never both show it.
 */
export async function takeOnboardingKey(db: Executor, merchantId: string): Promise<string | undefined> {
  const row = await db
    .selectFrom('dashboard_onboarding_keys')
    .select('sealed_key')
    .where('merchant_id', '=', merchantId)
    .executeTakeFirst();
  if (row === undefined) return undefined;
  const deleted = await db
    .deleteFrom('dashboard_onboarding_keys')
    .where('merchant_id', '=', merchantId)
    .where('sealed_key', '=', row.sealed_key)
    .executeTakeFirst();
  return deleted.numDeletedRows > 0n ? row.sealed_key : undefined;
}
