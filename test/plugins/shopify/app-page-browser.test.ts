/**
 * The app's page in the Shopify admin, in headless Chromium (test/support/browser.ts), against a real
 * gateway and connector with the fake Shopify OAuth and Admin API. The Shopify admin is a stand-in:
 * `https://admin.shopify.com/...` is answered by the test (Playwright routing) with a page that frames
 * the connector's app URL with the query Shopify sends, and App Bridge's CDN script is a stand-in whose
 * `shopify.idToken()` answers session tokens signed as Shopify signs them (HS256, the app secret) and
 * whose `window.open(url, '_top')` asks the admin to navigate, as App Bridge does. A local server on
 * another origin frames the page too, and must be refused. Screenshots go to
 * test-results/shopify-admin/ (docs/images/shopify/ holds a copy of one good set).
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser, Frame, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { reconcile } from '../../../connector/reconciliation/reconcile.service.js';
import { findConnection } from '../../../connector/storage/connection.repository.js';
import {
  insertPaymentSession,
  type ShopifyPaymentSession,
} from '../../../connector/storage/shopify-payment-session.repository.js';
import { createConnectToken } from '../../../gateway/connect/connect-token.service.js';
import { toStoredInstant } from '../../../gateway/domain/clock.js';
import { APP_BRIDGE_URL } from '../../../plugins/shopify/admin-page.js';
import { type LocalServer, launchBrowser, newPage, startLocalServer, type TestPage } from '../../support/browser.js';
import { startTestConnector } from '../../support/connector.js';
import { BROWSER_DIALECTS } from '../../support/databases.js';
import { eventually } from '../../support/eventually.js';
import { type FakeShopifyAdmin, startFakeShopifyAdmin } from '../../support/fake-shopify-admin.js';
import { type FakeShopifyApp, signShopifyQuery, startFakeShopifyOAuth } from '../../support/fake-shopify-oauth.js';
import { startTestGateway, type TestGateway, type TestMerchant } from '../../support/gateway.js';
import {
  API_KEY,
  API_SECRET,
  BROWSER,
  install,
  ordersCreateBody,
  type ShopifyHarness,
  sessionToken,
  webhookFixture,
} from './install-support.js';

// biome-ignore lint/suspicious/noExplicitAny: JSON answers read field by field
type Json = Record<string, any>;

const SHOP = 'page-shop.myshopify.com';
/** A shop that never installed the app. */
const NEW_SHOP = 'new-page-shop.myshopify.com';
const METHOD = 'Card payment (Armenian gateway)';
const ADMIN = 'https://admin.shopify.com';
const SHOTS = fileURLToPath(new URL('../../../test-results/shopify-admin/', import.meta.url));

/** App Bridge's stand-in: checks what the real one requires of the page, then offers its API. */
const APP_BRIDGE_STAND_IN = `(() => {
  const meta = document.querySelector('meta[name="shopify-api-key"]');
  if (meta === null || meta.content !== ${JSON.stringify(API_KEY)}) throw new Error('App Bridge: no shopify-api-key meta for this app');
  if (document.scripts[0] !== document.currentScript) throw new Error('App Bridge: it must be the first script');
  const open = window.open.bind(window);
  window.open = (url, target, features) => {
    if (target !== '_top') return open(url, target, features);
    window.top.postMessage({ appBridgeNavigate: new URL(url, location.href).href }, ${JSON.stringify(ADMIN)});
    return null;
  };
  window.shopify = { idToken: () => window.__issueSessionToken() };
})();`;

/** The app URL's query as Shopify signs it. */
function signedQuery(query: Record<string, string>): string {
  return `${new URLSearchParams(query).toString()}&hmac=${signShopifyQuery(query, API_SECRET)}`;
}

function adminPage(appUrl: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Shopify admin (stand-in)</title>
<style>body{margin:0;font:14px sans-serif}header{padding:8px 16px;background:#1a1a1a;color:#fff}iframe{display:block;border:0;width:100%;height:3000px}</style></head>
<body><header>Shopify admin (stand-in)</header>
<iframe id="app-iframe" name="app-iframe" title="Card payments" src="${appUrl.replaceAll('&', '&amp;')}"></iframe>
<script>addEventListener('message', (e) => { if (e.data && e.data.appBridgeNavigate) location.href = e.data.appBridgeNavigate; });</script>
</body></html>`;
}

describe.each(BROWSER_DIALECTS)('The Shopify app page in the admin (%s)', (dialect) => {
  let gw: TestGateway;
  let h: ShopifyHarness;
  let admin: FakeShopifyAdmin;
  let merchant: TestMerchant;
  let shopifyToken: string;
  let wooToken: string;
  let browser: Browser;
  let foreign: LocalServer;
  let current: TestPage | null = null;
  /** Every session token the App Bridge stand-in handed out. */
  const issued: string[] = [];
  /** The Authorization header of every request the page made to the embedded API. */
  const apiAuth: string[] = [];

  const db = () => h.connector.current().deps.db;
  const webhook = (topic: string, body: Json) =>
    h.fake.sendWebhook({ url: `${h.connector.url}/shopify/webhooks`, topic, shop: SHOP, body });
  const pay = (uuid: string) =>
    gw.call('POST', `/api/v1/test_helpers/payments/${uuid}/pay`, {
      key: merchant.testKey,
      body: { card_number: '4111 1111 1111 1111' },
    });
  const createdAt = () => new Date(gw.clock.nowMs() - 3600_000).toISOString().replace('.000Z', 'Z');

  /** The app URL with the query Shopify sends when it loads the app in the admin. */
  function appUrl(shop: string): string {
    const nowS = Math.floor(gw.clock.nowMs() / 1000);
    const store = shop.replace(/\.myshopify\.com$/, '');
    return `${h.connector.url}/shopify/app?${signedQuery({
      embedded: '1',
      host: Buffer.from(`admin.shopify.com/store/${store}`).toString('base64url'),
      id_token: sessionToken(shop, gw.clock.nowMs()),
      locale: 'en',
      session: 'c2Vzc2lvbg',
      shop,
      timestamp: String(nowS),
    })}`;
  }

  /** A fresh page with the admin and App Bridge stand-ins for `shop`, not opened yet. */
  async function adminTab(shop: string, viewport = { width: 1200, height: 900 }): Promise<Page> {
    await current?.close();
    // Chromium's headless user agent reads as a bot to the library, which then refuses to start OAuth.
    current = await newPage(browser, { viewport, userAgent: BROWSER });
    const { page } = current;
    await page.exposeFunction('__issueSessionToken', () => {
      const token = sessionToken(shop, gw.clock.nowMs());
      issued.push(token);
      return token;
    });
    await page.route(APP_BRIDGE_URL, (route) =>
      route.fulfill({ status: 200, contentType: 'text/javascript', body: APP_BRIDGE_STAND_IN }),
    );
    await page.route(`${ADMIN}/**`, (route) =>
      route.fulfill({ status: 200, contentType: 'text/html', body: adminPage(appUrl(shop)) }),
    );
    page.on('request', (request) => {
      if (request.url().startsWith(`${h.connector.url}/shopify/api/`)) {
        apiAuth.push(request.headers().authorization ?? '');
      }
    });
    return page;
  }

  const adminUrl = (shop: string) => `${ADMIN}/store/${shop.replace(/\.myshopify\.com$/, '')}/apps/${API_KEY}`;

  /** Opens the app in the admin stand-in for `shop`; answers the page and the app's frame. */
  async function openInAdmin(shop: string, viewport?: { width: number; height: number }) {
    const page = await adminTab(shop, viewport);
    await page.goto(adminUrl(shop));
    const frame = page.frame({ name: 'app-iframe' });
    if (frame === null) throw new Error('no app frame');
    await frame.waitForLoadState('load');
    return { page, frame };
  }

  const orderCreated = (order: { id: number; name: string }, total: string) =>
    ordersCreateBody(SHOP, METHOD, order, { total_price: total, current_total_price: total, subtotal_price: total });

  /** The order map row and the one gateway payment the bridge made for `order`. */
  async function bridgedPayment(order: { id: number }) {
    const link = await db()
      .selectFrom('order_links')
      .selectAll()
      .where('store_order_id', '=', String(order.id))
      .executeTakeFirstOrThrow();
    const { uuid } = await db()
      .selectFrom('order_payments')
      .select('uuid')
      .where('link_id', '=', link.id)
      .executeTakeFirstOrThrow();
    return { link, uuid };
  }

  async function shot(target: Page | Frame, selector: string, name: string): Promise<void> {
    await target.locator(selector).screenshot({ path: join(SHOTS, `${name}.png`) });
  }

  beforeAll(async () => {
    gw = await startTestGateway(dialect, {
      env: { GATEWAY_ALLOW_PRIVATE_WEBHOOKS: '1', GATEWAY_CLOCK: 'manual', GATEWAY_RATE_LIMIT_PER_MINUTE: '100000' },
    });
    merchant = await gw.merchant({ domains: [SHOP], verifyDomains: true });
    const token = (platform: string) =>
      createConnectToken(gw.gateway.deps, { merchantId: merchant.merchantId, domain: SHOP, platform });
    shopifyToken = (await token('shopify')).connect_token;
    wooToken = (await token('woocommerce')).connect_token;
    const app: FakeShopifyApp = {
      apiKey: API_KEY,
      apiSecret: API_SECRET,
      redirectUri: '',
      scopes: ['read_orders', 'write_orders'],
    };
    const fake = await startFakeShopifyOAuth(app);
    admin = await startFakeShopifyAdmin({ shop: SHOP, acceptsToken: (t) => fake.isAccessToken(SHOP, t) });
    const shopFetch: typeof fetch = (input, init) => {
      const url = new URL(input instanceof Request ? input.url : String(input));
      return url.pathname.startsWith('/admin/api/') ? admin.fetch(url.href, init ?? {}) : fake.fetch(input, init);
    };
    const connector = await startTestConnector(dialect, gw, {
      env: { SHOPIFY_API_KEY: API_KEY, SHOPIFY_API_SECRET: API_SECRET, SHOPIFY_API_VERSION: '2026-07' },
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
    foreign = await startLocalServer((url) => (url.pathname === '/' ? { body: adminPage(appUrl(SHOP)) } : undefined));
    // The stand-in admin is a public https origin and the connector listens on 127.0.0.1; Chromium
    // refuses a public page's frame on the local network (a real connector is public).
    browser = await launchBrowser(['--disable-features=LocalNetworkAccessChecks']);
    mkdirSync(SHOTS, { recursive: true });
  }, 60_000);

  afterEach(() => {
    // No uncaught error in the page or its frame (the App Bridge stand-in throws on a wrong page).
    expect(current?.errors ?? []).toEqual([]);
  });

  afterAll(async () => {
    await current?.close();
    await browser?.close().catch(() => {});
    await foreign?.close();
    await h?.close();
    await admin?.close();
    await gw?.close();
  });

  it('answers the page framed only by the shop and the admin, and refuses a missing or invalid shop', async () => {
    const ok = await fetch(appUrl(SHOP));
    expect(ok.status).toBe(200);
    const csp = ok.headers.get('content-security-policy') ?? '';
    expect(csp).toContain(`frame-ancestors https://${SHOP} https://admin.shopify.com`);
    expect(csp).toMatch(/script-src 'nonce-[A-Za-z0-9+/=]+' https:\/\/cdn\.shopify\.com/);
    expect(csp).not.toContain('unsafe-inline');
    expect(ok.headers.get('x-frame-options')).toBeNull();
    const html = await ok.text();
    expect(html).toContain(`<meta name="shopify-api-key" content="${API_KEY}">`);
    // App Bridge is the first script; every script and style carries the CSP's nonce.
    const nonce = /'nonce-([^']+)'/.exec(csp)?.[1] ?? '';
    const scripts = [...html.matchAll(/<script\b([^>]*)>/g)].map((m) => m[1] ?? '');
    expect(scripts[0]).toContain(`src="${APP_BRIDGE_URL}"`);
    for (const attrs of scripts.filter((a) => !a.includes('application/json'))) {
      expect(attrs).toContain(`nonce="${nonce}"`);
    }
    expect(html).not.toMatch(/\son[a-z]+=/i);

    for (const query of ['', '?shop=evil.example.com', '?shop=page-shop.myshopify.com.evil.am']) {
      const refused = await fetch(`${h.connector.url}/shopify/app${query}`);
      expect(refused.status).toBe(400);
      expect(((await refused.json()) as Json).error).toBe('invalid_shop');
      expect(refused.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
      expect(refused.headers.get('x-frame-options')).toBe('DENY');
    }
  });

  it('loads inside the admin stand-in, and a frame on another origin is refused', async () => {
    current = await newPage(browser);
    const refused = current.page;
    await refused.goto(`${foreign.url}/`);
    const blocked = refused.frame({ name: 'app-iframe' });
    await eventually(
      () => current?.console.some((line) => line.includes('frame-ancestors')) === true,
      'the browser to refuse the frame',
    );
    expect(blocked?.url()).not.toContain('/shopify/app');

    const { frame } = await openInAdmin(SHOP);
    await frame.locator('#connection-state', { hasText: 'Not connected' }).waitFor();
    expect(await frame.locator('h1').innerText()).toBe('Card payments through the gateway');
    expect(await frame.locator('#install').isHidden()).toBe(true);
    // Every API call carried a session token the App Bridge stand-in had just issued.
    expect(apiAuth.length).toBeGreaterThanOrEqual(3);
    for (const header of apiAuth) expect(issued).toContain(header.replace(/^Bearer /, ''));
  });

  it('shows why a save was refused, then connects with the pasted token', async () => {
    const { frame } = await openInAdmin(SHOP);
    await frame.locator('#connection-state', { hasText: 'Not connected' }).waitFor();
    const save = () => frame.getByRole('button', { name: 'Save' }).click();
    const message = frame.locator('#settings-message');

    // A manual bridge without the method's name: the field says so.
    await frame.getByLabel('Connect token', { exact: true }).fill(shopifyToken);
    await frame.getByLabel("Manual payment method's name").fill('');
    await save();
    await frame.locator('#manual_method_name-error:not([hidden])').waitFor();
    expect(await frame.locator('#manual_method_name-error').innerText()).toContain('name the manual payment method');
    expect(await frame.getByLabel("Manual payment method's name").getAttribute('aria-invalid')).toBe('true');

    // A token the gateway does not know.
    await frame.getByLabel('Connect token', { exact: true }).fill('ct_not_a_real_token');
    await frame.getByLabel("Manual payment method's name").fill(METHOD);
    await save();
    await message.and(frame.locator('.error')).waitFor();
    expect(await message.innerText()).toContain('The gateway refused this connect token');
    expect(await frame.getByLabel('Connect token', { exact: true }).inputValue()).toBe('');
    await shot(frame, '#connection', 'connection-wrong-token');

    // A token of another platform.
    await frame.getByLabel('Connect token', { exact: true }).fill(wooToken);
    await save();
    await frame.locator('#settings-message.error', { hasText: 'issued for woocommerce' }).waitFor();
    expect(await message.innerText()).toBe(
      'This connect token was issued for woocommerce; create a shopify token for this shop.',
    );
    expect(await frame.locator('#connection-state').getAttribute('data-state')).toBe('disconnected');

    await frame.getByLabel('Connect token', { exact: true }).fill(shopifyToken);
    await frame.getByLabel(/Test mode/).check();
    await save();
    await frame.locator('#connection-state[data-state="connected"]').waitFor();
    expect(await frame.locator('#connection-state').innerText()).toBe('Connected');
    expect(await message.innerText()).toBe('Saved.');
    const details = await frame.locator('#connection-details').innerText();
    expect(details).toContain('test (sandbox, no real money)');
    expect(details).toContain(METHOD);
    // The token is gone from the page once saved.
    expect(await frame.getByLabel('Connect token', { exact: true }).inputValue()).toBe('');
    expect(await frame.content()).not.toContain(shopifyToken);
    await shot(frame, '#connection', 'connection-connected');

    // Reloaded, the page shows the saved settings (never the token).
    const again = await openInAdmin(SHOP);
    await again.frame.locator('#connection-state[data-state="connected"]').waitFor();
    expect(await again.frame.getByLabel("Manual payment method's name").inputValue()).toBe(METHOD);
    expect(await again.frame.getByLabel(/Test mode/).isChecked()).toBe(true);
    expect(await again.frame.getByLabel('Manual payment method').first().isChecked()).toBe(true);
    expect(await again.frame.getByLabel('Connect token', { exact: true }).getAttribute('placeholder')).toContain(
      'Saved',
    );
  });

  it('lists an order paid through the bridge with its payment uuid, status and RRN', async () => {
    const order = admin.addOrder({ total: '12000.00', gateway: METHOD, createdAt: createdAt() });
    expect((await webhook('orders/create', orderCreated(order, '12000.00'))).status).toBe(200);
    const { link, uuid } = await bridgedPayment(order);
    expect((await pay(uuid)).status).toBe(200);
    await eventually(() => admin.financialStatus(order) === 'PAID', 'the order to be marked paid');
    const payment = (await gw.call<Json>('GET', `/api/v1/payments/${uuid}`, { key: merchant.testKey })).body;
    expect(payment.rrn).toMatch(/\S/);

    const { frame } = await openInAdmin(SHOP);
    const row = frame.locator(`#orders-table tr[data-order="${order.id}"]`);
    await row.waitFor();
    const cells = await row.locator('td').allInnerTexts();
    expect(cells[0]).toContain(link.gateway_order_id);
    expect(cells[1]).toBe('12000 AMD');
    expect(cells[2]).toBe('yes');
    expect(cells[3]).toBe(uuid);
    expect(cells[4]).toBe('completed');
    expect(cells[5]).toBe(payment.rrn);
    expect(cells[6]).toBe('—');
    await shot(frame, '#orders', 'recent-orders');
  });

  it('runs reconciliation, lists the mismatch with what will be done, and repairs it', async () => {
    // Paid at the gateway while the shop refused marking it paid: unpaid in Shopify.
    const order = admin.addOrder({ total: '9000.00', gateway: METHOD, createdAt: createdAt() });
    expect((await webhook('orders/create', orderCreated(order, '9000.00'))).status).toBe(200);
    const { link, uuid } = await bridgedPayment(order);
    admin.inject({ kind: 'graphql', code: 'BAD_REQUEST', message: 'injected refusal' });
    await pay(uuid);
    await eventually(async () => {
      const row = await db()
        .selectFrom('order_links')
        .select('store_sync')
        .where('id', '=', link.id)
        .executeTakeFirst();
      return row?.store_sync === 'failed';
    }, 'marking paid to fail');
    expect(admin.financialStatus(order)).toBe('PENDING');
    const flagOf = async () =>
      (await db().selectFrom('order_links').select('flag').where('id', '=', link.id).executeTakeFirstOrThrow()).flag;
    expect(await flagOf()).toBe('store_sync_failed');

    const { frame } = await openInAdmin(SHOP);
    await frame.locator('#scheduled-run', { hasText: 'No automatic run yet' }).waitFor();
    await frame.getByRole('button', { name: 'Check for mismatches' }).click();
    const run = frame.locator('#this-run[data-status="finished"]');
    await run.waitFor({ timeout: 15_000 });
    const finding = run.locator('tr[data-kind="paid_at_gateway_unpaid_in_store"]');
    expect(await finding.count()).toBe(1);
    const text = await finding.innerText();
    expect(text).toContain('Paid at the gateway, unpaid in Shopify');
    expect(text).toContain(uuid);
    expect(text).toContain('Repair marks the order paid with the gateway payment; no money moves.');
    expect(await finding.getAttribute('data-action')).toBe('flagged');
    await shot(frame, '#reconciliation', 'reconciliation-findings');
    expect(admin.financialStatus(order)).toBe('PENDING');

    await run.getByRole('button', { name: 'Repair the safe ones' }).click();
    const repaired = frame.locator('#this-run[data-status="finished"] tr[data-action="repaired"]');
    await repaired.waitFor({ timeout: 15_000 });
    expect(await repaired.innerText()).toContain('Repaired: The order was marked paid with the gateway payment.');
    expect(await frame.locator('#this-run .run-summary').innerText()).toContain('(with repair)');
    expect(admin.financialStatus(order)).toBe('PAID');
    // Paid in Shopify now: the failed sync's flag is lowered.
    expect(await flagOf()).toBeNull();
    expect(await frame.locator('#this-run').getByRole('button', { name: 'Repair the safe ones' }).count()).toBe(0);
    await shot(frame, '#reconciliation', 'reconciliation-repaired');

    // The hourly job's run shows as the last automatic run.
    const connection = await findConnection(db(), link.connection_id);
    if (connection === undefined) throw new Error('no connection');
    const nowMs = gw.clock.nowMs();
    await reconcile(h.connector.current().deps, connection, {
      from: new Date(nowMs - 2 * 24 * 3600_000).toISOString(),
      to: new Date(nowMs + 3600_000).toISOString(),
      repair: true,
      trigger: 'scheduled',
    });
    const reopened = await openInAdmin(SHOP);
    const scheduled = reopened.frame.locator('#scheduled-run[data-status="finished"]');
    await scheduled.waitFor();
    expect(await scheduled.innerText()).toMatch(/\d+ orders checked, 0 mismatches\./);
  });

  it("saves the gateway's domain verification value, refusing one that is not it", async () => {
    const { frame } = await openInAdmin(SHOP);
    const section = frame.locator('#domain-verification');
    await section.waitFor();
    await expect
      .poll(() => frame.locator('#verification-url').innerText())
      .toBe(`https://${SHOP}/apps/connector-pay/gateway-verification.txt`);
    await frame.getByLabel('Verification value').fill('the token from the email');
    await section.getByRole('button', { name: 'Publish the value' }).click();
    await frame.locator('#value-error:not([hidden])').waitFor();
    expect(await frame.locator('#value-error').innerText()).toContain('gateway-verification=');
    expect(await frame.getByLabel('Verification value').getAttribute('aria-invalid')).toBe('true');

    const value = 'gateway-verification=Q1w2E3r4T5y6U7i8O9p0AsDf';
    await frame.getByLabel('Verification value').fill(value);
    await section.getByRole('button', { name: 'Publish the value' }).click();
    await frame.locator('#verification-message.ok').waitFor();
    const saved = await db()
      .selectFrom('shopify_shops')
      .select('gateway_verification')
      .where('shop', '=', SHOP)
      .executeTakeFirstOrThrow();
    expect(saved.gateway_verification).toBe(value);
    // Shown again on the next visit.
    const again = await openInAdmin(SHOP);
    await again.frame.locator('#verification-url').waitFor();
    await expect.poll(() => again.frame.getByLabel('Verification value').inputValue()).toBe(value);
  });

  it('shows a customer data request export, a payment flagged refund_needed and one Shopify has not confirmed', async () => {
    const request = webhookFixture('customers-data-request', SHOP);
    expect((await webhook('customers/data_request', request)).status).toBe(200);
    const { id: connectionId } = await db()
      .selectFrom('shopify_shops')
      .select('connection_id as id')
      .where('shop', '=', SHOP)
      .executeTakeFirstOrThrow();
    const now = toStoredInstant(gw.clock.nowMs());
    const session = (id: string, flag: string | null, message: string, extra: Partial<ShopifyPaymentSession> = {}) =>
      insertPaymentSession(db(), {
        id,
        gid: `gid://shopify/PaymentSession/${id}`,
        payment_group: 'group-1=',
        shop: SHOP,
        connection_id: connectionId ?? '',
        amount: '1500.00',
        amount_amd: 1500,
        currency: 'AMD',
        test: 1,
        kind: 'sale',
        cancel_url: `https://${SHOP}/checkout`,
        gateway_payment_uuid: `0000000${id.length}-1111-4111-8111-${id.padStart(12, '0')}`.slice(0, 36),
        checkout_url: null,
        state: flag === null ? 'resolved' : 'rejected',
        resolution: JSON.stringify(
          flag === null ? { action: 'resolve' } : { action: 'reject', code: 'PROCESSING_ERROR', message },
        ),
        next_action_url: null,
        flag,
        attempts: 0,
        next_attempt_at: null,
        next_poll_at: null,
        last_error: null,
        created_at: now,
        updated_at: now,
        api_version: '2026-07',
        locale: null,
        decided_at: now,
        ...extra,
      });
    const flagged = await session(
      'psflagged1',
      'refund_needed',
      'Duplicated group payment: session psfirst1 was paid first.',
    );
    await session('psfirst1', null, '');
    await session('psunconfirmed1', null, '', {
      payment_group: 'group-2=',
      state: 'resolve_due',
      attempts: 4,
      next_attempt_at: now,
      last_error: 'Shopify paymentSessionResolve answered 503',
    });

    const { frame } = await openInAdmin(SHOP);
    const exported = frame.locator('#data-requests-list article[data-request="9999"]');
    await exported.waitFor();
    expect(await exported.locator('h3').innerText()).toBe('Request 9999 (customer 191167)');
    const json = JSON.parse(await exported.locator('pre').innerText()) as Json;
    expect(json).toBeTypeOf('object');
    expect(await exported.locator('pre').innerText()).not.toContain('john@example.com');

    const rows = frame.locator('#refunds-needed-table tbody tr');
    await rows.first().waitFor();
    expect(await rows.count()).toBe(1);
    const cells = await rows.first().locator('td').allInnerTexts();
    expect(cells[0]).toBe('psflagged1');
    expect(cells[1]).toBe('1500.00 AMD');
    expect(cells[2]).toBe(flagged.gateway_payment_uuid);
    expect(cells[3]).toBe('test');
    expect(cells[4]).toContain('psfirst1 was paid first');
    await shot(frame, '#refunds-needed', 'refunds-needed');
    await shot(frame, '#data-requests', 'data-requests');

    const unconfirmed = frame.locator('#unconfirmed-table tbody tr');
    await unconfirmed.first().waitFor();
    expect(await unconfirmed.count()).toBe(1);
    expect(await unconfirmed.first().locator('td').allInnerTexts()).toEqual([
      'psunconfirmed1',
      '1500.00 AMD',
      'paid',
      'being sent again',
      '4',
      'Shopify paymentSessionResolve answered 503',
      now.replace('T', ' ').replace(/(\.\d+)?Z$/, ' UTC'),
    ]);
    const problem = frame.locator('#connection-problems li[data-problem="shopify_payments_unconfirmed"]');
    await problem.waitFor();
    expect(await problem.innerText()).toContain('Shopify has not confirmed 1 payment yet');
    await shot(frame, '#unconfirmed', 'payments-unconfirmed');
  });

  it('answers refund_needed sessions to a session token only, and only the known flag', async () => {
    const call = (path: string, token?: string) =>
      h.connector.call<Json>('GET', `/shopify/api${path}`, {
        headers: token === undefined ? {} : { Authorization: `Bearer ${token}` },
      });
    expect((await call('/payment-sessions?flag=refund_needed')).body.error).toBe('invalid_session_token');
    const other = await call('/payment-sessions?flag=something', sessionToken(SHOP, gw.clock.nowMs()));
    expect(other.status).toBe(422);
    expect(other.body.errors).toHaveProperty('flag');
    const listed = await call('/payment-sessions?flag=refund_needed', sessionToken(SHOP, gw.clock.nowMs()));
    expect(listed.status).toBe(200);
    expect(listed.body.data.map((s: Json) => s.id)).toEqual(['psflagged1']);
    expect(listed.body.data[0]).toMatchObject({ flag: 'refund_needed', state: 'rejected', test: true });
    // Another shop's token sees nothing of this shop (it is not installed: 409).
    const stranger = await call('/payment-sessions?flag=refund_needed', sessionToken(NEW_SHOP, gw.clock.nowMs()));
    expect(stranger.status).toBe(409);
    expect(stranger.body.error).toBe('shop_not_installed');
  });

  it('sends the merchant of a shop without the app to install it, at the top level', async () => {
    const page = await adminTab(NEW_SHOP);
    const installStarted = page.waitForRequest((request) => {
      const url = new URL(request.url());
      return url.origin === h.connector.url && url.pathname === '/shopify/auth' && request.isNavigationRequest();
    });
    await page.goto(adminUrl(NEW_SHOP));
    const begin = await installStarted;
    expect(new URL(begin.url()).searchParams.get('shop')).toBe(NEW_SHOP);
    // The admin's window itself (not the app's frame) goes to the install, where OAuth can run.
    expect(begin.frame()).toBe(page.mainFrame());
    const answer = await begin.response();
    expect(answer?.status()).toBe(302);
    const authorize = new URL((await answer?.headerValue('location')) ?? 'http://none');
    expect(authorize.origin).toBe(`https://${NEW_SHOP}`);
    expect(authorize.pathname).toBe('/admin/oauth/authorize');
    expect(authorize.searchParams.get('client_id')).toBe(API_KEY);
    expect(authorize.searchParams.get('redirect_uri')).toBe(`${h.connector.url}/shopify/auth/callback`);
  });

  it('is usable at a phone width', async () => {
    const { frame } = await openInAdmin(SHOP, { width: 390, height: 844 });
    await frame.locator('#connection-state[data-state="connected"]').waitFor();
    await frame.locator('#orders-table tbody tr').first().waitFor();
    // Nothing but the tables (which scroll in their own box) is wider than the screen.
    const overflow = (await frame.evaluate('document.documentElement.scrollWidth - window.innerWidth')) as number;
    expect(overflow).toBeLessThanOrEqual(0);
    await shot(frame, '#orders', 'phone-orders');
  });
});
