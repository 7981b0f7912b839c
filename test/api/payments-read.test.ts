/**
 * Reading payments over HTTP on both databases: `GET /api/v1/payments/{uuid}`,
 * `GET /api/v1/orders/{order_id}/payment` and the paginated list `GET /api/v1/payments` with every
 * filter (`customer_id` an addition), its Laravel paginator shape across pages, isolation between environments and merchants,
 * and 422 on bad parameters.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DAY_MS, HOUR_MS, toStoredInstant } from '../../gateway/domain/clock.js';
import { PAYMENT_STATUSES, type PaymentStatus } from '../../gateway/domain/payment.js';
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

type Json = Record<string, unknown>;

interface PageLink {
  url: string | null;
  label: string;
  active: boolean;
}

interface Page {
  data: Json[];
  links: { first: string | null; last: string | null; prev: string | null; next: string | null };
  meta: {
    current_page: number;
    from: number | null;
    last_page: number;
    links: PageLink[];
    path: string | null;
    per_page: number;
    to: number | null;
    total: number;
  };
}

const LIST_PATH = `${PUBLIC_URL}/api/v1/payments`;
const PREVIOUS = '&laquo; Previous';
const NEXT = 'Next &raquo;';

/** The UTC calendar day of an instant, as the list filters write it. */
function dayOf(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}

function expectError(res: ApiResponse, status: number, code: string, extraKeys: string[] = []): Json {
  expectErrorBody(res, status, code, extraKeys);
  expect(typeof res.body.message).toBe('string');
  expect(res.body.request_id).toBe(res.headers.get('x-request-id'));
  expect(res.body.docs_url).toBe(`${PUBLIC_URL}/docs/errors#${code}`);
  return res.body;
}

describe.each(DIALECTS)('reading payments on %s', (dialect) => {
  let t: TestGateway;
  beforeAll(async () => {
    t = await startTestGateway(dialect, { env: { GATEWAY_RATE_LIMIT_PER_MINUTE: '100000' } });
  });
  afterAll(async () => t?.close());

  async function create(key: string, overrides: Json = {}): Promise<Json> {
    const res = await t.call('POST', '/api/v1/payments', { key, body: paymentBody(overrides) });
    expect(res.status, res.text).toBe(201);
    return res.body;
  }

  /** Creates `count` payments one second apart; answers them oldest first. */
  async function createMany(key: string, count: number, overrides: Json = {}): Promise<Json[]> {
    const created: Json[] = [];
    for (let i = 0; i < count; i++) {
      t.clock.advance(1000);
      created.push(await create(key, overrides));
    }
    return created;
  }

  async function list(key: string, query = ''): Promise<Page> {
    const res = await t.call<Page>('GET', `/api/v1/payments${query === '' ? '' : `?${query}`}`, { key });
    expect(res.status, res.text).toBe(200);
    expect(res.headers.get('cache-control')).toBe('no-store');
    return res.body;
  }

  const uuids = (page: Page) => page.data.map((p) => p.uuid);

  /** Moves a payment to `status` as the state machine would: failed and expired release the order. */
  async function setStatus(uuid: string, status: PaymentStatus, atMs = t.clock.nowMs()): Promise<void> {
    const row = await t.gateway.deps.db
      .selectFrom('payments')
      .select('order_id')
      .where('id', '=', uuid)
      .executeTakeFirstOrThrow();
    const holds = status === 'pending' || status === 'processing' || status === 'completed' || status === 'refunded';
    await t.gateway.deps.db
      .updateTable('payments')
      .set({
        status,
        active_order_id: holds ? row.order_id : null,
        completed_at: status === 'completed' || status === 'refunded' ? toStoredInstant(atMs) : null,
        refunded_at: status === 'refunded' ? toStoredInstant(atMs) : null,
      })
      .where('id', '=', uuid)
      .execute();
  }

  /** Moves the manual clock forward to `ms`. */
  function advanceTo(ms: number): void {
    expect(ms).toBeGreaterThanOrEqual(t.clock.nowMs());
    t.clock.advance(ms - t.clock.nowMs());
  }

  describe('GET /api/v1/payments/{uuid}', () => {
    it('answers the same object as creation, also later', async () => {
      const m = await t.merchant();
      const created = await create(m.testKey, { customer_id: 7, description: 'Tea', processor: 'sandbox' });
      t.clock.advance(5 * 60_000);
      const read = await t.call('GET', `/api/v1/payments/${created.uuid}`, { key: m.testKey });
      expect(read.status).toBe(200);
      expect(read.headers.get('cache-control')).toBe('no-store');
      expect(read.body).toEqual(created);
    });

    it('answers the current state of the payment', async () => {
      const m = await t.merchant();
      const created = await create(m.testKey);
      t.clock.advance(90_000);
      await setStatus(created.uuid as string, 'completed');
      const read = await t.call('GET', `/api/v1/payments/${created.uuid}`, { key: m.testKey });
      expect(read.body).toEqual({
        ...created,
        status: 'completed',
        completed_at: `${new Date(t.clock.nowMs()).toISOString().slice(0, 19)}+00:00`,
      });
    });

    it("answers 404 not_found for another merchant's payment", async () => {
      const owner = await t.merchant();
      const other = await t.merchant();
      const created = await create(owner.testKey);
      expectError(await t.call('GET', `/api/v1/payments/${created.uuid}`, { key: other.testKey }), 404, 'not_found');
    });

    it("answers 404 not_found for the other environment's payment", async () => {
      const host = uniqueHost('read');
      const m = await t.liveMerchant(host);
      const live = await create(m.liveKey, { return_url: `https://${host}/done` });
      const test = await create(m.testKey);
      expectError(await t.call('GET', `/api/v1/payments/${live.uuid}`, { key: m.testKey }), 404, 'not_found');
      expectError(await t.call('GET', `/api/v1/payments/${test.uuid}`, { key: m.liveKey }), 404, 'not_found');
      expect((await t.call('GET', `/api/v1/payments/${live.uuid}`, { key: m.liveKey })).body).toEqual(live);
    });

    it.each([
      '0190b1a2-3c4d-7e5f-8a9b-0c1d2e3f4a5b',
      'not-a-uuid',
      '0190b1a23c4d7e5f8a9b0c1d2e3f4a5b',
      '0190b1a2-3c4d-7e5f-8a9b-0c1d2e3f4a5bx',
      encodeURIComponent("' OR 1=1 --"),
      'x'.repeat(3000),
    ])('answers 404 not_found for the unknown or malformed id %s', async (id) => {
      const m = await t.merchant();
      await create(m.testKey);
      expectError(await t.call('GET', `/api/v1/payments/${id}`, { key: m.testKey }), 404, 'not_found');
    });
  });

  describe('GET /api/v1/orders/{order_id}/payment', () => {
    it('answers the payment of the order in the shape of creation', async () => {
      const m = await t.merchant();
      const created = await create(m.testKey, { order_id: 'order-1001' });
      const res = await t.call('GET', '/api/v1/orders/order-1001/payment', { key: m.testKey });
      expect(res.status).toBe(200);
      expect(res.headers.get('cache-control')).toBe('no-store');
      expect(res.body).toEqual(created);
    });

    it.each(['a/b c?#', '100%', 'a+b&c=d', 'заказ №5', 'WC-#1234/2', '%2F already encoded'])(
      'finds the order %j by its URL-encoded id',
      async (orderId) => {
        const m = await t.merchant();
        const created = await create(m.testKey, { order_id: orderId });
        const res = await t.call('GET', `/api/v1/orders/${encodeURIComponent(orderId)}/payment`, { key: m.testKey });
        expect(res.status, res.text).toBe(200);
        expect(res.body).toEqual(created);
      },
    );

    it('answers 404 order_not_found for an order without payment', async () => {
      const m = await t.merchant();
      await create(m.testKey, { order_id: 'known-order' });
      for (const orderId of ['unknown-order', 'KNOWN-ORDER', 'known-order ', 'o'.repeat(256), 'known\u0000order']) {
        const res = await t.call('GET', `/api/v1/orders/${encodeURIComponent(orderId)}/payment`, { key: m.testKey });
        expectError(res, 404, 'order_not_found');
      }
    });

    it("answers 404 order_not_found for another merchant's or the other environment's order", async () => {
      const host = uniqueHost('read');
      const m = await t.liveMerchant(host);
      const stranger = await t.merchant();
      await create(m.liveKey, { order_id: 'live-only', return_url: `https://${host}/done` });
      await create(m.testKey, { order_id: 'test-only' });
      const get = (key: string, orderId: string) => t.call('GET', `/api/v1/orders/${orderId}/payment`, { key });
      expectError(await get(m.testKey, 'live-only'), 404, 'order_not_found');
      expectError(await get(m.liveKey, 'test-only'), 404, 'order_not_found');
      expectError(await get(stranger.testKey, 'test-only'), 404, 'order_not_found');
      expect((await get(m.liveKey, 'live-only')).status).toBe(200);
      expect((await get(m.testKey, 'test-only')).status).toBe(200);
    });

    it('answers the newest attempt while none is paid, then the paid one', async () => {
      const m = await t.merchant();
      const get = () => t.call('GET', '/api/v1/orders/order-retried/payment', { key: m.testKey });
      const first = await create(m.testKey, { order_id: 'order-retried' });
      await setStatus(first.uuid as string, 'failed');
      t.clock.advance(1000);
      const second = await create(m.testKey, { order_id: 'order-retried' });
      await setStatus(second.uuid as string, 'expired');
      t.clock.advance(1000);
      const third = await create(m.testKey, { order_id: 'order-retried' });
      expect((await get()).body.uuid).toBe(third.uuid);

      // A late confirmation completes the first attempt: the paid one is the order's payment.
      await t.gateway.deps.db
        .updateTable('payments')
        .set({ status: 'completed', completed_at: toStoredInstant(t.clock.nowMs()) })
        .where('id', '=', first.uuid as string)
        .execute();
      const paid = await get();
      expect(paid.body.uuid).toBe(first.uuid);
      expect(paid.body.status).toBe('completed');
    });
  });

  describe('GET /api/v1/payments: the paginator', () => {
    it('answers an empty list in the exact Laravel shape', async () => {
      const m = await t.merchant();
      const res = await t.call('GET', '/api/v1/payments', { key: m.testKey });
      expect(res.status).toBe(200);
      const first = `${LIST_PATH}?page=1`;
      expect(res.body).toEqual({
        data: [],
        links: { first, last: first, prev: null, next: null },
        meta: {
          current_page: 1,
          from: null,
          last_page: 1,
          links: [
            { url: null, label: PREVIOUS, active: false },
            { url: first, label: '1', active: true },
            { url: null, label: NEXT, active: false },
          ],
          path: LIST_PATH,
          per_page: 25,
          to: null,
          total: 0,
        },
      });
      expect(Object.keys(res.body)).toEqual(['data', 'links', 'meta']);
      expect(Object.keys(res.body.links as Json)).toEqual(['first', 'last', 'prev', 'next']);
      expect(Object.keys(res.body.meta as Json)).toEqual([
        'current_page',
        'from',
        'last_page',
        'links',
        'path',
        'per_page',
        'to',
        'total',
      ]);
    });

    it('lists the payments newest first, each in the shape of creation', async () => {
      const m = await t.merchant();
      const created = await createMany(m.testKey, 3);
      const page = await list(m.testKey);
      expect(page.data).toEqual([...created].reverse());
      expect(page.meta).toMatchObject({ current_page: 1, from: 1, to: 3, total: 3, last_page: 1, per_page: 25 });
    });

    it('pages through 30 payments ten at a time', async () => {
      const m = await t.merchant();
      const newestFirst = (await createMany(m.testKey, 30)).reverse().map((p) => p.uuid);
      const url = (n: number) => `${LIST_PATH}?per_page=10&page=${n}`;
      const windowLinks = (current: number, prev: string | null, next: string | null): PageLink[] => [
        { url: prev, label: PREVIOUS, active: false },
        { url: url(1), label: '1', active: current === 1 },
        { url: url(2), label: '2', active: current === 2 },
        { url: url(3), label: '3', active: current === 3 },
        { url: next, label: NEXT, active: false },
      ];

      const one = await list(m.testKey, 'per_page=10');
      expect(uuids(one)).toEqual(newestFirst.slice(0, 10));
      expect(one.links).toEqual({ first: url(1), last: url(3), prev: null, next: url(2) });
      expect(one.meta).toEqual({
        current_page: 1,
        from: 1,
        last_page: 3,
        links: windowLinks(1, null, url(2)),
        path: LIST_PATH,
        per_page: 10,
        to: 10,
        total: 30,
      });

      const two = await list(m.testKey, 'page=2&per_page=10');
      expect(uuids(two)).toEqual(newestFirst.slice(10, 20));
      expect(two.links).toEqual({ first: url(1), last: url(3), prev: url(1), next: url(3) });
      expect(two.meta).toMatchObject({ current_page: 2, from: 11, to: 20, total: 30, last_page: 3 });
      expect(two.meta.links).toEqual(windowLinks(2, url(1), url(3)));

      const three = await list(m.testKey, 'per_page=10&page=3');
      expect(uuids(three)).toEqual(newestFirst.slice(20, 30));
      expect(three.links).toEqual({ first: url(1), last: url(3), prev: url(2), next: null });
      expect(three.meta).toMatchObject({ current_page: 3, from: 21, to: 30, total: 30, last_page: 3 });
      expect(three.meta.links).toEqual(windowLinks(3, url(2), null));

      const beyond = await list(m.testKey, 'per_page=10&page=4');
      expect(beyond.data).toEqual([]);
      expect(beyond.links).toEqual({ first: url(1), last: url(3), prev: url(3), next: null });
      expect(beyond.meta).toEqual({
        current_page: 4,
        from: null,
        last_page: 3,
        links: windowLinks(4, url(3), null),
        path: LIST_PATH,
        per_page: 10,
        to: null,
        total: 30,
      });

      // Following `next` from the first page visits every payment once.
      const seen: unknown[] = [];
      let next: string | null = one.links.first;
      while (next !== null) {
        const target = new URL(next);
        expect(target.origin + target.pathname).toBe(LIST_PATH);
        const page: Page = await list(m.testKey, target.search.slice(1));
        seen.push(...uuids(page));
        next = page.links.next;
      }
      expect(seen).toEqual(newestFirst);
    });

    it('shows 25 per page by default and at most 100', async () => {
      const m = await t.merchant();
      const newestFirst = (await createMany(m.testKey, 30)).reverse().map((p) => p.uuid);
      const byDefault = await list(m.testKey);
      expect(uuids(byDefault)).toEqual(newestFirst.slice(0, 25));
      expect(byDefault.meta).toMatchObject({ per_page: 25, last_page: 2, from: 1, to: 25, total: 30 });
      const second = await list(m.testKey, 'page=2');
      expect(uuids(second)).toEqual(newestFirst.slice(25));
      expect(second.meta).toMatchObject({ from: 26, to: 30 });
      const all = await list(m.testKey, 'per_page=100');
      expect(uuids(all)).toEqual(newestFirst);
      expect(all.meta).toMatchObject({ per_page: 100, last_page: 1 });
      const single = await list(m.testKey, 'per_page=1&page=30');
      expect(uuids(single)).toEqual([newestFirst[29]]);
      expect(single.meta).toMatchObject({ from: 30, to: 30, last_page: 30 });
    });

    it("shows Laravel's link window with '...' when there are many pages", async () => {
      const m = await t.merchant();
      await createMany(m.testKey, 30);
      const labels = (page: Page) => page.meta.links.map((l) => l.label);

      const first = await list(m.testKey, 'per_page=1');
      expect(labels(first)).toEqual([
        PREVIOUS,
        '1',
        '2',
        '3',
        '4',
        '5',
        '6',
        '7',
        '8',
        '9',
        '10',
        '...',
        '29',
        '30',
        NEXT,
      ]);

      const middle = await list(m.testKey, 'per_page=1&page=15');
      expect(labels(middle)).toEqual([
        PREVIOUS,
        '1',
        '2',
        '...',
        '12',
        '13',
        '14',
        '15',
        '16',
        '17',
        '18',
        '...',
        '29',
        '30',
        NEXT,
      ]);
      const gaps = middle.meta.links.filter((l) => l.label === '...');
      expect(gaps).toEqual([
        { url: null, label: '...', active: false },
        { url: null, label: '...', active: false },
      ]);
      expect(middle.meta.links.filter((l) => l.active)).toEqual([
        { url: `${LIST_PATH}?per_page=1&page=15`, label: '15', active: true },
      ]);

      const last = await list(m.testKey, 'per_page=1&page=30');
      expect(labels(last)).toEqual([
        PREVIOUS,
        '1',
        '2',
        '...',
        ...Array.from({ length: 10 }, (_, i) => String(21 + i)),
        NEXT,
      ]);
    });

    it('keeps the filters in every page link', async () => {
      const m = await t.merchant();
      await createMany(m.testKey, 5, { processor: 'sandbox' });
      await createMany(m.testKey, 2);
      const today = dayOf(t.clock.nowMs());
      const page = await list(
        m.testKey,
        `status=pending&processor=sandbox&from=${today}&to=${today}&per_page=2&page=2`,
      );
      expect(page.meta).toMatchObject({ total: 5, last_page: 3, current_page: 2, from: 3, to: 4 });
      const urls = [
        page.links.first,
        page.links.last,
        page.links.prev,
        page.links.next,
        ...page.meta.links.map((l) => l.url),
      ].filter((u): u is string => u !== null);
      expect(urls.length).toBe(9);
      for (const link of urls) {
        const url = new URL(link);
        expect(url.origin + url.pathname).toBe(LIST_PATH);
        expect(url.searchParams.get('status')).toBe('pending');
        expect(url.searchParams.get('processor')).toBe('sandbox');
        expect(url.searchParams.get('from')).toBe(today);
        expect(url.searchParams.get('to')).toBe(today);
        expect(url.searchParams.get('per_page')).toBe('2');
        expect(url.searchParams.getAll('page')).toHaveLength(1);
      }
      expect(new URL(page.links.prev as string).searchParams.get('page')).toBe('1');
      expect(new URL(page.links.next as string).searchParams.get('page')).toBe('3');
      expect(new URL(page.links.last as string).searchParams.get('page')).toBe('3');
    });

    it('carries an order_id filter with reserved characters through the links', async () => {
      const m = await t.merchant();
      const orderId = 'a/b c?#&=+%';
      const created = await create(m.testKey, { order_id: orderId });
      await create(m.testKey);
      const page = await list(m.testKey, `order_id=${encodeURIComponent(orderId)}&per_page=1`);
      expect(uuids(page)).toEqual([created.uuid]);
      expect(new URL(page.links.first as string).searchParams.get('order_id')).toBe(orderId);
      const followed = await list(m.testKey, new URL(page.links.first as string).search.slice(1));
      expect(uuids(followed)).toEqual([created.uuid]);
    });
  });

  describe('GET /api/v1/payments: filters', () => {
    it('filters by status', async () => {
      const m = await t.merchant();
      const [pending, processing, authorized, completed, failed, expired, refunded] = await createMany(m.testKey, 7);
      await setStatus(processing?.uuid as string, 'processing');
      await setStatus(authorized?.uuid as string, 'authorized');
      await setStatus(completed?.uuid as string, 'completed');
      await setStatus(failed?.uuid as string, 'failed');
      await setStatus(expired?.uuid as string, 'expired');
      await setStatus(refunded?.uuid as string, 'refunded');
      const byStatus: Record<PaymentStatus, Json | undefined> = {
        pending,
        processing,
        authorized,
        completed,
        failed,
        expired,
        refunded,
      };
      for (const status of PAYMENT_STATUSES) {
        const page = await list(m.testKey, `status=${status}`);
        expect(uuids(page), status).toEqual([byStatus[status]?.uuid]);
        expect(page.data[0]?.status).toBe(status);
        expect(page.meta.total).toBe(1);
      }
      expect((await list(m.testKey)).meta.total).toBe(7);
    });

    it('filters by processor', async () => {
      const m = await t.merchant();
      const withSandbox = await createMany(m.testKey, 2, { processor: 'sandbox' });
      await createMany(m.testKey, 3);
      const page = await list(m.testKey, 'processor=sandbox');
      expect(uuids(page)).toEqual([withSandbox[1]?.uuid, withSandbox[0]?.uuid]);
      const none = await list(m.testKey, 'processor=idram');
      expect(none.data).toEqual([]);
      expect(none.meta.total).toBe(0);
    });

    it('filters by order_id, listing every attempt of the order', async () => {
      const m = await t.merchant();
      const first = await create(m.testKey, { order_id: 'order-77' });
      await setStatus(first.uuid as string, 'failed');
      t.clock.advance(1000);
      const retry = await create(m.testKey, { order_id: 'order-77' });
      await create(m.testKey, { order_id: 'order-770' });
      await create(m.testKey, { order_id: 'ORDER-77' });
      const page = await list(m.testKey, 'order_id=order-77');
      expect(uuids(page)).toEqual([retry.uuid, first.uuid]);
      expect((await list(m.testKey, 'order_id=order-7')).data).toEqual([]);
    });

    it('filters by customer_id: the ids the merchant named and those the gateway gave, with the total and links', async () => {
      const m = await t.merchant();
      const named = await createMany(m.testKey, 3, { customer_id: 'crm-42' });
      await create(m.testKey, { customer_id: 'crm-420' });
      await create(m.testKey, { customer_id: 42 });
      const page = await list(m.testKey, 'customer_id=crm-42&per_page=2');
      expect(uuids(page)).toEqual([named[2]?.uuid, named[1]?.uuid]);
      expect(page.meta.total).toBe(3);
      expect(page.links.next).toBe(`${LIST_PATH}?customer_id=crm-42&per_page=2&page=2`);
      expect(uuids(await list(m.testKey, 'customer_id=crm-42&per_page=2&page=2'))).toEqual([named[0]?.uuid]);
      // A numeric id is read back as a string and found as one.
      expect((await list(m.testKey, 'customer_id=42')).meta.total).toBe(1);
      expect((await list(m.testKey, 'customer_id=crm-42&status=completed')).data).toEqual([]);

      // The id the gateway gives a buyer once paid finds that buyer's payments.
      const paidOnce = await create(m.testKey, { customer_email: 'ani@example.am' });
      const paid = await t.call('POST', `/api/v1/test_helpers/payments/${paidOnce.uuid}/pay`, {
        key: m.testKey,
        body: { card_number: '4111 1111 1111 1111' },
      });
      expect(paid.status, paid.text).toBe(200);
      const read = await t.call<Json>('GET', `/api/v1/payments/${paidOnce.uuid}`, { key: m.testKey });
      const customerId = read.body.customer_id as string;
      expect(customerId).toMatch(/^cus_/);
      expect(uuids(await list(m.testKey, `customer_id=${customerId}`))).toEqual([paidOnce.uuid]);

      // Another merchant's customer of the same id is not listed.
      const other = await t.merchant();
      await create(other.testKey, { customer_id: 'crm-42' });
      expect((await list(m.testKey, 'customer_id=crm-42')).meta.total).toBe(3);
    });

    it('filters by creation day with from and to, inclusive UTC days', async () => {
      const m = await t.merchant();
      // Midnight UTC two days ahead, and payments around its day's edges.
      const day = Math.floor(t.clock.nowMs() / DAY_MS) * DAY_MS + 2 * DAY_MS;
      const at: Record<string, number> = {
        dayBeforeLastMs: day - 1,
        dayStart: day,
        dayNoon: day + 12 * HOUR_MS,
        dayLastMs: day + DAY_MS - 1,
        nextDayStart: day + DAY_MS,
      };
      const ids: Record<string, unknown> = {};
      for (const [name, ms] of Object.entries(at)) {
        advanceTo(ms);
        ids[name] = (await create(m.testKey)).uuid;
      }
      const before = dayOf(day - DAY_MS);
      const d = dayOf(day);
      const after = dayOf(day + DAY_MS);
      const query = async (q: string) => uuids(await list(m.testKey, q));

      expect(await query(`from=${d}&to=${d}`)).toEqual([ids.dayLastMs, ids.dayNoon, ids.dayStart]);
      expect(await query(`from=${d}`)).toEqual([ids.nextDayStart, ids.dayLastMs, ids.dayNoon, ids.dayStart]);
      expect(await query(`to=${d}`)).toEqual([ids.dayLastMs, ids.dayNoon, ids.dayStart, ids.dayBeforeLastMs]);
      expect(await query(`to=${before}`)).toEqual([ids.dayBeforeLastMs]);
      expect(await query(`from=${after}`)).toEqual([ids.nextDayStart]);
      expect(await query(`from=${before}&to=${after}`)).toHaveLength(5);
      expect(await query(`from=${dayOf(day + 2 * DAY_MS)}`)).toEqual([]);
      expect(await query('from=0001-01-01&to=9999-12-31')).toHaveLength(5);
      expect(await query('to=9999-12-31')).toHaveLength(5);
    });

    it('combines filters', async () => {
      const m = await t.merchant();
      const [a, b] = await createMany(m.testKey, 2, { processor: 'sandbox' });
      await createMany(m.testKey, 1);
      await setStatus(a?.uuid as string, 'completed');
      const today = dayOf(t.clock.nowMs());
      const page = await list(m.testKey, `status=pending&processor=sandbox&to=${today}`);
      expect(uuids(page)).toEqual([b?.uuid]);
      const byOrder = await list(m.testKey, `status=completed&order_id=${encodeURIComponent(a?.order_id as string)}`);
      expect(uuids(byOrder)).toEqual([a?.uuid]);
      expect((await list(m.testKey, `status=failed&order_id=${a?.order_id}`)).data).toEqual([]);
    });
  });

  describe('GET /api/v1/payments: isolation', () => {
    it("lists only the key's environment", async () => {
      const host = uniqueHost('read');
      const m = await t.liveMerchant(host);
      const live = await createMany(m.liveKey, 2, { return_url: `https://${host}/done` });
      const test = await createMany(m.testKey, 3);
      const livePage = await list(m.liveKey);
      expect(uuids(livePage)).toEqual(live.reverse().map((p) => p.uuid));
      expect(livePage.data.every((p) => p.livemode === true)).toBe(true);
      const testPage = await list(m.testKey);
      expect(uuids(testPage)).toEqual(test.reverse().map((p) => p.uuid));
      expect(testPage.data.every((p) => p.livemode === false)).toBe(true);
      expect((await list(m.liveKey, 'status=pending')).meta.total).toBe(2);
      expect((await list(m.testKey, 'status=pending')).meta.total).toBe(3);
    });

    it("never lists another merchant's payments", async () => {
      const a = await t.merchant();
      const b = await t.merchant();
      const mine = await createMany(a.testKey, 2);
      const theirs = await create(b.testKey, { order_id: 'theirs-1' });
      expect(uuids(await list(a.testKey))).toEqual([mine[1]?.uuid, mine[0]?.uuid]);
      expect(uuids(await list(b.testKey))).toEqual([theirs.uuid]);
      expect((await list(b.testKey, `order_id=${mine[0]?.order_id}`)).data).toEqual([]);
      expect((await list(a.testKey, 'order_id=theirs-1')).data).toEqual([]);
    });
  });

  describe('GET /api/v1/payments: bad parameters', () => {
    it.each([
      ['per_page=0', 'per_page'],
      ['per_page=101', 'per_page'],
      ['per_page=abc', 'per_page'],
      ['per_page=1.5', 'per_page'],
      ['per_page=-1', 'per_page'],
      ['per_page=10&per_page=20', 'per_page'],
      ['page=0', 'page'],
      ['page=two', 'page'],
      ['page=-2', 'page'],
      ['status=paid', 'status'],
      ['status=', 'status'],
      ['status=pending&status=failed', 'status'],
      [`processor=${'p'.repeat(51)}`, 'processor'],
      ['processor=', 'processor'],
      [`order_id=${'o'.repeat(256)}`, 'order_id'],
      [`customer_id=${'c'.repeat(256)}`, 'customer_id'],
      ['customer_id=', 'customer_id'],
      ['order_id=a%00b', 'order_id'],
      ['processor=sand%07box', 'processor'],
      ['from=2026-13-01', 'from'],
      ['from=2026-02-30', 'from'],
      ['from=21-11-2026', 'from'],
      ['from=2026-1-5', 'from'],
      ['from=yesterday', 'from'],
      ['from=2026-11-21T00:00:00Z', 'from'],
      ['to=2026-00-10', 'to'],
      ['to=2026-11-31', 'to'],
      ['from=2026-11-22&to=2026-11-21', 'to'],
    ])('answers 422 validation_failed to %s', async (query, field) => {
      const m = await t.merchant();
      const res = await t.call('GET', `/api/v1/payments?${query}`, { key: m.testKey });
      const body = expectError(res, 422, 'validation_failed', ['errors']);
      const errors = body.errors as Record<string, string[]>;
      expect(Object.keys(errors)).toEqual([field]);
      expect(errors[field]?.length).toBeGreaterThan(0);
    });

    it('reports every bad parameter at once', async () => {
      const m = await t.merchant();
      const res = await t.call('GET', '/api/v1/payments?per_page=500&status=paid&from=never', { key: m.testKey });
      const body = expectError(res, 422, 'validation_failed', ['errors']);
      expect(Object.keys(body.errors as Json).sort()).toEqual(['from', 'per_page', 'status']);
    });

    it('accepts the bounds per_page=1, per_page=100 and a leap day', async () => {
      const m = await t.merchant();
      for (const query of ['per_page=1', 'per_page=100', 'from=2028-02-29', 'to=2028-02-29', 'page=1000000']) {
        const res = await t.call('GET', `/api/v1/payments?${query}`, { key: m.testKey });
        expect(res.status, `${query}: ${res.text}`).toBe(200);
      }
    });
  });
});
