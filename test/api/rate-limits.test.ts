/**
 * Limits over HTTP (spec "Limits"): 60 requests per minute per account, shared by all its keys,
 * answered 429 `rate_limited`; 120 failed authentications per minute per client address, answered
 * 429 `too_many_attempts`. Both windows are fixed minutes: the test clock starts at 10:00:30, so
 * `Retry-After` is 30. The per-account default comes from GATEWAY_RATE_LIMIT_PER_MINUTE and the
 * operator may raise it per merchant. On PostgreSQL the counters live in the database, so two
 * instances share them.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MINUTE_MS } from '../../gateway/domain/clock.js';
import { DatabaseRateLimiter, MemoryRateLimiter } from '../../gateway/limits/rate-limiter.js';
import { createApiKey, revokeApiKey } from '../../gateway/merchants/api-keys.service.js';
import { setRateLimit } from '../../gateway/merchants/merchant.service.js';
import { DIALECTS, freshDatabase, type TestDatabase } from '../support/databases.js';
import { type ApiResponse, paymentBody, startTestGateway, type TestGateway } from '../support/gateway.js';

const INVALID_KEY = 'sk_test_0123456789abcdefghijABCDEFGHIJ0123456';

/** Sends `count` authenticated list requests one after the other; answers every response. */
async function listRepeatedly(t: TestGateway, key: string, count: number): Promise<ApiResponse[]> {
  const responses: ApiResponse[] = [];
  for (let i = 0; i < count; i++) responses.push(await t.call('GET', '/api/v1/payments', { key }));
  return responses;
}

/** Sends `count` requests that fail authentication, cycling through the three ways to fail. */
async function failRepeatedly(t: TestGateway, count: number, headers: Record<string, string> = {}): Promise<number[]> {
  const failing: Array<Record<string, string>> = [
    { 'X-Service-Key': INVALID_KEY },
    {},
    { 'X-Service-Connect': 'not-a-token' },
    { Authorization: 'Bearer sk_live_short' },
  ];
  const statuses: number[] = [];
  for (let i = 0; i < count; i++) {
    const res = await t.call('GET', '/api/v1/payments', { headers: { ...headers, ...failing[i % failing.length] } });
    statuses.push(res.status);
  }
  return statuses;
}

/** Moves the clock to half a minute into the next window: a fresh count, `Retry-After` 30. */
function nextWindow(t: TestGateway): void {
  t.clock.advance(MINUTE_MS - (t.clock.nowMs() % MINUTE_MS) + 30_000);
}

function rateHeaders(res: ApiResponse): Record<string, string | null> {
  return {
    limit: res.headers.get('X-RateLimit-Limit'),
    remaining: res.headers.get('X-RateLimit-Remaining'),
    reset: res.headers.get('X-RateLimit-Reset'),
  };
}

describe.each(DIALECTS)('rate limits on %s', (dialect) => {
  describe('requests per account', () => {
    let t: TestGateway;
    beforeAll(async () => {
      t = await startTestGateway(dialect);
    });
    afterAll(async () => t?.close());

    it(`keeps the counters ${dialect === 'postgres' ? 'in the database' : 'in memory'}`, () => {
      const expected = dialect === 'postgres' ? DatabaseRateLimiter : MemoryRateLimiter;
      expect(t.gateway.deps.limiter).toBeInstanceOf(expected);
    });

    it('sends X-RateLimit-Limit, -Remaining and -Reset on every authenticated answer', async () => {
      const m = await t.merchant();
      const created = await t.call('POST', '/api/v1/payments', { key: m.testKey, body: paymentBody() });
      const listed = await t.call('GET', '/api/v1/payments', { key: m.testKey });
      const missing = await t.call('GET', '/api/v1/payments/0190a0e0-0000-7000-8000-000000000000', {
        key: m.testKey,
      });
      const invalid = await t.call('POST', '/api/v1/payments', { key: m.testKey, body: { amount: 'ten' } });
      expect([created.status, listed.status, missing.status, invalid.status]).toEqual([201, 200, 404, 422]);
      expect([created, listed, missing, invalid].map(rateHeaders)).toEqual([
        { limit: '60', remaining: '59', reset: '30' },
        { limit: '60', remaining: '58', reset: '30' },
        { limit: '60', remaining: '57', reset: '30' },
        { limit: '60', remaining: '56', reset: '30' },
      ]);
    });

    it('does not send them on answers to unauthenticated requests', async () => {
      const res = await t.call('GET', '/api/v1/payments', { key: INVALID_KEY });
      expect(res.status).toBe(401);
      expect(rateHeaders(res)).toEqual({ limit: null, remaining: null, reset: null });
    });

    it('answers the 61st request of a minute 429 rate_limited with Retry-After, then recovers in the next minute', async () => {
      const m = await t.merchant();
      const allowed = await listRepeatedly(t, m.testKey, 60);
      expect(allowed.map((r) => r.status)).toEqual(Array(60).fill(200));
      expect(rateHeaders(allowed[59] as ApiResponse)).toEqual({ limit: '60', remaining: '0', reset: '30' });

      const refused = await t.call('GET', '/api/v1/payments', { key: m.testKey });
      expect(refused.status).toBe(429);
      expect(refused.body.error).toBe('rate_limited');
      expect(refused.headers.get('Retry-After')).toBe('30');
      expect(rateHeaders(refused)).toEqual({ limit: '60', remaining: '0', reset: '30' });

      // Creating a payment is refused as well, before anything is created.
      const create = await t.call('POST', '/api/v1/payments', { key: m.testKey, body: paymentBody() });
      expect(create.status).toBe(429);
      expect(create.body.error).toBe('rate_limited');

      t.clock.advance(10_000); // 10:00:40
      const later = await t.call('GET', '/api/v1/payments', { key: m.testKey });
      expect(later.status).toBe(429);
      expect(later.headers.get('Retry-After')).toBe('20');

      t.clock.advance(20_000); // 10:01:00: a new window
      const next = await t.call('GET', '/api/v1/payments', { key: m.testKey });
      expect(next.status).toBe(200);
      expect(rateHeaders(next)).toEqual({ limit: '60', remaining: '59', reset: '60' });
    });

    it('a known key revoked since is refused, and its refused requests are not counted', async () => {
      const m = await t.merchant();
      nextWindow(t);
      const doomed = await createApiKey(t.gateway.deps, {
        merchantId: m.merchantId,
        environment: 'test',
        access: 'full',
      });
      expect(rateHeaders(await t.call('GET', '/api/v1/payments', { key: doomed.key })).remaining).toBe('59');
      expect(rateHeaders(await t.call('GET', '/api/v1/payments', { key: m.testKey })).remaining).toBe('58');
      await revokeApiKey(t.gateway.deps, { merchantId: m.merchantId, keyId: doomed.key_id });
      for (let i = 0; i < 3; i++) {
        const refused = await t.call('GET', '/api/v1/payments', { key: doomed.key });
        expect(refused.status).toBe(401);
        expect(refused.body.error).toBe('invalid_api_key');
      }
      expect(rateHeaders(await t.call('GET', '/api/v1/payments', { key: m.testKey })).remaining).toBe('57');
    });

    it('counts all keys of the account together, live and test alike', async () => {
      const m = await t.liveMerchant(`shared-limit-${dialect}.example.am`);
      const paymentsOnly = await t.key(m.merchantId, 'test', 'payments');
      const statuses = [
        ...(await listRepeatedly(t, m.testKey, 20)),
        ...(await listRepeatedly(t, m.liveKey, 20)),
        ...(await listRepeatedly(t, paymentsOnly, 20)),
      ].map((r) => r.status);
      expect(statuses).toEqual(Array(60).fill(200));
      for (const key of [m.testKey, m.liveKey, paymentsOnly]) {
        const res = await t.call('GET', '/api/v1/payments', { key });
        expect(res.status).toBe(429);
        expect(res.body.error).toBe('rate_limited');
      }
    });

    it('leaves other accounts alone while one account is limited', async () => {
      const busy = await t.merchant();
      const quiet = await t.merchant();
      await listRepeatedly(t, busy.testKey, 60);
      expect((await t.call('GET', '/api/v1/payments', { key: busy.testKey })).status).toBe(429);

      const res = await t.call('POST', '/api/v1/payments', { key: quiet.testKey, body: paymentBody() });
      expect(res.status).toBe(201);
      expect(rateHeaders(res).remaining).toBe('59');
    });

    it('lets the operator raise one merchant’s limit, and restore the default', async () => {
      const raised = await t.merchant();
      const ordinary = await t.merchant();
      const result = await setRateLimit(t.gateway.deps, raised.merchantId, 100);
      expect(result).toEqual({ merchant_id: raised.merchantId, rate_limit_per_minute: 100 });

      const allowed = await listRepeatedly(t, raised.testKey, 100);
      expect(allowed.map((r) => r.status)).toEqual(Array(100).fill(200));
      expect(rateHeaders(allowed[0] as ApiResponse)).toEqual({
        limit: '100',
        remaining: '99',
        reset: expect.any(String),
      });
      const refused = await t.call('GET', '/api/v1/payments', { key: raised.testKey });
      expect(refused.status).toBe(429);
      expect(refused.headers.get('X-RateLimit-Limit')).toBe('100');

      // Nobody else got the raise.
      const other = await t.call('GET', '/api/v1/payments', { key: ordinary.testKey });
      expect(other.headers.get('X-RateLimit-Limit')).toBe('60');

      const restored = await setRateLimit(t.gateway.deps, raised.merchantId, null);
      expect(restored.rate_limit_per_minute).toBe(60);
      t.clock.advance(MINUTE_MS);
      const after = await listRepeatedly(t, raised.testKey, 61);
      expect(after.slice(0, 60).map((r) => r.status)).toEqual(Array(60).fill(200));
      expect(after[0]?.headers.get('X-RateLimit-Limit')).toBe('60');
      expect(after[60]?.status).toBe(429);
    });
  });

  describe('GATEWAY_RATE_LIMIT_PER_MINUTE', () => {
    let t: TestGateway;
    beforeAll(async () => {
      t = await startTestGateway(dialect, { env: { GATEWAY_RATE_LIMIT_PER_MINUTE: '5' } });
    });
    afterAll(async () => t?.close());

    it('sets the default limit of every account', async () => {
      const m = await t.merchant();
      const responses = await listRepeatedly(t, m.testKey, 6);
      expect(responses.map((r) => r.status)).toEqual([200, 200, 200, 200, 200, 429]);
      expect(rateHeaders(responses[0] as ApiResponse)).toEqual({ limit: '5', remaining: '4', reset: '30' });
      expect(responses[5]?.body.error).toBe('rate_limited');
    });

    it('is still overridden by the operator’s limit for one merchant', async () => {
      const m = await t.merchant();
      await setRateLimit(t.gateway.deps, m.merchantId, 8);
      const responses = await listRepeatedly(t, m.testKey, 9);
      expect(responses.map((r) => r.status)).toEqual([...Array(8).fill(200), 429]);
      expect(responses[0]?.headers.get('X-RateLimit-Limit')).toBe('8');
    });
  });

  describe('failed authentications per address', () => {
    let t: TestGateway;
    beforeAll(async () => {
      t = await startTestGateway(dialect);
    });
    afterAll(async () => t?.close());

    it('counts only failures: many successful requests from one address do not block it', async () => {
      const merchants = [await t.merchant(), await t.merchant(), await t.merchant()];
      for (const m of merchants) {
        const statuses = (await listRepeatedly(t, m.testKey, 45)).map((r) => r.status);
        expect(statuses).toEqual(Array(45).fill(200));
      }
      const res = await t.call('GET', '/api/v1/payments', { key: INVALID_KEY });
      expect(res.status).toBe(401);
      expect(res.body.error).toBe('invalid_api_key');
    });

    it('refuses the 121st failure of a minute with 429 too_many_attempts, and then even a valid key', async () => {
      const m = await t.merchant();
      nextWindow(t);

      const statuses = await failRepeatedly(t, 120);
      expect(statuses).toEqual(Array(120).fill(401));

      const blocked = await t.call('GET', '/api/v1/payments', { key: INVALID_KEY });
      expect(blocked.status).toBe(429);
      expect(blocked.body.error).toBe('too_many_attempts');
      expect(blocked.headers.get('Retry-After')).toBe('30');

      const valid = await t.call('GET', '/api/v1/payments', { key: m.testKey });
      expect(valid.status).toBe(429);
      expect(valid.body.error).toBe('too_many_attempts');
      expect(valid.headers.get('Retry-After')).toBe('30');

      const withoutKey = await t.call('GET', '/api/v1/payments');
      expect(withoutKey.status).toBe(429);
      expect(withoutKey.body.error).toBe('too_many_attempts');

      t.clock.advance(29_000);
      const stillBlocked = await t.call('GET', '/api/v1/payments', { key: m.testKey });
      expect(stillBlocked.status).toBe(429);
      expect(stillBlocked.headers.get('Retry-After')).toBe('1');

      t.clock.advance(1_000); // the next minute
      expect((await t.call('GET', '/api/v1/payments', { key: m.testKey })).status).toBe(200);
      const failedAgain = await t.call('GET', '/api/v1/payments', { key: INVALID_KEY });
      expect(failedAgain.status).toBe(401);
      expect(failedAgain.body.error).toBe('invalid_api_key');
    });

    it('ignores X-Forwarded-For unless the gateway runs behind a trusted proxy', async () => {
      const m = await t.merchant();
      nextWindow(t);
      expect(await failRepeatedly(t, 120, { 'X-Forwarded-For': '203.0.113.1' })).toEqual(Array(120).fill(401));
      const spoofed = await t.call('GET', '/api/v1/payments', {
        key: m.testKey,
        headers: { 'X-Forwarded-For': '203.0.113.2' },
      });
      expect(spoofed.status).toBe(429);
      expect(spoofed.body.error).toBe('too_many_attempts');
    });
  });

  describe('failed authentications behind a trusted proxy', () => {
    let t: TestGateway;
    beforeAll(async () => {
      t = await startTestGateway(dialect, { env: { TRUST_PROXY: '1' } });
    });
    afterAll(async () => t?.close());

    it('blocks the client address that failed, not the others', async () => {
      const m = await t.merchant();
      const attacker = { 'X-Forwarded-For': '203.0.113.66' };
      expect(await failRepeatedly(t, 120, attacker)).toEqual(Array(120).fill(401));
      const blocked = await t.call('GET', '/api/v1/payments', { key: m.testKey, headers: attacker });
      expect(blocked.status).toBe(429);
      expect(blocked.body.error).toBe('too_many_attempts');

      const bystander = await t.call('GET', '/api/v1/payments', {
        key: m.testKey,
        headers: { 'X-Forwarded-For': '198.51.100.7' },
      });
      expect(bystander.status).toBe(200);
    });

    it('a known key from a blocked address is refused before it is counted against its account', async () => {
      const m = await t.merchant();
      nextWindow(t);
      const fromBystander = () =>
        t.call('GET', '/api/v1/payments', { key: m.testKey, headers: { 'X-Forwarded-For': '198.51.100.8' } });
      // The key is now known (cached): the quick way would count first.
      expect(rateHeaders(await fromBystander()).remaining).toBe('59');
      const attacker = { 'X-Forwarded-For': '203.0.113.67' };
      expect(await failRepeatedly(t, 120, attacker)).toEqual(Array(120).fill(401));
      for (let i = 0; i < 5; i++) {
        const blocked = await t.call('GET', '/api/v1/payments', { key: m.testKey, headers: attacker });
        expect(blocked.body.error).toBe('too_many_attempts');
      }
      expect(rateHeaders(await fromBystander()).remaining).toBe('58');
    });
  });
});

describe('rate limits shared by two instances on one PostgreSQL database', () => {
  let database: TestDatabase;
  let a: TestGateway;
  let b: TestGateway;
  beforeAll(async () => {
    database = await freshDatabase('postgres');
    a = await startTestGateway('postgres', { databaseUrl: database.url });
    b = await startTestGateway('postgres', { databaseUrl: database.url });
  });
  afterAll(async () => {
    await a?.close();
    await b?.close();
    await database?.drop();
  });

  it('both instances start at the same instant, so they count the same window', () => {
    expect(a.clock.nowMs()).toBe(b.clock.nowMs());
  });

  it('exhausts an account’s 60 requests split across both instances', async () => {
    const m = await a.merchant();
    const responses: ApiResponse[] = [];
    for (let i = 0; i < 60; i++) {
      const instance = i % 2 === 0 ? a : b;
      responses.push(await instance.call('GET', '/api/v1/payments', { key: m.testKey }));
    }
    expect(responses.map((r) => r.status)).toEqual(Array(60).fill(200));
    // One counter: the remaining count falls by one per request whichever instance answered.
    expect(responses.map((r) => Number(r.headers.get('X-RateLimit-Remaining')))).toEqual(
      Array.from({ length: 60 }, (_, i) => 59 - i),
    );

    for (const instance of [a, b]) {
      const refused = await instance.call('GET', '/api/v1/payments', { key: m.testKey });
      expect(refused.status).toBe(429);
      expect(refused.body.error).toBe('rate_limited');
      expect(refused.headers.get('Retry-After')).toBe('30');
    }
  });

  it('blocks an address on both instances after 120 failures split across them', async () => {
    const m = await a.merchant();
    const statuses: number[] = [];
    for (let i = 0; i < 120; i++) {
      const instance = i % 2 === 0 ? a : b;
      statuses.push((await instance.call('GET', '/api/v1/payments', { key: INVALID_KEY })).status);
    }
    expect(statuses).toEqual(Array(120).fill(401));
    for (const instance of [a, b]) {
      const refused = await instance.call('GET', '/api/v1/payments', { key: m.testKey });
      expect(refused.status).toBe(429);
      expect(refused.body.error).toBe('too_many_attempts');
    }
  });
});
