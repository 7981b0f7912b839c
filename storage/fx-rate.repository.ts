import type { Executor } from './database.js';
import type { FxRateRow, NewFxRateRow } from './fx-rate.table.js';

export async function insertFxRate(db: Executor, row: NewFxRateRow): Promise<void> {
  await db.insertInto('fx_rates').values(row).execute();
}

/** The newest setting of one currency (its rate may be null: withdrawn), or undefined if it was never set. */
export async function findLatestFxRate(db: Executor, currency: string): Promise<FxRateRow | undefined> {
  return db
    .selectFrom('fx_rates')
    .selectAll()
    .where('currency', '=', currency)
    .orderBy('set_at', 'desc')
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirst();
}

/** The newest setting of every currency ever set, by currency code. */
export async function listLatestFxRates(db: Executor): Promise<FxRateRow[]> {
  const rows = await db
    .selectFrom('fx_rates')
    .selectAll()
    .orderBy('currency')
    .orderBy('set_at', 'desc')
    .orderBy('id', 'desc')
    .execute();
  const latest = new Map<string, FxRateRow>();
  for (const row of rows) if (!latest.has(row.currency)) latest.set(row.currency, row);
  return [...latest.values()];
}

/** Every setting of one currency, newest first. */
export async function listFxRateHistory(db: Executor, currency: string): Promise<FxRateRow[]> {
  return db
    .selectFrom('fx_rates')
    .selectAll()
    .where('currency', '=', currency)
    .orderBy('set_at', 'desc')
    .orderBy('id', 'desc')
    .execute();
}
