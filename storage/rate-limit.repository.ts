import type { Executor } from './database.js';

/** Counts one hit in a bucket's window and answers the window's total, atomically. */
export async function hitCounter(db: Executor, bucket: string, windowMinute: number): Promise<number> {
  const row = await db
    .insertInto('rate_limit_counters')
    .values({ bucket, window_minute: windowMinute, hits: 1 })
    .onConflict((oc) =>
      oc.columns(['bucket', 'window_minute']).doUpdateSet((eb) => ({ hits: eb('rate_limit_counters.hits', '+', 1) })),
    )
    .returning('hits')
    .executeTakeFirstOrThrow();
  return Number(row.hits);
}

export async function readCounter(db: Executor, bucket: string, windowMinute: number): Promise<number> {
  const row = await db
    .selectFrom('rate_limit_counters')
    .select('hits')
    .where('bucket', '=', bucket)
    .where('window_minute', '=', windowMinute)
    .executeTakeFirst();
  return row === undefined ? 0 : Number(row.hits);
}

export async function deleteCountersBefore(db: Executor, windowMinute: number): Promise<void> {
  await db.deleteFrom('rate_limit_counters').where('window_minute', '<', windowMinute).execute();
}
