/**
 * The WooCommerce StorePlatform against a fake WooCommerce store over real HTTP: every method, the
 * wc/v3 payloads it sends, OAuth 1.0a signatures checked by the store, and how failures are reported.
 */
import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo, LookupFunction } from 'node:net';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { refundedAmd, wholeAmd } from '../../../connector/platforms/money.js';
import { PlatformError, type StorePlatform } from '../../../connector/platforms/platform.js';
import { createGuardedAgents } from '../../../gateway/outbound/guarded-agents.js';
import { MAX_STORE_ANSWER_BYTES } from '../../../plugins/woocommerce/rest-client.js';
import { errorDataStatus, errorSchema, formatAmd } from '../../../plugins/woocommerce/wire.js';
import { createWooCommercePlatform } from '../../../plugins/woocommerce/woocommerce-platform.js';
import { type FakeKeys, type FakeWooCommerce, startFakeWooCommerce } from '../../support/fake-woocommerce.js';
import { freePort } from '../../support/ports.js';

/** The fake store listens on 127.0.0.1: these tests open its API as on a development machine. */
const loopbackAgents = createGuardedAgents({ allowPrivate: true });
afterAll(() => loopbackAgents.destroy());

let fake: FakeWooCommerce;
let keys: FakeKeys;
let platform: StorePlatform;

beforeEach(async () => {
  fake = await startFakeWooCommerce();
  keys = fake.issueKeys();
  platform = createWooCommercePlatform({
    storeUrl: fake.url,
    consumerKey: keys.consumerKey,
    consumerSecret: keys.consumerSecret,
    agents: loopbackAgents,
  });
});

afterEach(async () => {
  await fake.close();
});

/** The rejection of a call, which must be a PlatformError. */
async function platformError(call: Promise<unknown>): Promise<PlatformError> {
  const error = await call.then(
    () => null,
    (reason: unknown) => reason,
  );
  expect(error).toBeInstanceOf(PlatformError);
  return error as PlatformError;
}

function expectNoCredentials(error: PlatformError): void {
  expect(error.message).not.toContain(keys.consumerKey);
  expect(error.message).not.toContain(keys.consumerSecret);
  expect(JSON.stringify(error)).not.toContain(keys.consumerSecret);
}

function paidWith(uuid: string) {
  return { uuid, rrn: '412345678901', amount: 1500, currency: 'AMD', processor: 'sandbox', sandbox: true };
}

describe('money helpers', () => {
  it('reads whole AMD and refuses fractions', () => {
    expect(wholeAmd('1500.00')).toBe(1500);
    expect(wholeAmd('1500')).toBe(1500);
    expect(wholeAmd('0.00')).toBe(0);
    expect(wholeAmd('1500.50')).toBeNull();
    expect(wholeAmd('1500.001')).toBeNull();
    expect(wholeAmd('-10.00')).toBeNull();
    expect(wholeAmd('abc')).toBeNull();
  });

  it('writes whole AMD as WooCommerce money', () => {
    expect(formatAmd(500)).toBe('500.00');
    expect(formatAmd(0)).toBe('0.00');
    expect(() => formatAmd(1.5)).toThrow(RangeError);
    expect(() => formatAmd(-1)).toThrow(RangeError);
  });

  it('sums negative refund totals, rounding up', () => {
    expect(refundedAmd([])).toBe(0);
    expect(refundedAmd([{ total: '-500.00' }, { total: '-200.00' }])).toBe(700);
    expect(refundedAmd([{ total: '-500.00' }, { total: '-0.50' }])).toBe(501);
    expect(refundedAmd([{ total: '-0.25' }, { total: '-0.75' }])).toBe(1);
  });
});

describe('the fake store', () => {
  it('answers orders with every top-level key of the documented order', () => {
    const order = fake.addOrder({ total: '1500.00' });
    expect(Object.keys(order)).toEqual([
      'id',
      'parent_id',
      'number',
      'order_key',
      'created_via',
      'version',
      'status',
      'currency',
      'date_created',
      'date_created_gmt',
      'date_modified',
      'date_modified_gmt',
      'discount_total',
      'discount_tax',
      'shipping_total',
      'shipping_tax',
      'cart_tax',
      'total',
      'total_tax',
      'prices_include_tax',
      'customer_id',
      'customer_ip_address',
      'customer_user_agent',
      'customer_note',
      'billing',
      'shipping',
      'payment_method',
      'payment_method_title',
      'transaction_id',
      'date_paid',
      'date_paid_gmt',
      'date_completed',
      'date_completed_gmt',
      'cart_hash',
      'meta_data',
      'line_items',
      'tax_lines',
      'shipping_lines',
      'fee_lines',
      'coupon_lines',
      'refunds',
      '_links',
    ]);
  });

  it('writes its own notes as "WooCommerce", as WC_Order::add_order_note does', async () => {
    const order = fake.addOrder({ total: '1500.00' });
    await platform.markPaid(String(order.id), paidWith(randomUUID()));
    const notes = fake.notes(order.id);
    expect(notes.map((note) => note.author)).toEqual(['WooCommerce', 'WooCommerce']);
    expect(notes[0]?.note).toBe('Order status changed from Pending payment to Processing.');
  });

  it('marks a refund made in the admin through the gateway as refunded_payment, a manual one not', () => {
    const order = fake.addOrder({ total: '1500.00', status: 'processing', date_paid_gmt: '2024-05-01T10:05:00' });
    expect(fake.adminRefund(order.id, { amount: '100.00' }).refunded_payment).toBe(true);
    expect(fake.adminRefund(order.id, { amount: '100.00', manual: true }).refunded_payment).toBe(false);
  });

  it('refuses a request without OAuth parameters as WooCommerce does', async () => {
    const order = fake.addOrder({ total: '1500.00' });
    const answer = await fetch(`${fake.url}/wp-json/wc/v3/orders/${order.id}`);
    expect(answer.status).toBe(401);
    expect(await answer.json()).toEqual({
      code: 'woocommerce_rest_cannot_view',
      message: 'Sorry, you cannot view this resource.',
      data: { status: 401 },
    });
  });
});

describe('getOrder', () => {
  it('reads an order through a signed GET orders/{id}', async () => {
    const order = fake.addOrder(
      {
        total: '1500.00',
        billing: { first_name: 'Anahit', last_name: 'Petrosyan', email: 'anahit@example.am' },
      },
      '2024-05-01T10:00:00Z',
    );
    expect(await platform.getOrder(String(order.id))).toEqual({
      id: String(order.id),
      number: String(order.id),
      status: 'pending',
      paid: false,
      transactionId: null,
      paymentMethod: 'armenian_gateway',
      amount: 1500,
      amountText: '1500.00',
      currency: 'AMD',
      refundedAmount: 0,
      createdAt: '2024-05-01T10:00:00Z',
      customerEmail: 'anahit@example.am',
      customerName: 'Anahit Petrosyan',
    });
    // The store's own clock is +04:00: the GMT field is the one read.
    expect(order.date_created).toBe('2024-05-01T14:00:00');
    expect(fake.requests.map(({ method, route, status }) => ({ method, route, status }))).toEqual([
      { method: 'GET', route: `orders/${order.id}`, status: 200 },
    ]);
  });

  it('reads paid state, transaction id and refunds', async () => {
    const uuid = randomUUID();
    const order = fake.addOrder({
      total: '2000.00',
      status: 'processing',
      transaction_id: uuid,
      date_paid_gmt: '2024-05-01T10:05:00',
      refunds: [
        { id: 901, reason: '', total: '-500.00' },
        { id: 902, reason: 'Goodwill', total: '-0.50' },
      ],
      billing: { first_name: '', last_name: '', email: '' },
    });
    const read = await platform.getOrder(String(order.id));
    expect(read).toMatchObject({
      status: 'processing',
      paid: true,
      transactionId: uuid,
      refundedAmount: 501,
      customerEmail: null,
      customerName: null,
    });
  });

  it('reports a fractional total as amount null', async () => {
    const order = fake.addOrder({ total: '1500.50' });
    expect(await platform.getOrder(String(order.id))).toMatchObject({ amount: null, amountText: '1500.50' });
  });

  it('answers null for an order the store does not have', async () => {
    expect(await platform.getOrder('424242')).toBeNull();
    expect(fake.requests).toHaveLength(1);
    expect(fake.requests[0]?.status).toBe(404);
  });

  it('answers null without asking for an id that cannot be a WooCommerce order', async () => {
    expect(await platform.getOrder('12/notes')).toBeNull();
    expect(await platform.getOrder('abc')).toBeNull();
    expect(fake.requests).toHaveLength(0);
  });

  it('does not take a 404 that is not WooCommerce as a missing order', async () => {
    const elsewhere = createWooCommercePlatform({
      storeUrl: `${fake.url}/not-wordpress`,
      consumerKey: keys.consumerKey,
      consumerSecret: keys.consumerSecret,
      agents: loopbackAgents,
    });
    const error = await platformError(elsewhere.getOrder('100'));
    expect(error.retryable).toBe(false);
    expect(error.status).toBe(404);
  });
});

describe('listOrders', () => {
  it('follows every page and keeps our orders created in [from, to)', async () => {
    const from = Date.parse('2024-05-01T00:00:00Z');
    const at = (seconds: number) => new Date(from + seconds * 1000).toISOString();
    fake.addOrder({ total: '100.00' }, at(-1)); // just before the range
    const ours: number[] = [];
    for (let i = 0; i < 230; i += 1) ours.push(fake.addOrder({ total: '1000.00' }, at(i)).id);
    for (let i = 0; i < 20; i += 1) fake.addOrder({ total: '1000.00', payment_method: 'bacs' }, at(i));
    fake.addOrder({ total: '100.00' }, at(3600)); // exactly `to`: outside

    const listed = await platform.listOrders({ from: at(0), to: at(3600) }, 'armenian_gateway');

    expect(listed.map((order) => Number(order.id))).toEqual(ours);
    expect(listed.every((order) => order.paymentMethod === 'armenian_gateway')).toBe(true);
    const pages = fake.requests.filter((request) => request.route === 'orders');
    expect(pages.map((request) => request.query)).toEqual(
      [1, 2, 3].map((page) => ({
        after: '2024-04-30T23:59:59',
        before: '2024-05-01T01:00:00',
        dates_are_gmt: 'true',
        order: 'asc',
        orderby: 'date',
        page: String(page),
        per_page: '100',
      })),
    );
    expect(fake.requests).toHaveLength(3);
  });

  it('leaves out block checkout drafts, which GET orders lists with the placed orders', async () => {
    const from = '2024-05-01T00:00:00Z';
    const placed = fake.addOrder({ total: '1000.00' }, '2024-05-01T00:00:10Z');
    const draft = fake.addOrder({ total: '1000.00', status: 'checkout-draft' }, '2024-05-01T00:00:20Z');
    const listed = await platform.listOrders({ from, to: '2024-05-01T01:00:00Z' }, 'armenian_gateway');
    expect(listed.map((order) => order.id)).toEqual([String(placed.id)]);
    // The store did answer the draft: the driver is what leaves it out.
    const answered = fake.requests[0]?.answer as { id: number }[];
    expect(answered.map((order) => order.id)).toEqual([placed.id, draft.id]);
  });

  it('answers an empty list for a range without orders', async () => {
    fake.addOrder({ total: '100.00' }, '2024-01-01T00:00:00Z');
    expect(await platform.listOrders({ from: '2024-05-01T00:00:00Z', to: '2024-05-02T00:00:00Z' }, 'x')).toEqual([]);
    expect(fake.requests).toHaveLength(1);
  });
});

describe('markPaid', () => {
  it('sets the order paid with the payment uuid and leaves one note, once', async () => {
    const order = fake.addOrder({ total: '1500.00' });
    const uuid = randomUUID();

    await platform.markPaid(String(order.id), paidWith(uuid));
    await platform.markPaid(String(order.id), paidWith(uuid));

    const puts = fake.requests.filter((request) => request.method === 'PUT');
    expect(puts).toHaveLength(1);
    expect(puts[0]?.route).toBe(`orders/${order.id}`);
    expect(puts[0]?.body).toEqual({ set_paid: true, transaction_id: uuid });
    const posted = fake.requests.filter((request) => request.method === 'POST');
    expect(posted).toHaveLength(1);
    expect(posted[0]?.route).toBe(`orders/${order.id}/notes`);
    expect(posted[0]?.body).toEqual({
      note: `Paid with the sandbox (a test payment: no money moved). Gateway payment ${uuid}, RRN 412345678901.`,
      customer_note: false,
    });
    expect(fake.order(order.id)).toMatchObject({ status: 'processing', transaction_id: uuid });
    expect(fake.order(order.id)?.date_paid_gmt).not.toBeNull();
    expect(await platform.getOrder(String(order.id))).toMatchObject({ paid: true, transactionId: uuid });
  });

  it('writes a live payment without rrn as such', async () => {
    const order = fake.addOrder({ total: '1500.00' });
    const uuid = randomUUID();
    await platform.markPaid(String(order.id), { ...paidWith(uuid), processor: 'idram', sandbox: false, rrn: null });
    const ours = fake.notes(order.id).filter((note) => note.note.includes(uuid));
    expect(ours.map((note) => note.note)).toEqual([`Paid with idram (live). Gateway payment ${uuid}, RRN none.`]);
  });

  it('adds the missing note when an earlier attempt stopped after the update', async () => {
    const order = fake.addOrder({ total: '1500.00' });
    const uuid = randomUUID();
    fake.failNext(1, 500, { method: 'POST', route: /\/notes$/ });

    const error = await platformError(platform.markPaid(String(order.id), paidWith(uuid)));
    expect(error).toMatchObject({ retryable: true, status: 500 });
    expect(fake.order(order.id)?.transaction_id).toBe(uuid);
    expect(fake.notes(order.id).filter((note) => note.note.includes(uuid))).toHaveLength(0);

    await platform.markPaid(String(order.id), paidWith(uuid));
    expect(fake.requests.filter((request) => request.method === 'PUT')).toHaveLength(1);
    expect(fake.notes(order.id).filter((note) => note.note.includes(uuid))).toHaveLength(1);
  });

  it('leaves an order paid by something else as it is', async () => {
    const other = randomUUID();
    const order = fake.addOrder({
      total: '1500.00',
      status: 'processing',
      transaction_id: other,
      date_paid_gmt: '2024-05-01T10:05:00',
    });
    await platform.markPaid(String(order.id), paidWith(randomUUID()));
    expect(fake.requests.map((request) => request.method)).toEqual(['GET']);
    expect(fake.order(order.id)?.transaction_id).toBe(other);
  });

  it('reports an order WooCommerce will not take payment for', async () => {
    const order = fake.addOrder({ total: '1500.00', status: 'cancelled' });
    const error = await platformError(platform.markPaid(String(order.id), paidWith(randomUUID())));
    expect(error.retryable).toBe(false);
    expect(error.message).toContain('cancelled');
    expect(fake.order(order.id)?.date_paid_gmt).toBeNull();
    expect(fake.requests.filter((request) => request.route.endsWith('/notes'))).toHaveLength(0);
  });

  it('reports an order the store does not have', async () => {
    const error = await platformError(platform.markPaid('424242', paidWith(randomUUID())));
    expect(error).toMatchObject({ retryable: false, status: 404 });
  });
});

describe('addNote', () => {
  it('posts a private note', async () => {
    const order = fake.addOrder({ total: '1500.00' });
    await platform.addNote(String(order.id), 'Payment expired at the gateway.');
    expect(fake.requests.at(-1)).toMatchObject({
      method: 'POST',
      route: `orders/${order.id}/notes`,
      body: { note: 'Payment expired at the gateway.', customer_note: false },
      status: 201,
    });
    expect(fake.notes(order.id).at(-1)).toMatchObject({
      note: 'Payment expired at the gateway.',
      customer_note: false,
    });
  });

  it('reports an order the store does not have as not retryable', async () => {
    const error = await platformError(platform.addNote('424242', 'x'));
    expect(error).toMatchObject({ retryable: false, status: 404 });
  });
});

describe('recordRefund', () => {
  it('records the gateway refund without asking WooCommerce to refund money, once', async () => {
    const order = fake.addOrder({ total: '1500.00', status: 'processing', date_paid_gmt: '2024-05-01T10:05:00' });
    const uuid = randomUUID();

    const first = await platform.recordRefund(String(order.id), { uuid, amount: 500, reason: 'Damaged' });
    const again = await platform.recordRefund(String(order.id), { uuid, amount: 500, reason: 'Damaged' });

    const posts = fake.requests.filter((request) => request.method === 'POST');
    expect(posts).toHaveLength(1);
    expect(posts[0]?.route).toBe(`orders/${order.id}/refunds`);
    expect(posts[0]?.body).toEqual({
      amount: '500.00',
      reason: `Damaged (gateway refund ${uuid})`,
      api_refund: false,
      api_restock: false,
      meta_data: [{ key: '_gateway_refund_uuid', value: uuid }],
    });
    const stored = fake.refunds(order.id);
    expect(stored).toHaveLength(1);
    expect(first).toEqual({ id: String(stored[0]?.id) });
    expect(again).toEqual(first);
    expect(stored[0]?.refunded_payment).toBe(false);
    expect(fake.gatewayRefundRequests).toBe(0);
    expect(await platform.getOrder(String(order.id))).toMatchObject({ refundedAmount: 500, status: 'processing' });
  });

  it('names the gateway refund when there is no reason, and a full refund refunds the order', async () => {
    const order = fake.addOrder({ total: '1500.00', status: 'processing', date_paid_gmt: '2024-05-01T10:05:00' });
    const uuid = randomUUID();
    await platform.recordRefund(String(order.id), { uuid, amount: 1500, reason: null });
    expect(fake.refunds(order.id)[0]?.reason).toBe(`Refunded at the gateway (refund ${uuid})`);
    expect(await platform.getOrder(String(order.id))).toMatchObject({ refundedAmount: 1500, status: 'refunded' });
    expect(fake.gatewayRefundRequests).toBe(0);
  });

  it('counts refunds made in the store admin, and does not take them for a gateway refund', async () => {
    const order = fake.addOrder({ total: '1500.00', status: 'processing', date_paid_gmt: '2024-05-01T10:05:00' });
    const admin = fake.adminRefund(order.id, { amount: '300.00', reason: 'customer asked' });
    expect(await platform.getOrder(String(order.id))).toMatchObject({ refundedAmount: 300 });
    const recorded = await platform.recordRefund(String(order.id), { uuid: randomUUID(), amount: 200, reason: null });
    expect(recorded.id).not.toBe(String(admin.id));
    expect(fake.refunds(order.id)).toHaveLength(2);
    expect(await platform.getOrder(String(order.id))).toMatchObject({ refundedAmount: 500 });
  });

  it('reports a refund above what remains as refused by the store, not retryable', async () => {
    const order = fake.addOrder({ total: '1000.00', status: 'processing', date_paid_gmt: '2024-05-01T10:05:00' });
    const error = await platformError(
      platform.recordRefund(String(order.id), { uuid: randomUUID(), amount: 1500, reason: null }),
    );
    // The real store's answer: HTTP 500, `data` a bare number.
    expect(fake.requests.at(-1)).toMatchObject({
      method: 'POST',
      status: 500,
      answer: {
        code: 'woocommerce_rest_cannot_create_order_refund',
        message: 'Invalid refund amount.',
        data: 500,
      },
    });
    expect(error).toMatchObject({ status: 500, retryable: false });
    expect(error.message).toContain('woocommerce_rest_cannot_create_order_refund: Invalid refund amount.');
    expect(fake.refunds(order.id)).toEqual([]);
  });

  it('reports a refund for an order the store does not have as 404, though the refund list was 200 []', async () => {
    const error = await platformError(
      platform.recordRefund('424242', { uuid: randomUUID(), amount: 100, reason: null }),
    );
    expect(fake.requests.map((request) => [request.method, request.status, request.answer])).toEqual([
      ['GET', 200, []],
      ['POST', 500, { code: 'woocommerce_rest_invalid_order_id', message: 'Invalid order ID.', data: 404 }],
    ]);
    expect(error).toMatchObject({ status: 404, retryable: false });
  });
});

describe('WordPress error bodies', () => {
  it('reads the status from data.status or from a bare number', () => {
    const read = (body: unknown) => {
      const parsed = errorSchema.safeParse(body);
      return parsed.success ? errorDataStatus(parsed.data) : 'unparsed';
    };
    expect(
      read({ code: 'woocommerce_rest_shop_order_invalid_id', message: 'Invalid ID.', data: { status: 404 } }),
    ).toBe(404);
    expect(
      read({ code: 'woocommerce_rest_cannot_create_order_refund', message: 'Invalid refund amount.', data: 500 }),
    ).toBe(500);
    expect(read({ code: 'x', message: 'y', data: null })).toBeNull();
    expect(read({ code: 'x', message: 'y' })).toBeNull();
    expect(read({ code: 'x', message: 'y', data: 'text' })).toBe('unparsed');
  });

  it('keeps a 500 without a 4xx in its body retryable', async () => {
    fake.failNext(1, 500, { method: 'POST' });
    const order = fake.addOrder({ total: '1000.00', status: 'processing', date_paid_gmt: '2024-05-01T10:05:00' });
    const error = await platformError(
      platform.recordRefund(String(order.id), { uuid: randomUUID(), amount: 100, reason: null }),
    );
    expect(error).toMatchObject({ status: 500, retryable: true });
  });
});

describe('failures', () => {
  it('checks the OAuth signature: a wrong secret is refused, not retryable, and not in the message', async () => {
    const order = fake.addOrder({ total: '1500.00' });
    const wrongSecret = `cs_${'0'.repeat(40)}`;
    const impostor = createWooCommercePlatform({
      storeUrl: fake.url,
      consumerKey: keys.consumerKey,
      consumerSecret: wrongSecret,
      agents: loopbackAgents,
    });
    const error = await platformError(impostor.getOrder(String(order.id)));
    expect(error.retryable).toBe(false);
    expect(error.status).toBe(401);
    expect(error.message).toContain('woocommerce_rest_authentication_error');
    expect(error.message).toContain('Invalid signature - provided signature does not match.');
    expect(error.message).not.toContain(wrongSecret);
    expect(error.message).not.toContain(keys.consumerKey);
    expect(fake.requests.at(-1)?.status).toBe(401);
  });

  it('reports an unknown key and revoked keys as refused', async () => {
    const order = fake.addOrder({ total: '1500.00' });
    const unknown = createWooCommercePlatform({
      storeUrl: fake.url,
      consumerKey: `ck_${'1'.repeat(40)}`,
      consumerSecret: `cs_${'2'.repeat(40)}`,
      agents: loopbackAgents,
    });
    const refused = await platformError(unknown.getOrder(String(order.id)));
    expect(refused).toMatchObject({ retryable: false, status: 401 });
    expect(refused.message).toContain('Consumer key is invalid.');

    await platform.addNote(String(order.id), 'before revoking');
    fake.revokeKeys();
    const revoked = await platformError(platform.addNote(String(order.id), 'after revoking'));
    expect(revoked).toMatchObject({ retryable: false, status: 401 });
    expectNoCredentials(revoked);
  });

  it('reports a read-only key refused on writes', async () => {
    const readOnly = fake.issueKeys('read');
    const reader = createWooCommercePlatform({
      storeUrl: fake.url,
      consumerKey: readOnly.consumerKey,
      consumerSecret: readOnly.consumerSecret,
      agents: loopbackAgents,
    });
    const order = fake.addOrder({ total: '1500.00' });
    expect(await reader.getOrder(String(order.id))).not.toBeNull();
    const error = await platformError(reader.addNote(String(order.id), 'x'));
    expect(error).toMatchObject({ retryable: false, status: 401 });
    expect(error.message).toContain('does not have write permissions');
  });

  it.each([500, 503, 429])('reports %i as retryable', async (status) => {
    const order = fake.addOrder({ total: '1500.00' });
    fake.failNext(1, status);
    const error = await platformError(platform.getOrder(String(order.id)));
    expect(error).toMatchObject({ retryable: true, status });
    expectNoCredentials(error);
    expect(await platform.getOrder(String(order.id))).not.toBeNull();
  });

  it('reports 500 on a list page as retryable', async () => {
    fake.addOrder({ total: '100.00' }, '2024-05-01T00:00:00Z');
    fake.failNext(1, 500);
    const error = await platformError(
      platform.listOrders({ from: '2024-05-01T00:00:00Z', to: '2024-05-02T00:00:00Z' }, 'armenian_gateway'),
    );
    expect(error).toMatchObject({ retryable: true, status: 500 });
  });

  it('reports a store that does not listen as retryable', async () => {
    const port = await freePort();
    const closed = createWooCommercePlatform({
      storeUrl: `http://127.0.0.1:${port}`,
      consumerKey: keys.consumerKey,
      consumerSecret: keys.consumerSecret,
      agents: loopbackAgents,
    });
    const error = await platformError(closed.getOrder('100'));
    expect(error).toMatchObject({ retryable: true, status: null });
    expectNoCredentials(error);
  });

  it('reports a redirect instead of following it, without the query it carried', async () => {
    const moved = createServer((request, response) => {
      response.writeHead(301, { Location: `https://shop.example${request.url ?? '/'}` });
      response.end();
    });
    await new Promise<void>((resolve) => moved.listen(0, '127.0.0.1', resolve));
    try {
      const redirecting = createWooCommercePlatform({
        storeUrl: `http://127.0.0.1:${(moved.address() as AddressInfo).port}`,
        consumerKey: keys.consumerKey,
        consumerSecret: keys.consumerSecret,
        agents: loopbackAgents,
      });
      const error = await platformError(redirecting.getOrder('100'));
      expect(error).toMatchObject({ retryable: false, status: 301 });
      expect(error.message).toContain('https://shop.example/wp-json/wc/v3/orders/100');
      expectNoCredentials(error);
    } finally {
      await new Promise<void>((resolve) => moved.close(() => resolve()));
    }
  });

  it('stops reading an answer larger than the limit and reports it as not retryable', async () => {
    let sent = 0;
    const flood = createServer((_request, response) => {
      response.writeHead(200, { 'Content-Type': 'application/json' });
      const chunk = Buffer.alloc(64 * 1024, 0x20);
      const write = () => {
        while (sent <= MAX_STORE_ANSWER_BYTES * 2) {
          sent += chunk.length;
          if (!response.write(chunk)) return void response.once('drain', write);
        }
        response.end('{}');
      };
      response.on('error', () => undefined);
      write();
    });
    await new Promise<void>((resolve) => flood.listen(0, '127.0.0.1', resolve));
    try {
      const huge = createWooCommercePlatform({
        storeUrl: `http://127.0.0.1:${(flood.address() as AddressInfo).port}`,
        consumerKey: keys.consumerKey,
        consumerSecret: keys.consumerSecret,
        agents: loopbackAgents,
      });
      const error = await platformError(huge.getOrder('100'));
      expect(error).toMatchObject({ retryable: false, status: null });
      expect(error.message).toBe(`WooCommerce GET orders/100 answered more than ${MAX_STORE_ANSWER_BYTES} bytes`);
      // The connector stopped reading: the store could not write all it had.
      expect(sent).toBeLessThan(MAX_STORE_ANSWER_BYTES * 2);
    } finally {
      flood.closeAllConnections();
      await new Promise<void>((resolve) => flood.close(() => resolve()));
    }
  });

  it('reports a store that answers too late as retryable', async () => {
    const slow = createWooCommercePlatform({
      storeUrl: fake.url,
      consumerKey: keys.consumerKey,
      consumerSecret: keys.consumerSecret,
      timeoutMs: 100,
      agents: loopbackAgents,
    });
    const order = fake.addOrder({ total: '1500.00' });
    fake.delayNext(1, 400);
    const error = await platformError(slow.getOrder(String(order.id)));
    expect(error).toMatchObject({ retryable: true, status: null });
    expect(error.message).toContain('no answer within 100 ms');
    expectNoCredentials(error);
  });
});

describe('private networks', () => {
  /** Every name resolves to the fake store's address, 127.0.0.1. */
  const resolved: string[] = [];
  const toLoopback: LookupFunction = (hostname, options, callback) => {
    resolved.push(hostname);
    if (options.all === true) {
      (callback as unknown as (e: null, a: { address: string; family: number }[]) => void)(null, [
        { address: '127.0.0.1', family: 4 },
      ]);
    } else callback(null, '127.0.0.1', 4);
  };

  it.each([
    ['the store URL is 127.0.0.1', undefined, (url: string) => url],
    ['the store name resolves to 127.0.0.1', toLoopback, (url: string) => url.replace('127.0.0.1', 'shop.example')],
  ])('refuses every call when %s, and the store receives nothing', async (_case, lookup, storeUrl) => {
    const guarded = createGuardedAgents({ allowPrivate: false, ...(lookup ? { lookup } : {}) });
    try {
      const store = createWooCommercePlatform({
        storeUrl: storeUrl(fake.url),
        consumerKey: keys.consumerKey,
        consumerSecret: keys.consumerSecret,
        agents: guarded,
      });
      const order = fake.addOrder({ total: '1500.00' });
      await platformError(store.getOrder(String(order.id)));
      await platformError(store.addNote(String(order.id), 'note'));
      await platformError(store.markPaid(String(order.id), paidWith(randomUUID())));
      await platformError(store.listOrders({ from: '2024-05-01T00:00:00Z', to: '2024-05-02T00:00:00Z' }, 'x'));
      expect(fake.requests).toHaveLength(0);
      // A name was resolved by the guard (pinned there), not by the client on its own.
      if (lookup !== undefined) expect(resolved).toContain('shop.example');
    } finally {
      guarded.destroy();
    }
  });

  it('connects itself rather than through a proxy named in the environment', async () => {
    let proxied = 0;
    const proxy = createServer((_request, response) => {
      proxied += 1;
      response.writeHead(502).end();
    });
    await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
    const saved = { upper: process.env.HTTP_PROXY, lower: process.env.http_proxy };
    const proxyUrl = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
    process.env.HTTP_PROXY = proxyUrl;
    process.env.http_proxy = proxyUrl;
    try {
      const order = fake.addOrder({ total: '1500.00' });
      expect(await platform.getOrder(String(order.id))).toMatchObject({ id: String(order.id) });
      expect(proxied).toBe(0);
    } finally {
      for (const [name, value] of [
        ['HTTP_PROXY', saved.upper],
        ['http_proxy', saved.lower],
      ] as const) {
        if (value === undefined) delete process.env[name];
        else process.env[name] = value;
      }
      await new Promise<void>((resolve) => proxy.close(() => resolve()));
    }
  });
});
