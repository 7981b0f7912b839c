/**
 * What the WordPress plugin asks the connector while a PHP worker of the store waits for it: paying
 * an order (with the plugin's order snapshot), reading it back (return handler, order panel, "check
 * now"), and the reconciliation page. Within such a request the connector makes no store call: a
 * one-worker store would deadlock. The fake store here is made to hang on its next REST calls, so a
 * store call before the answer would show as a slow answer and as a store request already answered.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createConnectToken } from '../../gateway/connect/connect-token.service.js';
import { toStoredInstant } from '../../gateway/domain/clock.js';
import { startTestConnector, type TestConnector } from '../support/connector.js';
import { DIALECTS } from '../support/databases.js';
import { eventually } from '../support/eventually.js';
import { type FakeWooCommerce, LOOPBACK_TEST_CALLBACKS, startFakeWooCommerce } from '../support/fake-woocommerce.js';
import { startTestGateway, type TestGateway, type TestMerchant } from '../support/gateway.js';

// biome-ignore lint/suspicious/noExplicitAny: answers are read field by field in assertions
type Json = Record<string, any>;

const APPROVED = '4111 1111 1111 1111';
/** How long the store hangs on a call made while it is "busy" (longer than any honest answer here). */
const HANG_MS = 4_000;

describe.each(DIALECTS)('plugin requests make no store call (%s)', (dialect) => {
  let gw: TestGateway;
  let store: FakeWooCommerce;
  let connector: TestConnector;
  let merchant: TestMerchant;
  let token: string;
  let connectionId: string;

  const plugin = (method: string, path: string, body?: unknown) =>
    connector.call<Json>(method, path, { token, ...(body === undefined ? {} : { body }) });
  const snapshot = (total: string, number: string, overrides: Json = {}) => ({
    number,
    total,
    currency: 'AMD',
    status: 'pending',
    created_at: toStoredInstant(gw.clock.nowMs()),
    customer_email: 'buyer@example.am',
    customer_name: 'Ani K',
    payment_method: 'armenian_gateway',
    ...overrides,
  });
  const checkout = (orderId: number, order?: Json) =>
    plugin('POST', `/v1/orders/${orderId}/payment`, {
      return_url: `${store.url}/?wc-api=wc_armenian_gateway&order_id=${orderId}`,
      cancel_url: `${store.url}/cart/?cancel_order=true&order_id=${orderId}`,
      ...(order === undefined ? {} : { order }),
    });
  const pay = (uuid: string) =>
    gw.call('POST', `/api/v1/test_helpers/payments/${uuid}/pay`, {
      key: merchant.testKey,
      body: { card_number: APPROVED },
    });
  const settled = () => connector.current().deps.background.idle();
  const paidInStore = (orderId: number) => store.order(orderId)?.date_paid_gmt != null;
  const linkOf = (orderId: number) =>
    connector
      .current()
      .deps.db.selectFrom('order_links')
      .selectAll()
      .where('connection_id', '=', connectionId)
      .where('store_order_id', '=', String(orderId))
      .executeTakeFirst();

  beforeAll(async () => {
    gw = await startTestGateway(dialect, {
      env: { GATEWAY_ALLOW_PRIVATE_WEBHOOKS: '1', GATEWAY_CLOCK: 'manual', GATEWAY_RATE_LIMIT_PER_MINUTE: '100000' },
    });
    store = await startFakeWooCommerce({ testCallbacks: LOOPBACK_TEST_CALLBACKS });
    connector = await startTestConnector(dialect, gw);
    merchant = await gw.merchant();
    token = (
      await createConnectToken(gw.gateway.deps, {
        merchantId: merchant.merchantId,
        domain: merchant.hostedDomain,
        platform: 'woocommerce',
      })
    ).connect_token;
    const registered = await plugin('POST', '/v1/connections', { store_url: store.url });
    connectionId = registered.body.connection_id;
    await store.approve(registered.body.authorize_url);
  }, 60_000);

  afterAll(async () => {
    await connector?.close();
    await store?.close();
    await gw?.close();
  });

  it('pays an order from the plugin snapshot without a store call, described by the shop order number', async () => {
    const order = store.addOrder({ total: '1500.00' });
    const before = store.requests.length;
    const started = performance.now();
    const created = await checkout(order.id, snapshot('1500.00', 'WC-1042'));
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect(performance.now() - started).toBeLessThan(HANG_MS);
    expect(created.body).toMatchObject({ order_id: String(order.id), amount: 1500, currency: 'AMD' });
    await settled();
    expect(store.requests.length).toBe(before);

    // The hosted page shows the shop's number (item 12), not the namespaced gateway order id.
    const payment = await gw.call<Json>('GET', `/api/v1/payments/${created.body.payment_uuid}`, {
      key: merchant.testKey,
    });
    expect(payment.body.description).toBe('Order #WC-1042');
    expect(payment.body.order_id).toBe(`wc-${connectionId}-${order.id}`);
    // A payment was created: the order is polled (a link without a payment is not).
    expect((await linkOf(order.id))?.next_poll_at).not.toBeNull();
  });

  it('validates the snapshot and refuses a total that is not whole AMD', async () => {
    const order = store.addOrder({ total: '1500.50' });
    const before = store.requests.length;
    const fractional = await checkout(order.id, snapshot('1500.50', '77'));
    expect(fractional.status).toBe(422);
    expect(fractional.body).toMatchObject({ error: 'unsupported_amount' });
    const usd = await checkout(order.id, snapshot('15.00', '77', { currency: 'USD' }));
    expect(usd.body.error).toBe('unsupported_amount');
    const malformed = await checkout(order.id, snapshot('15,00', '77', { created_at: 'yesterday' }));
    expect(malformed.status).toBe(422);
    expect(malformed.body.errors).toHaveProperty(['order.total']);
    expect(malformed.body.errors).toHaveProperty(['order.created_at']);
    const otherMethod = await checkout(order.id, snapshot('1500.00', '77', { payment_method: 'cod' }));
    expect(otherMethod.status).toBe(404);
    const paid = await checkout(order.id, snapshot('1500.00', '77', { status: 'processing' }));
    expect(paid.body.error).toBe('order_already_paid');
    expect(store.requests.length).toBe(before);
  });

  it('answers the read-back before marking the order paid, which runs right after the answer', async () => {
    const order = store.addOrder({ total: '2100.00' });
    const created = await checkout(order.id, snapshot('2100.00', String(order.id)));
    // The webhook is lost (the connector is down while the buyer pays): the return handler finds it.
    await connector.stop();
    await pay(created.body.payment_uuid);
    // The delivery attempt is over (it found nobody) before the connector is back.
    await gw.gateway.scheduler.runDueNow();
    await connector.start();

    const before = store.requests.length;
    store.delayNext(1, HANG_MS); // the store is busy: a call made before answering would hang the answer
    const started = performance.now();
    const readBack = await plugin('GET', `/v1/orders/${order.id}/payment`);
    const elapsed = performance.now() - started;
    const answeredRequests = store.requests.slice(before).filter((r) => r.status !== 0);

    expect(readBack.status).toBe(200);
    expect(readBack.body).toMatchObject({
      payment_uuid: created.body.payment_uuid,
      status: 'completed',
      paid: true,
      repaired: true,
      store_sync: 'pending',
      processor: 'sandbox',
      environment: 'test',
      refunded_amount: 0,
      refunds: [],
      flag: null,
      last_webhook_at: null,
    });
    expect(elapsed).toBeLessThan(HANG_MS);
    expect(answeredRequests).toEqual([]);
    expect(paidInStore(order.id)).toBe(false);

    await eventually(() => paidInStore(order.id), 'the order to be marked paid after the answer');
    await settled();
    const again = await plugin('GET', `/v1/orders/${order.id}/payment`);
    expect(again.body).toMatchObject({ paid: true, repaired: false, store_sync: 'done' });
    expect(store.order(order.id)?.transaction_id).toBe(created.body.payment_uuid);
  });

  it('shows refunds and the last webhook in the order panel', async () => {
    const order = store.addOrder({ total: '5000.00' });
    const created = await checkout(order.id, snapshot('5000.00', String(order.id)));
    await pay(created.body.payment_uuid);
    await eventually(() => paidInStore(order.id), 'the webhook to mark the order paid');
    const refund = await gw.call<Json>('POST', `/api/v1/payments/${created.body.payment_uuid}/refund`, {
      key: merchant.testKey,
      body: { amount: 500, reason: 'damaged' },
      headers: { 'Idempotency-Key': `panel-refund-${order.id}` },
    });
    expect(refund.status).toBe(201);
    await eventually(() => store.refunds(order.id).length === 1, 'the refund in the store');
    await settled();

    const panel = await plugin('GET', `/v1/orders/${order.id}/payment`);
    expect(panel.body).toMatchObject({
      status: 'completed', // partly refunded
      paid: true,
      amount: 5000,
      refunded_amount: 500,
      refunds: [{ uuid: refund.body.uuid, amount: 500, status: 'succeeded', reason: 'damaged' }],
      store_sync: 'done',
      repaired: false,
    });
    expect(panel.body.refunds[0].created_at).toMatch(/^\d{4}-\d{2}-\d{2}T/);
    expect(panel.body.last_webhook_at).toMatch(/^\d{4}-\d{2}-\d{2}T/);
  });

  it('answers an order it has no link for from the gateway, creating nothing', async () => {
    const before = store.requests.length;
    const unknown = await plugin('GET', '/v1/orders/987654/payment');
    expect(unknown.status).toBe(200);
    expect(unknown.body).toMatchObject({
      order_id: '987654',
      payment_uuid: null,
      status: null,
      paid: false,
      store_sync: 'none',
      repaired: false,
    });
    await settled();
    expect(await linkOf(987654)).toBeUndefined();
    expect(store.requests.length).toBe(before);
  });

  it('runs a reconciliation in the background, lists runs, and notes each finding once across runs', async () => {
    const at = (offsetMs: number) => new Date(gw.clock.nowMs() + offsetMs).toISOString();
    // Paid at the gateway, never marked paid (no callback): repairable.
    const lost = store.addOrder({ total: '1100.00', number: 'R-1' }, at(0));
    const lostPayment = await gw.call<Json>('POST', '/api/v1/payments', {
      headers: { 'X-Service-Connect': token },
      body: { amount: 1100, order_id: `wc-${connectionId}-${lost.id}`, return_url: `${store.url}/done` },
    });
    await pay(lostPayment.body.uuid);
    // Paid in the store by hand, nothing at the gateway.
    const manual = store.addOrder({ total: '1300.00', number: 'R-2', date_paid_gmt: '2026-11-21T10:00:00' }, at(0));
    const range = { from: at(-60_000), to: at(60_000) };

    const started = await plugin('POST', '/v1/reconciliation', { ...range, wait: false });
    expect(started.status).toBe(202);
    expect(started.body).toMatchObject({ status: 'running', finished_at: null, findings: [], trigger: 'plugin' });
    let run: Json = started.body;
    await eventually(async () => {
      run = (await plugin('GET', `/v1/reconciliation/${started.body.id}`)).body;
      return run.status !== 'running';
    }, 'the background run to finish');
    expect(run).toMatchObject({ status: 'finished', error: null, repair: false });
    expect(run.finished_at).not.toBeNull();
    const findingOf = (id: number) => run.findings.filter((f: Json) => f.store_order_id === String(id));
    expect(findingOf(lost.id)).toEqual([
      expect.objectContaining({
        kind: 'paid_at_gateway_unpaid_in_store',
        order_number: 'R-1',
        action: 'flagged',
        repairable: true,
        advice: expect.stringContaining('marks the order paid'),
      }),
    ]);
    expect(findingOf(manual.id)).toEqual([
      expect.objectContaining({ kind: 'paid_in_store_not_at_gateway', order_number: 'R-2', repairable: false }),
    ]);
    const notesAbout = (id: number) => store.notes(id).filter((n) => n.note.startsWith('Reconciliation:'));
    expect(notesAbout(lost.id)).toHaveLength(1);
    expect(notesAbout(manual.id)).toHaveLength(1);

    // The same run again (waited for) a minute later: same findings, no second note.
    gw.clock.advance(60_000);
    const second = await plugin('POST', '/v1/reconciliation', range);
    expect(second.status).toBe(201);
    expect(second.body.status).toBe('finished');
    expect(notesAbout(lost.id)).toHaveLength(1);
    expect(notesAbout(manual.id)).toHaveLength(1);

    // Repair: the order is marked paid.
    gw.clock.advance(60_000);
    const repaired = await plugin('POST', '/v1/reconciliation', { ...range, repair: true });
    expect(repaired.body.findings).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ store_order_id: String(lost.id), action: 'repaired', repairable: false }),
      ]),
    );
    expect(paidInStore(lost.id)).toBe(true);

    const latest = await plugin('GET', '/v1/reconciliation?trigger=plugin&limit=2');
    expect(latest.status).toBe(200);
    expect(latest.body.data.map((r: Json) => r.id)).toEqual([repaired.body.id, second.body.id]);
    expect(latest.body.data[1].findings.length).toBeGreaterThan(0);
    expect((await plugin('GET', '/v1/reconciliation?trigger=scheduled')).body.data).toEqual([]);
    const badLimit = await plugin('GET', '/v1/reconciliation?limit=51');
    expect(badLimit.status).toBe(422);
    expect(badLimit.body.errors).toHaveProperty('limit');
  });

  it('records a background run that could not reach the store as failed, with what failed', async () => {
    store.failNext(1, 503, { method: 'GET', route: /^orders$/ });
    const started = await plugin('POST', '/v1/reconciliation', {
      from: new Date(gw.clock.nowMs() - 60_000).toISOString(),
      to: new Date(gw.clock.nowMs()).toISOString(),
      wait: false,
    });
    expect(started.status).toBe(202);
    let run: Json = started.body;
    await eventually(async () => {
      run = (await plugin('GET', `/v1/reconciliation/${started.body.id}`)).body;
      return run.status !== 'running';
    }, 'the background run to fail');
    expect(run).toMatchObject({ status: 'failed', findings: [] });
    expect(run.error).toBe('The store could not be reached. The store answered HTTP 503.');
  });
});
