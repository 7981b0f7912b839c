/**
 * The dashboard's payment search by prefix (storage/payment-search.ts, migration 0026), on both
 * databases: the beginning of a uuid, an order id or an email finds its payments whatever the case,
 * an RRN only whole; `%` and `_` are plain characters; each key is read from an index range of its
 * own, among 3,000 payments with the planner's statistics (PostgreSQL's sequential scans turned off,
 * so that only an index that fits the query's expression and collation can be chosen). And
 * `nextPrefix`, the range's end.
 */
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Environment } from '../../gateway/domain/payment.js';
import { nextPrefix, type PaymentSearch, searchedIds } from '../../storage/payment-search.js';
import { DIALECTS } from '../support/databases.js';
import { paymentBody, startTestGateway, type TestGateway, type TestMerchant } from '../support/gateway.js';

describe('nextPrefix', () => {
  it('is the smallest text above every text that begins with the prefix, in code point order', () => {
    expect(nextPrefix('ab-100')).toBe('ab-101');
    expect(nextPrefix('az')).toBe('a{');
    expect(nextPrefix('ab\u{1F600}')).toBe('ab\u{1F601}');
    expect(nextPrefix('a\uD7FF')).toBe('a\uE000');
    expect(nextPrefix('a\u{10FFFF}')).toBe('b');
    expect(nextPrefix('\u{10FFFF}')).toBeUndefined();
    expect(nextPrefix('')).toBeUndefined();
  });
});

describe.each(DIALECTS)('payment search by prefix (%s)', (dialect) => {
  let t: TestGateway;
  let shop: TestMerchant;
  let other: TestMerchant;
  const uuids = new Map<string, string>();

  beforeAll(async () => {
    t = await startTestGateway(dialect);
    shop = await t.merchant();
    other = await t.merchant();
    const made: Array<[TestMerchant, string, string | undefined]> = [
      [shop, 'ab-1001', 'Anna@Example.am'],
      [shop, 'AB-1002', 'anna.k@example.am'],
      [shop, 'ab_1003', undefined],
      [shop, 'sale_50%', undefined],
      [shop, 'zz-1', 'Aram@example.am'],
      [other, 'ab-1004', 'anna@example.am'],
    ];
    for (const [merchant, orderId, email] of made) {
      const res = await t.call('POST', '/api/v1/payments', {
        key: merchant.testKey,
        body: paymentBody({ order_id: orderId, ...(email === undefined ? {} : { customer_email: email }) }),
      });
      expect(res.status, res.text).toBe(201);
      uuids.set(orderId, String(res.body.uuid));
      t.clock.advance(1000);
    }
    // Enough payments beside them, and the planner's statistics, for the plans to be the ones a
    // real account gets (on a few rows every index costs the same and the choice says nothing).
    const deps = t.gateway.deps;
    const template = await deps.db
      .selectFrom('payments')
      .selectAll()
      .where('id', '=', uuids.get('zz-1') as string)
      .executeTakeFirstOrThrow();
    for (let batch = 0; batch < 6; batch++) {
      const rows = Array.from({ length: 500 }, (_, i) => {
        const n = batch * 500 + i;
        return {
          ...template,
          id: deps.ids.uuid(deps.clock.nowMs()),
          checkout_token: deps.ids.token(24),
          order_id: `bulk-${n}`,
          active_order_id: null,
          customer_email: `bulk${n}@example.am`,
          rrn: String(300_000_000_000 + n),
        };
      });
      await deps.db.insertInto('payments').values(rows).execute();
    }
    await sql`analyze`.execute(deps.db);
  }, 120_000);
  afterAll(async () => t?.close());

  const scope = () => ({ merchantId: shop.merchantId, environment: 'test' as Environment });
  const search = (text: string): PaymentSearch => ({ text, dialect });
  /** The order ids of the shop's payments the search finds, sorted. */
  const found = async (text: string) => {
    const db = t.gateway.deps.db;
    const rows = await db
      .selectFrom('payments')
      .select('order_id')
      .where('id', 'in', searchedIds(db, scope(), search(text)))
      .execute();
    return rows.map((r) => r.order_id).sort();
  };

  it('finds the beginning of an order id, a uuid or an email, in any case, within the account', async () => {
    expect(await found('ab-100')).toEqual(['AB-1002', 'ab-1001']);
    expect(await found('AB-100')).toEqual(['AB-1002', 'ab-1001']);
    expect(await found('ab-1001')).toEqual(['ab-1001']);
    expect(await found('anna')).toEqual(['AB-1002', 'ab-1001']);
    expect(await found('ANNA@')).toEqual(['ab-1001']);
    const uuid = uuids.get('zz-1') as string;
    expect(await found(uuid.slice(0, 30).toUpperCase())).toEqual(['zz-1']);
    expect(await found(uuid)).toEqual(['zz-1']);
    expect(await found('ab-1004')).toEqual([]);
    expect(await found('b-100')).toEqual([]);
  });

  it('reads % and _ as characters, not wildcards', async () => {
    expect(await found('ab_')).toEqual(['ab_1003']);
    expect(await found('sale_5')).toEqual(['sale_50%']);
    expect(await found('sale_50%')).toEqual(['sale_50%']);
    expect(await found('%')).toEqual([]);
    expect(await found('_')).toEqual([]);
    expect(await found('a%')).toEqual([]);
    expect(await found('ab%100')).toEqual([]);
  });

  it('finds an RRN only whole', async () => {
    const uuid = uuids.get('zz-1') as string;
    const paid = await t.call('POST', `/api/v1/test_helpers/payments/${uuid}/pay`, {
      key: shop.testKey,
      body: { card_number: '4242424242424242' },
    });
    expect(paid.status, paid.text).toBe(200);
    const rrn = String(paid.body.rrn);
    expect(await found(rrn)).toEqual(['zz-1']);
    expect(await found(rrn.slice(0, -1))).toEqual([]);
  });

  it('reads each key from its own index', async () => {
    const db = t.gateway.deps.db;
    const compiled = searchedIds(db, scope(), search('ab-100')).compile();
    let i = 0;
    const inlined = compiled.sql.replace(
      /\?|\$\d+/g,
      () => `'${String(compiled.parameters[i++]).replaceAll("'", "''")}'`,
    );
    const plan =
      dialect === 'sqlite'
        ? (await sql.raw<{ detail: string }>(`explain query plan ${inlined}`).execute(db)).rows.map((r) => r.detail)
        : await db.transaction().execute(async (trx) => {
            await sql`set local enable_seqscan = off`.execute(trx);
            const rows = (await sql.raw<{ 'QUERY PLAN': string }>(`explain ${inlined}`).execute(trx)).rows;
            return rows.map((r) => r['QUERY PLAN']);
          });
    const text = plan.join('\n');
    if (dialect === 'sqlite') {
      // Each key is an index search on its own condition (SQLite may read the uuid's range from the
      // primary key, which holds it too).
      const searches = plan.filter((line) => line.startsWith('SEARCH payments USING'));
      const conditions = searches.map((line) => line.replace(/^.*\((.*)\)$/, '$1'));
      expect(conditions, text).toHaveLength(4);
      expect(conditions.filter((c) => c === 'merchant_id=? AND environment=? AND <expr>>? AND <expr><?')).toHaveLength(
        2,
      );
      expect(conditions).toContain('merchant_id=? AND environment=? AND rrn=?');
      expect(
        conditions.filter((c) => /^(merchant_id=\? AND environment=\? AND )?id>\? AND id<\?$/.test(c)),
      ).toHaveLength(1);
      expect(text).toContain('payments_search_order');
      expect(text).toContain('payments_search_email');
      expect(text).not.toMatch(/SCAN payments/);
    } else {
      for (const index of [
        'payments_search_uuid',
        'payments_search_order',
        'payments_search_email',
        'payments_search_rrn',
      ]) {
        expect(text, text).toContain(index);
      }
      expect(text).not.toContain('Seq Scan');
    }
  });
});
