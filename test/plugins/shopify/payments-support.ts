/**
 * A connector with the Shopify app and its payments app on (mTLS listener with a test CA), the fake
 * Shopify OAuth and Payments Apps API, a real gateway, and shops installed and linked to a connection.
 */
import { readFileSync } from 'node:fs';
import { createConnectToken } from '../../../gateway/connect/connect-token.service.js';
import type { DialectName } from '../../../storage/database.js';
import { startTestConnector, type TestConnector } from '../../support/connector.js';
import { type FakeShopifyApp, type FakeShopifyOAuth, startFakeShopifyOAuth } from '../../support/fake-shopify-oauth.js';
import {
  type FakeShopifyPayments,
  linkShopToToken,
  makeTestPki,
  type ShopifyPost,
  shopifyPost,
  startFakeShopifyPayments,
  type TestPki,
} from '../../support/fake-shopify-payments.js';
import { type FakeShopifyStorefront, startFakeShopifyStorefront } from '../../support/fake-shopify-storefront.js';
import type { TestGateway, TestMerchant } from '../../support/gateway.js';
import { freePort } from '../../support/ports.js';
import { API_KEY, API_SECRET, install } from './install-support.js';

// biome-ignore lint/suspicious/noExplicitAny: fixture JSON
type Json = Record<string, any>;

export interface PaymentsHarness {
  connector: TestConnector;
  oauth: FakeShopifyOAuth;
  payments: FakeShopifyPayments;
  /** The shops' storefronts with the app proxy (`/apps/connector-pay`) the buyer comes back through. */
  storefront: FakeShopifyStorefront;
  pki: TestPki;
  /** `https://127.0.0.1:<port>`: the mTLS listener. */
  mtlsUrl: string;
  merchant: TestMerchant;
  /**
   * Installs `shop` and links it to a new connection of `environment` (a token for `domain`, the
   * merchant's hosted domain unless given); answers the connection id.
   */
  connectShop(
    shop: string,
    environment?: 'test' | 'live',
    merchant?: { merchantId: string; domain: string },
  ): Promise<string>;
  /** Shopify opens a payment session and POSTs it to the app (with `Shopify-Api-Version: apiVersion`). */
  postSession(shop: string, overrides?: Json, apiVersion?: string): Promise<{ response: ShopifyPost; body: Json }>;
  postRefund(shop: string, overrides?: Json, apiVersion?: string): Promise<{ response: ShopifyPost; body: Json }>;
  /** Shopify opens a capture session of `payment_id` (a payment session id) and POSTs it, shaped as documented. */
  postCapture(shop: string, overrides?: Json): Promise<{ response: ShopifyPost; body: Json }>;
  /** Shopify opens a void session of `payment_id` and POSTs it, shaped as documented. */
  postVoid(shop: string, overrides?: Json): Promise<{ response: ShopifyPost; body: Json }>;
  close(): Promise<void>;
}

export function fixture(name: string): Json {
  return JSON.parse(readFileSync(new URL(`../../fixtures/shopify/payments/${name}.json`, import.meta.url), 'utf8'));
}

let counter = 0;
const unique = () => `${Date.now().toString(36)}${(++counter).toString(36)}${Math.random().toString(36).slice(2, 8)}`;

export async function startPaymentsHarness(dialect: DialectName, gw: TestGateway): Promise<PaymentsHarness> {
  const app: FakeShopifyApp = {
    apiKey: API_KEY,
    apiSecret: API_SECRET,
    redirectUri: '',
    scopes: ['read_orders', 'write_orders'],
  };
  const oauth = await startFakeShopifyOAuth(app);
  const payments = await startFakeShopifyPayments({ isAccessToken: oauth.isAccessToken });
  const pki = makeTestPki();
  const mtlsPort = await freePort();
  const connector = await startTestConnector(dialect, gw, {
    env: {
      SHOPIFY_API_KEY: API_KEY,
      SHOPIFY_API_SECRET: API_SECRET,
      SHOPIFY_PAYMENTS_MTLS_CA: pki.ca,
      SHOPIFY_PAYMENTS_MTLS_CERT: pki.serverCert,
      SHOPIFY_PAYMENTS_MTLS_KEY: pki.serverKey,
      SHOPIFY_PAYMENTS_MTLS_PORT: String(mtlsPort),
    },
    shopifyFetch: payments.fetchFor(oauth.fetch),
  });
  app.redirectUri = `${connector.url}/shopify/auth/callback`;
  const storefront = await startFakeShopifyStorefront({
    apiSecret: API_SECRET,
    proxyPath: '/apps/connector-pay',
    proxyUrl: () => `${connector.url}/shopify/proxy`,
    nowS: () => gw.clock.nowMs() / 1000,
  });
  const merchant = await gw.merchant();
  const mtlsUrl = `https://127.0.0.1:${mtlsPort}`;
  const tls = { ca: pki.ca, client: { cert: pki.clientCert, key: pki.clientKey } };

  return {
    connector,
    oauth,
    payments,
    storefront,
    pki,
    mtlsUrl,
    merchant,
    async connectShop(
      shop,
      environment = 'test',
      owner = { merchantId: merchant.merchantId, domain: merchant.hostedDomain },
    ) {
      await install({ connector, fake: oauth, app, close: async () => {} }, shop);
      const token = (
        await createConnectToken(gw.gateway.deps, {
          merchantId: owner.merchantId,
          domain: owner.domain,
          platform: 'shopify',
          environment,
        })
      ).connect_token;
      const info = await gw.call<{
        id: string;
        domain: string;
        environment: 'test' | 'live';
        webhook_secrets: string[];
      }>('GET', '/api/v1/connect_token', { headers: { 'X-Service-Connect': token } });
      return linkShopToToken(connector.current().deps, shop, token, info.body);
    },
    async postSession(shop, overrides = {}, apiVersion = undefined) {
      const id = overrides.id ?? `ps${unique()}`;
      const body = {
        ...fixture('payment-session'),
        id,
        gid: `gid://shopify/PaymentSession/${id}`,
        group: `grp${unique()}=`,
        amount: '1500.00',
        currency: 'AMD',
        test: true,
        ...overrides,
      };
      payments.openSession(shop, body.gid);
      return {
        response: await shopifyPost(`${mtlsUrl}/shopify/payments/sessions`, shop, body, tls, apiVersion),
        body,
      };
    },
    async postRefund(shop, overrides = {}, apiVersion = undefined) {
      const id = overrides.id ?? `rs${unique()}`;
      const body = {
        ...fixture('refund-session'),
        id,
        gid: `gid://shopify/RefundSession/${id}`,
        amount: '1500.00',
        currency: 'AMD',
        ...overrides,
      };
      payments.openSession(shop, body.gid);
      return {
        response: await shopifyPost(`${mtlsUrl}/shopify/payments/refunds`, shop, body, tls, apiVersion),
        body,
      };
    },
    async postCapture(shop, overrides = {}) {
      const id = overrides.id ?? `cs${unique()}`;
      const body = {
        id,
        gid: `gid://shopify/CaptureSession/${id}`,
        payment_id: 'unset',
        amount: '1500.00',
        currency: 'AMD',
        test: true,
        merchant_locale: 'en',
        proposed_at: '2026-11-21T10:00:00Z',
        ...overrides,
      };
      payments.openSession(shop, body.gid);
      return { response: await shopifyPost(`${mtlsUrl}/shopify/payments/captures`, shop, body, tls), body };
    },
    async postVoid(shop, overrides = {}) {
      const id = overrides.id ?? `vs${unique()}`;
      const body = {
        id,
        gid: `gid://shopify/VoidSession/${id}`,
        payment_id: 'unset',
        test: true,
        merchant_locale: 'en',
        proposed_at: '2026-11-21T10:00:00Z',
        ...overrides,
      };
      payments.openSession(shop, body.gid);
      return { response: await shopifyPost(`${mtlsUrl}/shopify/payments/voids`, shop, body, tls), body };
    },
    async close() {
      await connector.close();
      await storefront.close();
      await payments.close();
      await oauth.close();
    },
  };
}
