/**
 * Migration 0025 on both databases: sandbox payments kept under `live` before it (a live key's
 * `processor: sandbox` payments, and live payments a test card turned sandbox) move to `test` with
 * their refunds, events and receipts; the live list, its total and the live customers lose them, the
 * test ones gain them; a moved payment gives its order up where a test payment holds the same order
 * id; a live payment stays where it is; run again, the move finds nothing.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { payWithTestCard } from '../../gateway/payments/test-card.service.js';
import { enableReceipts } from '../../gateway/receipts/receipts-admin.service.js';
import { TEST_ONLY } from '../../gateway/receipts/settings.js';
import { moveSandboxPaymentsToTest } from '../../storage/migrations/0025-sandbox-payments-are-test.js';
import { rowToPayment } from '../../storage/payment.repository.js';
import { DIALECTS } from '../support/databases.js';
import { paymentBody, startTestGateway, type TestGateway, uniqueHost } from '../support/gateway.js';

type Json = Record<string, unknown>;

describe.each(DIALECTS)('sandbox payments become test payments (%s)', (dialect) => {
  let t: TestGateway;

  beforeAll(async () => {
    t = await startTestGateway(dialect);
  });
  afterAll(async () => {
    await t?.close();
  });

  async function create(key: string, body: Json): Promise<string> {
    const res = await t.call('POST', '/api/v1/payments', { key, body: paymentBody(body) });
    expect(res.status, res.text).toBe(201);
    return String(res.body.uuid);
  }

  async function pay(uuid: string): Promise<void> {
    const row = await t.gateway.deps.db
      .selectFrom('payments')
      .selectAll()
      .where('id', '=', uuid)
      .executeTakeFirstOrThrow();
    const paid = await payWithTestCard(t.gateway.deps, rowToPayment(row), '4111 1111 1111 1111');
    expect(paid).toMatchObject({ ok: true, payment: { status: 'completed' } });
  }

  /** Puts a payment back as the gateway kept it before migration 0025: under `live`. */
  async function keptUnderLive(uuid: string): Promise<void> {
    const db = t.gateway.deps.db;
    await db.updateTable('payments').set({ environment: 'live' }).where('id', '=', uuid).execute();
    await db.updateTable('refunds').set({ environment: 'live' }).where('payment_id', '=', uuid).execute();
    await db.updateTable('receipts').set({ environment: 'live' }).where('payment_id', '=', uuid).execute();
    await db.updateTable('outbox_events').set({ environment: 'live' }).where('payment_id', '=', uuid).execute();
  }

  async function environments(uuid: string) {
    const db = t.gateway.deps.db;
    const payment = await db
      .selectFrom('payments')
      .select(['environment', 'active_order_id'])
      .where('id', '=', uuid)
      .executeTakeFirstOrThrow();
    const of = async (table: 'refunds' | 'receipts' | 'outbox_events') =>
      (await db.selectFrom(table).select('environment').where('payment_id', '=', uuid).execute()).map(
        (r) => r.environment,
      );
    return {
      payment: payment.environment,
      activeOrderId: payment.active_order_id,
      refunds: await of('refunds'),
      receipts: await of('receipts'),
      events: await of('outbox_events'),
    };
  }

  async function listed(key: string, orderId: string): Promise<{ uuids: string[]; total: number }> {
    const res = await t.call<{ data: Array<{ uuid: string }>; meta: { total: number } }>(
      'GET',
      `/api/v1/payments?order_id=${orderId}`,
      { key },
    );
    expect(res.status, res.text).toBe(200);
    return { uuids: res.body.data.map((p) => p.uuid), total: res.body.meta.total };
  }

  async function liveCount(merchantId: string): Promise<number> {
    const row = await t.gateway.deps.db
      .selectFrom('payment_counts')
      .select((eb) => eb.fn.sum<number | string | null>('n').as('n'))
      .where('merchant_id', '=', merchantId)
      .where('environment', '=', 'live')
      .executeTakeFirst();
    return Number(row?.n ?? 0);
  }

  async function customerEnvironments(merchantId: string): Promise<string[]> {
    const rows = await t.gateway.deps.db
      .selectFrom('customer_totals')
      .select('environment')
      .where('merchant_id', '=', merchantId)
      .execute();
    return rows.map((r) => r.environment).sort();
  }

  it('moves them with their refunds, receipts and events, out of the live list, totals and customers', async () => {
    const host = uniqueHost('moved');
    const m = await t.liveMerchant(host);
    await enableReceipts(t.gateway.deps, { merchantId: m.merchantId, host, system: TEST_ONLY, config: undefined });
    const orderId = `moved-${host}`;
    const sandbox = await create(m.liveKey, {
      return_url: `https://${host}/done`,
      processor: 'sandbox',
      order_id: orderId,
      customer_email: 'buyer@example.am',
    });
    await pay(sandbox);
    const refunded = await t.call('POST', `/api/v1/payments/${sandbox}/refund`, {
      key: m.liveKey,
      body: { amount: 100 },
    });
    expect(refunded.status, refunded.text).toBe(201);
    const live = await create(m.liveKey, { return_url: `https://${host}/done`, order_id: `live-${host}` });

    await keptUnderLive(sandbox);
    expect(await environments(sandbox)).toEqual({
      payment: 'live',
      activeOrderId: orderId,
      refunds: ['live'],
      receipts: ['live', 'live'],
      events: ['live', 'live'],
    });
    expect(await listed(m.liveKey, orderId)).toEqual({ uuids: [sandbox], total: 1 });
    expect(await liveCount(m.merchantId)).toBe(2);
    expect(await customerEnvironments(m.merchantId)).toEqual(['live']);

    await moveSandboxPaymentsToTest(t.gateway.deps.db);

    expect(await environments(sandbox)).toEqual({
      payment: 'test',
      activeOrderId: orderId,
      refunds: ['test'],
      receipts: ['test', 'test'],
      events: ['test', 'test'],
    });
    expect(await listed(m.liveKey, orderId)).toEqual({ uuids: [], total: 0 });
    expect(await listed(m.testKey, orderId)).toEqual({ uuids: [sandbox], total: 1 });
    expect(await liveCount(m.merchantId)).toBe(1);
    expect(await customerEnvironments(m.merchantId)).toEqual(['test']);
    // The live key that made it still reads it back; the live payment did not move.
    const read = await t.call('GET', `/api/v1/payments/${sandbox}`, { key: m.liveKey });
    expect(read.body).toMatchObject({ uuid: sandbox, livemode: false, refunded_amount: 100 });
    expect((await environments(live)).payment).toBe('live');

    await moveSandboxPaymentsToTest(t.gateway.deps.db);
    expect((await environments(sandbox)).payment).toBe('test');
    expect(await liveCount(m.merchantId)).toBe(1);
  });

  it('gives the order up where a test payment holds the same order id', async () => {
    const host = uniqueHost('held');
    const m = await t.liveMerchant(host);
    const orderId = `held-${host}`;
    const sandbox = await create(m.liveKey, {
      return_url: `https://${host}/done`,
      processor: 'sandbox',
      order_id: orderId,
    });
    await keptUnderLive(sandbox);
    const held = await create(m.testKey, { order_id: orderId });

    await moveSandboxPaymentsToTest(t.gateway.deps.db);

    expect(await environments(sandbox)).toMatchObject({ payment: 'test', activeOrderId: null });
    expect((await listed(m.testKey, orderId)).uuids.sort()).toEqual([sandbox, held].sort());
  });
});
