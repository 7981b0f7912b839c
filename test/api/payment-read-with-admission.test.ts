/**
 * `GET /api/v1/payments/{uuid}` gives its read of the payment to the request's admission
 * (gateway/auth/admission.ts): where the counters live in the database (PostgreSQL) and the key is
 * one the account cache holds, the count, the account version and the payment come back from one
 * statement. Whatever way a request takes, it is answered, counted and refused exactly as before:
 * the same payment object, only the caller's payments, one count per request, a revoked key
 * refused, the 61st request of a minute refused. On SQLite the limiter counts in memory and the
 * route reads the payment itself; the answers are the same.
 */
import { type CompiledQuery, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MINUTE_MS } from '../../gateway/domain/clock.js';
import { createApiKey, revokeApiKey } from '../../gateway/merchants/api-keys.service.js';
import { DIALECTS } from '../support/databases.js';
import { expectErrorBody, paymentBody, startTestGateway, type TestGateway } from '../support/gateway.js';

describe.each(DIALECTS)('a payment read with the admission on %s', (dialect) => {
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
  const readsOfPayments = (texts: string[]) => texts.filter((text) => /^select \* from "payments"/.test(text));
  const admissionsWithRead = (texts: string[]) => texts.filter((text) => /^with hit as .*alongside as/s.test(text));

  it('answers the payment the create answered, in one statement once the key is cached', async () => {
    const m = await t.merchant();
    nextWindow();
    const created = await t.call('POST', '/api/v1/payments', { key: m.testKey, body: paymentBody() });
    expect(created.status, created.text).toBe(201);
    const uuid = String(created.body.uuid);

    take();
    const first = await t.call('GET', `/api/v1/payments/${uuid}`, { key: m.testKey });
    const second = await t.call('GET', `/api/v1/payments/${uuid}`, { key: m.testKey });
    const texts = take();
    for (const res of [first, second]) {
      expect(res.status, res.text).toBe(200);
      expect(res.body).toEqual(created.body);
      expect(res.headers.get('Cache-Control')).toBe('no-store');
    }
    // Counted once each, whichever way: the create was the first request of the window.
    expect(first.headers.get('X-RateLimit-Remaining')).toBe('58');
    expect(second.headers.get('X-RateLimit-Remaining')).toBe('57');
    if (dialect === 'postgres') {
      // The cached key's request: the admission carried the read, and nothing else read the payment.
      expect(admissionsWithRead(texts)).toHaveLength(2);
      expect(readsOfPayments(texts)).toHaveLength(0);
    } else {
      expect(admissionsWithRead(texts)).toHaveLength(0);
      expect(readsOfPayments(texts)).toHaveLength(2);
    }
  });

  it('finds only the caller’s payments: another account’s uuid and a malformed one are 404 not_found', async () => {
    const owner = await t.merchant();
    const stranger = await t.merchant();
    const created = await t.call('POST', '/api/v1/payments', { key: owner.testKey, body: paymentBody() });
    expect(created.status, created.text).toBe(201);
    await t.call('GET', '/api/v1/payments', { key: stranger.testKey }); // the stranger's key is cached now

    take();
    const foreign = await t.call('GET', `/api/v1/payments/${String(created.body.uuid)}`, { key: stranger.testKey });
    expectErrorBody(foreign, 404, 'not_found');
    const malformed = await t.call('GET', '/api/v1/payments/not-a-uuid', { key: stranger.testKey });
    expectErrorBody(malformed, 404, 'not_found');
    const texts = take();
    // The malformed uuid is never read; the foreign one is read within the stranger's payments only.
    expect(admissionsWithRead(texts)).toHaveLength(dialect === 'postgres' ? 1 : 0);
    expect(readsOfPayments(texts)).toHaveLength(dialect === 'postgres' ? 0 : 1);
  });

  /**
   * A second key of a new merchant that made a payment and read it (so the cache holds the key),
   * then revoked, in a fresh window.
   */
  const paymentOfAKeyRevokedOnceCached = async () => {
    const m = await t.merchant();
    const { key: doomed, key_id: doomedId } = await createApiKey(t.gateway.deps, {
      merchantId: m.merchantId,
      environment: 'test',
      access: 'full',
    });
    nextWindow();
    const created = await t.call('POST', '/api/v1/payments', { key: doomed, body: paymentBody() });
    expect(created.status, created.text).toBe(201);
    const uuid = String(created.body.uuid);
    expect((await t.call('GET', `/api/v1/payments/${uuid}`, { key: doomed })).status).toBe(200);

    await revokeApiKey(t.gateway.deps, { merchantId: m.merchantId, keyId: doomedId });
    return { m, doomed, uuid };
  };

  it('refuses a cached key revoked since with 401, without counting it, and drops what was read', async () => {
    const { m, doomed, uuid } = await paymentOfAKeyRevokedOnceCached();
    const refused = await t.call('GET', `/api/v1/payments/${uuid}`, { key: doomed });
    expectErrorBody(refused, 401, 'invalid_api_key');
    expect(refused.body).not.toHaveProperty('uuid');
    // The create and the read were counted; the refused read was not.
    const after = await t.call('GET', `/api/v1/payments/${uuid}`, { key: m.testKey });
    expect(after.status).toBe(200);
    expect(after.headers.get('X-RateLimit-Remaining')).toBe('57');
  });

  it('refuses every one of several requests that come together with a cached key revoked since', async () => {
    const { doomed, uuid } = await paymentOfAKeyRevokedOnceCached();
    // All take the key from the cache before the first learns the new version from its statement.
    const together = await Promise.all(
      Array.from({ length: 8 }, () => t.call('GET', `/api/v1/payments/${uuid}`, { key: doomed })),
    );
    for (const refused of together) {
      expectErrorBody(refused, 401, 'invalid_api_key');
      expect(refused.body).not.toHaveProperty('uuid');
    }
  });

  it('answers the 61st request of a minute 429 rate_limited, with no payment in it', async () => {
    const m = await t.merchant();
    nextWindow();
    const created = await t.call('POST', '/api/v1/payments', { key: m.testKey, body: paymentBody() });
    const uuid = String(created.body.uuid);
    for (let i = 2; i <= 60; i++) {
      const res = await t.call('GET', `/api/v1/payments/${uuid}`, { key: m.testKey });
      expect(res.status).toBe(200);
      expect(res.headers.get('X-RateLimit-Remaining')).toBe(String(60 - i));
    }
    const refused = await t.call('GET', `/api/v1/payments/${uuid}`, { key: m.testKey });
    expectErrorBody(refused, 429, 'rate_limited');
    expect(refused.body).not.toHaveProperty('uuid');
    expect(refused.headers.get('Retry-After')).toBe('30');
  });

  if (dialect === 'postgres') {
    it('still answers when another instance’s migration adds a column to payments under the prepared statement', async () => {
      const m = await t.merchant();
      nextWindow();
      const created = await t.call('POST', '/api/v1/payments', { key: m.testKey, body: paymentBody() });
      const uuid = String(created.body.uuid);
      // Every connection of the pool prepares the statement: more reads than connections.
      for (let i = 0; i < 12; i++)
        expect((await t.call('GET', `/api/v1/payments/${uuid}`, { key: m.testKey })).status).toBe(200);
      const db = t.gateway.deps.db;
      await sql`alter table payments add column read_with_admission_probe text`.execute(db);
      try {
        for (let i = 0; i < 12; i++) {
          const res = await t.call('GET', `/api/v1/payments/${uuid}`, { key: m.testKey });
          expect(res.status, res.text).toBe(200);
          expect(res.body).toEqual(created.body);
        }
      } finally {
        await sql`alter table payments drop column read_with_admission_probe`.execute(db);
      }
      expect((await t.call('GET', `/api/v1/payments/${uuid}`, { key: m.testKey })).body).toEqual(created.body);
    });
  }
});
