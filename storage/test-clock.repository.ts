/**
 * The test clock's row (migration 0026). Its time is `start_ms + advanced_ms`; an advance adds to
 * `advanced_ms` in one statement, so advances made at once by several instances all count.
 */
import type { DatabaseHandle } from './connect.js';
import type { Executor } from './database.js';

const READ_TIME = 'select start_ms + advanced_ms from test_clock where id = 1';

/** Creates the row at `startMs` unless there is one (race-safe: the first insert wins). */
export async function ensureTestClock(db: Executor, startMs: number, now: string): Promise<void> {
  await db
    .insertInto('test_clock')
    .values({ id: 1, start_ms: startMs, advanced_ms: 0, created_at: now })
    .onConflict((oc) => oc.column('id').doNothing())
    .execute();
}

/** Moves the clock forward by `ms`; answers false when there is no row. */
export async function advanceTestClock(db: Executor, ms: number): Promise<boolean> {
  const result = await db
    .updateTable('test_clock')
    .set((eb) => ({ advanced_ms: eb('advanced_ms', '+', ms) }))
    .where('id', '=', 1)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

/**
 * A reader of the clock's time in milliseconds (undefined without a row), through the handle's
 * prepared single-value read: it runs before every request and every run of due work.
 */
export function testClockReader(database: Pick<DatabaseHandle, 'readFirstValue'>): () => Promise<number | undefined> {
  return async () => {
    const value = await database.readFirstValue(READ_TIME);
    return value === undefined || value === null ? undefined : Number(value);
  };
}
