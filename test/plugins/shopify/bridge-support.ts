/**
 * The manual-payment bridge's test setup: a real gateway (manual clock) with a merchant owning the
 * shop's domain, a real connector with the Shopify app on, the fake Shopify OAuth (install, tokens,
 * signed webhooks) and the fake Admin GraphQL API (orders), the shop installed. Also App Bridge
 * session tokens for the embedded API and the bridge's webhook fixtures.
 */
import { createConnectToken } from '../../../gateway/connect/connect-token.service.js';
import type { DialectName } from '../../../storage/database.js';
import { startTestConnector } from '../../support/connector.js';
import { type FakeShopifyAdmin, startFakeShopifyAdmin } from '../../support/fake-shopify-admin.js';
import { type FakeShopifyApp, startFakeShopifyOAuth } from '../../support/fake-shopify-oauth.js';
import { startTestGateway, type TestGateway, type TestMerchant } from '../../support/gateway.js';
import type { ApiResponse } from '../../support/http.js';
import {
  API_KEY,
  API_SECRET,
  install,
  ordersCreateBody,
  type ShopifyHarness,
  sessionToken,
} from './install-support.js';

export { bridgeFixture, sessionToken } from './install-support.js';

// biome-ignore lint/suspicious/noExplicitAny: JSON answers read field by field
type Json = Record<string, any>;

export const METHOD = 'Card payment (Armenian gateway)';
export const APPROVED_CARD = '4111 1111 1111 1111';

export interface BridgeHarness {
  readonly shop: string;
  readonly gw: TestGateway;
  readonly h: ShopifyHarness;
  readonly admin: FakeShopifyAdmin;
  readonly merchant: TestMerchant;
  /** Connect tokens of the merchant for the shop's domain: `shopify` and `woocommerce` platform. */
  readonly shopifyToken: string;
  readonly wooToken: string;
  /** The embedded API (`/shopify/api<path>`) with a fresh session token of the shop, or `token`. */
  api(method: string, path: string, body?: unknown, token?: string): Promise<ApiResponse<Json>>;
  /** Shopify delivers a signed webhook of the shop to the connector. */
  webhook(topic: string, body: Json, webhookId?: string): ReturnType<ShopifyHarness['fake']['sendWebhook']>;
  /** The `orders/create` body of a fake Admin order, paid with the bridge's method. */
  orderCreated(order: { id: number; name: string }, overrides?: Json): Json;
  /** The buyer pays the sandbox payment with the test helper. */
  pay(uuid: string, card?: string): Promise<ApiResponse<Json>>;
  /** How many times the fake Admin API received the named operation. */
  count(operation: string): number;
  close(): Promise<void>;
}

/** `env`: more of the connector's environment (e.g. the payments app's transport). */
export async function startBridgeHarness(
  dialect: DialectName,
  shop: string,
  env: Record<string, string> = {},
): Promise<BridgeHarness> {
  const gw = await startTestGateway(dialect, {
    env: { GATEWAY_ALLOW_PRIVATE_WEBHOOKS: '1', GATEWAY_CLOCK: 'manual', GATEWAY_RATE_LIMIT_PER_MINUTE: '100000' },
  });
  const merchant = await gw.merchant({ domains: [shop], verifyDomains: true });
  const tokenFor = async (platform: 'shopify' | 'woocommerce') =>
    (await createConnectToken(gw.gateway.deps, { merchantId: merchant.merchantId, domain: shop, platform }))
      .connect_token;
  const shopifyToken = await tokenFor('shopify');
  const wooToken = await tokenFor('woocommerce');
  const app: FakeShopifyApp = {
    apiKey: API_KEY,
    apiSecret: API_SECRET,
    redirectUri: '',
    scopes: ['read_orders', 'write_orders'],
  };
  const fake = await startFakeShopifyOAuth(app);
  const admin = await startFakeShopifyAdmin({ shop, acceptsToken: (token) => fake.isAccessToken(shop, token) });
  const shopFetch: typeof fetch = (input, init) => {
    const url = new URL(input instanceof Request ? input.url : String(input));
    return url.pathname.startsWith('/admin/api/') ? admin.fetch(url.href, init ?? {}) : fake.fetch(input, init);
  };
  const connector = await startTestConnector(dialect, gw, {
    env: { SHOPIFY_API_KEY: API_KEY, SHOPIFY_API_SECRET: API_SECRET, SHOPIFY_API_VERSION: '2026-07', ...env },
    shopifyFetch: shopFetch,
  });
  app.redirectUri = `${connector.url}/shopify/auth/callback`;
  const h: ShopifyHarness = {
    connector,
    fake,
    app,
    async close() {
      await connector.close();
      await fake.close();
    },
  };
  await install(h, shop);

  return {
    shop,
    gw,
    h,
    admin,
    merchant,
    shopifyToken,
    wooToken,
    api: (method, path, body, token) =>
      connector.call<Json>(method, `/shopify/api${path}`, {
        headers: { Authorization: `Bearer ${token ?? sessionToken(shop, gw.clock.nowMs())}` },
        ...(body === undefined ? {} : { body }),
      }),
    webhook: (topic, body, webhookId) =>
      fake.sendWebhook({
        url: `${connector.url}/shopify/webhooks`,
        topic,
        shop,
        body,
        ...(webhookId === undefined ? {} : { webhookId }),
      }),
    orderCreated: (order, overrides = {}) => ordersCreateBody(shop, METHOD, order, overrides),
    pay: (uuid, card = APPROVED_CARD) =>
      gw.call<Json>('POST', `/api/v1/test_helpers/payments/${uuid}/pay`, {
        key: merchant.testKey,
        body: { card_number: card },
      }),
    count: (operation) => admin.operations().filter((op) => op === operation).length,
    async close() {
      await h.close();
      await admin.close();
      await gw.close();
    },
  };
}
