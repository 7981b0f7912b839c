/**
 * Installing the Shopify app over HTTP against the fake Shopify OAuth, running the real
 * `@shopify/shopify-api` code: begin -> authorize -> callback stores an expiring offline session with
 * both tokens sealed; forged callbacks and bad shop parameters are refused; the token is refreshed
 * near expiry once, even with two loads at the same time.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { isSealed } from '../../../gateway/runtime/sealing.js';
import { startTestConnector } from '../../support/connector.js';
import { DIALECTS } from '../../support/databases.js';
import { ACCESS_TOKEN_TTL_S } from '../../support/fake-shopify-oauth.js';
import { startTestGateway, type TestGateway } from '../../support/gateway.js';
import {
  API_KEY,
  API_SECRET,
  browserGet,
  install,
  type ShopifyHarness,
  sessionToken,
  startInstall,
  startShopifyHarness,
} from './install-support.js';

describe.each(DIALECTS)('Shopify install and sessions (%s)', (dialect) => {
  let gw: TestGateway;
  let h: ShopifyHarness;
  let shopCount = 0;
  const nextShop = () => `install-shop-${++shopCount}.myshopify.com`;

  beforeAll(async () => {
    gw = await startTestGateway(dialect);
    h = await startShopifyHarness(dialect, gw);
  });
  afterAll(async () => {
    await h?.close();
    await gw?.close();
  });

  const db = () => h.connector.current().deps.db;
  const shopify = () => {
    const runtime = h.connector.current().deps.shopify;
    if (runtime === undefined) throw new Error('Shopify is off');
    return runtime;
  };

  it('installs end to end: expiring offline token stored sealed, shop installed, merchant sent to the embedded app', async () => {
    const shop = nextShop();
    const done = await install(h, shop);
    const name = shop.replace('.myshopify.com', '');
    expect(done.headers.get('location')).toBe(`https://admin.shopify.com/store/${name}/apps/${API_KEY}`);
    // The state cookie is deleted.
    expect(
      done.headers
        .getSetCookie()
        .some((c) => c.startsWith('shopify_app_state=;') || /expires=Thu, 01 Jan 1970/i.test(c)),
    ).toBe(true);

    const grant = h.fake.grants.findLast((g) => g.shop === shop);
    expect(grant).toMatchObject({ grant: 'authorization_code', expiring: true });
    const row = await db()
      .selectFrom('shopify_sessions')
      .selectAll()
      .where('shop', '=', shop)
      .executeTakeFirstOrThrow();
    expect(row.id).toBe(`offline_${shop}`);
    expect(row.is_online).toBe(0);
    expect(row.access_token_ciphertext).not.toContain(grant?.access_token ?? 'x');
    expect(isSealed(row.access_token_ciphertext ?? '')).toBe(true);
    expect(isSealed(row.refresh_token_ciphertext ?? '')).toBe(true);
    expect(row.refresh_token_ciphertext).not.toContain('shprt_');
    expect(row.expires_at).toBe(new Date(gw.clock.nowMs() + ACCESS_TOKEN_TTL_S * 1000).toISOString());

    const session = await shopify().offline.offlineSession(shop);
    expect(session?.accessToken).toBe(grant?.access_token);
    expect(session?.scope).toBe('read_orders,write_orders');
    expect(h.fake.isAccessToken(shop, session?.accessToken ?? '')).toBe(true);

    const shopRow = await db()
      .selectFrom('shopify_shops')
      .selectAll()
      .where('shop', '=', shop)
      .executeTakeFirstOrThrow();
    expect(shopRow).toMatchObject({ status: 'installed', scopes: 'read_orders,write_orders', connection_id: null });
  });

  it('a sealed token copied into another session row does not open', async () => {
    const a = nextShop();
    const b = nextShop();
    await install(h, a);
    await install(h, b);
    const rowA = await db().selectFrom('shopify_sessions').selectAll().where('shop', '=', a).executeTakeFirstOrThrow();
    await db()
      .updateTable('shopify_sessions')
      .set({ access_token_ciphertext: rowA.access_token_ciphertext })
      .where('shop', '=', b)
      .execute();
    await expect(shopify().sessions.loadSession(`offline_${b}`)).rejects.toThrow();
  });

  it('refuses a callback signed with another secret, a state that is not the cookie, and one without the cookie', async () => {
    const shop = nextShop();
    const { callback, cookie } = await startInstall(h, shop);
    const query = Object.fromEntries(new URL(callback).searchParams);
    const grantsBefore = h.fake.grants.length;

    const forged = await browserGet(h.fake.signedCallback(query, 'shpss_not-the-app-secret'), cookie);
    expect(forged.status).toBe(400);
    expect(await forged.json()).toMatchObject({ error: 'invalid_oauth_callback' });

    const otherState = await browserGet(h.fake.signedCallback({ ...query, state: 'someone-elses-state' }), cookie);
    expect(otherState.status).toBe(400);
    expect(await otherState.json()).toMatchObject({ error: 'invalid_oauth_callback' });

    const tampered = new URL(callback);
    tampered.searchParams.set('code', 'a'.repeat(32));
    const tamperedAnswer = await browserGet(tampered.href, cookie);
    expect(tamperedAnswer.status).toBe(400);

    const noCookie = await browserGet(callback);
    expect(noCookie.status).toBe(400);
    expect(await noCookie.json()).toMatchObject({ error: 'oauth_state_missing' });

    expect(h.fake.grants.length).toBe(grantsBefore);
    const sessions = await db().selectFrom('shopify_sessions').select('id').where('shop', '=', shop).execute();
    expect(sessions).toEqual([]);

    // The genuine callback still works once, and its code cannot be used again.
    expect((await browserGet(callback, cookie)).status).toBe(302);
    const replay = await browserGet(callback, cookie);
    expect(replay.status).toBe(502);
    expect(await replay.json()).toMatchObject({ error: 'shopify_refused' });
  });

  it.each([
    ['missing', ''],
    ['another domain', 'shop.example.com'],
    ['a myshopify lookalike', 'shop.myshopify.com.evil.example'],
    ['a path', 'shop.myshopify.com/admin'],
    ['a scheme', 'https://shop.myshopify.com'],
    ['a script', '<script>.myshopify.com'],
    // What the library's sanitizeShop lets through (Shopify's own hosts): not a shop's domain.
    ['a myshopify.io development host', 'x.myshopify.io'],
    ['the admin host', 'admin.shopify.com'],
    ['an admin store path', 'admin.shopify.com/store/x'],
    ['a spin development host', 'x.shopify.spin.dev'],
    ['in capitals', 'Shop.MyShopify.com'],
    ['a name with an underscore', 'my_shop.myshopify.com'],
    ['a name longer than a DNS label', `${'s'.repeat(64)}.myshopify.com`],
  ])('refuses a shop parameter that is %s', async (_what, shop) => {
    const begin = await browserGet(`${h.connector.url}/shopify/auth?shop=${encodeURIComponent(shop)}`);
    expect(begin.status).toBe(400);
    expect(await begin.json()).toMatchObject({ error: 'invalid_shop' });
    const callback = await browserGet(
      `${h.connector.url}/shopify/auth/callback?shop=${encodeURIComponent(shop)}&code=x`,
    );
    expect(callback.status).toBe(400);
    expect(await callback.json()).toMatchObject({ error: 'invalid_shop' });
  });

  it('refreshes the offline token when it expires within 5 minutes, once for two loads at the same time', async () => {
    const shop = nextShop();
    await install(h, shop);
    const first = await shopify().offline.offlineSession(shop);
    const refreshes = () => h.fake.grants.filter((g) => g.shop === shop && g.grant === 'refresh_token').length;

    gw.clock.advance((ACCESS_TOKEN_TTL_S - 6 * 60) * 1000);
    expect((await shopify().offline.offlineSession(shop))?.accessToken).toBe(first?.accessToken);
    expect(refreshes()).toBe(0);

    gw.clock.advance(2 * 60 * 1000); // 4 minutes left
    const [a, b] = await Promise.all([shopify().offline.offlineSession(shop), shopify().offline.offlineSession(shop)]);
    expect(refreshes()).toBe(1);
    expect(a?.accessToken).toBe(b?.accessToken);
    expect(a?.accessToken).not.toBe(first?.accessToken);
    expect(h.fake.isAccessToken(shop, a?.accessToken ?? '')).toBe(true);
    expect(a?.expires?.getTime()).toBe(gw.clock.nowMs() + ACCESS_TOKEN_TTL_S * 1000);

    const stored = await shopify().sessions.loadSession(`offline_${shop}`);
    expect(stored?.accessToken).toBe(a?.accessToken);
    expect(stored?.refreshToken).not.toBe(first?.refreshToken);
    const row = await db()
      .selectFrom('shopify_sessions')
      .selectAll()
      .where('shop', '=', shop)
      .executeTakeFirstOrThrow();
    expect(row.access_token_ciphertext).not.toContain(a?.accessToken ?? 'x');

    // Fresh again: no further refresh.
    await shopify().offline.offlineSession(shop);
    expect(refreshes()).toBe(1);
  });

  it('asks for re-authorization when Shopify refuses the refresh token', async () => {
    const shop = nextShop();
    await install(h, shop);
    const session = await shopify().offline.offlineSession(shop);
    // The refresh token is used up elsewhere (Shopify rotates it on use).
    const used = await h.fake.fetch(`https://${shop}/admin/oauth/access_token`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({
        client_id: API_KEY,
        client_secret: API_SECRET,
        grant_type: 'refresh_token',
        refresh_token: session?.refreshToken,
      }),
    });
    expect(used.status).toBe(200);
    gw.clock.advance(ACCESS_TOKEN_TTL_S * 1000);
    await expect(shopify().offline.offlineSession(shop)).rejects.toMatchObject({
      status: 409,
      code: 'shopify_reauthorization_needed',
    });
  });

  it('a refresh that lost the race to another instance reads the winner', async () => {
    const shop = nextShop();
    await install(h, shop);
    const runtime = shopify();
    const loaded = await runtime.sessions.loadVersioned(`offline_${shop}`);
    if (loaded === undefined) throw new Error('no session');
    // Another instance stores a refreshed session first.
    await runtime.sessions.storeSession(loaded.session);
    expect(await runtime.sessions.replaceIf(loaded.generation, loaded.session)).toBe(false);
    const current = await runtime.sessions.loadVersioned(`offline_${shop}`);
    expect(await runtime.sessions.replaceIf(current?.generation ?? -1, loaded.session)).toBe(true);
  });

  const page = (shop: string, token?: string) =>
    h.connector.call<Record<string, unknown>>('GET', '/shopify/api/settings', {
      headers: { Authorization: `Bearer ${token ?? sessionToken(shop, gw.clock.nowMs())}` },
    });
  const grantsOf = (shop: string, grant: string) => h.fake.grants.filter((g) => g.shop === shop && g.grant === grant);

  it("token exchange: an installed shop whose offline token is gone gets one from the page's session token", async () => {
    const shop = nextShop();
    await install(h, shop);
    await shopify().sessions.deleteSessions([`offline_${shop}`]);
    expect(await shopify().offline.offlineSession(shop)).toBeUndefined();

    const opened = await page(shop);
    expect(opened.status, opened.text).toBe(200);
    const [exchanged] = grantsOf(shop, 'token_exchange');
    expect(grantsOf(shop, 'token_exchange')).toHaveLength(1);
    expect(exchanged?.expiring).toBe(true);
    const session = await shopify().offline.offlineSession(shop);
    expect(session?.accessToken).toBe(exchanged?.access_token);
    expect(session?.refreshToken).toBeDefined();
    expect(session?.expires?.getTime()).toBe(gw.clock.nowMs() + ACCESS_TOKEN_TTL_S * 1000);
    const row = await db()
      .selectFrom('shopify_sessions')
      .selectAll()
      .where('id', '=', `offline_${shop}`)
      .executeTakeFirstOrThrow();
    expect(isSealed(row.access_token_ciphertext ?? '')).toBe(true);
    expect(row.access_token_ciphertext).not.toContain(exchanged?.access_token ?? 'x');

    // Present now: the next calls exchange nothing, even two at once.
    await Promise.all([page(shop), page(shop)]);
    expect(grantsOf(shop, 'token_exchange')).toHaveLength(1);
  });

  it('token exchange: an offline token Shopify will not refresh is replaced, instead of asking to install again', async () => {
    const shop = nextShop();
    await install(h, shop);
    const session = await shopify().offline.offlineSession(shop);
    // The refresh token is used up elsewhere.
    await h.fake.fetch(`https://${shop}/admin/oauth/access_token`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({
        client_id: API_KEY,
        client_secret: API_SECRET,
        grant_type: 'refresh_token',
        refresh_token: session?.refreshToken,
      }),
    });
    gw.clock.advance(ACCESS_TOKEN_TTL_S * 1000);
    await expect(shopify().offline.offlineSession(shop)).rejects.toMatchObject({
      code: 'shopify_reauthorization_needed',
    });
    // Two calls of the page at once share one exchange.
    const [a, b] = await Promise.all([page(shop), page(shop)]);
    expect([a.status, b.status]).toEqual([200, 200]);
    expect(grantsOf(shop, 'token_exchange')).toHaveLength(1);
    const renewed = await shopify().offline.offlineSession(shop);
    expect(h.fake.isAccessToken(shop, renewed?.accessToken ?? '')).toBe(true);
    expect(renewed?.accessToken).not.toBe(session?.accessToken);
  });

  it('the first install stays the authorization-code grant; a forged session token exchanges nothing', async () => {
    const shop = nextShop();
    const before = await page(shop);
    expect(before.status).toBe(409);
    expect(before.body.error).toBe('shop_not_installed');
    const forged = await page(shop, sessionToken(shop, gw.clock.nowMs(), {}, 'shpss_not_the_app_secret_000000'));
    expect(forged.status).toBe(401);
    expect(h.fake.grants.filter((g) => g.shop === shop)).toEqual([]);
    await install(h, shop);
    expect(h.fake.grants.filter((g) => g.shop === shop).map((g) => g.grant)).toEqual(['authorization_code']);
    expect((await page(shop)).status).toBe(200);
    expect(grantsOf(shop, 'token_exchange')).toHaveLength(0);
  });

  it('token exchange refused by Shopify: logged, the page still answers, no session is made up', async () => {
    const shop = nextShop();
    await install(h, shop);
    await shopify().sessions.deleteSessions([`offline_${shop}`]);
    const warn = vi.spyOn(h.connector.current().deps.logger, 'warn');
    h.fake.refuseTokenExchange(true);
    try {
      const token = sessionToken(shop, gw.clock.nowMs());
      const opened = await page(shop, token);
      expect(opened.status).toBe(200);
      expect(await shopify().offline.offlineSession(shop)).toBeUndefined();
      expect(warn).toHaveBeenCalledWith(expect.objectContaining({ shop }), 'Shopify refused the token exchange');
      expect(JSON.stringify(warn.mock.calls)).not.toContain(token);
    } finally {
      h.fake.refuseTokenExchange(false);
      warn.mockRestore();
    }
  });

  it('implements the session storage interface', async () => {
    const shop = nextShop();
    await install(h, shop);
    const storage = shopify().sessions;
    const found = await storage.findSessionsByShop(shop);
    expect(found.map((s) => s.id)).toEqual([`offline_${shop}`]);
    expect(await storage.findSessionsByShop('nobody.myshopify.com')).toEqual([]);
    expect(await storage.loadSession('offline_nobody.myshopify.com')).toBeUndefined();
    expect(await storage.deleteSessions([`offline_${shop}`])).toBe(true);
    expect(await storage.findSessionsByShop(shop)).toEqual([]);
    expect(await storage.deleteSession('offline_nobody.myshopify.com')).toBe(true);
  });
});

describe('Shopify off', () => {
  it('answers 404 not_found on the Shopify routes when no key and secret are configured; the rest works', async () => {
    const gw = await startTestGateway('sqlite');
    const connector = await startTestConnector('sqlite', gw);
    try {
      for (const [method, path] of [
        ['GET', '/shopify/auth?shop=a.myshopify.com'],
        ['GET', '/shopify/auth/callback?shop=a.myshopify.com'],
        ['POST', '/shopify/webhooks'],
      ] as const) {
        const answer = await connector.call(method, path);
        expect(answer.status).toBe(404);
        expect(answer.body).toMatchObject({ error: 'not_found' });
      }
      expect((await connector.call('GET', '/health')).status).toBe(200);
      expect(connector.current().deps.shopify).toBeUndefined();
    } finally {
      await connector.close();
      await gw.close();
    }
  });

  it('refuses a key without a secret, an unknown version or an app proxy path Shopify would not take, at start', async () => {
    const { loadConnectorConfig } = await import('../../../connector/config.js');
    expect(() => loadConnectorConfig({ SHOPIFY_API_KEY: API_KEY })).toThrow(/SHOPIFY_API_SECRET/);
    // A version past its support, or one the app's documents are not validated against, is refused.
    for (const version of ['2019-01', '2025-10', '2026-10', 'unstable']) {
      expect(() =>
        loadConnectorConfig({ SHOPIFY_API_KEY: API_KEY, SHOPIFY_API_SECRET: API_SECRET, SHOPIFY_API_VERSION: version }),
      ).toThrow(/SHOPIFY_API_VERSION must be one of 2026-01, 2026-04, 2026-07/);
    }
    expect(loadConnectorConfig({ SHOPIFY_API_KEY: API_KEY, SHOPIFY_API_SECRET: API_SECRET }).shopify).toMatchObject({
      scopes: ['read_orders', 'write_orders'],
      apiVersion: '2026-07',
      appProxyPath: '/apps/connector-pay',
    });
    const withProxy = (path: string) =>
      loadConnectorConfig({ SHOPIFY_API_KEY: API_KEY, SHOPIFY_API_SECRET: API_SECRET, SHOPIFY_APP_PROXY_PATH: path });
    expect(withProxy('/tools/pay_am/').shopify?.appProxyPath).toBe('/tools/pay_am');
    for (const bad of ['/shop/pay', '/apps/login', '/apps/two/levels', 'apps/pay', `/apps/${'x'.repeat(31)}`]) {
      expect(() => withProxy(bad), bad).toThrow(/SHOPIFY_APP_PROXY_PATH/);
    }
  });
});
