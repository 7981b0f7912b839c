/**
 * The WooCommerce key exchange (`/wc-auth/v1/authorize`): the authorize URL, the keys the fake store
 * POSTs to a real local callback server when the shop owner approves, and which callback bodies are
 * accepted.
 */
import { readFileSync } from 'node:fs';
import {
  createServer,
  type IncomingHttpHeaders,
  type IncomingMessage,
  type Server,
  type ServerResponse,
} from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createGuardedAgents } from '../../../gateway/outbound/guarded-agents.js';
import { authorizeUrl, parseKeyCallback } from '../../../plugins/woocommerce/key-exchange.js';
import { createWooCommercePlatform } from '../../../plugins/woocommerce/woocommerce-platform.js';
import { type FakeWooCommerce, LOOPBACK_TEST_CALLBACKS, startFakeWooCommerce } from '../../support/fake-woocommerce.js';

/** A self-signed certificate for 127.0.0.1 (test only), standing in for a test CA. */
const LOOPBACK_CERT = readFileSync(new URL('../../fixtures/tls/loopback.crt', import.meta.url), 'utf8');
const LOOPBACK_KEY = readFileSync(new URL('../../fixtures/tls/loopback.key', import.meta.url), 'utf8');

const RETURN_URL = 'https://shop.example/wp-admin/admin.php?page=wc-settings&tab=checkout&section=armenian_gateway';
const CALLBACK_URL = 'https://connector.example/woocommerce/auth/callback';
/** The fake store listens on 127.0.0.1: its API is opened as on a development machine. */
const loopbackAgents = createGuardedAgents({ allowPrivate: true });
afterAll(() => loopbackAgents.destroy());

describe('authorizeUrl', () => {
  const expected =
    'https://shop.example/wc-auth/v1/authorize' +
    '?app_name=Armenian+Payment+Gateway' +
    '&scope=read_write' +
    '&user_id=xch_7f3a9c' +
    '&return_url=https%3A%2F%2Fshop.example%2Fwp-admin%2Fadmin.php%3Fpage%3Dwc-settings%26tab%3Dcheckout%26section%3Darmenian_gateway' +
    '&callback_url=https%3A%2F%2Fconnector.example%2Fwoocommerce%2Fauth%2Fcallback';

  it.each(['https://shop.example', 'https://shop.example/'])('builds the documented query for %s', (storeUrl) => {
    const url = authorizeUrl({
      storeUrl,
      appName: 'Armenian Payment Gateway',
      userId: 'xch_7f3a9c',
      returnUrl: RETURN_URL,
      callbackUrl: CALLBACK_URL,
    });
    expect(url).toBe(expected);
    expect(Object.fromEntries(new URL(url).searchParams)).toEqual({
      app_name: 'Armenian Payment Gateway',
      scope: 'read_write',
      user_id: 'xch_7f3a9c',
      return_url: RETURN_URL,
      callback_url: CALLBACK_URL,
    });
  });

  it('keeps a WordPress sub-folder', () => {
    const url = authorizeUrl({
      storeUrl: 'https://example.am/shop/',
      appName: 'A',
      userId: 'u',
      returnUrl: RETURN_URL,
      callbackUrl: CALLBACK_URL,
    });
    expect(url.startsWith('https://example.am/shop/wc-auth/v1/authorize?app_name=A&scope=read_write&user_id=u&')).toBe(
      true,
    );
  });

  it('refuses a store URL that is not http(s)', () => {
    expect(() =>
      authorizeUrl({ storeUrl: 'ftp://shop.example', appName: 'A', userId: 'u', returnUrl: 'x', callbackUrl: 'y' }),
    ).toThrow(TypeError);
  });
});

interface Delivery {
  readonly headers: IncomingHttpHeaders;
  readonly body: string;
}

describe('approval at the fake store', () => {
  let fake: FakeWooCommerce;
  let callback: Server;
  let callbackUrl: string;
  let deliveries: Delivery[];
  let answerStatus: number;

  beforeEach(async () => {
    // The callback server below listens on 127.0.0.1 over http: the store's test switch lets it.
    fake = await startFakeWooCommerce({ testCallbacks: LOOPBACK_TEST_CALLBACKS });
    deliveries = [];
    answerStatus = 200;
    callback = createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        deliveries.push({ headers: request.headers, body: Buffer.concat(chunks).toString('utf8') });
        response.writeHead(answerStatus, { 'Content-Type': 'text/plain' });
        response.end('ok');
      });
    });
    await new Promise<void>((resolve) => callback.listen(0, '127.0.0.1', resolve));
    callbackUrl = `http://127.0.0.1:${(callback.address() as AddressInfo).port}/woocommerce/auth/callback`;
  });

  afterEach(async () => {
    await fake.close();
    await new Promise<void>((resolve) => callback.close(() => resolve()));
  });

  function exchangeUrl(overrides: Partial<Parameters<typeof authorizeUrl>[0]> = {}): string {
    return authorizeUrl({
      storeUrl: `${fake.url}/`,
      appName: 'Armenian Payment Gateway',
      userId: 'xch_7f3a9c',
      returnUrl: `${fake.url}/wp-admin/admin.php?page=wc-settings&tab=checkout&section=armenian_gateway`,
      callbackUrl,
      ...overrides,
    });
  }

  it('posts the documented JSON to the callback and redirects the owner back', async () => {
    const redirect = await fake.approve(exchangeUrl());

    expect(redirect).toBe(
      `${fake.url}/wp-admin/admin.php?page=wc-settings&tab=checkout&section=armenian_gateway&success=1&user_id=xch_7f3a9c`,
    );
    expect(deliveries).toHaveLength(1);
    const delivery = deliveries[0] as Delivery;
    expect(delivery.headers['content-type']).toMatch(/^application\/json/);
    const body = JSON.parse(delivery.body) as Record<string, unknown>;
    expect(Object.keys(body)).toEqual(['key_id', 'user_id', 'consumer_key', 'consumer_secret', 'key_permissions']);
    expect(body).toMatchObject({ user_id: 'xch_7f3a9c', key_permissions: 'read_write' });
    expect(body.key_id).toEqual(expect.any(Number));
    expect(body.consumer_key).toMatch(/^ck_[0-9a-f]{40}$/);
    expect(body.consumer_secret).toMatch(/^cs_[0-9a-f]{40}$/);

    const keys = parseKeyCallback(delivery.body);
    expect(keys).toEqual({
      keyId: body.key_id,
      userId: 'xch_7f3a9c',
      consumerKey: body.consumer_key,
      consumerSecret: body.consumer_secret,
      keyPermissions: 'read_write',
    });

    // The delivered keys open the store's API.
    const order = fake.addOrder({ total: '1500.00' });
    const platform = createWooCommercePlatform({
      storeUrl: fake.url,
      consumerKey: keys?.consumerKey ?? '',
      consumerSecret: keys?.consumerSecret ?? '',
      agents: loopbackAgents,
    });
    expect(await platform.getOrder(String(order.id))).toMatchObject({ id: String(order.id), amount: 1500 });
  });

  it('fails the approval and drops the keys when the callback does not answer 200', async () => {
    answerStatus = 500;
    await expect(fake.approve(exchangeUrl())).rejects.toThrow('unable to send the consumer data');
    const keys = parseKeyCallback(deliveries[0]?.body);
    expect(keys).not.toBeNull();
    const order = fake.addOrder({ total: '1500.00' });
    const platform = createWooCommercePlatform({
      storeUrl: fake.url,
      consumerKey: keys?.consumerKey ?? '',
      consumerSecret: keys?.consumerSecret ?? '',
      agents: loopbackAgents,
    });
    await expect(platform.getOrder(String(order.id))).rejects.toMatchObject({ retryable: false, status: 401 });
  });

  it('refuses a callback that is not over https, as WooCommerce does', async () => {
    await expect(fake.approve(exchangeUrl({ callbackUrl: 'http://connector.example/callback' }))).rejects.toThrow(
      'The callback_url needs to be over SSL',
    );
    expect(deliveries).toHaveLength(0);
  });

  it('refuses a query missing a parameter or with another scope', async () => {
    const missing = new URL(exchangeUrl());
    missing.searchParams.delete('user_id');
    await expect(fake.approve(missing.toString())).rejects.toThrow('Missing parameter user_id');
    const scoped = new URL(exchangeUrl());
    scoped.searchParams.set('scope', 'admin');
    await expect(fake.approve(scoped.toString())).rejects.toThrow('Invalid scope admin');
    expect(deliveries).toHaveLength(0);
  });
});

/** A callback server: http, or https with the certificate of test/fixtures/tls (for 127.0.0.1). */
async function startCallback(tls: boolean): Promise<{ url: string; bodies: string[]; close(): Promise<void> }> {
  const bodies: string[] = [];
  const handler = (request: IncomingMessage, response: ServerResponse) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      bodies.push(Buffer.concat(chunks).toString('utf8'));
      response.writeHead(200, { 'Content-Type': 'text/plain' });
      response.end('ok');
    });
  };
  const server = tls ? createHttpsServer({ key: LOOPBACK_KEY, cert: LOOPBACK_CERT }, handler) : createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `${tls ? 'https' : 'http'}://127.0.0.1:${port}/woocommerce/auth/callback`,
    bodies,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

describe('the key exchange as WooCommerce runs it (WC_Auth)', () => {
  const stores: FakeWooCommerce[] = [];
  const callbacks: { close(): Promise<void> }[] = [];
  afterEach(async () => {
    await Promise.all([...stores.splice(0), ...callbacks.splice(0)].map((item) => item.close()));
  });

  async function store(options: Parameters<typeof startFakeWooCommerce>[0] = {}): Promise<FakeWooCommerce> {
    const started = await startFakeWooCommerce(options);
    stores.push(started);
    return started;
  }

  function exchange(fake: FakeWooCommerce, callbackUrl: string): string {
    return authorizeUrl({
      storeUrl: fake.url,
      appName: 'Armenian Payment Gateway',
      userId: 'xch_1',
      returnUrl: `${fake.url}/wp-admin/admin.php?page=wc-settings`,
      callbackUrl,
    });
  }

  it('sends a visitor to the login form, then the grant screen; Approve is a link with wc_auth_nonce', async () => {
    const callback = await startCallback(false);
    callbacks.push(callback);
    const fake = await store({ testCallbacks: LOOPBACK_TEST_CALLBACKS });
    const start = exchange(fake, callback.url);

    const first = await fetch(start, { redirect: 'manual' });
    expect(first.status).toBe(302);
    const login = new URL(first.headers.get('location') ?? '');
    expect(login.pathname).toBe('/wc-auth/v1/login');
    expect(login.searchParams.get('user_id')).toBe('xch_1');
    const form = await (await fetch(login, { redirect: 'manual' })).text();
    expect(form).toContain('Armenian Payment Gateway would like to connect to your store');
    expect(form).toContain('name="woocommerce-login-nonce"');

    // A wrong password shows the form again with WordPress's error, and logs nobody in.
    const nonce = /name="woocommerce-login-nonce" value="([^"]+)"/.exec(form)?.[1] ?? '';
    const wrong = await fetch(login, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        username: 'admin',
        password: 'guess',
        'woocommerce-login-nonce': nonce,
        login: 'Login',
        redirect: start,
      }).toString(),
    });
    expect(wrong.status).toBe(200);
    expect(wrong.headers.get('set-cookie')).toBeNull();
    expect(await wrong.text()).toContain('The password you entered for the username admin is incorrect.');

    // access_granted needs a logged-in owner and the nonce of the grant screen.
    const granted = new URL(start.replace('/authorize?', '/access_granted?'));
    const anonymous = await fetch(granted, { redirect: 'manual' });
    expect(anonymous.status).toBe(401);
    expect(await anonymous.text()).toContain('Error: You do not have permission to access this page.');
    expect(callback.bodies).toHaveLength(0);

    // The owner denies: back to the return URL with success=0, and no key is sent.
    const denied = new URL(await fake.deny(start));
    expect(Object.fromEntries(denied.searchParams)).toMatchObject({ success: '0', user_id: 'xch_1' });
    expect(callback.bodies).toHaveLength(0);

    // The owner approves.
    const approved = new URL(await fake.approve(start));
    expect(Object.fromEntries(approved.searchParams)).toMatchObject({ success: '1', user_id: 'xch_1' });
    expect(callback.bodies).toHaveLength(1);
  });

  it('refuses access_granted with a nonce that is not the grant screen one', async () => {
    const callback = await startCallback(false);
    callbacks.push(callback);
    const fake = await store({ testCallbacks: LOOPBACK_TEST_CALLBACKS });
    const forged = `${exchange(fake, callback.url).replace('/authorize?', '/access_granted?')}&wc_auth_nonce=0123456789`;
    // Logged in through the real pages, then the forged link.
    await fake.deny(exchange(fake, callback.url));
    const answer = await fetch(forged, { redirect: 'manual' });
    expect(answer.status).toBe(401);
    expect(callback.bodies).toHaveLength(0);
  });

  it.each([
    ['an http callback', 'http://connector.example/cb', 'The callback_url needs to be over SSL', null],
    ['port 8090', 'https://connector.example:8090/cb', 'A valid URL was not provided.', 'port_not_allowed'],
    ['a loopback name', 'https://localhost/cb', 'A valid URL was not provided.', 'host_not_public'],
    ['a private address', 'https://192.168.1.20/cb', 'A valid URL was not provided.', 'host_not_public'],
    ['a name that does not resolve', 'https://nowhere.example/cb', 'A valid URL was not provided.', 'host_not_public'],
  ])('refuses %s without the test switch', async (_name, callbackUrl, message, reason) => {
    const fake = await store({
      // connector.example is public; localhost is loopback; nowhere.example does not resolve.
      resolveHost: async (host) => ({ 'connector.example': '93.184.215.14', localhost: '127.0.0.1' })[host] ?? null,
    });
    await expect(fake.approve(exchange(fake, callbackUrl))).rejects.toThrow(`Error: ${message}`);
    // The https rule refuses the authorize page itself; the others refuse the key's delivery.
    expect(fake.callbackRefusals).toEqual(reason === null ? [] : [{ callbackUrl, reason }]);
  });

  it('lets a public https host on port 8080 through to the delivery', async () => {
    const fake = await store({ resolveHost: async () => '203.0.113.10' });
    // The rules pass; the post itself then fails, as connector.example does not exist.
    await expect(fake.approve(exchange(fake, 'https://connector.example:8080/cb'))).rejects.toThrow(
      'Error: cURL error 7',
    );
    expect(fake.callbackRefusals.map((refusal) => refusal.reason)).toEqual(['unreachable']);
  });

  it('refuses a certificate WordPress does not trust, and delivers once its CA is trusted', async () => {
    const callback = await startCallback(true);
    callbacks.push(callback);
    // 127.0.0.1 may be called on any port (the switch), but over https only: the certificate decides.
    const untrusting = await store({ testCallbacks: { hosts: ['127.0.0.1'] } });
    await expect(untrusting.approve(exchange(untrusting, callback.url))).rejects.toThrow(
      'Error: cURL error 60: SSL certificate problem',
    );
    expect(untrusting.callbackRefusals).toEqual([{ callbackUrl: callback.url, reason: 'certificate_not_trusted' }]);
    expect(callback.bodies).toHaveLength(0);
    // Over http the same host is still refused: the https rule is WooCommerce's own.
    await expect(untrusting.approve(exchange(untrusting, callback.url.replace('https:', 'http:')))).rejects.toThrow(
      'The callback_url needs to be over SSL',
    );

    const trusting = await store({ testCallbacks: { hosts: ['127.0.0.1'] }, trustedCertificates: [LOOPBACK_CERT] });
    const redirect = new URL(await trusting.approve(exchange(trusting, callback.url)));
    expect(redirect.searchParams.get('success')).toBe('1');
    expect(parseKeyCallback(callback.bodies[0])).toMatchObject({ userId: 'xch_1', keyPermissions: 'read_write' });
  });
});

describe('parseKeyCallback', () => {
  const documented = {
    key_id: 1,
    user_id: 123,
    consumer_key: 'ck_xxxxxxxxxxxxxxxx',
    consumer_secret: 'cs_xxxxxxxxxxxxxxxx',
    key_permissions: 'read_write',
  };
  const delivered = {
    key_id: 7,
    user_id: 'xch_7f3a9c',
    consumer_key: `ck_${'a1'.repeat(20)}`,
    consumer_secret: `cs_${'b2'.repeat(20)}`,
    key_permissions: 'read_write',
  };

  it('accepts the documented body, with user_id as a number', () => {
    expect(parseKeyCallback(documented)).toEqual({
      keyId: 1,
      userId: '123',
      consumerKey: 'ck_xxxxxxxxxxxxxxxx',
      consumerSecret: 'cs_xxxxxxxxxxxxxxxx',
      keyPermissions: 'read_write',
    });
  });

  it('accepts user_id as text, and the body as JSON text or bytes', () => {
    const expected = {
      keyId: 7,
      userId: 'xch_7f3a9c',
      consumerKey: delivered.consumer_key,
      consumerSecret: delivered.consumer_secret,
      keyPermissions: 'read_write',
    };
    expect(parseKeyCallback(delivered)).toEqual(expected);
    expect(parseKeyCallback(JSON.stringify(delivered))).toEqual(expected);
    expect(parseKeyCallback(Buffer.from(JSON.stringify(delivered)))).toEqual(expected);
    expect(parseKeyCallback({ ...delivered, extra: true })).toEqual(expected);
  });

  it.each([
    ['read permissions', { ...delivered, key_permissions: 'read' }],
    ['write permissions', { ...delivered, key_permissions: 'write' }],
    ['no secret', { ...delivered, consumer_secret: undefined }],
    ['a key without ck_', { ...delivered, consumer_key: `xx_${'a1'.repeat(20)}` }],
    ['a secret without cs_', { ...delivered, consumer_secret: `ck_${'a1'.repeat(20)}` }],
    ['an empty user_id', { ...delivered, user_id: '' }],
    ['no user_id', { ...delivered, user_id: undefined }],
    ['a key_id that is not a number', { ...delivered, key_id: 'seven' }],
  ])('rejects a body with %s', (_name, body) => {
    expect(parseKeyCallback(JSON.parse(JSON.stringify(body)))).toBeNull();
  });

  it.each([null, undefined, 42, 'not json', '[]', [], {}])('rejects %j', (body) => {
    expect(parseKeyCallback(body)).toBeNull();
  });
});
