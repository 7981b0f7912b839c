/**
 * Three gateway processes on one PostgreSQL database (bench/instances.ts, run small): each payment
 * expires once although the three reach its expiry together, each event is delivered once, every
 * paid or expired payment's event arrives, and the per-merchant rate limit is one limit across them;
 * then the creates made again at the end all answer.
 * `npm run bench:instances` runs the same with 3000 payments and prints the figures.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { brokenRules, runInstances } from '../../bench/instances.js';
import { freshDatabase, type TestDatabase } from '../support/databases.js';

describe('three gateway instances on one PostgreSQL', () => {
  let database: TestDatabase;

  beforeAll(async () => {
    database = await freshDatabase('postgres');
  });

  afterAll(async () => {
    await database?.drop();
  });

  it('share the work without doing anything twice, and share the rate limit', { timeout: 300_000 }, async () => {
    const figures = await runInstances({ databaseUrl: database.url, payments: 90, concurrency: 9, warmPayments: 30 });
    expect(brokenRules(figures)).toEqual([]);
    expect(figures).toMatchObject({
      instances: 3,
      payments: 90,
      paid: 30,
      expired: 60,
      events: { completed: 30, expired: 60 },
      duplicateEvents: 0,
      deliveriesReceived: 90,
      deliveredTwice: 0,
      rateLimit: { limit: 60, answered: 60, refused: 90 },
      perInstance: [30, 30, 30],
      warm: { payments: 30 },
    });
    expect(figures.warm?.createPerSecond).toBeGreaterThan(0);
  });
});
