/**
 * Authentication and access over HTTP (spec "Authentication"): how a key is sent, which
 * credentials are refused and with which code, what a key may see (its own merchant, its own
 * environment), live keys of unverified businesses, and the access level of a key.
 */
import { Router } from '@koa/router';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { GatewayState } from '../../gateway/api/context.js';
import { requireAuth } from '../../gateway/api/middleware/auth.js';
import { OPERATIONS } from '../../gateway/domain/access.js';
import { createApiKey, revokeApiKey } from '../../gateway/merchants/api-keys.service.js';
import { verifyBusiness } from '../../gateway/merchants/merchant.service.js';
import { DIALECTS } from '../support/databases.js';
import { PUBLIC_URL, paymentBody, startTestGateway, type TestGateway } from '../support/gateway.js';

/**
 * One route per operation, guarded by the real middleware, so that access levels can be checked
 * over HTTP before the spec's routes for refunds and billing exist.
 */
function scopeProbeRouter(gateway: () => TestGateway): Router<GatewayState> {
  const router = new Router<GatewayState>({ prefix: '/api/v1' });
  for (const operation of OPERATIONS) {
    router.post(
      `/scope-probe/${operation}`,
      (ctx, next) => requireAuth(gateway().gateway.deps, operation)(ctx, next),
      (ctx) => {
        ctx.body = { ok: true, operation };
      },
    );
  }
  return router;
}

describe.each(DIALECTS)('authentication on %s', (dialect) => {
  let t: TestGateway;
  beforeAll(async () => {
    t = await startTestGateway(dialect, { routers: [scopeProbeRouter(() => t)] });
  });
  afterAll(async () => t?.close());

  describe('sending the key', () => {
    it('accepts the key in X-Service-Key', async () => {
      const m = await t.merchant();
      const res = await t.call('POST', '/api/v1/payments', { key: m.testKey, body: paymentBody() });
      expect(res.status).toBe(201);
    });

    it('accepts the key as Authorization: Bearer', async () => {
      const m = await t.merchant();
      const created = await t.call('POST', '/api/v1/payments', {
        headers: { Authorization: `Bearer ${m.testKey}` },
        body: paymentBody(),
      });
      expect(created.status).toBe(201);
      const read = await t.call('GET', `/api/v1/payments/${created.body.uuid}`, {
        headers: { Authorization: `Bearer ${m.testKey}` },
      });
      expect(read.status).toBe(200);
      expect(read.body.uuid).toBe(created.body.uuid);
    });

    it('answers 401 missing_credentials when no credential is sent', async () => {
      const res = await t.call('GET', '/api/v1/payments');
      expect(res.status).toBe(401);
      expect(res.body.error).toBe('missing_credentials');
    });

    it('treats an empty X-Service-Key header as no credential', async () => {
      const res = await t.call('GET', '/api/v1/payments', { headers: { 'X-Service-Key': '' } });
      expect(res.status).toBe(401);
      expect(res.body.error).toBe('missing_credentials');
    });

    it('checks the credential before reading the body', async () => {
      const res = await t.call('POST', '/api/v1/payments', { rawBody: '{not json', headers: {} });
      expect(res.status).toBe(401);
      expect(res.body.error).toBe('missing_credentials');
    });
  });

  describe('refused keys: 401 invalid_api_key', () => {
    it.each([
      ['a key without the sk_live_/sk_test_ prefix', 'pk_test_0123456789abcdefghijABCDEFGHIJ'],
      ['a key of an unknown environment', 'sk_prod_0123456789abcdefghijABCDEFGHIJ'],
      ['a key that is too short', 'sk_test_abc'],
      ['a well-formed key that was never issued', 'sk_test_0123456789abcdefghijABCDEFGHIJ0123456'],
    ])('%s', async (_label, key) => {
      const res = await t.call('GET', '/api/v1/payments', { key });
      expect(res.status).toBe(401);
      expect(res.body.error).toBe('invalid_api_key');
    });

    it('an Authorization header that is not a Bearer token', async () => {
      const m = await t.merchant();
      const res = await t.call('GET', '/api/v1/payments', {
        headers: { Authorization: `Basic ${Buffer.from(`${m.testKey}:`).toString('base64')}` },
      });
      expect(res.status).toBe(401);
      expect(res.body.error).toBe('invalid_api_key');
    });

    it('an issued key with its environment prefix swapped', async () => {
      const m = await t.merchant();
      const swapped = m.testKey.replace(/^sk_test_/, 'sk_live_');
      expect(swapped).not.toBe(m.testKey);
      const res = await t.call('GET', '/api/v1/payments', { key: swapped });
      expect(res.status).toBe(401);
      expect(res.body.error).toBe('invalid_api_key');
    });

    it('a revoked key, while the merchant’s other keys keep working', async () => {
      const m = await t.merchant();
      const doomed = await createApiKey(t.gateway.deps, {
        merchantId: m.merchantId,
        environment: 'test',
        access: 'full',
      });
      // Used once, so a recently authenticated key is revoked (not merely an unseen one).
      expect((await t.call('GET', '/api/v1/payments', { key: doomed.key })).status).toBe(200);

      await revokeApiKey(t.gateway.deps, { merchantId: m.merchantId, keyId: doomed.key_id });

      const refused = await t.call('GET', '/api/v1/payments', { key: doomed.key });
      expect(refused.status).toBe(401);
      expect(refused.body.error).toBe('invalid_api_key');
      expect((await t.call('GET', '/api/v1/payments', { key: m.testKey })).status).toBe(200);
    });
  });

  it('answers 401 invalid_connect_token to a malformed X-Service-Connect token', async () => {
    const res = await t.call('GET', '/api/v1/payments', { headers: { 'X-Service-Connect': 'eyJhbGciOi.x.y' } });
    expect(res.status).toBe(401);
    expect(res.body.error).toBe('invalid_connect_token');
  });

  describe('what a key sees', () => {
    it('never another merchant’s payments: 404 on read, order lookup and absent from the list', async () => {
      const owner = await t.merchant();
      const other = await t.merchant();
      const body = paymentBody();
      const created = await t.call('POST', '/api/v1/payments', { key: owner.testKey, body });
      expect(created.status).toBe(201);

      const read = await t.call('GET', `/api/v1/payments/${created.body.uuid}`, { key: other.testKey });
      expect(read.status).toBe(404);
      expect(read.body.error).toBe('not_found');

      const order = await t.call('GET', `/api/v1/orders/${encodeURIComponent(String(body.order_id))}/payment`, {
        key: other.testKey,
      });
      expect(order.status).toBe(404);
      expect(order.body.error).toBe('order_not_found');

      const list = await t.call('GET', '/api/v1/payments', { key: other.testKey });
      expect(list.status).toBe(200);
      expect(list.body.data).toEqual([]);

      // The owner still sees it: the 404s above are about who asks, not about the payment.
      const own = await t.call('GET', `/api/v1/payments/${created.body.uuid}`, { key: owner.testKey });
      expect(own.status).toBe(200);
    });

    it('a test key never sees live payments of its own merchant, nor a live key test payments', async () => {
      const m = await t.liveMerchant('env-split.example.am');
      const testBody = paymentBody();
      const liveBody = paymentBody({ return_url: 'https://env-split.example.am/done' });
      const testPayment = await t.call('POST', '/api/v1/payments', { key: m.testKey, body: testBody });
      const livePayment = await t.call('POST', '/api/v1/payments', { key: m.liveKey, body: liveBody });
      expect(testPayment.status).toBe(201);
      expect(livePayment.status).toBe(201);
      expect(testPayment.body.livemode).toBe(false);
      expect(livePayment.body.livemode).toBe(true);

      const cases: Array<[string, string, { uuid: unknown }, Record<string, unknown>]> = [
        ['live key', m.liveKey, testPayment.body as { uuid: unknown }, testBody],
        ['test key', m.testKey, livePayment.body as { uuid: unknown }, liveBody],
      ];
      for (const [label, key, foreign, foreignBody] of cases) {
        const read = await t.call('GET', `/api/v1/payments/${foreign.uuid}`, { key });
        expect(read.status, label).toBe(404);
        expect(read.body.error, label).toBe('not_found');
        const order = await t.call(
          'GET',
          `/api/v1/orders/${encodeURIComponent(String(foreignBody.order_id))}/payment`,
          {
            key,
          },
        );
        expect(order.status, label).toBe(404);
        expect(order.body.error, label).toBe('order_not_found');
      }

      const testList = await t.call<{ data: Array<{ uuid: string }> }>('GET', '/api/v1/payments', { key: m.testKey });
      const liveList = await t.call<{ data: Array<{ uuid: string }> }>('GET', '/api/v1/payments', { key: m.liveKey });
      expect(testList.body.data.map((p) => p.uuid)).toEqual([testPayment.body.uuid]);
      expect(liveList.body.data.map((p) => p.uuid)).toEqual([livePayment.body.uuid]);
    });
  });

  describe('live keys need a verified business', () => {
    it('refuses a live key of an unverified business with 403 VERIFICATION_REQUIRED and a verification_url', async () => {
      const m = await t.merchant();
      const liveKey = await t.key(m.merchantId, 'live');
      const res = await t.call('POST', '/api/v1/payments', {
        key: liveKey,
        body: paymentBody({ return_url: 'https://unverified.example.am/done' }),
      });
      expect(res.status).toBe(403);
      expect(res.body.error).toBe('VERIFICATION_REQUIRED');
      expect(res.body.verification_url).toBe(`${PUBLIC_URL}/docs/verification`);

      // Reads are refused too: the key does nothing until the business is verified.
      const list = await t.call('GET', '/api/v1/payments', { key: liveKey });
      expect(list.status).toBe(403);
      expect(list.body.error).toBe('VERIFICATION_REQUIRED');

      // The test key of the same merchant works at once.
      expect((await t.call('GET', '/api/v1/payments', { key: m.testKey })).status).toBe(200);
    });

    it('serves the verification_url as an HTML page', async () => {
      const m = await t.merchant();
      const liveKey = await t.key(m.merchantId, 'live');
      const refused = await t.call('GET', '/api/v1/payments', { key: liveKey });
      const url = new URL(String(refused.body.verification_url));
      expect(url.origin).toBe(PUBLIC_URL);

      const page = await t.call('GET', url.pathname);
      expect(page.status).toBe(200);
      expect(page.headers.get('content-type')).toMatch(/^text\/html/);
      expect(page.text).toMatch(/^<!doctype html>/i);
      expect(page.text).toContain('Business verification');
    });

    it('accepts the same live key once the operator verified the business', async () => {
      const m = await t.merchant();
      const liveKey = await t.key(m.merchantId, 'live');
      expect((await t.call('GET', '/api/v1/payments', { key: liveKey })).status).toBe(403);
      await verifyBusiness(t.gateway.deps, m.merchantId);
      const res = await t.call('GET', '/api/v1/payments', { key: liveKey });
      expect(res.status).toBe(200);
      expect(res.body.data).toEqual([]);
    });
  });

  describe('access levels', () => {
    it('a payments-only key creates and reads payments', async () => {
      const m = await t.merchant();
      const key = await t.key(m.merchantId, 'test', 'payments');
      const body = paymentBody();
      const created = await t.call('POST', '/api/v1/payments', { key, body });
      expect(created.status).toBe(201);
      expect((await t.call('GET', `/api/v1/payments/${created.body.uuid}`, { key })).status).toBe(200);
      expect(
        (await t.call('GET', `/api/v1/orders/${encodeURIComponent(String(body.order_id))}/payment`, { key })).status,
      ).toBe(200);
      const list = await t.call<{ data: unknown[] }>('GET', '/api/v1/payments', { key });
      expect(list.status).toBe(200);
      expect(list.body.data).toHaveLength(1);
    });

    it('a live payments-only key creates live payments', async () => {
      const m = await t.liveMerchant('payments-only.example.am', 'payments');
      const created = await t.call('POST', '/api/v1/payments', {
        key: m.liveKey,
        body: paymentBody({ return_url: 'https://payments-only.example.am/done' }),
      });
      expect(created.status).toBe(201);
      expect(created.body.livemode).toBe(true);
    });

    it('a full-access key may perform every operation', async () => {
      const m = await t.merchant();
      for (const operation of OPERATIONS) {
        const res = await t.call('POST', `/api/v1/scope-probe/${operation}`, { key: m.testKey });
        expect(res.status, operation).toBe(200);
        expect(res.body, operation).toEqual({ ok: true, operation });
      }
    });

    it.each(['refunds.create', 'billing.read', 'billing.purchase', 'billing.configure'] as const)(
      'a payments-only key gets 403 insufficient_scope for %s',
      async (operation) => {
        const m = await t.merchant();
        const key = await t.key(m.merchantId, 'test', 'payments');
        const res = await t.call('POST', `/api/v1/scope-probe/${operation}`, { key });
        expect(res.status).toBe(403);
        expect(res.body.error).toBe('insufficient_scope');
        expect(res.body.required).toBe(operation);
        // The request was authenticated and counted, so it carries the account's limit headers.
        expect(res.headers.get('X-RateLimit-Limit')).toBe('60');
      },
    );

    it.each(['payments.create', 'payments.read', 'payment_links.manage'] as const)(
      'a payments-only key passes the guard of %s',
      async (operation) => {
        const m = await t.merchant();
        const key = await t.key(m.merchantId, 'test', 'payments');
        const res = await t.call('POST', `/api/v1/scope-probe/${operation}`, { key });
        expect(res.status).toBe(200);
        expect(res.body).toEqual({ ok: true, operation });
      },
    );

    it('a live payments-only key is refused a refund too', async () => {
      const m = await t.liveMerchant('scope-live.example.am', 'payments');
      const res = await t.call('POST', '/api/v1/scope-probe/refunds.create', { key: m.liveKey });
      expect(res.status).toBe(403);
      expect(res.body.error).toBe('insufficient_scope');
    });

    it('the guard authenticates before it checks the scope', async () => {
      const res = await t.call('POST', '/api/v1/scope-probe/refunds.create');
      expect(res.status).toBe(401);
      expect(res.body.error).toBe('missing_credentials');
    });
  });
});
