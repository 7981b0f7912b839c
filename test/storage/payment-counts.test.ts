/**
 * The payment counts the database keeps for the list's `total` (migration 0020): after payments
 * are created, change status and processor (also several in one statement, as the expiry does), move
 * across a day boundary and are deleted, `payment_counts` holds exactly what counting the payments
 * gives, and the list's totals and pages agree with the rows, on both databases. On PostgreSQL a
 * payment counts in one of 16 shards of its key, chosen by its id (migration 0029), for life.
 */
import { type Kysely, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DAY_MS } from '../../gateway/domain/clock.js';
import * as countShards from '../../storage/migrations/0029-payment-count-shards.js';
import { DIALECTS } from '../support/databases.js';
import { paymentBody, startTestGateway, type TestGateway } from '../support/gateway.js';

interface ListPage {
  data: Array<{ uuid: string }>;
  meta: { total: number };
}

describe.each(DIALECTS)('payment counts on %s', (dialect) => {
  let t: TestGateway;
  beforeAll(async () => {
    t = await startTestGateway(dialect, { env: { GATEWAY_RATE_LIMIT_PER_MINUTE: '100000' } });
    // The test moves payments itself; the expiry job's timer would change them between two reads.
    await t.gateway.scheduler.stop();
  });
  afterAll(async () => t?.close());

  /** `payment_counts` and the payments counted, each as sorted "key=n" lines (zero rows left out). */
  async function countsAndTruth(): Promise<{ kept: string[]; counted: string[] }> {
    const db = t.gateway.deps.db;
    // Summed over the shards of each key (migration 0029); a key whose shards sum to 0 left out.
    const kept = (
      await db
        .selectFrom('payment_counts')
        .select(['merchant_id', 'environment', 'domain_id', 'day', 'status', 'processor'])
        .select((eb) => eb.fn.sum<number | string>('n').as('n'))
        .groupBy(['merchant_id', 'environment', 'domain_id', 'day', 'status', 'processor'])
        .execute()
    ).filter((r) => Number(r.n) !== 0);
    const counted = await sql<Record<string, string | number>>`
      select merchant_id, environment, domain_id, substr(created_at, 1, 10) as day, status,
             coalesce(processor, '') as processor, count(*) as n
      from payments group by 1, 2, 3, 4, 5, 6`.execute(db);
    const line = (r: Record<string, unknown>) =>
      `${r.merchant_id}|${r.environment}|${r.domain_id}|${r.day}|${r.status}|${r.processor}=${Number(r.n)}`;
    return { kept: kept.map(line).sort(), counted: counted.rows.map(line).sort() };
  }

  it('keeps the counts through creation, changes of status and processor, day moves and deletion', async () => {
    const a = await t.merchant();
    const b = await t.merchant();
    const uuids: string[] = [];
    for (let i = 0; i < 12; i++) {
      t.clock.advance(DAY_MS / 5);
      const key = i % 3 === 0 ? b.testKey : a.testKey;
      const res = await t.call('POST', '/api/v1/payments', { key, body: paymentBody() });
      expect(res.status, res.text).toBe(201);
      uuids.push(String(res.body.uuid));
    }
    expect((await countsAndTruth()).kept).toEqual((await countsAndTruth()).counted);
    expect((await countsAndTruth()).kept.length).toBeGreaterThan(2);

    const db = t.gateway.deps.db;
    // One by one, and several in one statement (the order of the two rows each touches varies).
    await db.updateTable('payments').set({ processor: 'sandbox' }).where('id', 'in', uuids.slice(0, 6)).execute();
    await db
      .updateTable('payments')
      .set({ status: 'completed' })
      .where('id', '=', uuids[0] as string)
      .execute();
    await db.updateTable('payments').set({ status: 'expired' }).where('id', 'in', uuids.slice(1, 5)).execute();
    await db
      .updateTable('payments')
      .set({ status: 'refunded' })
      .where('id', '=', uuids[0] as string)
      .execute();
    await db
      .updateTable('payments')
      .set({ processor: null })
      .where('id', '=', uuids[2] as string)
      .execute();
    await db
      .updateTable('payments')
      .set({ status: 'completed' })
      .where('id', '=', uuids[3] as string)
      .execute();
    // A change of nothing counted moves nothing.
    await db.updateTable('payments').set({ description: 'changed' }).where('id', 'in', uuids).execute();
    await db
      .updateTable('payments')
      .set({ created_at: '2026-01-01T12:00:00.000Z' })
      .where('id', '=', uuids[6] as string)
      .execute();
    await db
      .deleteFrom('payments')
      .where('id', '=', uuids[7] as string)
      .execute();
    const { kept, counted } = await countsAndTruth();
    expect(kept).toEqual(counted);
  });

  it('counts a payment in the shard of its id, and keeps it there through its changes', async () => {
    const m = await t.merchant();
    const created = await Promise.all(
      Array.from({ length: 40 }, () => t.call('POST', '/api/v1/payments', { key: m.testKey, body: paymentBody() })),
    );
    expect(created.map((r) => r.status)).toEqual(created.map(() => 201));
    const db = t.gateway.deps.db;
    const shards = async () =>
      (
        await db
          .selectFrom('payment_counts')
          .select(['shard', 'status', 'n'])
          .where('merchant_id', '=', m.merchantId)
          .where('n', '!=', 0)
          .execute()
      ).map((r) => ({ shard: r.shard, status: r.status, n: Number(r.n) }));
    const pending = await shards();
    expect(pending.reduce((sum, r) => sum + r.n, 0)).toBe(40);
    if (dialect === 'sqlite') {
      // One writer at a time: nothing to spread.
      expect(pending.map((r) => r.shard)).toEqual([0]);
    } else {
      // 40 ids over 16 shards: many rows, each within 0..15.
      expect(pending.length).toBeGreaterThan(8);
      expect(pending.every((r) => Number.isInteger(r.shard) && r.shard >= 0 && r.shard < 16)).toBe(true);
    }
    const uuids = created.map((r) => String(r.body.uuid));
    await db.updateTable('payments').set({ status: 'expired' }).where('id', 'in', uuids).execute();
    const expired = await shards();
    expect(expired.map((r) => r.status)).toEqual(expired.map(() => 'expired'));
    // Each payment moved within its own shard: the same shards, the same numbers.
    const byShard = (rows: typeof pending) => rows.map((r) => `${r.shard}=${r.n}`).sort();
    expect(byShard(expired)).toEqual(byShard(pending));
    const list = await t.call<ListPage>('GET', '/api/v1/payments?status=expired&per_page=1', { key: m.testKey });
    expect(list.body.meta.total).toBe(40);
  });

  it('migration 0029 carries the counts to the shards and back, and counting goes on either way', async () => {
    const m = await t.merchant();
    const create = async (n: number) => {
      for (let i = 0; i < n; i++) {
        const res = await t.call('POST', '/api/v1/payments', { key: m.testKey, body: paymentBody() });
        expect(res.status, res.text).toBe(201);
      }
    };
    const db = t.gateway.deps.db;
    const total = async () =>
      (await t.call<ListPage>('GET', '/api/v1/payments?per_page=1', { key: m.testKey })).body.meta.total;
    await create(5);
    await countShards.down(db as unknown as Kysely<unknown>);
    const unsharded = await countsAndTruth();
    expect(unsharded.kept).toEqual(unsharded.counted);
    await create(3);
    expect(await total()).toBe(8);
    await countShards.up(db as unknown as Kysely<unknown>);
    expect((await countsAndTruth()).kept).toEqual((await countsAndTruth()).counted);
    await create(2);
    expect(await total()).toBe(10);
    expect((await countsAndTruth()).kept).toEqual((await countsAndTruth()).counted);
  });

  it('answers totals and every page alike whichever end a page is read from', async () => {
    const m = await t.merchant();
    const created: string[] = [];
    for (let i = 0; i < 7; i++) {
      t.clock.advance(1000);
      const res = await t.call('POST', '/api/v1/payments', { key: m.testKey, body: paymentBody() });
      created.push(String(res.body.uuid));
    }
    const newestFirst = [...created].reverse();
    const pages: string[][] = [];
    for (let page = 1; page <= 3; page++) {
      const res = await t.call<ListPage>('GET', `/api/v1/payments?per_page=3&page=${page}`, { key: m.testKey });
      expect(res.status, res.text).toBe(200);
      expect(res.body.meta.total).toBe(7);
      pages.push(res.body.data.map((p) => p.uuid));
    }
    expect(pages).toEqual([newestFirst.slice(0, 3), newestFirst.slice(3, 6), newestFirst.slice(6)]);
    const beyond = await t.call<ListPage>('GET', '/api/v1/payments?per_page=3&page=4', { key: m.testKey });
    expect(beyond.body.data).toEqual([]);
    expect(beyond.body.meta.total).toBe(7);
  });
});
