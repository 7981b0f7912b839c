import type { NewCustomerRow } from './customer.table.js';
import type { Executor } from './database.js';

/**
 * The merchant's customer for a buyer: the one already known by this email, else a new record.
 * Without an email every payment gets a customer of its own. Race-safe: of two payments of one new
 * buyer completing together, both end with the same customer.
 */
export async function findOrCreateCustomer(db: Executor, candidate: NewCustomerRow): Promise<string> {
  if (candidate.email === null || candidate.email === undefined) {
    await db.insertInto('customers').values(candidate).execute();
    return candidate.id;
  }
  await db
    .insertInto('customers')
    .values(candidate)
    .onConflict((oc) => oc.columns(['merchant_id', 'environment', 'email']).where('email', 'is not', null).doNothing())
    .execute();
  const row = await db
    .selectFrom('customers')
    .select('id')
    .where('merchant_id', '=', candidate.merchant_id)
    .where('environment', '=', candidate.environment)
    .where('email', '=', candidate.email)
    .executeTakeFirstOrThrow();
  return row.id;
}
