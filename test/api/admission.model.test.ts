/**
 * The admission of API requests as a model (fast-check): random sequences of creates (new orders, a
 * second payment of an open order, bad bodies, with and without Idempotency-Key, replays), reads
 * (own, another account's, unknown), a key revoked, another account's change that moves the account
 * version (so the cached keys are checked again), and the minute turning over, against one merchant
 * whose limit is a few requests a minute. On PostgreSQL a cached key is admitted in one statement,
 * a read of a payment inside it (gateway/auth/admission.ts); on SQLite the counts are in memory.
 * Both must answer as the model says, after every step:
 * - a revoked key is refused 401 and not counted; every other request is counted once;
 * - past the limit every request is 429 `rate_limited`, whatever else it would have answered;
 * - a payment exists exactly for each 201, and reads answer it as created;
 * - `X-RateLimit-Remaining` is the limit less the requests counted.
 *
 * `ADMISSION_MODEL_SEED` and `ADMISSION_MODEL_PATH` replay a failure fast-check printed.
 */
import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MINUTE_MS } from '../../gateway/domain/clock.js';
import { createApiKey, revokeApiKey } from '../../gateway/merchants/api-keys.service.js';
import { setRateLimit } from '../../gateway/merchants/merchant.service.js';
import { DIALECTS } from '../support/databases.js';
import { type ApiResponse, paymentBody, startTestGateway, type TestGateway } from '../support/gateway.js';

const LIMIT = 6;
const RUNS = 12;
const MAX_COMMANDS = 30;
const SEED = process.env.ADMISSION_MODEL_SEED === undefined ? undefined : Number(process.env.ADMISSION_MODEL_SEED);
const PATH = process.env.ADMISSION_MODEL_PATH;

interface Model {
  merchantId: string;
  keys: { main: string; extra: string; extraId: string };
  extraRevoked: boolean;
  /** Requests counted in the current minute. */
  hits: number;
  /** Payments answered 201, by uuid, with the body answered. */
  payments: Map<string, unknown>;
  /** Order ids with an open (pending) payment. */
  openOrders: string[];
  /** Idempotency keys answered 201, with their body and answer. */
  replays: Array<{ key: string; body: Record<string, unknown>; answer: unknown }>;
  /** A payment of another account. */
  foreignUuid: string;
}

type KeyName = 'main' | 'extra';
type Command = fc.AsyncCommand<Model, Record<string, never>>;

describe.each(DIALECTS)('the admission as a model on %s', (dialect) => {
  let t: TestGateway;
  let stranger: { merchantId: string; testKey: string };

  beforeAll(async () => {
    t = await startTestGateway(dialect);
    stranger = await t.merchant({ name: 'Stranger' });
  });
  afterAll(async () => {
    await t?.close();
  });

  const keyOf = (m: Model, name: KeyName) => (name === 'main' ? m.keys.main : m.keys.extra);

  /** Answers seen, by status, over all sequences: each way must have been taken. */
  const seen = new Map<number, number>();

  /** What the model says of one request made with `name`'s key; answers whether it reaches the route. */
  function expectAdmission(m: Model, name: KeyName, res: ApiResponse, where: string): boolean {
    seen.set(res.status, (seen.get(res.status) ?? 0) + 1);
    if (name === 'extra' && m.extraRevoked) {
      expect(res.status, `${where}: ${res.text}`).toBe(401);
      expect(res.body.error).toBe('invalid_api_key');
      return false;
    }
    m.hits += 1;
    if (m.hits > LIMIT) {
      expect(res.status, `${where}: ${res.text}`).toBe(429);
      expect(res.body.error).toBe('rate_limited');
      expect(res.headers.get('X-RateLimit-Remaining')).toBe('0');
      return false;
    }
    expect(res.headers.get('X-RateLimit-Remaining'), where).toBe(String(LIMIT - m.hits));
    return true;
  }

  async function checkAlways(m: Model, where: string): Promise<void> {
    const rows = await t.gateway.deps.db
      .selectFrom('payments')
      .select('id')
      .where('merchant_id', '=', m.merchantId)
      .execute();
    expect(new Set(rows.map((r) => r.id)), `${where}: the payments written are the ones answered 201`).toEqual(
      new Set(m.payments.keys()),
    );
  }

  const command = (
    name: string,
    act: (m: Model) => Promise<void>,
    check: (m: Readonly<Model>) => boolean = () => true,
  ): Command => ({
    check,
    async run(m) {
      await act(m);
      await checkAlways(m, name);
    },
    toString: () => name,
  });

  const keyName = fc.constantFrom<KeyName>('main', 'main', 'extra');
  const commands = [
    keyName.map((k) =>
      command(`create new order (${k})`, async (m) => {
        const body = paymentBody();
        const res = await t.call('POST', '/api/v1/payments', { key: keyOf(m, k), body });
        if (!expectAdmission(m, k, res, 'create')) return;
        expect(res.status, res.text).toBe(201);
        m.payments.set(String(res.body.uuid), res.body);
        m.openOrders.push(String(body.order_id));
      }),
    ),
    fc.tuple(keyName, fc.nat()).map(([k, i]) =>
      command(
        `create for an open order (${k}, ${i})`,
        async (m) => {
          const orderId = m.openOrders[i % m.openOrders.length];
          const res = await t.call('POST', '/api/v1/payments', {
            key: keyOf(m, k),
            body: paymentBody({ order_id: orderId }),
          });
          if (!expectAdmission(m, k, res, 'create for an open order')) return;
          expect(res.status, res.text).toBe(422);
          expect(res.body.error).toBe('validation_failed');
        },
        (m) => m.openOrders.length > 0,
      ),
    ),
    keyName.map((k) =>
      command(`create with a bad body (${k})`, async (m) => {
        const res = await t.call('POST', '/api/v1/payments', { key: keyOf(m, k), body: { amount: 'ten' } });
        if (!expectAdmission(m, k, res, 'bad body')) return;
        expect(res.status, res.text).toBe(422);
      }),
    ),
    keyName.map((k) =>
      command(`create with an Idempotency-Key (${k})`, async (m) => {
        const body = paymentBody();
        const key = `model-${randomUUID()}`;
        const res = await t.call('POST', '/api/v1/payments', {
          key: keyOf(m, k),
          body,
          headers: { 'Idempotency-Key': key },
        });
        if (!expectAdmission(m, k, res, 'create with a key')) return;
        expect(res.status, res.text).toBe(201);
        m.payments.set(String(res.body.uuid), res.body);
        m.openOrders.push(String(body.order_id));
        m.replays.push({ key, body, answer: res.body });
      }),
    ),
    fc.nat().map((i) =>
      command(
        `replay (${i})`,
        async (m) => {
          const replay = m.replays[i % m.replays.length];
          if (replay === undefined) return;
          const res = await t.call('POST', '/api/v1/payments', {
            key: m.keys.main,
            body: replay.body,
            headers: { 'Idempotency-Key': replay.key },
          });
          if (!expectAdmission(m, 'main', res, 'replay')) return;
          expect(res.status, res.text).toBe(200);
          expect(res.body).toEqual(replay.answer);
        },
        (m) => m.replays.length > 0,
      ),
    ),
    fc.tuple(keyName, fc.nat()).map(([k, i]) =>
      command(
        `read own payment (${k}, ${i})`,
        async (m) => {
          const [uuid, answered] = [...m.payments.entries()][i % m.payments.size] ?? [];
          const res = await t.call('GET', `/api/v1/payments/${uuid}`, { key: keyOf(m, k) });
          if (!expectAdmission(m, k, res, 'read')) return;
          expect(res.status, res.text).toBe(200);
          expect(res.body).toEqual(answered);
        },
        (m) => m.payments.size > 0,
      ),
    ),
    fc.tuple(keyName, fc.boolean()).map(([k, foreign]) =>
      command(`read ${foreign ? 'another account’s' : 'an unknown'} payment (${k})`, async (m) => {
        const uuid = foreign ? m.foreignUuid : randomUUID();
        const res = await t.call('GET', `/api/v1/payments/${uuid}`, { key: keyOf(m, k) });
        if (!expectAdmission(m, k, res, 'read of a payment not ours')) return;
        expect(res.status, res.text).toBe(404);
        expect(res.body.error).toBe('not_found');
      }),
    ),
    fc.constant(
      command(
        'revoke the extra key',
        async (m) => {
          await revokeApiKey(t.gateway.deps, { merchantId: m.merchantId, keyId: m.keys.extraId });
          m.extraRevoked = true;
        },
        (m) => !m.extraRevoked,
      ),
    ),
    fc.constant(
      command('another account gets a key (the account version moves)', async () => {
        await createApiKey(t.gateway.deps, { merchantId: stranger.merchantId, environment: 'test', access: 'full' });
      }),
    ),
    fc.constant(
      command('the minute turns over', async (m) => {
        t.clock.advance(MINUTE_MS - (t.clock.nowMs() % MINUTE_MS) + 1_000);
        m.hits = 0;
      }),
    ),
  ];

  it(`answers, counts and writes as the model says (${RUNS} sequences of up to ${MAX_COMMANDS} steps)`, async () => {
    const foreign = await t.call('POST', '/api/v1/payments', { key: stranger.testKey, body: paymentBody() });
    expect(foreign.status, foreign.text).toBe(201);
    await fc.assert(
      fc.asyncProperty(fc.commands(commands, { maxCommands: MAX_COMMANDS, size: 'max' }), async (sequence) => {
        const merchant = await t.merchant({ name: 'Model Shop' });
        await setRateLimit(t.gateway.deps, merchant.merchantId, LIMIT);
        const extra = await createApiKey(t.gateway.deps, {
          merchantId: merchant.merchantId,
          environment: 'test',
          access: 'full',
        });
        // A fresh minute, its first second: the whole sequence may fit in it or cross into the next.
        t.clock.advance(MINUTE_MS - (t.clock.nowMs() % MINUTE_MS) + 1_000);
        const model: Model = {
          merchantId: merchant.merchantId,
          keys: { main: merchant.testKey, extra: extra.key, extraId: extra.key_id },
          extraRevoked: false,
          hits: 0,
          payments: new Map(),
          openOrders: [],
          replays: [],
          foreignUuid: String(foreign.body.uuid),
        };
        await fc.asyncModelRun(() => ({ model, real: {} }), sequence);
      }),
      {
        numRuns: RUNS,
        ...(SEED === undefined ? {} : { seed: SEED }),
        ...(PATH === undefined ? {} : { path: PATH }),
        endOnFailure: true,
      },
    );
    // Every way was taken: created, replayed, read, refused by the route, by the key, by the limit.
    for (const status of [200, 201, 401, 404, 422, 429])
      expect(seen.get(status) ?? 0, `answers ${status}`).toBeGreaterThan(0);
  }, 240_000);
});
