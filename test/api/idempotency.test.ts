/**
 * `Idempotency-Key` on POST /api/v1/payments (spec "Header Idempotency-Key", "Payments"): a retry
 * with the same key and body within 24 hours answers 200 with the original response; while the
 * first request still runs, 409 `conflict`; another body with the same key, 422. A request that
 * failed releases its key, abandoned claims are taken over after their lock, and N simultaneous
 * requests with one key create exactly one payment.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DAY_MS, toStoredInstant } from '../../gateway/domain/clock.js';
import { IDEMPOTENCY_LOCK_MS } from '../../gateway/payments/idempotency.js';
import { canonicalJson, sha256Hex } from '../../gateway/runtime/hashing.js';
import { claimIdempotencyKey } from '../../storage/idempotency-key.repository.js';
import { DIALECTS } from '../support/databases.js';
import { type ApiResponse, paymentBody, startTestGateway, type TestGateway } from '../support/gateway.js';

interface Page {
  data: Array<{ uuid: string }>;
  meta: { total: number };
}

describe.each(DIALECTS)('Idempotency-Key on %s', (dialect) => {
  let t: TestGateway;
  beforeAll(async () => {
    t = await startTestGateway(dialect);
  });
  afterAll(async () => t?.close());

  function create(key: string, idempotencyKey: string | undefined, body: unknown): Promise<ApiResponse> {
    return t.call('POST', '/api/v1/payments', {
      key,
      body,
      headers: idempotencyKey === undefined ? {} : { 'Idempotency-Key': idempotencyKey },
    });
  }

  async function paymentCount(key: string): Promise<number> {
    const list = await t.call<Page>('GET', '/api/v1/payments', { key });
    expect(list.status).toBe(200);
    return list.body.meta.total;
  }

  describe('replays', () => {
    it('answers a retry with the same key and body 200 with the original body, marked as a replay', async () => {
      const m = await t.merchant();
      const body = paymentBody({ description: 'first try' });
      const first = await create(m.testKey, 'key-replay-1', body);
      expect(first.status).toBe(201);
      expect(first.headers.get('Idempotent-Replayed')).toBeNull();

      const second = await create(m.testKey, 'key-replay-1', body);
      expect(second.status).toBe(200);
      expect(second.headers.get('Idempotent-Replayed')).toBe('true');
      expect(second.text).toBe(first.text);

      const third = await create(m.testKey, 'key-replay-1', body);
      expect(third.status).toBe(200);
      expect(third.text).toBe(first.text);
      expect(await paymentCount(m.testKey)).toBe(1);
    });

    it('replays the original answer even after the payment changed', async () => {
      const m = await t.merchant();
      const body = paymentBody();
      const first = await create(m.testKey, 'key-changed', body);
      expect(first.status).toBe(201);
      expect(first.body.status).toBe('pending');

      // The buyer pays: the processor's result moves the payment on.
      await t.gateway.deps.db
        .updateTable('payments')
        .set({ status: 'completed', completed_at: toStoredInstant(t.clock.nowMs()), rrn: '123456789012' })
        .where('id', '=', String(first.body.uuid))
        .execute();
      const current = await t.call('GET', `/api/v1/payments/${first.body.uuid}`, { key: m.testKey });
      expect(current.body.status).toBe('completed');

      const replay = await create(m.testKey, 'key-changed', body);
      expect(replay.status).toBe(200);
      expect(replay.text).toBe(first.text);
      expect(replay.body.status).toBe('pending');
    });

    it('treats bodies that differ only in key order and whitespace as the same request', async () => {
      const m = await t.merchant();
      const first = await create(m.testKey, 'key-canonical', {
        amount: 1500,
        order_id: 'canon-1',
        return_url: 'http://localhost:3000/done',
        description: 'tea',
      });
      expect(first.status).toBe(201);

      const reordered =
        '{\n  "description" : "tea",\n\t"return_url": "http://localhost:3000/done",   "order_id":"canon-1","amount":1500 }';
      const replay = await t.call('POST', '/api/v1/payments', {
        key: m.testKey,
        rawBody: reordered,
        headers: { 'Content-Type': 'application/json', 'Idempotency-Key': 'key-canonical' },
      });
      expect(replay.status).toBe(200);
      expect(replay.text).toBe(first.text);
      expect(await paymentCount(m.testKey)).toBe(1);
    });

    it('still replays just before 24 hours have passed', async () => {
      const m = await t.merchant();
      const body = paymentBody();
      const first = await create(m.testKey, 'key-23h59', body);
      expect(first.status).toBe(201);
      t.clock.advance(DAY_MS - 1_000);
      const replay = await create(m.testKey, 'key-23h59', body);
      expect(replay.status).toBe(200);
      expect(replay.text).toBe(first.text);
    });

    it('after 24 hours lets the same key create a new payment', async () => {
      const m = await t.merchant();
      const body = paymentBody();
      const first = await create(m.testKey, 'key-next-day', body);
      expect(first.status).toBe(201);
      // The first payment ran out unpaid long ago (as the expiry job records it), freeing its order.
      await t.gateway.deps.db
        .updateTable('payments')
        .set({ status: 'expired', active_order_id: null })
        .where('id', '=', String(first.body.uuid))
        .execute();

      t.clock.advance(DAY_MS);
      const again = await create(m.testKey, 'key-next-day', body);
      expect(again.status).toBe(201);
      expect(again.headers.get('Idempotent-Replayed')).toBeNull();
      expect(again.body.uuid).not.toBe(first.body.uuid);

      // The key now stands for the new payment.
      const replay = await create(m.testKey, 'key-next-day', body);
      expect(replay.status).toBe(200);
      expect(replay.body.uuid).toBe(again.body.uuid);
      expect(await paymentCount(m.testKey)).toBe(2);
    });

    it('prunes records past their 24 hours when due work runs', async () => {
      const m = await t.merchant();
      expect((await create(m.testKey, 'key-pruned', paymentBody())).status).toBe(201);
      const stored = () =>
        t.gateway.deps.db
          .selectFrom('idempotency_keys')
          .select('id')
          .where('idempotency_key', '=', 'key-pruned')
          .execute();
      await t.gateway.scheduler.runDueNow();
      expect(await stored()).toHaveLength(1);
      t.clock.advance(DAY_MS);
      await t.gateway.scheduler.runDueNow();
      expect(await stored()).toHaveLength(0);
    });

    it('after 24 hours no longer compares the body either', async () => {
      const m = await t.merchant();
      expect((await create(m.testKey, 'key-old', paymentBody())).status).toBe(201);
      t.clock.advance(DAY_MS);
      const other = await create(m.testKey, 'key-old', paymentBody({ amount: 999 }));
      expect(other.status).toBe(201);
      expect(other.body.amount).toBe(999);
    });
  });

  describe('refusals', () => {
    it('answers the same key with a different body 422 validation_failed naming Idempotency-Key', async () => {
      const m = await t.merchant();
      const body = paymentBody();
      expect((await create(m.testKey, 'key-mismatch', body)).status).toBe(201);

      const res = await create(m.testKey, 'key-mismatch', { ...body, amount: Number(body.amount) + 1 });
      expect(res.status).toBe(422);
      expect(res.body.error).toBe('validation_failed');
      expect(res.body.message).toMatch(/Idempotency-Key/);
      const errors = res.body.errors as Record<string, string[]>;
      expect(Object.keys(errors)).toEqual(['Idempotency-Key']);
      expect(errors['Idempotency-Key']?.[0]).toMatch(/different request body/);
      expect(await paymentCount(m.testKey)).toBe(1);
    });

    it('answers 409 conflict while the first request with the key is still running', async () => {
      const m = await t.merchant();
      const body = paymentBody();
      await holdKey(m.merchantId, 'key-in-flight', body, t.clock.nowMs());

      const res = await create(m.testKey, 'key-in-flight', body);
      expect(res.status).toBe(409);
      expect(res.body.error).toBe('conflict');
      expect(res.headers.get('Retry-After')).toBe('1');
      expect(await paymentCount(m.testKey)).toBe(0);

      // Still within the lock a moment later.
      t.clock.advance(IDEMPOTENCY_LOCK_MS - 1_000);
      expect((await create(m.testKey, 'key-in-flight', body)).status).toBe(409);
    });

    it('takes over a claim left processing once its lock has passed', async () => {
      const m = await t.merchant();
      const body = paymentBody();
      await holdKey(m.merchantId, 'key-abandoned', body, t.clock.nowMs());
      expect((await create(m.testKey, 'key-abandoned', body)).status).toBe(409);

      t.clock.advance(IDEMPOTENCY_LOCK_MS + 1_000);
      const res = await create(m.testKey, 'key-abandoned', body);
      expect(res.status).toBe(201);
      const replay = await create(m.testKey, 'key-abandoned', body);
      expect(replay.status).toBe(200);
      expect(replay.text).toBe(res.text);
      expect(await paymentCount(m.testKey)).toBe(1);
    });

    it.each([
      ['longer than 255 characters', 'k'.repeat(256)],
      ['not ASCII', 'clé-1'],
      ['containing a space', 'two words'],
    ])('answers a key %s 422 without creating anything', async (_label, idempotencyKey) => {
      const m = await t.merchant();
      const res = await create(m.testKey, idempotencyKey, paymentBody());
      expect(res.status).toBe(422);
      expect(res.body.error).toBe('validation_failed');
      expect(Object.keys(res.body.errors as object)).toEqual(['Idempotency-Key']);
      expect(await paymentCount(m.testKey)).toBe(0);
    });

    it('accepts a key of exactly 255 visible ASCII characters', async () => {
      const m = await t.merchant();
      const idempotencyKey = `${'x'.repeat(250)}-!~Az`;
      expect(idempotencyKey).toHaveLength(255);
      const body = paymentBody();
      expect((await create(m.testKey, idempotencyKey, body)).status).toBe(201);
      expect((await create(m.testKey, idempotencyKey, body)).status).toBe(200);
    });
  });

  describe('released keys and scope', () => {
    it('frees the key of a request that failed validation, so a corrected retry with it succeeds', async () => {
      const m = await t.merchant();
      const broken = paymentBody({ amount: 'a lot' });
      const failed = await create(m.testKey, 'key-fix-me', broken);
      expect(failed.status).toBe(422);
      expect(Object.keys(failed.body.errors as object)).toEqual(['amount']);

      const fixed = { ...broken, amount: 2500 };
      const created = await create(m.testKey, 'key-fix-me', fixed);
      expect(created.status).toBe(201);
      expect(created.body.amount).toBe(2500);
      const replay = await create(m.testKey, 'key-fix-me', fixed);
      expect(replay.status).toBe(200);
      expect(replay.text).toBe(created.text);
    });

    it('keeps keys per merchant and per environment', async () => {
      const m = await t.liveMerchant(`idem-scope-${dialect}.example.am`);
      const other = await t.merchant();
      const body = paymentBody();
      const liveBody = paymentBody({ return_url: `https://idem-scope-${dialect}.example.am/done` });

      const own = await create(m.testKey, 'shared-key', body);
      const otherMerchant = await create(other.testKey, 'shared-key', body);
      const live = await create(m.liveKey, 'shared-key', liveBody);
      expect([own.status, otherMerchant.status, live.status]).toEqual([201, 201, 201]);
      expect(new Set([own.body.uuid, otherMerchant.body.uuid, live.body.uuid]).size).toBe(3);
      expect(live.body.livemode).toBe(true);

      // Each of the three still replays its own answer.
      expect((await create(m.testKey, 'shared-key', body)).text).toBe(own.text);
      expect((await create(other.testKey, 'shared-key', body)).text).toBe(otherMerchant.text);
      expect((await create(m.liveKey, 'shared-key', liveBody)).text).toBe(live.text);
    });

    it('shares a key between the merchant’s keys of one environment', async () => {
      const m = await t.merchant();
      const paymentsOnly = await t.key(m.merchantId, 'test', 'payments');
      const body = paymentBody();
      const first = await create(m.testKey, 'key-across-keys', body);
      expect(first.status).toBe(201);
      const replay = await create(paymentsOnly, 'key-across-keys', body);
      expect(replay.status).toBe(200);
      expect(replay.text).toBe(first.text);
    });

    it('without the header, creates a new payment every time', async () => {
      const m = await t.merchant();
      const first = await create(m.testKey, undefined, paymentBody());
      const second = await create(m.testKey, undefined, paymentBody());
      expect([first.status, second.status]).toEqual([201, 201]);
      expect(first.body.uuid).not.toBe(second.body.uuid);
    });
  });

  describe('concurrency', () => {
    /**
     * Opens 20 keep-alive connections first, so that the 20 requests below reach the server
     * together instead of one per new connection (on PostgreSQL they then really overlap and the
     * losers see the first request still running).
     */
    async function warmUp(key: string): Promise<void> {
      const warm = await Promise.all(Array.from({ length: 20 }, () => t.call('GET', '/api/v1/payments', { key })));
      expect(warm.map((r) => r.status)).toEqual(Array(20).fill(200));
    }

    it('creates exactly one payment for 20 simultaneous requests with one key', async () => {
      const m = await t.merchant();
      const body = paymentBody();
      await warmUp(m.testKey);
      const responses = await Promise.all(Array.from({ length: 20 }, () => create(m.testKey, 'key-stampede', body)));
      const statuses = responses.map((r) => r.status);
      expect(statuses.filter((s) => s === 201)).toHaveLength(1);
      expect(statuses.every((s) => s === 201 || s === 200 || s === 409)).toBe(true);

      const winner = responses.find((r) => r.status === 201) as ApiResponse;
      for (const replay of responses.filter((r) => r.status === 200)) expect(replay.text).toBe(winner.text);
      for (const busy of responses.filter((r) => r.status === 409)) expect(busy.body.error).toBe('conflict');

      const list = await t.call<Page>('GET', '/api/v1/payments', { key: m.testKey });
      expect(list.body.meta.total).toBe(1);
      expect(list.body.data.map((p) => p.uuid)).toEqual([winner.body.uuid]);

      // Once the dust settles every retry is a replay.
      const after = await create(m.testKey, 'key-stampede', body);
      expect(after.status).toBe(200);
      expect(after.text).toBe(winner.text);
    });

    it('answers 20 simultaneous requests with one key and different bodies without a 5xx', async () => {
      const m = await t.merchant();
      await warmUp(m.testKey);
      const responses = await Promise.all(
        Array.from({ length: 20 }, (_, i) => create(m.testKey, 'key-mixed', paymentBody({ amount: 100 + i }))),
      );
      const statuses = responses.map((r) => r.status);
      expect(statuses.filter((s) => s === 201)).toHaveLength(1);
      expect(statuses.every((s) => s === 201 || s === 409 || s === 422)).toBe(true);
      expect(await paymentCount(m.testKey)).toBe(1);
    });
  });

  /** Claims a key as a first request still running would: a `processing` record, locked for a minute. */
  async function holdKey(merchantId: string, idempotencyKey: string, body: unknown, nowMs: number): Promise<void> {
    const claimed = await claimIdempotencyKey(t.gateway.deps.db, {
      id: randomUUID(),
      merchant_id: merchantId,
      environment: 'test',
      scope: 'payments.create',
      idempotency_key: idempotencyKey,
      request_hash: sha256Hex(canonicalJson(body)),
      state: 'processing',
      response_status: null,
      response_body: null,
      locked_until: toStoredInstant(nowMs + IDEMPOTENCY_LOCK_MS),
      created_at: toStoredInstant(nowMs),
      expires_at: toStoredInstant(nowMs + DAY_MS),
    });
    expect(claimed).toBe(true);
  }
});
