/**
 * A store is one store for ever, on both databases: its connection (and so the gateway order ids
 * and webhook addresses of its orders) survives a replaced connect token and a removal followed by
 * a new connection. After either, every earlier order stays visible in the order panel, refundable
 * and reconcilable; an order paid while the connection was removed ends paid once the store is
 * connected again; the replaced token reaches nothing.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { OrderPaymentResponse } from '../../connector/orders/order.service.js';
import { createConnectToken, revokeConnectToken } from '../../gateway/connect/connect-token.service.js';
import { startTestConnector, type TestConnector } from '../support/connector.js';
import { DIALECTS } from '../support/databases.js';
import { eventually } from '../support/eventually.js';
import { type FakeWooCommerce, LOOPBACK_TEST_CALLBACKS, startFakeWooCommerce } from '../support/fake-woocommerce.js';
import { startTestGateway, type TestGateway, type TestMerchant } from '../support/gateway.js';

type Json = Record<string, unknown>;
type Finding = { kind: string; store_order_id: string; action: string };

describe.each(DIALECTS)('a store keeps its connection (%s)', (dialect) => {
  let gw: TestGateway;
  let store: FakeWooCommerce;
  let connector: TestConnector;
  let merchant: TestMerchant;

  const newToken = async () =>
    createConnectToken(gw.gateway.deps, {
      merchantId: merchant.merchantId,
      domain: merchant.hostedDomain,
      platform: 'woocommerce',
    });
  const as = (token: string) => ({
    call: <T = Json>(method: string, path: string, body?: unknown) =>
      connector.call<T>(method, path, { token, ...(body === undefined ? {} : { body }) }),
  });
  const checkout = (token: string, orderId: number) =>
    as(token).call<OrderPaymentResponse>('POST', `/v1/orders/${orderId}/payment`, {
      return_url: `${store.url}/?wc-api=wc_armenian_gateway&order_id=${orderId}`,
      cancel_url: `${store.url}/cart/`,
    });
  const pay = (uuid: string) =>
    gw.call('POST', `/api/v1/test_helpers/payments/${uuid}/pay`, {
      key: merchant.testKey,
      body: { card_number: '4111 1111 1111 1111' },
    });
  const paidNotes = (orderId: number, uuid: string) => store.notes(orderId).filter((n) => n.note.includes(uuid)).length;
  const untilPaid = (orderId: number, uuid: string) =>
    eventually(
      () => store.order(orderId)?.date_paid_gmt != null && paidNotes(orderId, uuid) > 0,
      `order ${orderId} to be marked paid by ${uuid}`,
    );
  async function tickUntil(done: () => boolean, what: string): Promise<void> {
    for (let i = 0; i < 20 && !done(); i++) {
      gw.clock.advance(60_000);
      await connector.runDueWork();
    }
    await eventually(done, what);
  }

  beforeAll(async () => {
    gw = await startTestGateway(dialect, {
      env: { GATEWAY_ALLOW_PRIVATE_WEBHOOKS: '1', GATEWAY_CLOCK: 'manual', GATEWAY_RATE_LIMIT_PER_MINUTE: '100000' },
    });
    store = await startFakeWooCommerce({ testCallbacks: LOOPBACK_TEST_CALLBACKS });
    connector = await startTestConnector(dialect, gw);
    merchant = await gw.merchant();
  }, 60_000);

  afterAll(async () => {
    await connector?.close();
    await store?.close();
    await gw?.close();
  });

  it('keeps its connection, orders and keys when its connect token is replaced', async () => {
    const first = await newToken();
    const registered = await as(first.connect_token).call<Json>('POST', '/v1/connections', { store_url: store.url });
    expect(registered.status).toBe(201);
    const connectionId = String(registered.body.connection_id);
    await store.approve(String(registered.body.authorize_url));

    const paidOrder = store.addOrder({ total: '3000.00' });
    const created = await checkout(first.connect_token, paidOrder.id);
    expect(created.status).toBe(201);
    await pay(created.body.payment_uuid);
    await untilPaid(paidOrder.id, created.body.payment_uuid);
    const from = new Date(Date.now() - 60_000).toISOString();

    // The owner pastes a new token (the old one expires, or leaked) and revokes the old one.
    const second = await newToken();
    await revokeConnectToken(gw.gateway.deps, first.id);
    const replaced = await as(second.connect_token).call<Json>('POST', '/v1/connections', { store_url: store.url });
    expect(replaced.status).toBe(200);
    expect(replaced.body).toMatchObject({ connection_id: connectionId, status: 'active' });
    expect(replaced.body.authorize_url).toBeUndefined();

    const plugin = as(second.connect_token);
    const panel = await plugin.call<Json>('GET', `/v1/orders/${paidOrder.id}/payment`);
    expect(panel.status).toBe(200);
    expect(panel.body).toMatchObject({ payment_uuid: created.body.payment_uuid, status: 'completed', paid: true });

    const wcRefund = store.adminRefund(paidOrder.id, { amount: '500.00', reason: 'a broken cup' });
    const refund = await plugin.call<Json>('POST', `/v1/orders/${paidOrder.id}/refunds`, {
      amount: 500,
      reason: 'a broken cup',
      store_refund_id: String(wcRefund.id),
    });
    expect(refund.status, JSON.stringify(refund.body)).toBe(201);
    expect(refund.body).toMatchObject({ payment_uuid: created.body.payment_uuid, refunded_amount: 500 });

    const to = new Date(Date.now() + 60_000).toISOString();
    const report = await plugin.call<{ findings: Finding[] }>('POST', '/v1/reconciliation', { from, to });
    expect(report.status).toBe(201);
    expect(report.body.findings.filter((f) => f.store_order_id === String(paidOrder.id))).toEqual([]);
    expect(store.notes(paidOrder.id).some((n) => /not at the gateway/i.test(n.note))).toBe(false);

    // A new order is paid under the same connection, with the keys it had.
    const next = store.addOrder({ total: '1200.00' });
    const nextPayment = await checkout(second.connect_token, next.id);
    expect(nextPayment.status).toBe(201);
    expect(nextPayment.body.gateway_order_id).toBe(`wc-${connectionId}-${next.id}`);

    // The replaced token reaches nothing.
    const old = await as(first.connect_token).call<Json>('GET', '/v1/connection');
    expect(old.status).toBe(401);
  });

  it('is the same store when connected again after a removal, and an order paid meanwhile ends paid once', async () => {
    const shop = await startFakeWooCommerce({ testCallbacks: LOOPBACK_TEST_CALLBACKS });
    try {
      const token = (await newToken()).connect_token;
      const registered = await as(token).call<Json>('POST', '/v1/connections', { store_url: shop.url });
      const connectionId = String(registered.body.connection_id);
      await shop.approve(String(registered.body.authorize_url));
      const order = shop.addOrder({ total: '2500.00' });
      const created = await as(token).call<OrderPaymentResponse>('POST', `/v1/orders/${order.id}/payment`, {
        return_url: `${shop.url}/?wc-api=wc_armenian_gateway&order_id=${order.id}`,
        cancel_url: `${shop.url}/cart/`,
      });
      expect(created.status).toBe(201);

      // The owner removes the connection; the buyer pays while it is removed.
      expect((await as(token).call('DELETE', '/v1/connection')).status).toBe(200);
      await pay(created.body.payment_uuid);
      await connector.runDueWork();
      expect(shop.order(order.id)?.date_paid_gmt ?? null).toBeNull();

      // Connected again (with a new token): the same connection, through the key exchange.
      const again = (await newToken()).connect_token;
      const back = await as(again).call<Json>('POST', '/v1/connections', { store_url: shop.url });
      expect(back.status).toBe(200);
      expect(back.body).toMatchObject({ connection_id: connectionId, status: 'awaiting_keys' });
      await shop.approve(String(back.body.authorize_url));
      await tickUntil(
        () =>
          shop.order(order.id)?.date_paid_gmt != null &&
          shop.notes(order.id).some((n) => n.note.includes(created.body.payment_uuid)),
        `order ${order.id} to be marked paid after the store came back`,
      );
      expect(shop.notes(order.id).filter((n) => n.note.includes(created.body.payment_uuid))).toHaveLength(1);
      const panel = await as(again).call<Json>('GET', `/v1/orders/${order.id}/payment`);
      expect(panel.body).toMatchObject({ payment_uuid: created.body.payment_uuid, paid: true });
    } finally {
      await shop.close();
    }
  });

  it('marks an order paid once when it is paid after the store connected again but before it granted keys', async () => {
    const shop = await startFakeWooCommerce({ testCallbacks: LOOPBACK_TEST_CALLBACKS });
    try {
      const token = (await newToken()).connect_token;
      const registered = await as(token).call<Json>('POST', '/v1/connections', { store_url: shop.url });
      await shop.approve(String(registered.body.authorize_url));
      const order = shop.addOrder({ total: '1800.00' });
      const created = await as(token).call<OrderPaymentResponse>('POST', `/v1/orders/${order.id}/payment`, {
        return_url: `${shop.url}/?wc-api=wc_armenian_gateway&order_id=${order.id}`,
        cancel_url: `${shop.url}/cart/`,
      });
      expect(created.status).toBe(201);
      expect((await as(token).call('DELETE', '/v1/connection')).status).toBe(200);

      // Connected again, the keys not granted yet: the buyer pays and the webhook arrives now.
      const again = (await newToken()).connect_token;
      const back = await as(again).call<Json>('POST', '/v1/connections', { store_url: shop.url });
      expect(back.body).toMatchObject({ status: 'awaiting_keys' });
      await pay(created.body.payment_uuid);
      await eventually(async () => {
        const panel = await as(again).call<Json>('GET', `/v1/orders/${order.id}/payment`);
        return panel.body.paid === true;
      }, 'the webhook to record the payment');
      await connector.runDueWork();
      expect(shop.order(order.id)?.date_paid_gmt ?? null).toBeNull();

      // Marking it paid waited for the keys, not given up on: once granted, it is marked, once.
      await shop.approve(String(back.body.authorize_url));
      await tickUntil(
        () => shop.notes(order.id).some((n) => n.note.includes(created.body.payment_uuid)),
        `order ${order.id} to be marked paid once the keys came`,
      );
      expect(shop.order(order.id)?.date_paid_gmt).not.toBeNull();
      expect(shop.notes(order.id).filter((n) => n.note.includes(created.body.payment_uuid))).toHaveLength(1);
      const report = await as(again).call<{ findings: Finding[] }>('POST', '/v1/reconciliation', {
        from: new Date(gw.clock.nowMs() - 3_600_000).toISOString(),
        to: new Date(gw.clock.nowMs() + 60_000).toISOString(),
      });
      expect(report.body.findings.filter((f) => f.store_order_id === String(order.id))).toEqual([]);
    } finally {
      await shop.close();
    }
  });
});
