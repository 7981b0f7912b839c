/**
 * The manual-payment bridge end to end: a real gateway, a real connector with the Shopify app on,
 * the fake Shopify OAuth (install, tokens, signed webhooks) and the fake Admin GraphQL API (orders).
 * Install -> settings with a shopify connect token -> orders/create -> one gateway payment -> the
 * buyer pays -> the gateway's webhook -> orderMarkAsPaid once; refunds both ways, each once.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createConnectToken } from '../../../gateway/connect/connect-token.service.js';
import { startTestConnector } from '../../support/connector.js';
import { DIALECTS } from '../../support/databases.js';
import { eventually } from '../../support/eventually.js';
import { type FakeShopifyAdmin, startFakeShopifyAdmin } from '../../support/fake-shopify-admin.js';
import { type FakeShopifyApp, startFakeShopifyOAuth } from '../../support/fake-shopify-oauth.js';
import { startTestGateway, type TestGateway, type TestMerchant } from '../../support/gateway.js';
import {
  API_KEY,
  API_SECRET,
  bridgeFixture,
  install,
  ordersCreateBody,
  type ShopifyHarness,
  sessionToken,
} from './install-support.js';

// biome-ignore lint/suspicious/noExplicitAny: JSON answers read field by field
type Json = Record<string, any>;

const SHOP = 'bridge-shop.myshopify.com';
const METHOD = 'Card payment (Armenian gateway)';

describe.each(DIALECTS)('Shopify manual-payment bridge (%s)', (dialect) => {
  let gw: TestGateway;
  let h: ShopifyHarness;
  let admin: FakeShopifyAdmin;
  let merchant: TestMerchant;
  let shopifyToken: string;
  let wooToken: string;

  const api = (method: string, path: string, body?: unknown, token?: string) =>
    h.connector.call<Json>(method, `/shopify/api${path}`, {
      headers: { Authorization: `Bearer ${token ?? sessionToken(SHOP, gw.clock.nowMs())}` },
      ...(body === undefined ? {} : { body }),
    });
  const webhook = (topic: string, body: Json, webhookId?: string) =>
    h.fake.sendWebhook({
      url: `${h.connector.url}/shopify/webhooks`,
      topic,
      shop: SHOP,
      body,
      ...(webhookId === undefined ? {} : { webhookId }),
    });
  const orderCreated = (order: { id: number; name: string }, overrides: Json = {}) =>
    ordersCreateBody(SHOP, METHOD, order, overrides);
  const pay = (uuid: string) =>
    gw.call('POST', `/api/v1/test_helpers/payments/${uuid}/pay`, {
      key: merchant.testKey,
      body: { card_number: '4111 1111 1111 1111' },
    });
  const db = () => h.connector.current().deps.db;
  const count = (name: string) => admin.operations().filter((op) => op === name).length;

  beforeAll(async () => {
    gw = await startTestGateway(dialect, {
      env: { GATEWAY_ALLOW_PRIVATE_WEBHOOKS: '1', GATEWAY_CLOCK: 'manual', GATEWAY_RATE_LIMIT_PER_MINUTE: '100000' },
    });
    merchant = await gw.merchant({ domains: [SHOP], verifyDomains: true });
    shopifyToken = (
      await createConnectToken(gw.gateway.deps, { merchantId: merchant.merchantId, domain: SHOP, platform: 'shopify' })
    ).connect_token;
    wooToken = (
      await createConnectToken(gw.gateway.deps, {
        merchantId: merchant.merchantId,
        domain: SHOP,
        platform: 'woocommerce',
      })
    ).connect_token;
    const app: FakeShopifyApp = {
      apiKey: API_KEY,
      apiSecret: API_SECRET,
      redirectUri: '',
      scopes: ['read_orders', 'write_orders'],
    };
    const fake = await startFakeShopifyOAuth(app);
    admin = await startFakeShopifyAdmin({ shop: SHOP, acceptsToken: (token) => fake.isAccessToken(SHOP, token) });
    const shopFetch: typeof fetch = (input, init) => {
      const url = new URL(input instanceof Request ? input.url : String(input));
      return url.pathname.startsWith('/admin/api/') ? admin.fetch(url.href, init ?? {}) : fake.fetch(input, init);
    };
    const connector = await startTestConnector(dialect, gw, {
      env: { SHOPIFY_API_KEY: API_KEY, SHOPIFY_API_SECRET: API_SECRET, SHOPIFY_API_VERSION: '2025-10' },
      shopifyFetch: shopFetch,
    });
    app.redirectUri = `${connector.url}/shopify/auth/callback`;
    h = {
      connector,
      fake,
      app,
      async close() {
        await connector.close();
        await fake.close();
      },
    };
    await install(h, SHOP);
  }, 60_000);

  afterAll(async () => {
    await h?.close();
    await admin?.close();
    await gw?.close();
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
      api_version: '2025-10',
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
      ...bridgeFixture('refunds-create', SHOP, { method: METHOD, amount: '5000.00' }),
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
      ...bridgeFixture('refunds-create', SHOP, { method: METHOD, amount: '2000.00' }),
      id: recorded?.id,
      order_id: order.id,
      note: recorded?.note,
    };
    expect((await webhook('refunds/create', echo)).status).toBe(200);
    expect(await refunds()).toHaveLength(2);
    expect(count('RecordGatewayRefund')).toBe(before + 1);
  });
});
