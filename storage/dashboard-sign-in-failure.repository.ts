import type { DashboardSignInFailureTable } from './dashboard-sign-in-failure.table.js';
import type { Executor } from './database.js';

export async function insertSignInFailure(db: Executor, row: DashboardSignInFailureTable): Promise<void> {
  await db.insertInto('dashboard_sign_in_failures').values(row).execute();
}

/** Failures since `since` for the email and for the address. */
export async function countSignInFailures(
  db: Executor,
  email: string,
  address: string,
  since: string,
): Promise<{ email: number; address: number }> {
  const count = async (column: 'email' | 'address', value: string) => {
    const row = await db
      .selectFrom('dashboard_sign_in_failures')
      .select((eb) => eb.fn.countAll<number | string>().as('n'))
      .where(column, '=', value)
      .where('failed_at', '>', since)
      .executeTakeFirstOrThrow();
    return Number(row.n);
  };
  return { email: await count('email', email), address: await count('address', address) };
}

/** Forgets the failures of an email (after a successful sign-in or a password reset). */
export async function clearSignInFailures(db: Executor, email: string): Promise<void> {
  await db.deleteFrom('dashboard_sign_in_failures').where('email', '=', email).execute();
}

/** Drops failures older than `before` (they no longer count). */
export async function pruneSignInFailures(db: Executor, before: string): Promise<void> {
  await db.deleteFrom('dashboard_sign_in_failures').where('failed_at', '<=', before).execute();
}
