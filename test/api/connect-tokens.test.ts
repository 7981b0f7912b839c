/**
 * Connect tokens over HTTP (spec "Authentication" 5 and 6; DESIGN "connect tokens"; docs/decisions.md
 * "Connect tokens"): a token issued with `gateway connect-token create` creates, reads and refunds
 * payments of its own domain and nothing else; payments of other domains are 404 to it; other
 * operations are 403 `insufficient_scope`; `GET /api/v1/connect_token` answers what the token is
 * bound to and its domain's webhook secrets; forged, tampered, expired and revoked tokens are 401
 * `invalid_connect_token` and count as failed authentications; live tokens follow the live rules
 * (verified business, return and cancel URLs on the token's domain) except for `callback_url`.
 *
 * The CLI, run as a separate process on the same database, has the server's `GATEWAY_SECRET`, so it
 * signs with the secret the server verifies with.
 */
import { Router } from '@koa/router';
import { decodeJwt, decodeProtectedHeader, SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { GatewayState } from '../../gateway/api/context.js';
import { requireAuth } from '../../gateway/api/middleware/auth.js';
import { connectTokenKey } from '../../gateway/connect/connect-token.jwt.js';
import { createConnectToken, revokeConnectToken } from '../../gateway/connect/connect-token.service.js';
import { OPERATIONS } from '../../gateway/domain/access.js';
import { DAY_MS, HOUR_MS, MINUTE_MS } from '../../gateway/domain/clock.js';
import { setProcessorEnabled } from '../../gateway/merchants/domain-processors.service.js';
import { addDomain, rotateWebhookSecret } from '../../gateway/merchants/domains.service.js';
import { setRateLimit } from '../../gateway/merchants/merchant.service.js';
import { findMerchantDomain } from '../../storage/domain.repository.js';
import { findPaymentRow } from '../../storage/payment.repository.js';
import { gateway } from '../support/cli.js';
import { DIALECTS } from '../support/databases.js';
import {
  type ApiResponse,
  expectErrorBody,
  PUBLIC_URL,
  paymentBody,
  startTestGateway,
  type TestGateway,
  type TestMerchant,
  uniqueHost,
} from '../support/gateway.js';

type Json = Record<string, unknown>;

const APPROVED = '4111 1111 1111 1111';
const API_INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\+00:00$/;
const CREATED_KEYS = ['connect_token', 'id', 'merchant_id', 'domain', 'platform', 'environment', 'expires_at'];
const INTROSPECTION_KEYS = [
  'id',
  'merchant_id',
  'domain',
  'platform',
  'environment',
  'livemode',
  'created_at',
  'expires_at',
  'webhook_secrets',
];

/** One route per operation behind the real guard: operations without routes of their own (payment links). */
function scopeProbeRouter(t: () => TestGateway): Router<GatewayState> {
  const router = new Router<GatewayState>({ prefix: '/api/v1' });
  for (const operation of OPERATIONS) {
    router.post(
      `/scope-probe/${operation}`,
      (ctx, next) => requireAuth(t().gateway.deps, operation)(ctx, next),
      (ctx) => {
        ctx.body = { ok: true, operation };
      },
    );
  }
  return router;
}

function connect(token: string): { headers: Record<string, string> } {
  return { headers: { 'X-Service-Connect': token } };
}

function base64url(value: unknown): string {
  return Buffer.from(JSON.stringify(value)).toString('base64url');
}

/** Checks the spec's error shape of a refused token; answers the body. */
function expectRefused(res: ApiResponse, message?: RegExp): Json {
  const body = expectErrorBody(res, 401, 'invalid_connect_token');
  expect(body.docs_url).toBe(`${PUBLIC_URL}/docs/errors#invalid_connect_token`);
  expect(body.request_id).toBe(res.headers.get('x-request-id'));
  if (message !== undefined) expect(String(body.message)).toMatch(message);
  return body;
}

describe.each(DIALECTS)('connect tokens on %s', (dialect) => {
  let t: TestGateway;
  let databaseUrl: string;

  beforeAll(async () => {
    t = await startTestGateway(dialect, { routers: [scopeProbeRouter(() => t)] });
    databaseUrl = t.gateway.deps.config.databaseUrl;
  });
  afterAll(async () => t?.close());

  async function cli<T = Json>(...args: string[]): Promise<T> {
    const result = await gateway(databaseUrl, ...args, '--json');
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    return JSON.parse(result.stdout) as T;
  }

  /** A merchant with one verified domain of its own (beside the hosted one). */
  async function shop(): Promise<TestMerchant & { host: string; webhookSecret: string; domainId: string }> {
    const m = await t.merchant();
    const host = uniqueHost('store');
    const added = await addDomain(t.gateway.deps, { merchantId: m.merchantId, host, verified: true });
    const domain = await findMerchantDomain(t.gateway.deps.db, m.merchantId, host);
    return { ...m, host, webhookSecret: added.webhook_secret, domainId: domain?.id ?? '' };
  }

  /** A token issued in-process (the CLI path is covered on its own). */
  async function issue(
    merchantId: string,
    host: string,
    options: { environment?: 'test' | 'live'; expiresInDays?: number; platform?: string } = {},
  ): Promise<string> {
    const created = await createConnectToken(t.gateway.deps, {
      merchantId,
      domain: host,
      platform: options.platform ?? 'woocommerce',
      environment: options.environment,
      expiresInDays: options.expiresInDays,
    });
    return created.connect_token;
  }

  async function createWith(token: string, overrides: Json = {}): Promise<Json> {
    const res = await t.call('POST', '/api/v1/payments', { ...connect(token), body: paymentBody(overrides) });
    expect(res.status, res.text).toBe(201);
    return res.body;
  }

  /** Signs claims with the key the gateway derives from `secret` (default: the gateway's own). */
  async function sign(claims: Json, secret = t.gateway.secret, alg = 'HS256'): Promise<string> {
    return new SignJWT(claims).setProtectedHeader({ alg, typ: 'JWT' }).sign(connectTokenKey(secret));
  }

  describe('a token created with the CLI', () => {
    it('creates, reads and refunds a sandbox payment of its domain, and reads its order', async () => {
      const m = await shop();
      const created = await cli(
        'connect-token',
        'create',
        '--merchant',
        m.merchantId,
        '--domain',
        m.host.toUpperCase(),
        '--platform',
        'woocommerce',
      );
      expect(Object.keys(created)).toEqual(CREATED_KEYS);
      expect(created).toMatchObject({
        merchant_id: m.merchantId,
        domain: m.host,
        platform: 'woocommerce',
        environment: 'test',
      });
      expect(created.expires_at).toMatch(API_INSTANT);
      const token = String(created.connect_token);
      expect(decodeProtectedHeader(token)).toEqual({ alg: 'HS256', typ: 'JWT' });
      const claims = decodeJwt(token);
      expect(claims).toMatchObject({
        jti: created.id,
        sub: m.merchantId,
        aud: 'x-service-connect',
        dom: m.host,
        plt: 'woocommerce',
        env: 'test',
      });
      expect(Number(claims.exp) - Number(claims.iat)).toBe(365 * 86_400);
      expect(new Date(Number(claims.exp) * 1000).toISOString().replace('.000Z', '+00:00')).toBe(created.expires_at);

      // Stored by id only.
      const rows = await t.gateway.deps.db
        .selectFrom('connect_tokens')
        .selectAll()
        .where('id', '=', String(created.id))
        .execute();
      expect(rows).toHaveLength(1);
      expect(rows[0]).toMatchObject({ merchant_id: m.merchantId, domain_id: m.domainId, revoked_at: null });
      expect(JSON.stringify(rows)).not.toContain(token.split('.')[2]);

      // A test token's URLs may point anywhere public, as a test key's.
      const body = paymentBody({ callback_url: 'https://hooks.elsewhere.invalid/hooks' });
      const res = await t.call('POST', '/api/v1/payments', { ...connect(token), body });
      expect(res.status, res.text).toBe(201);
      expect(res.body.livemode).toBe(false);
      expect(res.headers.get('X-RateLimit-Limit')).toBe('60');
      const uuid = String(res.body.uuid);
      expect((await findPaymentRow(t.gateway.deps.db, uuid))?.domain_id).toBe(m.domainId);

      const read = await t.call('GET', `/api/v1/payments/${uuid}`, connect(token));
      expect(read.status, read.text).toBe(200);
      expect(read.body.uuid).toBe(uuid);
      const order = await t.call(
        'GET',
        `/api/v1/orders/${encodeURIComponent(String(body.order_id))}/payment`,
        connect(token),
      );
      expect(order.status, order.text).toBe(200);
      expect(order.body.uuid).toBe(uuid);
      const listed = await t.call<{ data: Json[] }>('GET', '/api/v1/payments', connect(token));
      expect(listed.status).toBe(200);
      expect(listed.body.data.map((p) => p.uuid)).toEqual([uuid]);

      // The buyer pays (driven with the merchant's test key: test helpers are not for tokens).
      const paid = await t.call('POST', `/api/v1/test_helpers/payments/${uuid}/pay`, {
        key: m.testKey,
        body: { card_number: APPROVED },
      });
      expect(paid.status, paid.text).toBe(200);
      expect(paid.body.status).toBe('completed');

      const refund = await t.call('POST', `/api/v1/payments/${uuid}/refund`, {
        ...connect(token),
        body: { amount: 2000, reason: 'returned by the buyer' },
      });
      expect(refund.status, refund.text).toBe(201);
      expect(refund.body).toMatchObject({ payment_uuid: uuid, amount: 2000, refunded_amount: 2000 });
      const refunds = await t.call<Json[]>('GET', `/api/v1/payments/${uuid}/refunds`, connect(token));
      expect(refunds.status, refunds.text).toBe(200);
      expect(JSON.stringify(refunds.body)).toContain(String(refund.body.uuid));
      const events = await t.call<{ data: Json[] }>('GET', `/api/v1/payments/${uuid}/events`, connect(token));
      expect(events.status, events.text).toBe(200);
      expect(events.body.data.map((e) => e.event)).toEqual(['transaction.status.updated', 'payment.refunded']);
    });

    it('is refused once revoked with the CLI; revoking again answers the same time', async () => {
      const m = await shop();
      const created = await cli<Json>(
        'connect-token',
        'create',
        '--merchant',
        m.merchantId,
        '--domain',
        m.host,
        '--platform',
        'shopify',
      );
      const revoked = await cli<Json>('connect-token', 'revoke', '--id', String(created.id));
      expect(Object.keys(revoked)).toEqual(['id', 'revoked_at']);
      expect(revoked.id).toBe(created.id);
      expect(revoked.revoked_at).toMatch(API_INSTANT);
      expect(await cli('connect-token', 'revoke', '--id', String(created.id))).toEqual(revoked);

      const res = await t.call('POST', '/api/v1/payments', {
        ...connect(String(created.connect_token)),
        body: paymentBody(),
      });
      expectRefused(res, /revoked/);
      // The merchant's key is untouched.
      expect((await t.call('GET', '/api/v1/payments', { key: m.testKey })).status).toBe(200);
    });
  });

  it('a token revoked by this instance is refused at once, even right after a request', async () => {
    const m = await shop();
    const created = await createConnectToken(t.gateway.deps, {
      merchantId: m.merchantId,
      domain: m.host,
      platform: 'woocommerce',
    });
    const token = created.connect_token;
    expect((await t.call('GET', '/api/v1/payments', connect(token))).status).toBe(200);
    await revokeConnectToken(t.gateway.deps, created.id);
    expectRefused(await t.call('GET', '/api/v1/payments', connect(token)), /revoked/);
  });

  it('the hosted domain counts as the token’s domain', async () => {
    const m = await t.merchant();
    const token = await issue(m.merchantId, m.hostedDomain);
    const created = await createWith(token);
    const row = await findPaymentRow(t.gateway.deps.db, String(created.uuid));
    const hosted = await findMerchantDomain(t.gateway.deps.db, m.merchantId, m.hostedDomain);
    expect(row?.domain_id).toBe(hosted?.id);
  });

  describe('domain binding', () => {
    it('payments of another domain of the same merchant, or of another merchant, are 404 to the token', async () => {
      const m = await shop();
      const otherHost = uniqueHost('other');
      await addDomain(t.gateway.deps, { merchantId: m.merchantId, host: otherHost, verified: true });
      const token = await issue(m.merchantId, m.host);
      const stranger = await t.merchant();

      const foreign: Array<[string, Json, string]> = [];
      const onOther = paymentBody({ domain: otherHost });
      const onHosted = paymentBody();
      const ofStranger = paymentBody();
      for (const [label, key, body] of [
        ['another domain', m.testKey, onOther],
        ['the hosted domain', m.testKey, onHosted],
        ['another merchant', stranger.testKey, ofStranger],
      ] as const) {
        const res = await t.call('POST', '/api/v1/payments', { key, body });
        expect(res.status, res.text).toBe(201);
        const paid = await t.call('POST', `/api/v1/test_helpers/payments/${res.body.uuid}/pay`, {
          key,
          body: { card_number: APPROVED },
        });
        expect(paid.status).toBe(200);
        foreign.push([label, body, String(res.body.uuid)]);
      }
      const own = await createWith(token);

      for (const [label, body, uuid] of foreign) {
        const read = await t.call('GET', `/api/v1/payments/${uuid}`, connect(token));
        expectErrorBody(read, 404, 'not_found');
        const order = await t.call(
          'GET',
          `/api/v1/orders/${encodeURIComponent(String(body.order_id))}/payment`,
          connect(token),
        );
        expect(order.status, label).toBe(404);
        expect(order.body.error, label).toBe('order_not_found');
        const refund = await t.call('POST', `/api/v1/payments/${uuid}/refund`, { ...connect(token), body: {} });
        expect(refund.status, label).toBe(404);
        expect(refund.body.error, label).toBe('not_found');
        const refunds = await t.call('GET', `/api/v1/payments/${uuid}/refunds`, connect(token));
        expect(refunds.status, label).toBe(404);
        const events = await t.call('GET', `/api/v1/payments/${uuid}/events`, connect(token));
        expect(events.status, label).toBe(404);
      }
      const listed = await t.call<{ data: Json[] }>('GET', '/api/v1/payments', connect(token));
      expect(listed.body.data.map((p) => p.uuid)).toEqual([own.uuid]);

      // The merchant's key still sees (and refunds) all of its own payments.
      const [, , otherUuid] = foreign[0] as [string, Json, string];
      expect((await t.call('GET', `/api/v1/payments/${otherUuid}`, { key: m.testKey })).status).toBe(200);
      expect((await t.call('GET', `/api/v1/payments/${own.uuid}`, { key: m.testKey })).status).toBe(200);
    });

    it('a domain field naming another host is 403 domain_mismatch; naming the token’s domain is fine', async () => {
      const m = await shop();
      const otherHost = uniqueHost('other');
      await addDomain(t.gateway.deps, { merchantId: m.merchantId, host: otherHost, verified: true });
      const token = await issue(m.merchantId, m.host);

      for (const domain of [otherHost, m.hostedDomain, 'unknown-shop.am']) {
        const res = await t.call('POST', '/api/v1/payments', { ...connect(token), body: paymentBody({ domain }) });
        const body = expectErrorBody(res, 403, 'domain_mismatch', ['field']);
        expect(body.field).toBe('domain');
        expect(String(body.message)).toContain(m.host);
      }
      await createWith(token, { domain: m.host.toUpperCase() });
      await createWith(token, { domain: `www.${m.host}` });
    });

    it('an Idempotency-Key of one token never replays another domain’s payment', async () => {
      const m = await shop();
      const otherHost = uniqueHost('other');
      await addDomain(t.gateway.deps, { merchantId: m.merchantId, host: otherHost, verified: true });
      const first = await issue(m.merchantId, m.host);
      const second = await issue(m.merchantId, otherHost);
      const body = paymentBody();
      const headers = { 'Idempotency-Key': `same-key-${m.merchantId}` };

      const a = await t.call('POST', '/api/v1/payments', { headers: { ...connect(first).headers, ...headers }, body });
      expect(a.status, a.text).toBe(201);
      const replay = await t.call('POST', '/api/v1/payments', {
        headers: { ...connect(first).headers, ...headers },
        body,
      });
      expect(replay.status).toBe(200);
      expect(replay.body.uuid).toBe(a.body.uuid);
      // Same key and body from the other domain's token: not a replay of the first domain's payment
      // (the order already has a payment, so it is refused as a new request would be).
      const b = await t.call('POST', '/api/v1/payments', { headers: { ...connect(second).headers, ...headers }, body });
      expect(b.body.uuid).toBeUndefined();
      expectErrorBody(b, 422, 'validation_failed', ['errors']);
    });
  });

  describe('what a token may not do: 403 insufficient_scope', () => {
    it.each([
      ['GET', '/api/v1/billing/balances', undefined],
      ['GET', '/api/v1/billing/ledger', undefined],
      ['POST', '/api/v1/billing/purchases', { counter: 'transactions', quantity: 100 }],
      ['GET', '/api/v1/billing/purchases/01a1fdae-1fae-72a7-b5f2-afca07a53ffc', undefined],
      ['PUT', '/api/v1/billing/auto-topup/transactions', { enabled: true, threshold_qty: 10, refill_qty: 100 }],
      ['POST', '/api/v1/test_helpers/payments/01a1fdae-1fae-72a7-b5f2-afca07a53ffc/pay', { card_number: APPROVED }],
      ['POST', '/api/v1/test_helpers/payments/01a1fdae-1fae-72a7-b5f2-afca07a53ffc/confirm', {}],
      ['POST', '/api/v1/test_helpers/clock/advance', { seconds: 60 }],
      ['POST', '/api/v1/scope-probe/payment_links.manage', undefined],
    ])('%s %s', async (method, path, body) => {
      const m = await shop();
      const token = await issue(m.merchantId, m.host);
      const res = await t.call(method, path, {
        headers: { ...connect(token).headers, 'Idempotency-Key': `scope-${m.merchantId}` },
        ...(body === undefined ? {} : { body }),
      });
      const error = expectErrorBody(res, 403, 'insufficient_scope', ['required']);
      expect(String(error.message)).toContain('connect token');
      expect(String(error.message)).toContain(m.host);
    });

    it('the guard answers exactly the operations of the access table', async () => {
      const m = await shop();
      const token = await issue(m.merchantId, m.host);
      const allowed: string[] = [];
      for (const operation of OPERATIONS) {
        const res = await t.call('POST', `/api/v1/scope-probe/${operation}`, connect(token));
        if (res.status === 200) allowed.push(operation);
        else expect(res.body).toMatchObject({ error: 'insufficient_scope', required: operation });
      }
      expect(allowed).toEqual(['payments.create', 'payments.read', 'refunds.create', 'payments.capture']);
    });

    it('a test payment of the token is paid with the merchant’s key, not the token', async () => {
      const m = await shop();
      const token = await issue(m.merchantId, m.host);
      const created = await createWith(token);
      const res = await t.call('POST', `/api/v1/test_helpers/payments/${created.uuid}/pay`, {
        ...connect(token),
        body: { card_number: APPROVED },
      });
      expectErrorBody(res, 403, 'insufficient_scope', ['required']);
      expect(res.body.required).toBe('test_helpers.use');
      expect((await findPaymentRow(t.gateway.deps.db, String(created.uuid)))?.status).toBe('pending');
    });
  });

  it('counts against the account’s per-minute limit together with its keys', async () => {
    const m = await shop();
    const token = await issue(m.merchantId, m.host);
    await setRateLimit(t.gateway.deps, m.merchantId, 3);
    expect((await t.call('GET', '/api/v1/payments', { key: m.testKey })).status).toBe(200);
    expect((await t.call('GET', '/api/v1/payments', connect(token))).status).toBe(200);
    expect((await t.call('GET', '/api/v1/payments', connect(token))).status).toBe(200);
    const limited = await t.call('GET', '/api/v1/payments', connect(token));
    expectErrorBody(limited, 429, 'rate_limited');
    expect(limited.headers.get('Retry-After')).not.toBeNull();
  });

  describe('GET /api/v1/connect_token', () => {
    it('answers what the token is bound to and its domain’s webhook secrets, both during a rotation', async () => {
      const m = await shop();
      const created = await createConnectToken(t.gateway.deps, {
        merchantId: m.merchantId,
        domain: m.host,
        platform: 'shopify',
        expiresInDays: 30,
      });
      const res = await t.call('GET', '/api/v1/connect_token', connect(created.connect_token));
      expect(res.status, res.text).toBe(200);
      expect(res.headers.get('cache-control')).toBe('no-store');
      expect(Object.keys(res.body)).toEqual(INTROSPECTION_KEYS);
      expect(res.body).toEqual({
        id: created.id,
        merchant_id: m.merchantId,
        domain: m.host,
        platform: 'shopify',
        environment: 'test',
        livemode: false,
        created_at: expect.stringMatching(API_INSTANT),
        expires_at: created.expires_at,
        webhook_secrets: [m.webhookSecret],
      });
      expect(Date.parse(String(res.body.expires_at)) - Date.parse(String(res.body.created_at))).toBe(30 * DAY_MS);

      const rotated = await rotateWebhookSecret(t.gateway.deps, { merchantId: m.merchantId, host: m.host });
      const during = await t.call('GET', '/api/v1/connect_token', connect(created.connect_token));
      expect(during.body.webhook_secrets).toEqual([m.webhookSecret, rotated.webhook_secret_next]);
    });

    it('refuses an API key with 403 insufficient_scope, and no credential with 401', async () => {
      const m = await t.merchant();
      const res = await t.call('GET', '/api/v1/connect_token', { key: m.testKey });
      const body = expectErrorBody(res, 403, 'insufficient_scope', ['required']);
      expect(body.required).toBe('connect_token');
      expect(String(body.message)).toContain('X-Service-Connect');
      expectErrorBody(await t.call('GET', '/api/v1/connect_token'), 401, 'missing_credentials');
    });
  });

  describe('refused tokens: 401 invalid_connect_token', () => {
    async function validClaims(): Promise<{ claims: Json; token: string; m: TestMerchant & { host: string } }> {
      const m = await shop();
      const token = await issue(m.merchantId, m.host);
      return { claims: decodeJwt(token) as Json, token, m };
    }

    it('a token signed with another secret', async () => {
      const { claims } = await validClaims();
      const forged = await sign(claims, 'another-secret-another-secret-another-0123');
      expectRefused(await t.call('GET', '/api/v1/payments', connect(forged)), /signature/);
    });

    it('a token signed with the service secret itself rather than the derived key', async () => {
      const { claims } = await validClaims();
      const forged = await new SignJWT(claims)
        .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
        .sign(new TextEncoder().encode(t.gateway.secret));
      expectRefused(await t.call('GET', '/api/v1/payments', connect(forged)));
    });

    it('alg none, with or without a signature part, and another HMAC algorithm', async () => {
      const { claims } = await validClaims();
      const header = base64url({ alg: 'none', typ: 'JWT' });
      for (const unsigned of [`${header}.${base64url(claims)}.`, `${header}.${base64url(claims)}.AAAA`]) {
        expectRefused(await t.call('GET', '/api/v1/payments', connect(unsigned)));
      }
      const hs512 = await sign(claims, t.gateway.secret, 'HS512');
      expectRefused(await t.call('GET', '/api/v1/payments', connect(hs512)));
    });

    it.each([
      ['not a JWT', 'not-a-token'],
      ['three empty-ish parts', 'a.b.c'],
      ['a key in the connect header', 'sk_test_0123456789abcdefghijABCDEFGHIJ0123456'],
      ['an oversized token', `${'a'.repeat(3000)}.b.c`],
    ])('malformed: %s', async (_label, token) => {
      expectRefused(await t.call('GET', '/api/v1/payments', connect(token)), /malformed/);
    });

    it('tampered claims (the signature no longer matches)', async () => {
      const { token, claims } = await validClaims();
      const [header, , signature] = token.split('.');
      const other = await t.merchant();
      for (const change of [
        { sub: other.merchantId },
        { dom: other.hostedDomain },
        { env: 'live' },
        { exp: 4_102_444_800 },
      ]) {
        const tampered = `${header}.${base64url({ ...claims, ...change })}.${signature}`;
        expectRefused(await t.call('GET', '/api/v1/payments', connect(tampered)), /signature/);
      }
      const flipped = `${token.slice(0, -2)}${token.endsWith('AA') ? 'BB' : 'AA'}`;
      expectRefused(await t.call('GET', '/api/v1/payments', connect(flipped)));
    });

    it('correctly signed claims that disagree with the stored token, or name no stored token', async () => {
      const { claims, m } = await validClaims();
      const otherHost = uniqueHost('other');
      await addDomain(t.gateway.deps, { merchantId: m.merchantId, host: otherHost, verified: true });
      const other = await t.merchant();
      for (const change of [
        { dom: otherHost },
        { sub: other.merchantId },
        { plt: 'shopify' },
        { env: 'live' },
        { exp: Number(claims.exp) + 86_400 },
        { jti: '01a1fdae-1fae-72a7-b5f2-afca07a53ffc' },
      ]) {
        const forged = await sign({ ...claims, ...change });
        expectRefused(await t.call('GET', '/api/v1/payments', connect(forged)), /not recognised/);
      }
      for (const change of [{ aud: 'something-else' }, { plt: 'magento' }, { jti: 'not-a-uuid' }, { exp: 'never' }]) {
        const forged = await sign({ ...claims, ...change });
        expectRefused(await t.call('GET', '/api/v1/payments', connect(forged)), /malformed/);
      }
      // The same claims, correctly signed, are the token itself.
      expect((await t.call('GET', '/api/v1/payments', connect(await sign(claims)))).status).toBe(200);
    });

    it('a token whose domain is no longer verified', async () => {
      const m = await shop();
      const token = await issue(m.merchantId, m.host);
      expect((await t.call('GET', '/api/v1/payments', connect(token))).status).toBe(200);
      // No operator command takes verification away; the row is changed directly, and the next
      // request sees it all the same.
      await t.gateway.deps.db.updateTable('domains').set({ verified: 0 }).where('id', '=', m.domainId).execute();
      expectRefused(await t.call('GET', '/api/v1/payments', connect(token)), /no longer a verified domain/);
    });

    it('an expired token (the clock passes its expiry)', async () => {
      const m = await shop();
      const token = await issue(m.merchantId, m.host, { expiresInDays: 1 });
      expect((await t.call('GET', '/api/v1/payments', connect(token))).status).toBe(200);
      t.clock.advance(DAY_MS - HOUR_MS);
      expect((await t.call('GET', '/api/v1/payments', connect(token))).status).toBe(200);
      t.clock.advance(HOUR_MS);
      expectRefused(await t.call('GET', '/api/v1/payments', connect(token)), /expired/);
      expectRefused(await t.call('GET', '/api/v1/connect_token', connect(token)), /expired/);
    });
  });

  describe('live tokens', () => {
    it('of an unverified business: 403 VERIFICATION_REQUIRED, as live keys', async () => {
      const m = await shop();
      const token = await issue(m.merchantId, m.host, { environment: 'live' });
      const res = await t.call('POST', '/api/v1/payments', {
        ...connect(token),
        body: paymentBody({ return_url: `https://${m.host}/done` }),
      });
      const body = expectErrorBody(res, 403, 'VERIFICATION_REQUIRED', ['verification_url']);
      expect(body.verification_url).toBe(`${PUBLIC_URL}/docs/verification`);
      expectErrorBody(await t.call('GET', '/api/v1/connect_token', connect(token)), 403, 'VERIFICATION_REQUIRED', [
        'verification_url',
      ]);
      // The test token of the same store works at once.
      const testToken = await issue(m.merchantId, m.host);
      await createWith(testToken);
    });

    it('return_url and cancel_url must lie on the token’s domain; callback_url may be anywhere', async () => {
      const host = uniqueHost('live');
      const m = await t.liveMerchant(host);
      const token = await issue(m.merchantId, host, { environment: 'live' });

      const offReturn = await t.call('POST', '/api/v1/payments', {
        ...connect(token),
        body: paymentBody({ return_url: 'https://elsewhere.example.net/done' }),
      });
      expect(expectErrorBody(offReturn, 403, 'domain_mismatch', ['field']).field).toBe('return_url');

      // Another verified domain of the same merchant is still not the token's domain.
      const sibling = uniqueHost('sibling');
      await addDomain(t.gateway.deps, { merchantId: m.merchantId, host: sibling, verified: true });
      const offCancel = await t.call('POST', '/api/v1/payments', {
        ...connect(token),
        body: paymentBody({ return_url: `https://${host}/done`, cancel_url: `https://${sibling}/cancel` }),
      });
      expect(expectErrorBody(offCancel, 403, 'domain_mismatch', ['field']).field).toBe('cancel_url');

      const callbackUrl = 'https://connector.example.net/webhooks/gateway';
      const created = await createWith(token, {
        return_url: `https://shop.${host}/done`,
        cancel_url: `https://${host}/cancel`,
        callback_url: callbackUrl,
      });
      expect(created.livemode).toBe(true);
      const row = await findPaymentRow(t.gateway.deps.db, String(created.uuid));
      expect(row?.callback_url).toBe(callbackUrl);
      expect(row?.environment).toBe('live');

      // A live key is still held to the verified domains for callback_url.
      const withKey = await t.call('POST', '/api/v1/payments', {
        key: m.liveKey,
        body: paymentBody({ return_url: `https://${host}/done`, callback_url: callbackUrl }),
      });
      expect(expectErrorBody(withKey, 403, 'domain_mismatch', ['field']).field).toBe('callback_url');

      const introspected = await t.call('GET', '/api/v1/connect_token', connect(token));
      expect(introspected.body).toMatchObject({ environment: 'live', livemode: true, domain: host });
    });

    it('a live token without a live processor enabled on its domain is 422 no_payment_method_configured', async () => {
      const host = uniqueHost('live');
      const m = await t.liveMerchant(host);
      const token = await issue(m.merchantId, host, { environment: 'live' });
      const create = () =>
        t.call('POST', '/api/v1/payments', {
          ...connect(token),
          body: paymentBody({ return_url: `https://${host}/done` }),
        });
      // The sandbox alone never pays a live payment.
      await setProcessorEnabled(t.gateway.deps, { merchantId: m.merchantId, host, processor: 'idram', enabled: false });
      const sandboxOnly = await create();
      expectErrorBody(sandboxOnly, 422, 'no_payment_method_configured', ['domain', 'enabled_processors']);
      expect(sandboxOnly.body.enabled_processors).toEqual(['sandbox']);
      await setProcessorEnabled(t.gateway.deps, {
        merchantId: m.merchantId,
        host,
        processor: 'sandbox',
        enabled: false,
      });
      const none = await create();
      expectErrorBody(none, 422, 'no_payment_method_configured', ['domain', 'enabled_processors']);
      expect(none.body.enabled_processors).toEqual([]);
    });

    it('a live token makes live payments only: `processor: sandbox` is 422, its test token makes those', async () => {
      const host = uniqueHost('live');
      const m = await t.liveMerchant(host);
      const token = await issue(m.merchantId, host, { environment: 'live' });
      const res = await t.call('POST', '/api/v1/payments', {
        ...connect(token),
        body: paymentBody({ return_url: `https://${host}/done`, processor: 'sandbox' }),
      });
      expectErrorBody(res, 422, 'validation_failed', ['errors']);
      expect(Object.keys(res.body.errors as Json)).toEqual(['processor']);
      const testToken = await issue(m.merchantId, host, { environment: 'test' });
      const sandbox = await t.call('POST', '/api/v1/payments', {
        ...connect(testToken),
        body: paymentBody({ return_url: `https://${host}/done`, processor: 'sandbox' }),
      });
      expect(sandbox.status, sandbox.text).toBe(201);
      expect(sandbox.body.livemode).toBe(false);
    });
  });

  it('repeated refused tokens reach the per-address limit: 429 too_many_attempts, then even a valid token', async () => {
    const m = await shop();
    const token = await issue(m.merchantId, m.host);
    const forged = await sign(decodeJwt(token) as Json, 'another-secret-another-secret-another-0123');
    // A fresh minute, so the failures of the tests above do not count.
    t.clock.advance(MINUTE_MS - (t.clock.nowMs() % MINUTE_MS) + 30_000);

    const statuses: number[] = [];
    for (let i = 0; i < 120; i++) {
      statuses.push((await t.call('GET', '/api/v1/payments', connect(i % 2 === 0 ? forged : 'not-a-token'))).status);
    }
    expect(statuses).toEqual(Array(120).fill(401));
    const blocked = await t.call('GET', '/api/v1/payments', connect(forged));
    expectErrorBody(blocked, 429, 'too_many_attempts');
    expect(blocked.headers.get('Retry-After')).toBe('30');
    expectErrorBody(await t.call('GET', '/api/v1/payments', connect(token)), 429, 'too_many_attempts');

    t.clock.advance(30_000); // the next minute
    expect((await t.call('GET', '/api/v1/payments', connect(token))).status).toBe(200);
  });
});
