/**
 * The two rate limiters, driven directly: fixed one-minute windows counted per bucket. The memory
 * limiter serves a single SQLite process; the database limiter keeps the counters in a table so
 * several instances share them (it is tested on both dialects, and as two instances on one
 * database).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock, MINUTE_MS } from '../../../gateway/domain/clock.js';
import { DatabaseRateLimiter, MemoryRateLimiter, type RateLimiter } from '../../../gateway/limits/rate-limiter.js';
import { type DatabaseHandle, openDatabase } from '../../../storage/connect.js';
import type { DialectName } from '../../../storage/database.js';
import { migrateToLatest } from '../../../storage/migrate.js';
import { DIALECTS, freshDatabase, type TestDatabase } from '../../support/databases.js';

/** 2026-11-21T10:00:30Z: half a minute into a window. */
const START_MS = Date.UTC(2026, 10, 21, 10, 0, 30);

interface Subject {
  readonly name: string;
  /** A new limiter (on its own clock) with an empty state. */
  make(clock: ManualClock): Promise<RateLimiter>;
  close(): Promise<void>;
}

function memorySubject(): Subject {
  return {
    name: 'MemoryRateLimiter',
    make: async (clock) => new MemoryRateLimiter(clock),
    close: async () => {},
  };
}

function databaseSubject(dialect: DialectName): Subject {
  const opened: Array<{ handle: DatabaseHandle; database: TestDatabase }> = [];
  return {
    name: `DatabaseRateLimiter on ${dialect}`,
    async make(clock) {
      const database = await freshDatabase(dialect);
      const handle = openDatabase(database.url);
      await migrateToLatest(handle.db);
      opened.push({ handle, database });
      return new DatabaseRateLimiter(handle, clock);
    },
    async close() {
      for (const { handle, database } of opened) {
        await handle.db.destroy();
        await database.drop();
      }
    },
  };
}

const SUBJECTS: Subject[] = [memorySubject(), ...DIALECTS.map(databaseSubject)];

describe.each(SUBJECTS)('$name', (subject) => {
  afterAll(async () => subject.close());

  async function fresh(startMs = START_MS): Promise<{ limiter: RateLimiter; clock: ManualClock }> {
    const clock = new ManualClock(startMs);
    return { limiter: await subject.make(clock), clock };
  }

  it('counts every hit of a bucket and answers the running total', async () => {
    const { limiter } = await fresh();
    expect((await limiter.hit('account:a')).hits).toBe(1);
    expect((await limiter.hit('account:a')).hits).toBe(2);
    expect((await limiter.hit('account:a')).hits).toBe(3);
  });

  it('peek answers the count without counting', async () => {
    const { limiter } = await fresh();
    expect((await limiter.peek('auth-failures:1.2.3.4')).hits).toBe(0);
    await limiter.hit('auth-failures:1.2.3.4');
    await limiter.hit('auth-failures:1.2.3.4');
    expect((await limiter.peek('auth-failures:1.2.3.4')).hits).toBe(2);
    expect((await limiter.peek('auth-failures:1.2.3.4')).hits).toBe(2);
    expect((await limiter.hit('auth-failures:1.2.3.4')).hits).toBe(3);
  });

  it('keeps buckets apart', async () => {
    const { limiter } = await fresh();
    await limiter.hit('account:a');
    await limiter.hit('account:a');
    expect((await limiter.hit('account:b')).hits).toBe(1);
    expect((await limiter.peek('account:a')).hits).toBe(2);
    expect((await limiter.peek('account:c')).hits).toBe(0);
  });

  it('answers the whole seconds left in the fixed minute window, at least 1', async () => {
    const { limiter, clock } = await fresh();
    expect((await limiter.hit('account:a')).resetSeconds).toBe(30);
    expect((await limiter.peek('account:a')).resetSeconds).toBe(30);
    clock.advance(200); // :30.2 -> 29.8 s left, rounded up
    expect((await limiter.hit('account:a')).resetSeconds).toBe(30);
    clock.advance(800); // :31
    expect((await limiter.peek('account:a')).resetSeconds).toBe(29);
    clock.advance(28_500); // :59.5
    expect((await limiter.hit('account:a')).resetSeconds).toBe(1);
    clock.advance(500); // exactly the start of the next minute
    expect((await limiter.hit('account:a')).resetSeconds).toBe(60);
  });

  it('starts every minute from zero: windows are fixed, not sliding', async () => {
    const { limiter, clock } = await fresh();
    for (let i = 0; i < 5; i++) await limiter.hit('account:a');
    clock.advance(29_999); // 10:00:59.999, still the same window
    expect((await limiter.hit('account:a')).hits).toBe(6);
    clock.advance(1); // 10:01:00.000
    expect((await limiter.peek('account:a')).hits).toBe(0);
    expect((await limiter.hit('account:a')).hits).toBe(1);
    clock.advance(MINUTE_MS * 3);
    expect((await limiter.hit('account:a')).hits).toBe(1);
  });

  it('counts simultaneous hits exactly once each', async () => {
    const { limiter } = await fresh();
    const results = await Promise.all(Array.from({ length: 40 }, () => limiter.hit('account:busy')));
    const counts = results.map((r) => r.hits).sort((a, b) => a - b);
    expect(counts).toEqual(Array.from({ length: 40 }, (_, i) => i + 1));
    expect((await limiter.peek('account:busy')).hits).toBe(40);
  });
});

describe.each(DIALECTS)('DatabaseRateLimiter shared by two instances on %s', (dialect) => {
  let database: TestDatabase;
  let first: DatabaseHandle;
  let second: DatabaseHandle;
  beforeAll(async () => {
    database = await freshDatabase(dialect);
    first = openDatabase(database.url);
    await migrateToLatest(first.db);
    second = openDatabase(database.url);
  });
  afterAll(async () => {
    await first?.db.destroy();
    await second?.db.destroy();
    await database?.drop();
  });

  it('adds up the hits of both instances in one window', async () => {
    const a = new DatabaseRateLimiter(first, new ManualClock(START_MS));
    const b = new DatabaseRateLimiter(second, new ManualClock(START_MS + 5_000));
    expect((await a.hit('account:shared')).hits).toBe(1);
    expect((await b.hit('account:shared')).hits).toBe(2);
    expect((await a.hit('account:shared')).hits).toBe(3);
    expect((await b.peek('account:shared')).hits).toBe(3);
    expect((await a.peek('account:shared')).hits).toBe(3);
  });

  it('forgets windows older than the previous minute once a new minute is hit', async () => {
    const clock = new ManualClock(START_MS + 10 * MINUTE_MS);
    const limiter = new DatabaseRateLimiter(first, clock);
    await limiter.hit('account:old');
    clock.advance(MINUTE_MS);
    await limiter.hit('account:old');
    clock.advance(MINUTE_MS);
    await limiter.hit('account:old');
    const minute = Math.floor(clock.nowMs() / MINUTE_MS);
    const rows = await first.db
      .selectFrom('rate_limit_counters')
      .select(['window_minute', 'hits'])
      .where('bucket', '=', 'account:old')
      .orderBy('window_minute')
      .execute();
    expect(rows.map((r) => ({ window_minute: Number(r.window_minute), hits: Number(r.hits) }))).toEqual([
      { window_minute: minute - 1, hits: 1 },
      { window_minute: minute, hits: 1 },
    ]);
  });
});
