/**
 * `POST /api/v1/payments` without an Idempotency-Key lets its admission wait for the payment's
 * insert (gateway/auth/admission.ts): where the counters live in the database (PostgreSQL) and the
 * key is one the account cache holds, the count, the account version and the insert are one
 * statement, the row written only when the request is admitted. Whatever way a request takes, it is
 * answered, counted and refused as when the admission ran first: a refusal of the admission answers
 * before the route's own errors, every request is counted once, and nothing refused is written. On
 * SQLite the limiter counts in memory and the admission runs first; the answers are the same.
 */
import type { CompiledQuery } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MINUTE_MS } from '../../gateway/domain/clock.js';
import { createApiKey, revokeApiKey } from '../../gateway/merchants/api-keys.service.js';
import { DIALECTS } from '../support/databases.js';
import { expectErrorBody, paymentBody, startTestGateway, type TestGateway } from '../support/gateway.js';

describe.each(DIALECTS)('a payment created with its admission on %s', (dialect) => {
  let t: TestGateway;
  /** The texts of the statements the gateway's query builder ran since the last `take()`. */
  let sent: string[] = [];
  const take = (): string[] => {
    const taken = sent;
    sent = [];
    return taken;
  };

  beforeAll(async () => {
    t = await startTestGateway(dialect);
    const db = t.gateway.deps.db;
    const executeQuery = db.executeQuery.bind(db);
    (db as { executeQuery: unknown }).executeQuery = (query: CompiledQuery) => {
      sent.push(query.sql);
      return executeQuery(query);
    };
  });
  afterAll(async () => {
    await t?.close();
  });

  /** Half a minute into the next window: a fresh count. */
  const nextWindow = () => t.clock.advance(MINUTE_MS - (t.clock.nowMs() % MINUTE_MS) + 30_000);
  const insertsWithAdmission = (texts: string[]) => texts.filter((text) => /^with hit as .*written as/s.test(text));
  const plainInserts = (texts: string[]) => texts.filter((text) => /^insert into "payments"/.test(text));
  const create = (key: string, body: Record<string, unknown> = paymentBody(), headers: Record<string, string> = {}) =>
    t.call('POST', '/api/v1/payments', { key, body, headers });
  const paymentsOf = async (merchantId: string) =>
    (
      await t.gateway.deps.db
        .selectFrom('payments')
        .select(['id', 'order_id'])
        .where('merchant_id', '=', merchantId)
        .execute()
    ).length;
  /** The account's remaining count, read with a list request (which counts one more). */
  const remainingAfterList = async (key: string) =>
    (await t.call('GET', '/api/v1/payments', { key })).headers.get('X-RateLimit-Remaining');

  it('writes the payment in the admission’s statement once the key is cached, and answers it as before', async () => {
    const m = await t.merchant();
    nextWindow();
    await t.call('GET', '/api/v1/payments', { key: m.testKey }); // the key is cached now
    take();
    const created = await create(m.testKey);
    const texts = take();
    expect(created.status, created.text).toBe(201);
    expect(created.headers.get('X-RateLimit-Remaining')).toBe('58');
    const read = await t.call('GET', `/api/v1/payments/${String(created.body.uuid)}`, { key: m.testKey });
    expect(read.body).toEqual(created.body);
    expect(await paymentsOf(m.merchantId)).toBe(1);
    if (dialect === 'postgres') {
      expect(insertsWithAdmission(texts)).toHaveLength(1);
      expect(plainInserts(texts)).toHaveLength(0);
    } else {
      // The insert runs in SQLite's commit queue, after the admission counted in memory.
      expect(insertsWithAdmission(texts)).toHaveLength(0);
    }
  });

  it('refuses the 61st request of a minute with 429 and writes nothing for it', async () => {
    const m = await t.merchant();
    nextWindow();
    for (let i = 1; i <= 60; i++) {
      const res = await create(m.testKey);
      expect(res.status, res.text).toBe(201);
      expect(res.headers.get('X-RateLimit-Remaining')).toBe(String(60 - i));
    }
    const refused = await create(m.testKey);
    expectErrorBody(refused, 429, 'rate_limited');
    expect(refused.headers.get('Retry-After')).toBe('30');
    expect(await paymentsOf(m.merchantId)).toBe(60);
  });

  it('answers a second open payment of an order 422 and counts that request once', async () => {
    const m = await t.merchant();
    nextWindow();
    const body = paymentBody();
    expect((await create(m.testKey, body)).status).toBe(201);
    const again = await create(m.testKey, { ...body });
    expectErrorBody(again, 422, 'validation_failed', ['errors']);
    expect(again.headers.get('X-RateLimit-Remaining')).toBe('58');
    expect(await paymentsOf(m.merchantId)).toBe(1);
    expect(await remainingAfterList(m.testKey)).toBe('57');
  });

  it('counts a request the route refuses before its insert (a bad body, a bad key header, one too large)', async () => {
    const m = await t.merchant();
    nextWindow();
    await t.call('GET', '/api/v1/payments', { key: m.testKey }); // 59 left, the key cached
    expectErrorBody(await create(m.testKey, { amount: -1 }), 422, 'validation_failed', ['errors']);
    expectErrorBody(
      await create(m.testKey, paymentBody(), { 'Idempotency-Key': 'x'.repeat(300) }),
      422,
      'validation_failed',
      ['errors'],
    );
    const tooLarge = await create(m.testKey, paymentBody({ description: 'd'.repeat(70_000) }));
    expect(tooLarge.status).toBe(413);
    expect(tooLarge.headers.get('X-RateLimit-Remaining')).toBe('56');
    expect(await paymentsOf(m.merchantId)).toBe(0);
    expect(await remainingAfterList(m.testKey)).toBe('55');
  });

  it('answers the limit before the route’s own errors once the account is past it', async () => {
    const m = await t.merchant();
    nextWindow();
    for (let i = 0; i < 60; i++) await t.call('GET', '/api/v1/payments', { key: m.testKey });
    expectErrorBody(await create(m.testKey, { amount: -1 }), 429, 'rate_limited');
    expectErrorBody(await create(m.testKey, paymentBody({ description: 'd'.repeat(70_000) })), 429, 'rate_limited');
    expectErrorBody(await create(m.testKey), 429, 'rate_limited');
    expect(await paymentsOf(m.merchantId)).toBe(0);
  });

  it('refuses a cached key revoked since with 401 and writes nothing', async () => {
    const m = await t.merchant();
    const { key, key_id } = await createApiKey(t.gateway.deps, {
      merchantId: m.merchantId,
      environment: 'test',
      access: 'full',
    });
    nextWindow();
    expect((await create(key)).status).toBe(201);
    expect((await create(key)).status).toBe(201);
    await revokeApiKey(t.gateway.deps, { merchantId: m.merchantId, keyId: key_id });
    expectErrorBody(await create(key), 401, 'invalid_api_key');
    expect(await paymentsOf(m.merchantId)).toBe(2);
    // Two creates counted; the refused one not.
    expect(await remainingAfterList(m.testKey)).toBe('57');
  });

  it('admits a request with an Idempotency-Key first, and replays its answer', async () => {
    const m = await t.merchant();
    nextWindow();
    await t.call('GET', '/api/v1/payments', { key: m.testKey });
    const body = paymentBody();
    const first = await create(m.testKey, body, { 'Idempotency-Key': `replay-${dialect}` });
    const replay = await create(m.testKey, body, { 'Idempotency-Key': `replay-${dialect}` });
    expect(first.status, first.text).toBe(201);
    expect(replay.status).toBe(200);
    expect(replay.body).toEqual(first.body);
    expect(replay.headers.get('X-RateLimit-Remaining')).toBe('57');
    expect(await paymentsOf(m.merchantId)).toBe(1);
  });
});
