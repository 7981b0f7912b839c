/**
 * The billing read endpoints over HTTP on both databases (spec "Billing", "Price entry", "Balance
 * entry", "Ledger entry", "Limits"): the public price list, balances with the signup grant and the
 * blocked states as a balance falls, the ledger's shape and cursor paging, its 422s, and who may call.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RECEIPTS_FREE_WHEN } from '../../gateway/domain/billing.js';
import { toApiInstant, toStoredInstant } from '../../gateway/domain/clock.js';
import { recordLedgerEntry } from '../../storage/billing.repository.js';
import type { LedgerEntry, LedgerPage } from '../support/billing-shape.js';
import { DIALECTS } from '../support/databases.js';
import {
  type ApiResponse,
  expectErrorBody,
  PUBLIC_URL,
  paymentBody,
  startTestGateway,
  type TestGateway,
  uniqueHost,
} from '../support/gateway.js';
import { completeLivePayment, livePaymentsRouter } from '../support/live-payments.js';

type Json = Record<string, unknown>;

const LEDGER_KEYS = [
  'balance_after',
  'counter',
  'created_at',
  'delta',
  'event_type',
  'id',
  'note',
  'ref_id',
  'ref_type',
].sort();

const expectError = expectErrorBody;

describe.each(DIALECTS)('billing read endpoints on %s', (dialect) => {
  let t: TestGateway;
  const live = livePaymentsRouter();

  beforeAll(async () => {
    t = await startTestGateway(dialect, {
      routers: [live.router],
      env: {
        GATEWAY_RATE_LIMIT_PER_MINUTE: '100000',
        GATEWAY_SIGNUP_GRANT: '1',
        GATEWAY_GRACE_UNITS: '2',
        GATEWAY_PRICE_TRANSACTION_AMD: '25',
        GATEWAY_FREE_BELOW_AMD: '700',
      },
    });
    live.bind(t.gateway.deps);
  });
  afterAll(async () => t?.close());

  const nowApi = () => toApiInstant(toStoredInstant(t.clock.nowMs()));

  const ledger = (key: string, query = '') => t.call<LedgerPage>('GET', `/api/v1/billing/ledger${query}`, { key });

  /** Adds `count` adjustment rows of +1 to `counter`, as an operator correction would. */
  async function adjust(merchantId: string, counter: 'transactions' | 'receipts', count: number): Promise<void> {
    const deps = t.gateway.deps;
    const now = toStoredInstant(t.clock.nowMs());
    await deps.transact(async (trx) => {
      for (let i = 0; i < count; i += 1) {
        await recordLedgerEntry(trx, {
          merchantId,
          counter,
          delta: 1,
          eventType: 'adjustment',
          refType: null,
          refId: null,
          note: `adjustment ${i}`,
          now,
          signupGrant: deps.config.billing.signupGrant,
        });
      }
    });
  }

  describe('GET /api/v1/billing/pricing', () => {
    const expected = [
      {
        counter: 'transactions',
        unit_price_amd: 25,
        free_when: 'the payment amount is under 700 AMD, or it is a test (sandbox) payment',
      },
      { counter: 'receipts', unit_price_amd: 10, free_when: RECEIPTS_FREE_WHEN },
    ];

    it('answers without a key: exactly transactions then receipts, publicly cacheable, not counted', async () => {
      const res = await t.call<Json[]>('GET', '/api/v1/billing/pricing');
      expect(res.status, res.text).toBe(200);
      expect(res.headers.get('content-type')).toMatch(/^application\/json/);
      expect(res.headers.get('cache-control')).toBe('public, max-age=300');
      expect(res.headers.get('x-ratelimit-limit')).toBeNull();
      expect(res.body).toEqual(expected);
      expect(res.body.map((entry) => Object.keys(entry))).toEqual([
        ['counter', 'unit_price_amd', 'free_when'],
        ['counter', 'unit_price_amd', 'free_when'],
      ]);
      expect(RECEIPTS_FREE_WHEN).toBe('the receipt is linked to a payment made through the service');
    });

    it('answers the same with a key, and ignores a wrong key', async () => {
      const m = await t.merchant();
      const withKey = await t.call('GET', '/api/v1/billing/pricing', { key: m.testKey });
      expect(withKey.status).toBe(200);
      expect(withKey.body).toEqual(expected);
      const bearer = await t.call('GET', '/api/v1/billing/pricing', {
        headers: { Authorization: 'Bearer sk_test_not-a-real-key' },
      });
      expect(bearer.status).toBe(200);
      expect(bearer.body).toEqual(expected);
    });
  });

  describe('GET /api/v1/billing/balances', () => {
    it('needs a key: 401 without one or with a wrong one', async () => {
      expectError(await t.call('GET', '/api/v1/billing/balances'), 401, 'missing_credentials');
      expectError(await t.call('GET', '/api/v1/billing/balances', { key: 'sk_test_nope' }), 401, 'invalid_api_key');
      expectError(await t.call('GET', '/api/v1/billing/ledger'), 401, 'missing_credentials');
    });

    it('refuses payments-only keys (403 insufficient_scope), as it refuses them the ledger', async () => {
      const m = await t.merchant();
      const key = await t.key(m.merchantId, 'test', 'payments');
      expectError(await t.call('GET', '/api/v1/billing/balances', { key }), 403, 'insufficient_scope', ['required']);
      expectError(await ledger(key), 403, 'insufficient_scope', ['required']);
    });

    it('shows both counters with the signup grant on the first read, transactions first', async () => {
      const m = await t.merchant();
      const res = await t.call<Json[]>('GET', '/api/v1/billing/balances', { key: m.testKey });
      expect(res.status, res.text).toBe(200);
      expect(res.headers.get('cache-control')).toBe('no-store');
      expect(res.body).toEqual([
        { counter: 'transactions', available: 1, grace_floor: -2, blocked: 'no', unlimited: false },
        { counter: 'receipts', available: 1, grace_floor: -2, blocked: 'no', unlimited: false },
      ]);
      expect(res.body.map((entry) => Object.keys(entry).sort())).toEqual([
        ['available', 'blocked', 'counter', 'grace_floor', 'unlimited'],
        ['available', 'blocked', 'counter', 'grace_floor', 'unlimited'],
      ]);
      // Reading again grants nothing more.
      const again = await t.call<Json[]>('GET', '/api/v1/billing/balances', { key: m.testKey });
      expect(again.body).toEqual(res.body);
      const page = await ledger(m.testKey);
      expect(page.body.data.map((e) => [e.counter, e.event_type, e.delta, e.balance_after])).toEqual([
        ['receipts', 'signup_grant', 1, 1],
        ['transactions', 'signup_grant', 1, 1],
      ]);
    });

    it('is the merchant’s: live and test keys read the same balances', async () => {
      const m = await t.liveMerchant(uniqueHost('billing-read'));
      await adjust(m.merchantId, 'receipts', 3);
      const viaTest = await t.call('GET', '/api/v1/billing/balances', { key: m.testKey });
      const viaLive = await t.call('GET', '/api/v1/billing/balances', { key: m.liveKey });
      expect(viaTest.status).toBe(200);
      expect(viaLive.body).toEqual(viaTest.body);
      expect((viaLive.body as unknown as Json[])[1]?.available).toBe(4);
      expect((await ledger(m.liveKey)).body).toEqual((await ledger(m.testKey)).body);
    });

    it('moves blocked from no to grace to yes as completed live payments use the balance', async () => {
      const host = uniqueHost('billing-read');
      const m = await t.liveMerchant(host);
      const transactions = async () =>
        ((await t.call<Json[]>('GET', '/api/v1/billing/balances', { key: m.liveKey })).body[0] as Json) ?? {};
      expect(await transactions()).toMatchObject({ available: 1, blocked: 'no' });
      const seen: Array<[unknown, unknown]> = [];
      for (let i = 0; i < 3; i += 1) {
        const created = await t.call('POST', '/api/v1/payments', {
          key: m.liveKey,
          body: paymentBody({ amount: 700, return_url: `https://${host}/done` }),
        });
        expect(created.status, created.text).toBe(201);
        const done = await completeLivePayment(t, created.body.uuid as string);
        expect(done.status, done.text).toBe(200);
        const balance = await transactions();
        seen.push([balance.available, balance.blocked]);
      }
      expect(seen).toEqual([
        [0, 'no'],
        [-1, 'grace'],
        [-2, 'yes'],
      ]);
      const all = (await t.call<Json[]>('GET', '/api/v1/billing/balances', { key: m.liveKey })).body;
      expect(all[1]).toEqual({ counter: 'receipts', available: 1, grace_floor: -2, blocked: 'no', unlimited: false });
    });

    it('reports unlimited accounts as unlimited and never blocked', async () => {
      const m = await t.merchant({ unlimited: true });
      const res = await t.call<Json[]>('GET', '/api/v1/billing/balances', { key: m.testKey });
      expect(res.body).toEqual([
        { counter: 'transactions', available: 1, grace_floor: -2, blocked: 'no', unlimited: true },
        { counter: 'receipts', available: 1, grace_floor: -2, blocked: 'no', unlimited: true },
      ]);
    });
  });

  describe('GET /api/v1/billing/ledger', () => {
    it('answers entries of the exact shape, newest first, with next_cursor null on the only page', async () => {
      const m = await t.merchant();
      await adjust(m.merchantId, 'transactions', 2);
      const res = await ledger(m.testKey);
      expect(res.status, res.text).toBe(200);
      expect(res.headers.get('cache-control')).toBe('no-store');
      expect(Object.keys(res.body).sort()).toEqual(['data', 'next_cursor']);
      expect(res.body.next_cursor).toBeNull();
      const data = res.body.data;
      expect(data).toHaveLength(4);
      for (const entry of data) {
        expect(Object.keys(entry).sort()).toEqual(LEDGER_KEYS);
        expect(Number.isInteger(entry.id)).toBe(true);
        expect(entry.created_at).toBe(nowApi());
        expect(entry.created_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\+00:00$/);
      }
      expect(data.map((e) => e.id)).toEqual([...data.map((e) => e.id)].sort((a, b) => b - a));
      expect(data[0]).toEqual({
        id: data[0]?.id,
        counter: 'transactions',
        delta: 1,
        event_type: 'adjustment',
        ref_type: null,
        ref_id: null,
        balance_after: 3,
        note: 'adjustment 1',
        created_at: nowApi(),
      });
      expect(data[3]).toMatchObject({
        counter: 'transactions',
        delta: 1,
        event_type: 'signup_grant',
        ref_type: null,
        ref_id: null,
        balance_after: 1,
        note: null,
      });
      expect(data.map((e) => e.counter)).toEqual(['transactions', 'transactions', 'receipts', 'transactions']);
    });

    it('filters by counter', async () => {
      const m = await t.merchant();
      await adjust(m.merchantId, 'receipts', 2);
      await adjust(m.merchantId, 'transactions', 1);
      const receipts = await ledger(m.testKey, '?counter=receipts');
      expect(receipts.status).toBe(200);
      expect(receipts.body.data.map((e) => [e.counter, e.event_type, e.balance_after])).toEqual([
        ['receipts', 'adjustment', 3],
        ['receipts', 'adjustment', 2],
        ['receipts', 'signup_grant', 1],
      ]);
      const transactions = await ledger(m.testKey, '?counter=transactions');
      expect(transactions.body.data.map((e) => [e.counter, e.balance_after])).toEqual([
        ['transactions', 2],
        ['transactions', 1],
      ]);
    });

    it('pages with next_cursor over more than 100 rows (per_page 100, 1 and the default 50)', async () => {
      const m = await t.merchant();
      await adjust(m.merchantId, 'transactions', 120);
      await adjust(m.merchantId, 'receipts', 30);
      const all: number[] = [];
      // per_page 100: two pages.
      const first = await ledger(m.testKey, '?per_page=100');
      expect(first.status, first.text).toBe(200);
      expect(first.body.data).toHaveLength(100);
      expect(typeof first.body.next_cursor).toBe('string');
      const second = await ledger(
        m.testKey,
        `?per_page=100&cursor=${encodeURIComponent(first.body.next_cursor as string)}`,
      );
      expect(second.status, second.text).toBe(200);
      expect(second.body.data).toHaveLength(52);
      expect(second.body.next_cursor).toBeNull();
      all.push(...first.body.data.map((e) => e.id), ...second.body.data.map((e) => e.id));
      expect(all).toEqual([...all].sort((a, b) => b - a));
      expect(new Set(all).size).toBe(152);

      // per_page 1: one row per page, the same rows in the same order.
      const one: number[] = [];
      let cursor: string | null = null;
      let pages = 0;
      do {
        const res: ApiResponse<LedgerPage> = await ledger(
          m.testKey,
          `?per_page=1${cursor === null ? '' : `&cursor=${encodeURIComponent(cursor)}`}`,
        );
        expect(res.status, res.text).toBe(200);
        expect(res.body.data).toHaveLength(1);
        one.push(...res.body.data.map((e) => e.id));
        cursor = res.body.next_cursor;
        pages += 1;
      } while (cursor !== null && pages < 200);
      expect(pages).toBe(152);
      expect(one).toEqual(all);

      // The default page is 50; a counter filter pages within that counter.
      const byCounter: LedgerEntry[] = [];
      let next: string | null = null;
      let counterPages = 0;
      do {
        const res: ApiResponse<LedgerPage> = await ledger(
          m.testKey,
          `?counter=transactions${next === null ? '' : `&cursor=${encodeURIComponent(next)}`}`,
        );
        expect(res.status, res.text).toBe(200);
        counterPages += 1;
        if (res.body.next_cursor !== null) expect(res.body.data).toHaveLength(50);
        byCounter.push(...res.body.data);
        next = res.body.next_cursor;
      } while (next !== null && counterPages < 10);
      expect(counterPages).toBe(3);
      expect(byCounter).toHaveLength(121);
      expect(byCounter.every((e) => e.counter === 'transactions')).toBe(true);
      // balance_after is the running sum of the deltas, in id order.
      let sum = 0;
      for (const entry of [...byCounter].reverse()) {
        sum += entry.delta;
        expect(entry.balance_after).toBe(sum);
      }
      expect(sum).toBe(121);
    });

    it('answers next_cursor null when the last page is exactly full', async () => {
      const m = await t.merchant();
      await t.call('GET', '/api/v1/billing/balances', { key: m.testKey });
      const full = await ledger(m.testKey, '?per_page=2');
      expect(full.body.data).toHaveLength(2);
      expect(full.body.next_cursor).toBeNull();
      const first = await ledger(m.testKey, '?per_page=1');
      expect(first.body.next_cursor).toEqual(expect.any(String));
      const last = await ledger(m.testKey, `?per_page=1&cursor=${encodeURIComponent(first.body.next_cursor ?? '')}`);
      expect(last.body.data).toHaveLength(1);
      expect(last.body.data[0]?.id).toBeLessThan(first.body.data[0]?.id ?? 0);
      expect(last.body.next_cursor).toBeNull();
    });

    it('refuses a bad per_page with 422 validation_failed', async () => {
      const m = await t.merchant();
      for (const value of ['0', '101', 'abc', '1.5', '-1', '', '1e2']) {
        const body = expectError(await ledger(m.testKey, `?per_page=${value}`), 422, 'validation_failed', ['errors']);
        expect(Object.keys(body.errors as Json), value).toEqual(['per_page']);
      }
      const twice = await ledger(m.testKey, '?per_page=1&per_page=2');
      expect(Object.keys(expectError(twice, 422, 'validation_failed', ['errors']).errors as Json)).toEqual([
        'per_page',
      ]);
      expect((await ledger(m.testKey, '?per_page=100')).status).toBe(200);
      expect((await ledger(m.testKey, '?per_page=1')).status).toBe(200);
    });

    it('refuses an unknown counter with 422', async () => {
      const m = await t.merchant();
      for (const value of ['payments', 'Transactions', '']) {
        const body = expectError(await ledger(m.testKey, `?counter=${value}`), 422, 'validation_failed', ['errors']);
        expect(Object.keys(body.errors as Json)).toEqual(['counter']);
      }
    });

    it('refuses a malformed, tampered or foreign cursor with 422 errors.cursor', async () => {
      const m = await t.merchant();
      await adjust(m.merchantId, 'transactions', 3);
      const first = await ledger(m.testKey, '?per_page=1');
      const cursor = first.body.next_cursor as string;
      expect(cursor).toMatch(/^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/);
      const [idPart, mac] = cursor.split('.') as [string, string];
      const flipped = `${mac.slice(0, -1)}${mac.endsWith('A') ? 'B' : 'A'}`;
      const otherId = Buffer.from(String(Number(Buffer.from(idPart, 'base64url').toString()) + 1)).toString(
        'base64url',
      );
      const other = await t.merchant();
      await adjust(other.merchantId, 'transactions', 3);
      const bad = [
        'abc',
        '',
        `${idPart}.${flipped}`,
        `${otherId}.${mac}`,
        `${idPart}.${mac}.x`,
        `${idPart}`,
        `${idPart}.${mac}=`,
        Buffer.from('1').toString('base64url'),
      ];
      for (const value of bad) {
        const res = await ledger(m.testKey, `?per_page=1&cursor=${encodeURIComponent(value)}`);
        const body = expectError(res, 422, 'validation_failed', ['errors']);
        expect(Object.keys(body.errors as Json), value).toEqual(['cursor']);
      }
      // Another merchant's key, or another counter filter, cannot use it either.
      const foreign = await ledger(other.testKey, `?per_page=1&cursor=${encodeURIComponent(cursor)}`);
      expect(Object.keys(expectError(foreign, 422, 'validation_failed', ['errors']).errors as Json)).toEqual([
        'cursor',
      ]);
      const filtered = await ledger(m.testKey, `?per_page=1&counter=transactions&cursor=${encodeURIComponent(cursor)}`);
      expect(Object.keys(expectError(filtered, 422, 'validation_failed', ['errors']).errors as Json)).toEqual([
        'cursor',
      ]);
      // The genuine cursor still works.
      const ok = await ledger(m.testKey, `?per_page=1&cursor=${encodeURIComponent(cursor)}`);
      expect(ok.status, ok.text).toBe(200);
      expect(ok.body.data[0]?.id).toBeLessThan(first.body.data[0]?.id ?? 0);
    });
  });

  it('serves the top-up page that top_up_url points to', async () => {
    const res = await t.call('GET', '/docs/billing');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/html/);
    expect(res.text).toContain('id="top-up"');
    expect(res.text).toContain(`${PUBLIC_URL}/api/v1/billing/purchases`);
    expect(res.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
    expect(res.headers.get('x-frame-options')).toBe('DENY');
  });
});
