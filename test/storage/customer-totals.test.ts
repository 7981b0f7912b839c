/**
 * The customer records the database keeps (migration 0019): after payments carrying customer ids
 * are created, completed, refunded, given another customer id, re-addressed and deleted (one by one
 * and several in one statement), `customer_totals` holds exactly what summing the payments gives,
 * on both databases.
 */
import { type Kysely, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MINUTE_MS, toStoredInstant } from '../../gateway/domain/clock.js';
import { fillCustomerTotals } from '../../storage/migrations/0019-customer-totals.js';
import { DIALECTS } from '../support/databases.js';
import { paymentBody, startTestGateway, type TestGateway } from '../support/gateway.js';

describe.each(DIALECTS)('customer totals on %s', (dialect) => {
  let t: TestGateway;
  beforeAll(async () => {
    t = await startTestGateway(dialect, { env: { GATEWAY_RATE_LIMIT_PER_MINUTE: '100000' } });
  });
  afterAll(async () => t?.close());

  /** `customer_totals` and the sums of the payments, as sorted lines. */
  async function keptAndTruth(): Promise<{ kept: string[]; summed: string[] }> {
    const db = t.gateway.deps.db;
    const kept = await db.selectFrom('customer_totals').selectAll().execute();
    const summed = await sql<Record<string, string | number>>`
      select merchant_id, environment, customer_id, count(*) as payments_count,
             sum(case when completed_at is null then 0 else 1 end) as paid_count,
             sum(case when completed_at is null then 0 else amount end) as total_paid,
             sum(refunded_amount) as refunded_amount, max(created_at) as last_payment_at
      from payments where customer_id is not null group by 1, 2, 3`.execute(db);
    const line = (r: Record<string, unknown>) =>
      [
        r.merchant_id,
        r.environment,
        r.customer_id,
        Number(r.payments_count),
        Number(r.paid_count),
        Number(r.total_paid),
        Number(r.refunded_amount),
      ].join('|');
    return { kept: kept.map(line).sort(), summed: summed.rows.map(line).sort() };
  }

  it('keeps the totals through creation, completion, refunds, moves between customers and deletion', async () => {
    const a = await t.merchant();
    const b = await t.merchant();
    const uuids: string[] = [];
    for (let i = 0; i < 10; i++) {
      t.clock.advance(MINUTE_MS);
      const key = i % 3 === 0 ? b.testKey : a.testKey;
      const body = paymentBody({ amount: 1000 + i, customer_id: `c-${i % 4}`, customer_email: `P${i % 2}@Example.am` });
      const res = await t.call('POST', '/api/v1/payments', { key, body });
      expect(res.status, res.text).toBe(201);
      uuids.push(String(res.body.uuid));
    }
    let { kept, summed } = await keptAndTruth();
    expect(kept).toEqual(summed);
    expect(kept.length).toBeGreaterThan(3);

    const db = t.gateway.deps.db;
    const now = toStoredInstant(t.clock.nowMs());
    await db
      .updateTable('payments')
      .set({ status: 'completed', completed_at: now })
      .where('id', 'in', uuids.slice(0, 6))
      .execute();
    await db
      .updateTable('payments')
      .set({ status: 'refunded', refunded_amount: 300, refunded_at: now })
      .where('id', '=', uuids[1] as string)
      .execute();
    await db.updateTable('payments').set({ customer_id: 'c-moved' }).where('id', 'in', uuids.slice(2, 4)).execute();
    await db
      .updateTable('payments')
      .set({ customer_id: null })
      .where('id', '=', uuids[4] as string)
      .execute();
    await db.updateTable('payments').set({ description: 'changed' }).where('id', 'in', uuids).execute();
    await db
      .deleteFrom('payments')
      .where('id', '=', uuids[9] as string)
      .execute();
    ({ kept, summed } = await keptAndTruth());
    expect(kept).toEqual(summed);

    // The email is the latest payment's, lower-cased.
    const latest = await db
      .selectFrom('customer_totals')
      .select(['email'])
      .where('merchant_id', '=', a.merchantId)
      .where('customer_id', '=', 'c-1')
      .executeTakeFirstOrThrow();
    expect(latest.email).toBe('p1@example.am');

    // The migration's backfill gives the same records from the payments alone (the kept first and
    // last instants only grow, so after moves and deletions they may differ: not compared).
    const before = await db.selectFrom('customer_totals').selectAll().execute();
    await db.deleteFrom('customer_totals').execute();
    await fillCustomerTotals(db as unknown as Kysely<unknown>);
    const after = await db.selectFrom('customer_totals').selectAll().execute();
    const normal = (rows: typeof after) =>
      rows
        .map((r) => ({
          merchant_id: r.merchant_id,
          customer_id: r.customer_id,
          email: r.email,
          name: r.name,
          payments_count: Number(r.payments_count),
          paid_count: Number(r.paid_count),
          total_paid: Number(r.total_paid),
          refunded_amount: Number(r.refunded_amount),
        }))
        .sort((x, y) => `${x.merchant_id}${x.customer_id}`.localeCompare(`${y.merchant_id}${y.customer_id}`));
    expect(normal(after)).toEqual(normal(before));
  });
});
