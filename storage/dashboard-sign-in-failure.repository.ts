import type { DashboardSignInFailureTable } from './dashboard-sign-in-failure.table.js';
import type { Executor } from './database.js';

/**
 * Reserves a sign-in attempt under the limits, before its password or code is checked: records
 * the attempt as a failure, then counts the failures since `since` for its email and for its
 * address (its own row among them). Over either limit, the row is taken back and the attempt
 * refused. Attempts made at the same moment, on any instance, can only refuse each other, never
 * pass the limit together: each counts at least its own rank. Failures older than `since` are
 * forgotten first (they no longer count).
 *
 * `db` must not be a transaction: the row has to be committed before the count, so that attempts
 * at the same moment see each other's rows (PostgreSQL reads committed rows only).
 */
export async function reserveSignInAttempt(
  db: Executor,
  attempt: DashboardSignInFailureTable,
  since: string,
  limits: { readonly email: number; readonly address: number },
): Promise<boolean> {
  await pruneSignInFailures(db, since);
  await db.insertInto('dashboard_sign_in_failures').values(attempt).execute();
  const count = async (column: 'email' | 'address', value: string) => {
    const row = await db
      .selectFrom('dashboard_sign_in_failures')
      .select((eb) => eb.fn.countAll<number | string>().as('n'))
      .where(column, '=', value)
      .where('failed_at', '>', since)
      .executeTakeFirstOrThrow();
    return Number(row.n);
  };
  if (
    (await count('email', attempt.email)) <= limits.email &&
    (await count('address', attempt.address)) <= limits.address
  ) {
    return true;
  }
  await releaseSignInAttempt(db, attempt.id);
  return false;
}

/**
 * Keeps a reserved attempt that failed as a failure: its row stays, or is written again when a
 * right sign-in of the email cleared it meanwhile (a failure after that sign-in still counts).
 */
export async function keepSignInFailure(db: Executor, attempt: DashboardSignInFailureTable): Promise<void> {
  await db
    .insertInto('dashboard_sign_in_failures')
    .values(attempt)
    .onConflict((oc) => oc.column('id').doNothing())
    .execute();
}

/** Takes back a reserved attempt that is not a failure (or was refused). */
export async function releaseSignInAttempt(db: Executor, id: string): Promise<void> {
  await db.deleteFrom('dashboard_sign_in_failures').where('id', '=', id).execute();
}

/** Forgets the failures of an email (after a successful sign-in or a password reset). */
export async function clearSignInFailures(db: Executor, email: string): Promise<void> {
  await db.deleteFrom('dashboard_sign_in_failures').where('email', '=', email).execute();
}

/** Drops failures older than `before` (they no longer count). */
async function pruneSignInFailures(db: Executor, before: string): Promise<void> {
  await db.deleteFrom('dashboard_sign_in_failures').where('failed_at', '<=', before).execute();
}
