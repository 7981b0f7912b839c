/**
 * A connector with the Shopify app on, the fake Shopify OAuth it talks to, and the merchant's browser
 * going through the install (cookies carried by hand, redirects not followed).
 */
import { createHmac } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { expect } from 'vitest';
import type { DialectName } from '../../../storage/database.js';
import { startTestConnector, type TestConnector } from '../../support/connector.js';
import { type FakeShopifyApp, type FakeShopifyOAuth, startFakeShopifyOAuth } from '../../support/fake-shopify-oauth.js';
import type { TestGateway } from '../../support/gateway.js';

export const API_KEY = 'a1b2c3d4e5f60718293a4b5c6d7e8f90';
export const API_SECRET = 'shpss_0123456789abcdef0123456789abcdef';
export const SCOPES = ['read_orders', 'write_orders'];
export const BROWSER =
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0 Safari/537.36';

export interface ShopifyHarness {
  connector: TestConnector;
  fake: FakeShopifyOAuth;
  app: FakeShopifyApp;
  close(): Promise<void>;
}

export async function startShopifyHarness(dialect: DialectName, gateway: TestGateway): Promise<ShopifyHarness> {
  const app: FakeShopifyApp = { apiKey: API_KEY, apiSecret: API_SECRET, redirectUri: '', scopes: SCOPES };
  const fake = await startFakeShopifyOAuth(app);
  const connector = await startTestConnector(dialect, gateway, {
    env: { SHOPIFY_API_KEY: API_KEY, SHOPIFY_API_SECRET: API_SECRET },
    shopifyFetch: fake.fetch,
  });
  app.redirectUri = `${connector.url}/shopify/auth/callback`;
  return {
    connector,
    fake,
    app,
    async close() {
      await connector.close();
      await fake.close();
    },
  };
}

export function browserGet(url: string, cookie?: string): Promise<Response> {
  return fetch(url, {
    redirect: 'manual',
    headers: { 'User-Agent': BROWSER, ...(cookie === undefined ? {} : { Cookie: cookie }) },
  });
}

/** `name=value` pairs of the response's Set-Cookie headers, as a browser would send them back. */
export function cookiesOf(response: Response): string {
  return response.headers
    .getSetCookie()
    .map((cookie) => cookie.split(';')[0])
    .join('; ');
}

/** Begin -> the fake's authorize page -> the callback URL Shopify sends the browser to. */
export async function startInstall(h: ShopifyHarness, shop: string): Promise<{ callback: string; cookie: string }> {
  const begin = await browserGet(`${h.connector.url}/shopify/auth?shop=${encodeURIComponent(shop)}`);
  expect(begin.status).toBe(302);
  const authorize = begin.headers.get('location') ?? '';
  expect(authorize.startsWith(`https://${shop}/admin/oauth/authorize?`)).toBe(true);
  const approved = await h.fake.authorize(authorize);
  expect(approved.status).toBe(302);
  return { callback: approved.headers.get('location') ?? '', cookie: cookiesOf(begin) };
}

/** The whole install; answers the callback's response. */
export async function install(h: ShopifyHarness, shop: string): Promise<Response> {
  const { callback, cookie } = await startInstall(h, shop);
  const done = await browserGet(callback, cookie);
  expect(done.status).toBe(302);
  return done;
}

/** A webhook fixture with the test's shop in it. */
export function webhookFixture(name: string, shop: string): Record<string, unknown> {
  const text = readFileSync(new URL(`../../fixtures/shopify/webhooks/${name}.json`, import.meta.url), 'utf8');
  return JSON.parse(text.replaceAll('{shop}.myshopify.com', shop)) as Record<string, unknown>;
}

/** A manual-bridge fixture (test/fixtures/shopify/bridge/) with the shop and `{key}` placeholders filled. */
export function bridgeFixture(name: string, shop: string, values: Record<string, string>): Record<string, unknown> {
  let text = readFileSync(new URL(`../../fixtures/shopify/bridge/${name}.json`, import.meta.url), 'utf8');
  for (const [key, value] of Object.entries(values)) text = text.replaceAll(`{${key}}`, value);
  return JSON.parse(text.replaceAll('{shop}.myshopify.com', shop)) as Record<string, unknown>;
}

/** Shopify's `orders/create` body for an order of the fake Admin API, paid with the manual `method`. */
export function ordersCreateBody(
  shop: string,
  method: string,
  order: { id: number; name: string },
  overrides: Record<string, unknown> = {},
): Record<string, unknown> {
  return {
    ...bridgeFixture('orders-create', shop, { method }),
    id: order.id,
    admin_graphql_api_id: `gid://shopify/Order/${order.id}`,
    name: order.name,
    ...overrides,
  };
}

/** An App Bridge session token (HS256 with the app secret), as Shopify issues it. */
export function sessionToken(
  shop: string,
  nowMs: number,
  overrides: Record<string, unknown> = {},
  secret = API_SECRET,
): string {
  const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
  const nowS = Math.floor(Math.max(nowMs, Date.now()) / 1000);
  const earliest = Math.floor(Math.min(nowMs, Date.now()) / 1000);
  const payload = {
    iss: `https://${shop}/admin`,
    dest: `https://${shop}`,
    aud: API_KEY,
    sub: '42',
    exp: nowS + 60,
    nbf: earliest - 5,
    iat: earliest - 5,
    jti: `jti-${nowS}-${Math.random()}`,
    sid: 'session-1',
    ...overrides,
  };
  const head = `${b64({ alg: 'HS256', typ: 'JWT' })}.${b64(payload)}`;
  return `${head}.${createHmac('sha256', secret).update(head).digest('base64url')}`;
}
