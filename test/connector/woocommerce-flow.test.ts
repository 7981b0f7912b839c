/**
 * The connector end to end with WooCommerce: a real gateway, a real connector and a fake WooCommerce
 * store (a local server answering like wc/v3), each over HTTP. A buyer's order becomes a sandbox
 * payment, the buyer pays through the test helper, the gateway's webhook reaches the connector, the
 * connector reads the payment back and marks the store order paid once: also when the webhook comes
 * twice, before the order map row exists, or never (polling and reconciliation). Refunds both ways.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { webhookSecretsOf } from '../../connector/connections/connection-access.js';
import type { OrderPaymentResponse } from '../../connector/orders/order.service.js';
import { findConnection } from '../../connector/storage/connection.repository.js';
import { createConnectToken } from '../../gateway/connect/connect-token.service.js';
import { rotateWebhookSecret } from '../../gateway/merchants/domains.service.js';
import { signatureHeaders } from '../../gateway/webhooks/signer.js';
import { connector as connectorCli } from '../support/cli.js';
import { startTestConnector, type TestConnector } from '../support/connector.js';
import { DIALECTS } from '../support/databases.js';
import { eventually } from '../support/eventually.js';
import { type FakeWooCommerce, LOOPBACK_TEST_CALLBACKS, startFakeWooCommerce } from '../support/fake-woocommerce.js';
import { startTestGateway, type TestGateway, type TestMerchant } from '../support/gateway.js';
import { expectedStatusEvent } from '../support/payment-shape.js';

const APPROVED = '4111 1111 1111 1111';
const DECLINED = '4000 0000 0000 0002';

/** The connector's answer to a payment request, or its error body. */
type OrderPaymentBody = OrderPaymentResponse & { error?: string };

describe.each(DIALECTS)('connector with a WooCommerce store (%s)', (dialect) => {
  let gw: TestGateway;
  let store: FakeWooCommerce;
  let connector: TestConnector;
  let merchant: TestMerchant;
  let token: string;
  let connectionId: string;
  let domainSecret: string;

  const plugin = <T = Record<string, unknown>>(method: string, path: string, body?: unknown) =>
    connector.call<T>(method, path, { token, ...(body === undefined ? {} : { body }) });
  const checkout = (orderId: number) =>
    plugin<OrderPaymentBody>('POST', `/v1/orders/${orderId}/payment`, {
      return_url: `${store.url}/?wc-api=wc_armenian_gateway&order_id=${orderId}`,
      cancel_url: `${store.url}/cart/?cancel_order=true&order_id=${orderId}`,
    });
  const pay = (uuid: string, card = APPROVED) =>
    gw.call('POST', `/api/v1/test_helpers/payments/${uuid}/pay`, {
      key: merchant.testKey,
      body: { card_number: card },
    });
  const setPaidCalls = (orderId: number) =>
    store.requests.filter(
      (r) =>
        r.method === 'PUT' && r.route === `orders/${orderId}` && (r.body as { set_paid?: boolean })?.set_paid === true,
    ).length;
  const paidInStore = (orderId: number) => store.order(orderId)?.date_paid_gmt != null;
  const gatewayOrderId = (orderId: number | string) => `wc-${connectionId}-${orderId}`;
  /** Marking paid is the PUT, then the note naming the payment: waits for both. */
  const untilPaid = (orderId: number, uuid: string, inStore: FakeWooCommerce = store) =>
    eventually(
      () => inStore.order(orderId)?.date_paid_gmt != null && inStore.notes(orderId).some((n) => n.note.includes(uuid)),
      `order ${orderId} to be marked paid by ${uuid}`,
    );

  /** A delivery signed like the gateway's, for the cases the gateway cannot be made to send. */
  function signedDelivery(event: Record<string, unknown>, timestampSeconds = Math.floor(gw.clock.nowMs() / 1000)) {
    const body = JSON.stringify({ ...event, timestamp: timestampSeconds });
    const deliveryId = String(event.delivery_id);
    const headers: Record<string, string> = {
      'Content-Type': 'application/json',
      ...signatureHeaders(deliveryId, timestampSeconds, body, [domainSecret]),
    };
    return { rawBody: body, headers };
  }
  async function statusEvent(uuid: string, deliveryId: string) {
    const payment = (await gw.call('GET', `/api/v1/payments/${uuid}`, { key: merchant.testKey })).body;
    return { ...expectedStatusEvent(payment), delivery_id: deliveryId } as {
      delivery_id: string;
      transaction: Record<string, unknown>;
    };
  }
  const postWebhook = (delivery: { rawBody: string; headers: Record<string, string> }, id = connectionId) =>
    connector.call('POST', `/v1/webhooks/gateway/${id}`, delivery);

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
    const info = await gw.call<{ webhook_secrets: string[] }>('GET', '/api/v1/connect_token', {
      headers: { 'X-Service-Connect': token },
    });
    domainSecret = info.body.webhook_secrets[0] as string;
  }, 60_000);

  afterAll(async () => {
    await connector?.close();
    await store?.close();
    await gw?.close();
  });

  it('connects the store: the plugin registers the token, the shop owner approves the key exchange', async () => {
    const before = await plugin('GET', '/v1/connection');
    expect(before.status).toBe(404);
    expect(before.body.error).toBe('connection_not_found');

    const registered = await plugin<Record<string, string>>('POST', '/v1/connections', { store_url: `${store.url}/` });
    expect(registered.status).toBe(201);
    expect(registered.body).toMatchObject({
      platform: 'woocommerce',
      store_url: store.url,
      domain: merchant.hostedDomain,
      environment: 'test',
      status: 'awaiting_keys',
    });
    connectionId = registered.body.connection_id as string;
    const authorize = new URL(registered.body.authorize_url as string);
    expect(`${authorize.origin}${authorize.pathname}`).toBe(`${store.url}/wc-auth/v1/authorize`);
    expect(authorize.searchParams.get('scope')).toBe('read_write');
    expect(authorize.searchParams.get('callback_url')).toBe(`${connector.url}/woocommerce/auth/callback`);

    // Registering again answers the same connection and the same authorize URL.
    const again = await plugin<Record<string, string>>('POST', '/v1/connections', { store_url: store.url });
    expect(again.status).toBe(200);
    expect(again.body.connection_id).toBe(connectionId);
    expect(again.body.authorize_url).toBe(registered.body.authorize_url);

    // Paying before the keys arrived is refused clearly.
    const early = store.addOrder({ total: '1500.00' });
    const notReady = await checkout(early.id);
    expect(notReady.status).toBe(409);
    expect(notReady.body).toMatchObject({ error: 'connection_not_ready' });

    const redirect = new URL(await store.approve(registered.body.authorize_url as string));
    expect(redirect.searchParams.get('success')).toBe('1');
    const connected = await plugin<Record<string, unknown>>('GET', '/v1/connection');
    expect(connected.status).toBe(200);
    expect(connected.body.status).toBe('active');
    expect(connected.body.authorize_url).toBeUndefined();

    // The same key delivery cannot be replayed onto the connection.
    const replay = await connector.call('POST', '/woocommerce/auth/callback', {
      body: {
        key_id: 9,
        user_id: authorize.searchParams.get('user_id'),
        consumer_key: `ck_${'a'.repeat(40)}`,
        consumer_secret: `cs_${'b'.repeat(40)}`,
        key_permissions: 'read_write',
      },
    });
    expect(replay.status).toBe(404);
  });

  it('keeps the connect token and the store keys encrypted at rest', async () => {
    const row = await connector
      .current()
      .deps.db.selectFrom('store_connections')
      .selectAll()
      .where('id', '=', connectionId)
      .executeTakeFirstOrThrow();
    const stored = JSON.stringify(row);
    expect(stored).not.toContain(token);
    expect(stored).not.toContain(domainSecret);
    expect(stored).not.toMatch(/ck_[0-9a-f]{20}|cs_[0-9a-f]{20}/);
    expect(row.credentials_ciphertext).toMatch(/^v1\./);
  });

  it('turns a buyer order into a sandbox payment and marks the order paid once after the webhook', async () => {
    const order = store.addOrder({ total: '1500.00', billing: { email: 'buyer@example.am' } });
    const created = await checkout(order.id);
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      order_id: String(order.id),
      gateway_order_id: gatewayOrderId(order.id),
      status: 'pending',
      amount: 1500,
      currency: 'AMD',
    });
    expect(created.body.checkout_url).toMatch(/\/checkout\//);

    // The buyer comes back to the payment page: the same pending payment, not a new one.
    const again = await checkout(order.id);
    expect(again.status).toBe(200);
    expect(again.body.payment_uuid).toBe(created.body.payment_uuid);

    const paid = await pay(created.body.payment_uuid);
    expect(paid.body.status).toBe('completed');
    await untilPaid(order.id, created.body.payment_uuid);
    const stored = store.order(order.id);
    expect(stored?.transaction_id).toBe(created.body.payment_uuid);
    expect(stored?.status).toBe('processing');
    expect(setPaidCalls(order.id)).toBe(1);
    const notes = store.notes(order.id).map((n) => n.note);
    expect(notes.filter((n) => n.includes(created.body.payment_uuid))).toHaveLength(1);
    expect(notes.join('\n')).toContain(String(paid.body.rrn));

    // The plugin's return handler reads it back: paid, and nothing is marked again.
    const readBack = await plugin('GET', `/v1/orders/${order.id}/payment`);
    expect(readBack.body).toMatchObject({ status: 'completed', paid: true, payment_uuid: created.body.payment_uuid });
    expect(setPaidCalls(order.id)).toBe(1);

    // A paid order is not paid again.
    const twice = await checkout(order.id);
    expect(twice.status).toBe(409);
    expect(twice.body.error).toBe('order_already_paid');
  });

  it('acknowledges a delivery twice but applies it once, and a new delivery of the same news changes nothing', async () => {
    const order = store.addOrder({ total: '2000.00' });
    const created = await checkout(order.id);
    await pay(created.body.payment_uuid);
    await untilPaid(order.id, created.body.payment_uuid);
    const requestsBefore = store.requests.length;

    const delivery = signedDelivery(await statusEvent(created.body.payment_uuid, 'dlv_duplicate_1'));
    const first = await postWebhook(delivery);
    expect(first.status).toBe(200);
    const second = await postWebhook(delivery);
    expect(second.status).toBe(200);
    expect(second.body).toMatchObject({ received: true, outcome: 'duplicate' });
    const other = await postWebhook(signedDelivery(await statusEvent(created.body.payment_uuid, 'dlv_duplicate_2')));
    expect(other.status).toBe(200);
    expect(setPaidCalls(order.id)).toBe(1);
    expect(store.requests.slice(requestsBefore).filter((r) => r.method !== 'GET')).toEqual([]);
  });

  it('marks the order paid when the webhook arrives before the order map row was saved', async () => {
    const order = store.addOrder({ total: '3000.00' });
    // The payment exists at the gateway under the store's namespaced order id, but the connector
    // never saved the map row (as if it stopped right after creating the payment).
    const direct = await gw.call<{ uuid: string }>('POST', '/api/v1/payments', {
      headers: { 'X-Service-Connect': token },
      body: {
        amount: 3000,
        order_id: gatewayOrderId(order.id),
        return_url: `${store.url}/done`,
        callback_url: `${connector.url}/v1/webhooks/gateway/${connectionId}`,
      },
    });
    expect(direct.status).toBe(201);
    await pay(direct.body.uuid);
    await untilPaid(order.id, direct.body.uuid);
    expect(store.order(order.id)?.transaction_id).toBe(direct.body.uuid);
    expect(setPaidCalls(order.id)).toBe(1);
  });

  it('notes a declined payment without paying the order, then a late confirmation still marks it paid', async () => {
    const order = store.addOrder({ total: '2500.00' });
    const created = await checkout(order.id);
    const declined = await pay(created.body.payment_uuid, DECLINED);
    expect(declined.body.status).toBe('failed');
    await eventually(() => store.notes(order.id).some((n) => n.note.includes('failed')), 'a failure note on the order');
    expect(paidInStore(order.id)).toBe(false);

    await gw.call('POST', `/api/v1/test_helpers/payments/${created.body.payment_uuid}/confirm`, {
      key: merchant.testKey,
    });
    await untilPaid(order.id, created.body.payment_uuid);
    expect(store.order(order.id)?.transaction_id).toBe(created.body.payment_uuid);
    expect(setPaidCalls(order.id)).toBe(1);
  });

  it('never lets a failed payment downgrade a paid order', async () => {
    const order = store.addOrder({ total: '1200.00' });
    const created = await checkout(order.id);
    await pay(created.body.payment_uuid);
    await untilPaid(order.id, created.body.payment_uuid);
    // A (signed) event claiming failure: the read-back says completed, so nothing changes.
    const event = await statusEvent(created.body.payment_uuid, 'dlv_stale_failure');
    event.transaction.status = 'failed';
    const answer = await postWebhook(signedDelivery(event));
    expect(answer.status).toBe(200);
    expect(store.order(order.id)?.status).toBe('processing');
    expect(store.notes(order.id).some((n) => n.note.includes('failed'))).toBe(false);
  });

  it('retries marking the order paid with backoff when the store fails', async () => {
    const order = store.addOrder({ total: '1800.00' });
    const created = await checkout(order.id);
    // The read of the order before set_paid fails, then the first retry's read fails too.
    store.failNext(2, 503, { method: 'GET', route: new RegExp(`^orders/${order.id}$`) });
    await pay(created.body.payment_uuid);
    await eventually(async () => {
      const link = await connector
        .current()
        .deps.db.selectFrom('order_links')
        .select(['store_sync', 'sync_attempts'])
        .where('store_order_id', '=', String(order.id))
        .where('connection_id', '=', connectionId)
        .executeTakeFirst();
      return link?.store_sync === 'pending' && link.sync_attempts === 1;
    }, 'the failed store call to be scheduled again');
    expect(paidInStore(order.id)).toBe(false);

    // Not due yet: nothing runs.
    await connector.runDueWork();
    expect(paidInStore(order.id)).toBe(false);
    gw.clock.advance(61_000);
    await connector.runDueWork(); // the second failure: next try in five minutes
    expect(paidInStore(order.id)).toBe(false);
    gw.clock.advance(5 * 60_000 + 1_000);
    await connector.runDueWork();
    expect(paidInStore(order.id)).toBe(true);
    expect(setPaidCalls(order.id)).toBe(1);
  });

  it('ends in a paid order when the webhook is lost: polling reads the payment back', async () => {
    const order = store.addOrder({ total: '2200.00' });
    const created = await checkout(order.id);
    await connector.stop(); // every delivery attempt now fails; the gateway retries later
    await pay(created.body.payment_uuid);
    // The first attempt must have failed before the connector is back, or it could still arrive.
    await eventually(async () => {
      const events = await gw.call<{ data: { deliveries: { attempts: number; last_error: string | null }[] }[] }>(
        'GET',
        `/api/v1/payments/${created.body.payment_uuid}/events`,
        { key: merchant.testKey },
      );
      return events.body.data.some((e) => e.deliveries.some((d) => d.attempts > 0 && d.last_error !== null));
    }, 'the first delivery attempt to fail');
    await connector.start();
    expect(paidInStore(order.id)).toBe(false);
    gw.clock.advance(3 * 60_000);
    await connector.runDueWork();
    expect(paidInStore(order.id)).toBe(true);
    expect(store.order(order.id)?.transaction_id).toBe(created.body.payment_uuid);
    // The gateway's retry of the lost delivery arrives later and changes nothing.
    await gw.call('POST', '/api/v1/test_helpers/clock/advance', { key: merchant.testKey, body: { seconds: 60 } });
    await eventually(async () => {
      const events = await gw.call<{ data: { deliveries: { status: string }[] }[] }>(
        'GET',
        `/api/v1/payments/${created.body.payment_uuid}/events`,
        { key: merchant.testKey },
      );
      return events.body.data.some((e) => e.deliveries.some((d) => d.status === 'delivered'));
    }, 'the retried delivery');
    expect(setPaidCalls(order.id)).toBe(1);
  });

  it('reflects a refund made at the gateway in the store once, without refunding money again', async () => {
    const order = store.addOrder({ total: '5000.00' });
    const created = await checkout(order.id);
    await pay(created.body.payment_uuid);
    await untilPaid(order.id, created.body.payment_uuid);

    const refund = await gw.call<{ uuid: string }>('POST', `/api/v1/payments/${created.body.payment_uuid}/refund`, {
      key: merchant.testKey,
      body: { amount: 1500, reason: 'damaged' },
      headers: { 'Idempotency-Key': `gateway-refund-${order.id}` },
    });
    expect(refund.status).toBe(201);
    await eventually(() => store.refunds(order.id).length === 1, 'the refund in the store');
    const recorded = store.refunds(order.id)[0];
    expect(recorded?.amount).toBe('1500.00');
    expect(recorded?.reason).toContain(refund.body.uuid);
    expect(recorded?.meta_data).toEqual(
      expect.arrayContaining([expect.objectContaining({ key: '_gateway_refund_uuid', value: refund.body.uuid })]),
    );
    expect(store.gatewayRefundRequests).toBe(0);

    // Reading the refund news again (a new delivery id) records nothing more.
    const payment = (await gw.call('GET', `/api/v1/payments/${created.body.payment_uuid}`, { key: merchant.testKey }))
      .body;
    const again = signedDelivery({
      ...(await statusEvent(created.body.payment_uuid, 'dlv_refund_again')),
      event: 'payment.refunded',
      refund: { uuid: refund.body.uuid, amount: 1500, reason: 'damaged' },
      transaction: {
        ...(await statusEvent(created.body.payment_uuid, 'x')).transaction,
        refunded_amount: payment.refunded_amount,
      },
    });
    expect((await postWebhook(again)).status).toBe(200);
    expect(store.refunds(order.id)).toHaveLength(1);
  });

  it('sends a refund started in the store admin to the gateway, and does not record it twice', async () => {
    const order = store.addOrder({ total: '4000.00' });
    const created = await checkout(order.id);
    await pay(created.body.payment_uuid);
    await untilPaid(order.id, created.body.payment_uuid);

    // WooCommerce creates its refund object first, then calls the gateway's process_refund.
    const wcRefund = store.adminRefund(order.id, { amount: '1000.00', reason: 'customer asked' });
    const refunded = await plugin<Record<string, unknown>>('POST', `/v1/orders/${order.id}/refunds`, {
      amount: 1000,
      reason: 'customer asked',
      store_refund_id: String(wcRefund.id),
    });
    expect(refunded.status).toBe(201);
    expect(refunded.body).toMatchObject({
      payment_uuid: created.body.payment_uuid,
      amount: 1000,
      status: 'succeeded',
      refunded_amount: 1000,
    });
    // A retry of the same store refund refunds nothing more.
    const retried = await plugin<Record<string, unknown>>('POST', `/v1/orders/${order.id}/refunds`, {
      amount: 1000,
      reason: 'customer asked',
      store_refund_id: String(wcRefund.id),
    });
    expect(retried.status).toBe(201);
    expect(retried.body.refund_uuid).toBe(refunded.body.refund_uuid);
    expect(retried.body.refunded_amount).toBe(1000);

    // The gateway's refund webhook is recognised as the store's own refund.
    await eventually(async () => {
      const events = await gw.call<{ data: { event: string; deliveries: { status: string }[] }[] }>(
        'GET',
        `/api/v1/payments/${created.body.payment_uuid}/events`,
        { key: merchant.testKey },
      );
      return events.body.data.some(
        (e) => e.event === 'payment.refunded' && e.deliveries.every((d) => d.status === 'delivered'),
      );
    }, 'the refund webhook to be delivered');
    expect(store.refunds(order.id)).toHaveLength(1);

    const tooMuch = await plugin('POST', `/v1/orders/${order.id}/refunds`, { amount: 99_999 });
    expect(tooMuch.status).toBe(422);
  });

  it('refuses bad, replayed and misdirected webhooks', async () => {
    const order = store.addOrder({ total: '900.00' });
    const created = await checkout(order.id);
    const event = await statusEvent(created.body.payment_uuid, 'dlv_bad_1');

    const forged = signedDelivery(event);
    forged.headers['X-Service-Signature'] = 'f'.repeat(64);
    delete forged.headers['webhook-signature'];
    expect((await postWebhook(forged)).status).toBe(400);

    const unsigned = await connector.call('POST', `/v1/webhooks/gateway/${connectionId}`, {
      rawBody: JSON.stringify(event),
      headers: { 'Content-Type': 'application/json' },
    });
    expect(unsigned.status).toBe(400);

    const tampered = signedDelivery(event);
    tampered.rawBody = tampered.rawBody.replace('"amount":900', '"amount":9');
    expect((await postWebhook(tampered)).status).toBe(400);

    const captured = signedDelivery({ ...event, delivery_id: 'dlv_replayed' });
    gw.clock.advance(10 * 60_000);
    const replayed = await postWebhook(captured);
    expect(replayed.status).toBe(400);
    expect(replayed.body.message).toContain('stale_timestamp');

    const live = signedDelivery({ ...event, delivery_id: 'dlv_live', livemode: true });
    expect((await postWebhook(live)).status).toBe(400);

    expect((await postWebhook(signedDelivery(event), '00000000-0000-4000-8000-000000000000')).status).toBe(404);
    expect(paidInStore(order.id)).toBe(false);
  });

  it('refuses wrong and revoked connect tokens', async () => {
    const wrong = await connector.call('GET', '/v1/connection', { token: 'not-a-token' });
    expect(wrong.status).toBe(401);
    expect(wrong.body.error).toBe('invalid_connect_token');
    const missing = await connector.call('GET', '/v1/connection');
    expect(missing.status).toBe(401);

    const other = await createConnectToken(gw.gateway.deps, {
      merchantId: merchant.merchantId,
      domain: merchant.hostedDomain,
      platform: 'woocommerce',
    });
    const otherStore = await startFakeWooCommerce({ testCallbacks: LOOPBACK_TEST_CALLBACKS });
    try {
      const registered = await connector.call<Record<string, string>>('POST', '/v1/connections', {
        token: other.connect_token,
        body: { store_url: otherStore.url },
      });
      expect(registered.status).toBe(201);
      await otherStore.approve(registered.body.authorize_url as string);
      const { revokeConnectToken } = await import('../../gateway/connect/connect-token.service.js');
      await revokeConnectToken(gw.gateway.deps, other.id);
      gw.clock.advance(10_000); // past the gateway's few-second cache of token checks
      const order = otherStore.addOrder({ total: '700.00' });
      const refused = await connector.call('POST', `/v1/orders/${order.id}/payment`, {
        token: other.connect_token,
        body: { return_url: `${otherStore.url}/done`, cancel_url: `${otherStore.url}/cart` },
      });
      expect(refused.status).toBe(401);
      expect(refused.body.error).toBe('invalid_connect_token');
    } finally {
      await otherStore.close();
    }
  });

  it('keeps two stores apart even when their order numbers are the same', async () => {
    const second = await createConnectToken(gw.gateway.deps, {
      merchantId: merchant.merchantId,
      domain: merchant.hostedDomain,
      platform: 'woocommerce',
    });
    const secondStore = await startFakeWooCommerce({ testCallbacks: LOOPBACK_TEST_CALLBACKS });
    try {
      const registered = await connector.call<Record<string, string>>('POST', '/v1/connections', {
        token: second.connect_token,
        body: { store_url: secondStore.url },
      });
      await secondStore.approve(registered.body.authorize_url as string);
      const mine = store.addOrder({ total: '600.00' });
      let theirs = secondStore.addOrder({ total: '650.00' });
      while (theirs.id < mine.id) theirs = secondStore.addOrder({ total: '650.00' });
      expect(theirs.id).toBe(mine.id);

      const a = await checkout(mine.id);
      const b = await connector.call<OrderPaymentBody>('POST', `/v1/orders/${theirs.id}/payment`, {
        token: second.connect_token,
        body: { return_url: `${secondStore.url}/done`, cancel_url: `${secondStore.url}/cart` },
      });
      expect(a.status).toBe(201);
      expect(b.status).toBe(201);
      expect(a.body.gateway_order_id).not.toBe(b.body.gateway_order_id);
      expect(b.body.amount).toBe(650);
      await pay(b.body.payment_uuid);
      await untilPaid(theirs.id, b.body.payment_uuid, secondStore);
      expect(paidInStore(mine.id)).toBe(false);
    } finally {
      await secondStore.close();
    }
  });

  it('refuses an order whose total is not whole AMD', async () => {
    const order = store.addOrder({ total: '1500.50' });
    const answer = await checkout(order.id);
    expect(answer.status).toBe(422);
    expect(answer.body).toMatchObject({ error: 'unsupported_amount' });
    const usd = store.addOrder({ total: '15.00', currency: 'USD' });
    expect((await checkout(usd.id)).body).toMatchObject({ error: 'unsupported_amount' });
    expect(
      (await plugin('POST', '/v1/orders/999999/payment', { return_url: 'https://a.am', cancel_url: 'https://a.am' }))
        .status,
    ).toBe(404);
    const invalid = await plugin('POST', `/v1/orders/${order.id}/payment`, { return_url: 'javascript:alert(1)' });
    expect(invalid.status).toBe(422);
    expect(invalid.body.errors).toHaveProperty('return_url');
    expect(invalid.body.errors).toHaveProperty('cancel_url');
  });

  it('reconciles: repairs an order the gateway paid, flags paid-in-store-only, paid twice and refund mismatches', async () => {
    // The store dates its orders by its own (wall) clock.
    const from = new Date(Date.now() - 60_000).toISOString();
    // 1. Paid at the gateway, webhook lost (no callback), never polled: repaired.
    const lost = store.addOrder({ total: '1100.00' });
    const lostPayment = await gw.call<{ uuid: string }>('POST', '/api/v1/payments', {
      headers: { 'X-Service-Connect': token },
      body: { amount: 1100, order_id: gatewayOrderId(lost.id), return_url: `${store.url}/done` },
    });
    await pay(lostPayment.body.uuid);
    // 2. Paid in the store by hand, nothing at the gateway.
    const manual = store.addOrder({ total: '1300.00', date_paid_gmt: '2026-11-21T10:00:00', status: 'processing' });
    // 3. Paid twice: a declined payment, a second one paid, then the first confirmed late.
    const twice = store.addOrder({ total: '1400.00' });
    const firstTry = await checkout(twice.id);
    await pay(firstTry.body.payment_uuid, DECLINED);
    const secondTry = await checkout(twice.id);
    expect(secondTry.status, JSON.stringify(secondTry.body)).toBe(201);
    await pay(secondTry.body.payment_uuid);
    await untilPaid(twice.id, secondTry.body.payment_uuid);
    await gw.call('POST', `/api/v1/test_helpers/payments/${firstTry.body.payment_uuid}/confirm`, {
      key: merchant.testKey,
    });
    await eventually(() => store.notes(twice.id).some((n) => n.note.includes('also completed')), 'the paid-twice note');
    // 4. Refunded in the store only.
    const refundedHere = store.addOrder({ total: '1600.00' });
    const paidThere = await checkout(refundedHere.id);
    await pay(paidThere.body.payment_uuid);
    await untilPaid(refundedHere.id, paidThere.body.payment_uuid);
    store.adminRefund(refundedHere.id, { amount: '600.00', reason: 'partial return' });

    const to = new Date(Date.now() + 60_000).toISOString();
    const report = await plugin<{
      id: string;
      orders_checked: number;
      findings: { kind: string; store_order_id: string; payment_uuid: string | null; action: string }[];
    }>('POST', '/v1/reconciliation', { from, to, repair: true });
    expect(report.status).toBe(201);
    const byOrder = (id: number) => report.body.findings.filter((f) => f.store_order_id === String(id));
    expect(byOrder(lost.id)).toEqual([
      expect.objectContaining({
        kind: 'paid_at_gateway_unpaid_in_store',
        action: 'repaired',
        payment_uuid: lostPayment.body.uuid,
      }),
    ]);
    expect(paidInStore(lost.id)).toBe(true);
    expect(byOrder(manual.id)).toEqual([
      expect.objectContaining({ kind: 'paid_in_store_not_at_gateway', action: 'flagged' }),
    ]);
    expect(byOrder(twice.id)).toEqual([
      expect.objectContaining({ kind: 'paid_twice', action: 'flagged', payment_uuid: firstTry.body.payment_uuid }),
    ]);
    expect(byOrder(refundedHere.id)).toEqual([expect.objectContaining({ kind: 'refund_mismatch', action: 'flagged' })]);
    expect(report.body.orders_checked).toBeGreaterThanOrEqual(4);

    // The report is kept and can be read again.
    const kept = await plugin<{ findings: unknown[] }>('GET', `/v1/reconciliation/${report.body.id}`);
    expect(kept.body.findings).toEqual(report.body.findings);

    // A second run finds the repaired order in order.
    const rerun = await plugin<{ findings: { store_order_id: string }[] }>('POST', '/v1/reconciliation', { from, to });
    expect(rerun.body.findings.some((f) => f.store_order_id === String(lost.id))).toBe(false);
  });
  it('lists connections and reconciles from the command line', async () => {
    const list = await connectorCli(connector.env, 'connection', 'list', '--json');
    expect(list.code).toBe(0);
    const { connections } = JSON.parse(list.stdout) as { connections: Record<string, string>[] };
    expect(connections).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          connection_id: connectionId,
          platform: 'woocommerce',
          status: 'active',
          environment: 'test',
        }),
      ]),
    );
    expect(list.stdout).not.toContain(token);

    const from = new Date(Date.now() - 3_600_000).toISOString();
    const to = new Date(Date.now() + 60_000).toISOString();
    const run = await connectorCli(
      connector.env,
      'reconcile',
      '--connection',
      connectionId,
      '--from',
      from,
      '--to',
      to,
      '--json',
    );
    expect(run.code).toBe(0);
    const report = JSON.parse(run.stdout) as { orders_checked: number; repair: boolean; findings: { kind: string }[] };
    expect(report.repair).toBe(false);
    expect(report.orders_checked).toBeGreaterThan(5);
    expect(report.findings.map((f) => f.kind)).toEqual(
      expect.arrayContaining(['paid_in_store_not_at_gateway', 'paid_twice']),
    );

    const unknown = await connectorCli(connector.env, 'reconcile', '--connection', 'nope', '--from', from, '--to', to);
    expect(unknown.code).toBe(1);
    const backwards = await connectorCli(
      connector.env,
      'reconcile',
      '--connection',
      connectionId,
      '--from',
      to,
      '--to',
      from,
    );
    expect(backwards.code).toBe(2);
  }, 60_000);

  it('refuses an expired connect token (run last: it moves the clock a day on)', async () => {
    const shortLived = await createConnectToken(gw.gateway.deps, {
      merchantId: merchant.merchantId,
      domain: merchant.hostedDomain,
      platform: 'woocommerce',
      expiresInDays: 1,
    });
    const shortStore = await startFakeWooCommerce({ testCallbacks: LOOPBACK_TEST_CALLBACKS });
    try {
      const registered = await connector.call<Record<string, string>>('POST', '/v1/connections', {
        token: shortLived.connect_token,
        body: { store_url: shortStore.url },
      });
      expect(registered.status).toBe(201);
      await shortStore.approve(registered.body.authorize_url as string);
      gw.clock.advance(25 * 3_600_000);
      const order = shortStore.addOrder({ total: '500.00' });
      const refused = await connector.call('POST', `/v1/orders/${order.id}/payment`, {
        token: shortLived.connect_token,
        body: { return_url: `${shortStore.url}/done`, cancel_url: `${shortStore.url}/cart` },
      });
      expect(refused.status).toBe(401);
      expect(refused.body.error).toBe('invalid_connect_token');
    } finally {
      await shortStore.close();
    }
  });
  it('notes an expired payment on the order and leaves the order unpaid', async () => {
    const order = store.addOrder({ total: '800.00' });
    const created = await checkout(order.id);
    await gw.call('POST', '/api/v1/test_helpers/clock/advance', { key: merchant.testKey, body: { seconds: 21 * 60 } });
    await eventually(
      () => store.notes(order.id).some((n) => n.note.includes(`${created.body.payment_uuid} expired`)),
      'the expiry note',
    );
    expect(paidInStore(order.id)).toBe(false);
    expect((await plugin('GET', `/v1/orders/${order.id}/payment`)).body).toMatchObject({
      status: 'expired',
      paid: false,
    });
  });

  it('follows a rotation of the webhook secret: during it and after the old secret is retired', async () => {
    const rotation = await rotateWebhookSecret(gw.gateway.deps, {
      merchantId: merchant.merchantId,
      host: merchant.hostedDomain,
    });
    const storedSecrets = async () => {
      const deps = connector.current().deps;
      const row = await findConnection(deps.db, connectionId);
      return row === undefined ? [] : webhookSecretsOf(deps, row);
    };
    expect(await storedSecrets()).toEqual([domainSecret]);
    const during = store.addOrder({ total: '910.00' });
    const first = await checkout(during.id);
    await pay(first.body.payment_uuid);
    await untilPaid(during.id, first.body.payment_uuid);

    // A day later only the new secret signs; the connector fetches it on the first mismatch.
    await gw.call('POST', '/api/v1/test_helpers/clock/advance', { key: merchant.testKey, body: { seconds: 86_400 } });
    const after = store.addOrder({ total: '920.00' });
    const second = await checkout(after.id);
    await pay(second.body.payment_uuid);
    await untilPaid(after.id, second.body.payment_uuid);
    expect(await storedSecrets()).toEqual([rotation.webhook_secret_next]);
  });
});
