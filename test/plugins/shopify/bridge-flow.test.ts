/**
 * The manual-payment bridge end to end: a real gateway, a real connector with the Shopify app on,
 * the fake Shopify OAuth (install, tokens, signed webhooks) and the fake Admin GraphQL API (orders).
 * Install -> settings with a shopify connect token -> orders/create -> one gateway payment -> the
 * buyer pays -> the gateway's webhook -> orderMarkAsPaid once; refunds both ways, each once.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../../support/databases.js';
import { eventually } from '../../support/eventually.js';
import type { FakeShopifyAdmin } from '../../support/fake-shopify-admin.js';
import type { TestGateway, TestMerchant } from '../../support/gateway.js';
import {
  type BridgeHarness,
  bridgeFixture as fixtureOf,
  METHOD,
  sessionToken,
  startBridgeHarness,
} from './bridge-support.js';
import type { ShopifyHarness } from './install-support.js';

// biome-ignore lint/suspicious/noExplicitAny: JSON answers read field by field
type Json = Record<string, any>;

const SHOP = 'bridge-shop.myshopify.com';
const bridgeFixture = (name: string, values: Record<string, string>) => fixtureOf(name, SHOP, values);

describe.each(DIALECTS)('Shopify manual-payment bridge (%s)', (dialect) => {
  let bridge: BridgeHarness;
  let gw: TestGateway;
  let h: ShopifyHarness;
  let admin: FakeShopifyAdmin;
  let merchant: TestMerchant;
  let shopifyToken: string;
  let wooToken: string;

  const api = (method: string, path: string, body?: unknown, token?: string) => bridge.api(method, path, body, token);
  const webhook = (topic: string, body: Json, webhookId?: string) => bridge.webhook(topic, body, webhookId);
  const orderCreated = (order: { id: number; name: string }, overrides: Json = {}) =>
    bridge.orderCreated(order, overrides);
  const pay = (uuid: string) => bridge.pay(uuid);
  const db = () => h.connector.current().deps.db;
  const count = (name: string) => bridge.count(name);

  beforeAll(async () => {
    bridge = await startBridgeHarness(dialect, SHOP);
    ({ gw, h, admin, merchant, shopifyToken, wooToken } = bridge);
  }, 60_000);

  afterAll(async () => {
    await bridge?.close();
  });

  it('refuses missing, forged, expired and foreign session tokens with 401', async () => {
    const none = await h.connector.call<Json>('GET', '/shopify/api/settings');
    expect(none.status).toBe(401);
    expect(none.body.error).toBe('invalid_session_token');
    const forged = await api('GET', '/settings', undefined, sessionToken(SHOP, gw.clock.nowMs(), {}, 'shpss_wrong'));
    expect(forged.status).toBe(401);
    const foreign = await api('GET', '/settings', undefined, sessionToken(SHOP, gw.clock.nowMs(), { aud: 'other' }));
    expect(foreign.status).toBe(401);
    const expired = await api('GET', '/settings', undefined, sessionToken(SHOP, gw.clock.nowMs(), { exp: 1000 }));
    expect(expired.status).toBe(401);
    expect(JSON.stringify(expired.body)).not.toContain('eyJ');
    const fine = await api('GET', '/settings');
    expect(fine.status).toBe(200);
    expect(fine.body).toMatchObject({ shop: SHOP, install: { status: 'installed' }, connection: null });
  });

  it('refuses a woocommerce token and connects with a shopify token, active at once', async () => {
    const settings = { way: 'manual_bridge', manual_method_name: METHOD, test_mode: true };
    const woo = await api('PUT', '/settings', { ...settings, connect_token: wooToken });
    expect(woo.status).toBe(422);
    expect(woo.body.error).toBe('unsupported_platform');
    const saved = await api('PUT', '/settings', { ...settings, connect_token: shopifyToken });
    expect(saved.status).toBe(200);
    expect(saved.body.connection).toMatchObject({
      platform: 'shopify',
      status: 'active',
      store_url: `https://${SHOP}`,
    });
    expect(saved.body.connection.authorize_url).toBeUndefined();
    expect(saved.body.settings).toEqual({
      way: 'manual_bridge',
      manual_method_name: METHOD,
      test_mode: true,
      api_version: '2026-07',
    });
    expect(JSON.stringify(saved.body)).not.toContain(shopifyToken);
  });

  it('orders/create makes one payment (also delivered twice), paid once after the gateway webhook', async () => {
    const order = admin.addOrder({ total: '12000.00', gateway: METHOD });
    const body = orderCreated(order);
    expect((await webhook('orders/create', body)).status).toBe(200);
    expect((await webhook('orders/create', body)).status).toBe(200);
    const link = await db()
      .selectFrom('order_links')
      .selectAll()
      .where('store_order_id', '=', String(order.id))
      .executeTakeFirstOrThrow();
    const payments = await db().selectFrom('order_payments').selectAll().where('link_id', '=', link.id).execute();
    expect(payments).toHaveLength(1);
    expect(link.gateway_order_id.startsWith('sh-')).toBe(true);
    const checkoutUrl = order.metafields.get('gateway.checkout_url') ?? '';
    expect(checkoutUrl).toMatch(/\/checkout\//);
    expect(order.note ?? '').toContain(checkoutUrl);

    const uuid = payments[0]?.uuid as string;
    expect((await pay(uuid)).status).toBe(200);
    await eventually(
      () => admin.financialStatus(order) === 'PAID' && (order.note ?? '').includes(`Gateway payment ${uuid}`),
      'the order to be marked paid',
    );
    expect(count('MarkOrderPaid')).toBe(1);

    const listed = await api('GET', '/orders?limit=5');
    expect(listed.status).toBe(200);
    expect(listed.body.data[0]).toMatchObject({
      order_id: String(order.id),
      paid: true,
      payment: { uuid, status: 'completed' },
    });
  });

  it("sends the buyer back to the order status page on the shop's myshopify domain, whatever domain Shopify wrote", async () => {
    const order = admin.addOrder({ total: '3000.00', gateway: METHOD });
    const path = `/548380009/orders/${order.id}abcd/authenticate?key=k${order.id}`;
    await webhook('orders/create', orderCreated(order, { order_status_url: `https://shop.example.am${path}` }));
    const checkoutUrl = new URL(order.metafields.get('gateway.checkout_url') ?? '');
    const cancel = await fetch(`${gw.url}${checkoutUrl.pathname}/cancel`, { redirect: 'manual' });
    expect(cancel.status).toBe(303);
    const back = new URL(cancel.headers.get('location') ?? '');
    expect(back.host).toBe(SHOP);
    expect(`${back.pathname}?key=${back.searchParams.get('key')}`).toBe(path);
  });

  it('ignores orders of another method, another currency, and notes a fractional total', async () => {
    const other = admin.addOrder({ total: '12000.00', gateway: 'Cash on Delivery (COD)' });
    await webhook('orders/create', orderCreated(other, { payment_gateway_names: ['Cash on Delivery (COD)'] }));
    const usd = admin.addOrder({ total: '12.00', gateway: METHOD, currency: 'USD' });
    await webhook('orders/create', orderCreated(usd, { currency: 'USD', total_price: '12.00' }));
    const fractional = admin.addOrder({ total: '12000.50', gateway: METHOD });
    await webhook('orders/create', orderCreated(fractional, { total_price: '12000.50' }));
    const links = await db()
      .selectFrom('order_links')
      .select('store_order_id')
      .where('store_order_id', 'in', [String(other.id), String(usd.id), String(fractional.id)])
      .execute();
    expect(links).toHaveLength(0);
    expect(fractional.note ?? '').toContain('whole AMD');
  });

  it('refunds/create refunds at the gateway once; a gateway refund is recorded on the order once', async () => {
    const order = admin.addOrder({ total: '12000.00', gateway: METHOD });
    await webhook('orders/create', orderCreated(order));
    const link = await db()
      .selectFrom('order_links')
      .selectAll()
      .where('store_order_id', '=', String(order.id))
      .executeTakeFirstOrThrow();
    const uuid = (
      await db().selectFrom('order_payments').select('uuid').where('link_id', '=', link.id).executeTakeFirstOrThrow()
    ).uuid;
    await pay(uuid);
    await eventually(() => admin.financialStatus(order) === 'PAID', 'paid');

    const refund = {
      ...bridgeFixture('refunds-create', { method: METHOD, amount: '5000.00' }),
      id: 909001,
      order_id: order.id,
    };
    expect((await webhook('refunds/create', refund)).status).toBe(200);
    expect((await webhook('refunds/create', refund)).status).toBe(200);
    const refunds = async () =>
      (await gw.call<{ data: Json[] }>('GET', `/api/v1/payments/${uuid}/refunds`, { key: merchant.testKey })).body.data;
    expect(await refunds()).toHaveLength(1);
    expect((await refunds())[0]?.amount).toBe(5000);

    // A refund made at the gateway: recorded on the Shopify order once, and its refunds/create ignored.
    const before = count('RecordGatewayRefund');
    const atGateway = await gw.call<Json>('POST', `/api/v1/payments/${uuid}/refund`, {
      key: merchant.testKey,
      body: { amount: 2000, reason: 'goodwill' },
    });
    expect(atGateway.status).toBeLessThan(300);
    await eventually(() => count('RecordGatewayRefund') === before + 1, 'the gateway refund to be recorded');
    const recorded = order.refunds.at(-1);
    expect(recorded?.note ?? '').toContain(`gateway refund ${atGateway.body.uuid}`);
    const echo = {
      ...bridgeFixture('refunds-create', { method: METHOD, amount: '2000.00' }),
      id: recorded?.id,
      order_id: order.id,
      note: recorded?.note,
    };
    expect((await webhook('refunds/create', echo)).status).toBe(200);
    expect(await refunds()).toHaveLength(2);
    expect(count('RecordGatewayRefund')).toBe(before + 1);
  });
});
