/**
 * `GET /api/v1/customers` and `GET /api/v1/customers/{id}` (additions): the records kept as
 * payments are made, paid and refunded; paging and the email filter; scoped by merchant and the
 * key's environment; full-access keys only.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../support/databases.js';
import {
  expectErrorBody,
  paymentBody,
  startTestGateway,
  type TestGateway,
  type TestMerchant,
  uniqueHost,
} from '../support/gateway.js';

// biome-ignore lint/suspicious/noExplicitAny: JSON answers read field by field
type Json = Record<string, any>;

describe.each(DIALECTS)('customers API (%s)', (dialect) => {
  let t: TestGateway;

  beforeAll(async () => {
    t = await startTestGateway(dialect, { env: { GATEWAY_CLOCK: 'manual' } });
  });
  afterAll(async () => {
    await t?.close();
  });

  async function paid(key: string, overrides: Json = {}): Promise<Json> {
    const created = await t.call<Json>('POST', '/api/v1/payments', { key, body: paymentBody(overrides) });
    expect(created.status).toBe(201);
    const pay = await t.call<Json>('POST', `/api/v1/test_helpers/payments/${created.body.uuid}/pay`, {
      key,
      body: { card_number: '4111 1111 1111 1111' },
    });
    expect(pay.status).toBe(200);
    return (await t.call<Json>('GET', `/api/v1/payments/${created.body.uuid}`, { key })).body;
  }

  it('keeps a record per buyer: payments, paid total, refunds, first and last', async () => {
    const m: TestMerchant = await t.merchant();
    const first = await paid(m.testKey, { amount: 3000, customer_email: 'Ann@Example.am', customer_name: 'Ann' });
    expect(first.customer_id).toMatch(/^cus_/);
    t.clock.advance(60_000);
    const second = await paid(m.testKey, { amount: 2000, customer_email: 'ann@example.am', customer_name: 'Ann B.' });
    expect(second.customer_id).toBe(first.customer_id);
    // A payment that is never paid gets no gateway customer id: it is no customer's.
    await t.call('POST', '/api/v1/payments', {
      key: m.testKey,
      body: paymentBody({ customer_email: 'ann@example.am' }),
    });
    const refund = await t.call<Json>('POST', `/api/v1/payments/${second.uuid}/refund`, {
      key: m.testKey,
      body: { amount: 500 },
    });
    expect(refund.status).toBe(201);

    const one = await t.call<Json>('GET', `/api/v1/customers/${first.customer_id}`, { key: m.testKey });
    expect(one.status).toBe(200);
    expect(one.headers.get('cache-control')).toBe('no-store');
    expect(one.body).toEqual({
      id: first.customer_id,
      livemode: false,
      email: 'ann@example.am',
      name: 'Ann B.',
      payments_count: 2,
      paid_count: 2,
      total_paid: 5000,
      refunded_amount: 500,
      currency: 'AMD',
      first_payment_at: first.created_at,
      last_payment_at: second.created_at,
      last_paid_at: second.completed_at,
    });
  });

  it('counts every payment of a customer the merchant named, paid or not', async () => {
    const m = await t.merchant();
    await paid(m.testKey, { amount: 1000, customer_id: 'shop-42' });
    await t.call('POST', '/api/v1/payments', { key: m.testKey, body: paymentBody({ customer_id: 'shop-42' }) });
    const one = await t.call<Json>('GET', '/api/v1/customers/shop-42', { key: m.testKey });
    expect(one.status).toBe(200);
    expect(one.body).toMatchObject({ id: 'shop-42', email: null, payments_count: 2, paid_count: 1, total_paid: 1000 });
    expect(one.body.last_paid_at).not.toBeNull();
  });

  it('pages like the payment list, latest payment first, and filters by email', async () => {
    const m = await t.merchant();
    for (const n of [1, 2, 3]) {
      await paid(m.testKey, { amount: 100 * n, customer_email: `buyer${n}@example.am` });
      t.clock.advance(1000);
    }
    const page1 = await t.call<Json>('GET', '/api/v1/customers?per_page=2', { key: m.testKey });
    expect(page1.status).toBe(200);
    expect(page1.body.data.map((c: Json) => c.email)).toEqual(['buyer3@example.am', 'buyer2@example.am']);
    expect(page1.body.meta).toMatchObject({ current_page: 1, last_page: 2, per_page: 2, total: 3, from: 1, to: 2 });
    expect(page1.body.links.next).toBe(`${'http://gateway.test'}/api/v1/customers?per_page=2&page=2`);
    const page2 = await t.call<Json>('GET', '/api/v1/customers?per_page=2&page=2', { key: m.testKey });
    expect(page2.body.data.map((c: Json) => c.email)).toEqual(['buyer1@example.am']);

    const byEmail = await t.call<Json>('GET', `/api/v1/customers?email=${encodeURIComponent('BUYER2@example.am')}`, {
      key: m.testKey,
    });
    expect(byEmail.body.data).toHaveLength(1);
    expect(byEmail.body.data[0].total_paid).toBe(200);
    expect(byEmail.body.meta.total).toBe(1);

    const bad = await t.call<Json>('GET', '/api/v1/customers?per_page=0', { key: m.testKey });
    expectErrorBody(bad, 422, 'validation_failed', ['errors']);
  });

  it("another merchant's customer, and the other environment's, are not found", async () => {
    const a = await t.liveMerchant(uniqueHost());
    const b = await t.merchant();
    const mine = await paid(a.testKey, { customer_email: 'someone@example.am' });
    const other = await t.call<Json>('GET', `/api/v1/customers/${mine.customer_id}`, { key: b.testKey });
    expectErrorBody(other, 404, 'not_found');
    const live = await t.call<Json>('GET', `/api/v1/customers/${mine.customer_id}`, { key: a.liveKey });
    expect(live.status).toBe(404);
    const liveList = await t.call<Json>('GET', '/api/v1/customers', { key: a.liveKey });
    expect(liveList.body.data).toEqual([]);
    expect(liveList.body.meta.total).toBe(0);
    expect((await t.call<Json>('GET', '/api/v1/customers', { key: b.testKey })).body.data).toEqual([]);
  });

  it('payments-only keys may not read customers', async () => {
    const m = await t.merchant();
    const key = await t.key(m.merchantId, 'test', 'payments');
    for (const path of ['/api/v1/customers', '/api/v1/customers/cus_x']) {
      const refused = await t.call<Json>('GET', path, { key });
      expectErrorBody(refused, 403, 'insufficient_scope', ['required']);
    }
    expect((await t.call('GET', '/api/v1/customers')).status).toBe(401);
  });
});
