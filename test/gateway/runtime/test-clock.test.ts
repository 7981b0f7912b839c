/**
 * The test clock kept in the database (gateway/runtime/test-clock.ts), on both databases: every
 * process on one database reads one time, started by the first; an advance counts for all from
 * their next read; advances made at once by several processes all count; a restart resumes the
 * clock where it stood instead of at the wall's time. Syncs asked together share one read, and a
 * sync never settles on a read that began before it was asked.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HOUR_MS, ManualClock, MINUTE_MS } from '../../../gateway/domain/clock.js';
import { DatabaseTestClock } from '../../../gateway/runtime/test-clock.js';
import { type DatabaseHandle, openDatabase } from '../../../storage/connect.js';
import { migrateToLatest } from '../../../storage/migrate.js';
import { DIALECTS, freshDatabase, type TestDatabase } from '../../support/databases.js';
import { TEST_START_MS } from '../../support/gateway.js';

describe.each(DIALECTS)('the test clock in the database (%s)', (dialect) => {
  let database: TestDatabase;
  const handles: DatabaseHandle[] = [];

  /** A connection of its own, as another process would have. */
  function connect(): DatabaseHandle {
    const handle = openDatabase(database.url);
    handles.push(handle);
    return handle;
  }

  beforeAll(async () => {
    database = await freshDatabase(dialect);
    await migrateToLatest(connect().db);
  });

  afterAll(async () => {
    for (const handle of handles) await handle.close();
    await database?.drop();
  });

  it('starts at the first opener’s wall time; later openers read that time, not their own', async () => {
    const first = await DatabaseTestClock.open(connect(), new ManualClock(TEST_START_MS));
    expect(first.nowMs()).toBe(TEST_START_MS);
    // A CLI run five minutes of real time later reads the same standing clock.
    const later = await DatabaseTestClock.open(connect(), new ManualClock(TEST_START_MS + 5 * MINUTE_MS));
    expect(later.nowMs()).toBe(TEST_START_MS);
  });

  it('an advance through one process is read by another at its next sync', async () => {
    const a = await DatabaseTestClock.open(connect(), new ManualClock(TEST_START_MS + HOUR_MS));
    const b = await DatabaseTestClock.open(connect(), new ManualClock(TEST_START_MS + 2 * HOUR_MS));
    const before = a.nowMs();
    expect(b.nowMs()).toBe(before);

    await a.advance(26 * HOUR_MS);
    expect(a.nowMs()).toBe(before + 26 * HOUR_MS);
    // `nowMs` is a plain read: b moves when it syncs (before each request and each run of due work).
    expect(b.nowMs()).toBe(before);
    await b.sync();
    expect(b.nowMs()).toBe(before + 26 * HOUR_MS);
  });

  it('advances made at once through several processes all count', async () => {
    const clocks = await Promise.all([0, 1, 2].map(() => DatabaseTestClock.open(connect(), new ManualClock(0))));
    const before = clocks[0]?.nowMs() ?? 0;
    await Promise.all(clocks.flatMap((clock) => Array.from({ length: 5 }, () => clock.advance(MINUTE_MS))));
    for (const clock of clocks) {
      await clock.sync();
      expect(clock.nowMs()).toBe(before + 15 * MINUTE_MS);
    }
  });

  it('a restart resumes the clock where it stood, even when the wall has moved far ahead', async () => {
    const running = await DatabaseTestClock.open(connect(), new ManualClock(0));
    const stood = running.nowMs();
    const restarted = await DatabaseTestClock.open(connect(), new ManualClock(stood + 365 * 24 * HOUR_MS));
    expect(restarted.nowMs()).toBe(stood);
  });

  it('refuses to move backwards', async () => {
    const clock = await DatabaseTestClock.open(connect(), new ManualClock(0));
    const stood = clock.nowMs();
    await expect(clock.advance(-1)).rejects.toThrow(RangeError);
    await clock.sync();
    expect(clock.nowMs()).toBe(stood);
  });

  it('syncs asked while a read runs share the next read, which sees an advance made before they asked', async () => {
    // A handle whose reads of the clock are read at once and then held until the test lets them go,
    // as a read that is slow to come back.
    const handle = connect();
    const held: Array<() => void> = [];
    let holding = false;
    let reads = 0;
    const clock = await DatabaseTestClock.open(
      {
        db: handle.db,
        readFirstValue: async (text) => {
          const value = await handle.readFirstValue(text);
          if (!holding) return value;
          reads += 1;
          await new Promise<void>((resolve) => held.push(resolve));
          return value;
        },
      },
      new ManualClock(0),
    );
    const other = await DatabaseTestClock.open(connect(), new ManualClock(0));
    const stood = other.nowMs();
    expect(clock.nowMs()).toBe(stood);
    holding = true;

    const settled: string[] = [];
    const first = clock.sync().then(() => settled.push('first'));
    await until(() => reads === 1);
    await other.advance(HOUR_MS);
    const second = clock.sync().then(() => settled.push('second'));
    const third = clock.sync().then(() => settled.push('third'));
    expect(reads).toBe(1);

    held.shift()?.();
    await first;
    // The first read was made before the advance: the first sync does not see it.
    expect(clock.nowMs()).toBe(stood);
    await until(() => reads === 2);
    expect(settled).toEqual(['first']);
    held.shift()?.();
    await Promise.all([second, third]);
    expect(clock.nowMs()).toBe(stood + HOUR_MS);
    expect(reads).toBe(2);
    expect(settled).toEqual(['first', 'second', 'third']);

    // With nothing running, a sync reads at once.
    const alone = clock.sync();
    await until(() => reads === 3);
    held.shift()?.();
    await alone;
  });
});

async function until(condition: () => boolean): Promise<void> {
  for (let i = 0; i < 500 && !condition(); i += 1) await new Promise((resolve) => setTimeout(resolve, 2));
  expect(condition()).toBe(true);
}
