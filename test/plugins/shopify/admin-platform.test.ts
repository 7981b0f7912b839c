/**
 * The Shopify StorePlatform (manual-payment bridge) against a fake Admin GraphQL API over real HTTP:
 * every method, the operations it sends, idempotent markPaid and recordRefund, paging, throttling and
 * credential failures.
 */
import { readFileSync } from 'node:fs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { PlatformError, type StorePlatform } from '../../../connector/platforms/platform.js';
import { refundNeedsIdempotencyKey } from '../../../plugins/shopify/admin-documents.js';
import { appendNoteLine, GATEWAY_REFUND_TAG, MAX_NOTE_LENGTH } from '../../../plugins/shopify/admin-notes.js';
import { createShopifyAdminPlatform } from '../../../plugins/shopify/admin-platform.js';
import {
  graphqlAnswerSchema,
  isPaidStatus,
  markPaidAnswerSchema,
  metafieldsSetAnswerSchema,
  orderAnswerSchema,
  orderPageSchema,
  refundCreateAnswerSchema,
  shopAnswerSchema,
} from '../../../plugins/shopify/admin-wire.js';
import { shopifyDriver } from '../../../plugins/shopify/driver.js';
import { throttleWaitMs } from '../../../plugins/shopify/graphql.js';
import { type FakeShopifyAdmin, startFakeShopifyAdmin } from '../../support/fake-shopify-admin.js';

const GATEWAY = 'Pay by card (Connector)';
const UUID = '7b0f7d4e-4f3c-4c1e-9d7a-2f1a4d9f3b21';
const REFUND_UUID = '3f1c2a5e-8d1b-4a77-b0e2-6c5d4e3f2a10';

let fake: FakeShopifyAdmin;
let platform: StorePlatform;
let sleeps: number[];

function open(apiVersion = '2026-04', token?: string): StorePlatform {
  return createShopifyAdminPlatform({
    shop: fake.shop,
    accessToken: async () => token ?? fake.accessToken,
    apiVersion,
    fetch: fake.fetch,
    gatewayName: GATEWAY,
    sleep: async (ms) => {
      sleeps.push(ms);
    },
  });
}

beforeEach(async () => {
  fake = await startFakeShopifyAdmin();
  sleeps = [];
  platform = open();
});

afterEach(async () => {
  await fake.close();
});

async function platformError(call: Promise<unknown>): Promise<PlatformError> {
  const error = await call.then(
    () => null,
    (reason: unknown) => reason,
  );
  expect(error).toBeInstanceOf(PlatformError);
  return error as PlatformError;
}

function paidWith(uuid = UUID) {
  return { uuid, rrn: '412345678901', amount: 12000, currency: 'AMD', processor: 'sandbox', sandbox: true };
}

function fixture(name: string): unknown {
  return JSON.parse(readFileSync(new URL(`../../fixtures/shopify/admin/${name}`, import.meta.url), 'utf8'));
}

describe('wire shapes', () => {
  it('reads the documented answers', () => {
    const data = (name: string) => graphqlAnswerSchema.parse(fixture(name)).data;
    expect(orderAnswerSchema.parse(data('order.json')).order?.name).toBe('#1001');
    expect(orderAnswerSchema.parse(data('order-missing.json')).order).toBeNull();
    expect(orderPageSchema.parse(data('orders-page.json')).orders.pageInfo.hasNextPage).toBe(true);
    expect(markPaidAnswerSchema.parse(data('order-mark-as-paid.json')).orderMarkAsPaid?.userErrors).toEqual([]);
    expect(
      markPaidAnswerSchema.parse(data('order-mark-as-paid-refused.json')).orderMarkAsPaid?.userErrors,
    ).toHaveLength(1);
    expect(metafieldsSetAnswerSchema.parse(data('metafields-set.json')).metafieldsSet?.userErrors).toEqual([]);
    expect(refundCreateAnswerSchema.parse(data('refund-create.json')).refundCreate?.refund?.legacyResourceId).toBe(
      '929361465',
    );
    expect(shopAnswerSchema.parse(data('shop.json')).shop.name).toBe('Example Shop');
    expect(typeof graphqlAnswerSchema.parse(fixture('unauthorized.json')).errors).toBe('string');
  });

  it('decides paid from displayFinancialStatus', () => {
    for (const status of ['PAID', 'PARTIALLY_REFUNDED', 'REFUNDED']) expect(isPaidStatus(status)).toBe(true);
    for (const status of ['PENDING', 'AUTHORIZED', 'PARTIALLY_PAID', 'EXPIRED', 'VOIDED', 'SOMETHING_NEW', null]) {
      expect(isPaidStatus(status)).toBe(false);
    }
  });

  it('waits for the bucket to refill as the throttled answer says', () => {
    const answer = graphqlAnswerSchema.parse(fixture('throttled.json'));
    // 752 requested, 666 available, 50 restored a second: 86 / 50 s.
    expect(throttleWaitMs(answer.extensions?.cost)).toBe(1720);
    expect(throttleWaitMs(undefined)).toBe(1000);
  });

  it('sends the idempotency directive from 2026-01', () => {
    expect(refundNeedsIdempotencyKey('2025-10')).toBe(false);
    expect(refundNeedsIdempotencyKey('2026-01')).toBe(true);
    expect(refundNeedsIdempotencyKey('2026-04')).toBe(true);
    expect(refundNeedsIdempotencyKey('unstable')).toBe(true);
  });

  it('appends note lines and stays under the limit, dropping the oldest', () => {
    expect(appendNoteLine(null, 'one')).toBe('one');
    expect(appendNoteLine('Leave at the door', 'two\nlines')).toBe('Leave at the door\ntwo lines');
    const long = Array.from({ length: 60 }, (_, index) => `${index}`.padEnd(99, 'x')).join('\n');
    const appended = appendNoteLine(long, 'newest');
    expect(appended.length).toBeLessThanOrEqual(MAX_NOTE_LENGTH);
    expect(appended.endsWith('\nnewest')).toBe(true);
    expect(appendNoteLine(null, 'y'.repeat(6000))).toHaveLength(MAX_NOTE_LENGTH);
  });
});

describe('getOrder', () => {
  it('maps a Shopify order to the store order', async () => {
    const order = fake.addOrder({ total: '12000.00', note: 'Leave at the door' });
    const read = await platform.getOrder(String(order.id));
    expect(read).toEqual({
      id: String(order.id),
      number: order.name.slice(1),
      status: 'pending',
      paid: false,
      transactionId: null,
      paymentMethod: GATEWAY,
      amount: 12000,
      amountText: '12000.0',
      currency: 'AMD',
      refundedAmount: 0,
      createdAt: '2026-05-01T10:00:00Z',
      customerEmail: 'bob.norman@mail.example.com',
      customerName: 'Bob Norman',
    });
    const request = fake.requests.at(-1);
    expect(request?.path).toBe('/admin/api/2026-04/graphql.json');
    expect(request?.operationName).toBe('OrderForConnector');
    expect(request?.variables).toEqual({ id: `gid://shopify/Order/${order.id}` });
  });

  it('answers null for an order Shopify does not have, or an id that is not one', async () => {
    expect(await platform.getOrder('999')).toBeNull();
    const before = fake.requests.length;
    expect(await platform.getOrder('gid://shopify/Order/1')).toBeNull();
    expect(await platform.getOrder('12a')).toBeNull();
    expect(fake.requests.length).toBe(before);
  });

  it('reports a fractional total as amount null', async () => {
    const order = fake.addOrder({ total: '1500.50' });
    const read = await platform.getOrder(String(order.id));
    expect(read?.amount).toBeNull();
    expect(read?.amountText).toBe('1500.5');
  });

  it('names another payment method when the order is not ours', async () => {
    const order = fake.addOrder({ gateway: 'Cash on Delivery (COD)', email: null, firstName: null, lastName: null });
    const read = await platform.getOrder(String(order.id));
    expect(read?.paymentMethod).toBe('Cash on Delivery (COD)');
    expect(read?.customerEmail).toBeNull();
    expect(read?.customerName).toBeNull();
  });
});

describe('listOrders', () => {
  it('follows every page and keeps only ours in [from, to)', async () => {
    const ours: number[] = [];
    for (let index = 0; index < 230; index += 1) {
      const createdAt = new Date(Date.parse('2026-05-01T00:00:00Z') + index * 60_000).toISOString();
      const order = fake.addOrder({ createdAt, gateway: index % 10 === 0 ? 'Bank Deposit' : GATEWAY });
      if (index % 10 !== 0) ours.push(order.id);
    }
    fake.addOrder({ createdAt: '2026-04-30T23:59:59Z' });
    fake.addOrder({ createdAt: '2026-05-02T00:00:00Z' });
    const listed = await platform.listOrders({ from: '2026-05-01T00:00:00Z', to: '2026-05-02T00:00:00Z' }, GATEWAY);
    expect(listed.map((order) => Number(order.id))).toEqual(ours);
    const pages = fake.requests.filter((request) => request.operationName === 'OrdersForConnector');
    expect(pages).toHaveLength(3);
    expect(pages[0]?.variables).toEqual({
      first: 100,
      after: null,
      query: "created_at:>='2026-05-01T00:00:00Z' created_at:<'2026-05-02T00:00:00Z'",
    });
    expect(pages[1]?.variables.after).toEqual(expect.any(String));
  });

  it('keeps the exact bounds when they are not whole seconds', async () => {
    const inside = fake.addOrder({ createdAt: '2026-05-01T10:00:01Z' });
    fake.addOrder({ createdAt: '2026-05-01T10:00:00Z' });
    const listed = await platform.listOrders(
      { from: '2026-05-01T10:00:00.500Z', to: '2026-05-01T10:00:01.500Z' },
      GATEWAY,
    );
    expect(listed.map((order) => order.id)).toEqual([String(inside.id)]);
  });

  it('answers nothing for an empty range without calling Shopify', async () => {
    expect(await platform.listOrders({ from: '2026-05-02T00:00:00Z', to: '2026-05-01T00:00:00Z' }, GATEWAY)).toEqual(
      [],
    );
    expect(fake.requests).toHaveLength(0);
  });
});

describe('markPaid', () => {
  it('sets the payment uuid, marks the order paid and leaves a note', async () => {
    const order = fake.addOrder({ note: 'Leave at the door' });
    await platform.markPaid(String(order.id), paidWith());
    expect(fake.financialStatus(order)).toBe('PAID');
    expect(order.metafields.get('gateway.payment_uuid')).toBe(UUID);
    expect(order.note).toBe(
      `Leave at the door\nPaid with the sandbox (a test payment: no money moved). Gateway payment ${UUID}, RRN 412345678901.`,
    );
    const read = await platform.getOrder(String(order.id));
    expect(read).toMatchObject({ paid: true, status: 'paid', transactionId: UUID });
    expect(fake.operations()).toEqual([
      'OrderForConnector',
      'SetGatewayPaymentUuid',
      'MarkOrderPaid',
      'OrderForConnector',
      'UpdateOrderNote',
      'OrderForConnector',
    ]);
  });

  it('is safe to repeat: one sale, one note', async () => {
    const order = fake.addOrder();
    await platform.markPaid(String(order.id), paidWith());
    await platform.markPaid(String(order.id), paidWith());
    expect(order.transactions.filter((transaction) => transaction.kind === 'SALE')).toHaveLength(1);
    expect(order.note?.split(UUID)).toHaveLength(2);
    expect(fake.operations().filter((name) => name === 'MarkOrderPaid')).toHaveLength(1);
  });

  it('marks paid once when two deliveries race', async () => {
    const order = fake.addOrder();
    await Promise.all([
      platform.markPaid(String(order.id), paidWith()),
      platform.markPaid(String(order.id), paidWith()),
    ]);
    expect(order.transactions.filter((transaction) => transaction.kind === 'SALE')).toHaveLength(1);
    expect(fake.financialStatus(order)).toBe('PAID');
    expect(order.note).toContain(`Gateway payment ${UUID}`);
  });

  it('completes an attempt that stopped after the uuid was set', async () => {
    const order = fake.addOrder();
    order.metafields.set('gateway.payment_uuid', UUID);
    await platform.markPaid(String(order.id), paidWith());
    expect(fake.financialStatus(order)).toBe('PAID');
    expect(fake.operations()).not.toContain('SetGatewayPaymentUuid');
  });

  it('adds the missing note when the order was marked paid but the note was lost', async () => {
    const order = fake.addOrder({ paid: true });
    order.metafields.set('gateway.payment_uuid', UUID);
    await platform.markPaid(String(order.id), paidWith());
    expect(order.note).toContain(`Gateway payment ${UUID}`);
    expect(fake.operations()).not.toContain('MarkOrderPaid');
  });

  it('leaves an order paid by something else as it is', async () => {
    const order = fake.addOrder({ paid: true });
    await platform.markPaid(String(order.id), paidWith());
    expect(order.metafields.size).toBe(0);
    expect(order.note).toBeNull();
    expect(fake.operations()).toEqual(['OrderForConnector']);
  });

  it("reports Shopify's refusal as not retryable", async () => {
    const order = fake.addOrder({ total: '0.00' });
    const error = await platformError(platform.markPaid(String(order.id), paidWith()));
    expect(error.retryable).toBe(false);
    expect(error.message).toContain('Order cannot be marked as paid.');
  });

  it('refuses an order Shopify does not have', async () => {
    const error = await platformError(platform.markPaid('999', paidWith()));
    expect(error).toMatchObject({ retryable: false, status: 404 });
  });
});

describe('addNote', () => {
  it('appends a line to the order note', async () => {
    const order = fake.addOrder({ note: 'Gift wrap please' });
    await platform.addNote(String(order.id), 'The gateway payment expired.');
    await platform.addNote(String(order.id), 'Reconciliation: amounts differ.');
    expect(order.note).toBe('Gift wrap please\nThe gateway payment expired.\nReconciliation: amounts differ.');
  });

  it('keeps a long note under the limit Shopify takes', async () => {
    const order = fake.addOrder({ note: 'z'.repeat(4990) });
    await platform.addNote(String(order.id), 'The gateway payment expired.');
    expect(order.note).toBe('The gateway payment expired.');
  });
});

describe('recordRefund', () => {
  async function paidOrder(total = '12000.00') {
    const order = fake.addOrder({ total });
    await platform.markPaid(String(order.id), paidWith());
    fake.requests.length = 0;
    return order;
  }

  it('records a refund on the manual gateway without notifying, with the idempotency key', async () => {
    const order = await paidOrder();
    const recorded = await platform.recordRefund(String(order.id), {
      uuid: REFUND_UUID,
      amount: 5000,
      reason: 'Damaged',
    });
    const refund = order.refunds[0];
    expect(recorded).toEqual({ id: String(refund?.id) });
    expect(refund?.note).toBe(`Damaged (gateway refund ${REFUND_UUID})`);
    expect(fake.financialStatus(order)).toBe('PARTIALLY_REFUNDED');
    expect(fake.moneyMoved.cents).toBe(0);
    const sent = fake.requests.find((request) => request.operationName === 'RecordGatewayRefund');
    expect(sent?.query).toContain('@idempotent(key: $idempotencyKey)');
    expect(sent?.variables.idempotencyKey).toBe(`gateway-refund-${REFUND_UUID}`);
    const sale = order.transactions.find((transaction) => transaction.kind === 'SALE');
    expect(sent?.variables.input).toEqual({
      orderId: `gid://shopify/Order/${order.id}`,
      notify: false,
      note: `Damaged (gateway refund ${REFUND_UUID})`,
      transactions: [
        {
          orderId: `gid://shopify/Order/${order.id}`,
          parentId: `gid://shopify/OrderTransaction/${sale?.id}`,
          kind: 'REFUND',
          gateway: GATEWAY,
          amount: '5000.00',
        },
      ],
    });
    expect((await platform.getOrder(String(order.id)))?.refundedAmount).toBe(5000);
  });

  it('answers the refund recorded before instead of a second one', async () => {
    const order = await paidOrder();
    const first = await platform.recordRefund(String(order.id), { uuid: REFUND_UUID, amount: 5000, reason: null });
    const again = await platform.recordRefund(String(order.id), { uuid: REFUND_UUID, amount: 5000, reason: null });
    expect(again).toEqual(first);
    expect(order.refunds).toHaveLength(1);
  });

  it('sends no directive where Shopify answers with a version without it', async () => {
    await fake.close();
    fake = await startFakeShopifyAdmin({ versions: ['2025-10', '2026-01'] });
    platform = open('2025-10');
    const order = await paidOrder();
    await platform.recordRefund(String(order.id), { uuid: REFUND_UUID, amount: 12000, reason: null });
    const sent = fake.requests.find((request) => request.operationName === 'RecordGatewayRefund');
    expect(sent?.query).not.toContain('@idempotent');
    expect(sent?.servedVersion).toBe('2025-10');
    expect(fake.financialStatus(order)).toBe('REFUNDED');
  });

  it('decides the directive from the version Shopify answers with, not the one asked for', async () => {
    // 2025-10 is past its support: Shopify serves the oldest supported version, 2026-04 here, which
    // requires @idempotent on refundCreate.
    await fake.close();
    fake = await startFakeShopifyAdmin({ versions: ['2026-04', '2026-07'] });
    const served: string[][] = [];
    platform = createShopifyAdminPlatform({
      shop: fake.shop,
      accessToken: async () => fake.accessToken,
      apiVersion: '2025-10',
      fetch: fake.fetch,
      gatewayName: GATEWAY,
      onVersionServed: (requested, answered) => served.push([requested, answered]),
    });
    expect(refundNeedsIdempotencyKey('2025-10')).toBe(false);
    const order = await paidOrder();
    const recorded = await platform.recordRefund(String(order.id), { uuid: REFUND_UUID, amount: 12000, reason: null });
    const sent = fake.requests.find((request) => request.operationName === 'RecordGatewayRefund');
    expect(sent?.path).toBe('/admin/api/2025-10/graphql.json');
    expect(sent?.servedVersion).toBe('2026-04');
    expect(sent?.query).toContain('@idempotent(key: $idempotencyKey)');
    expect(sent?.variables.idempotencyKey).toBe(`gateway-refund-${REFUND_UUID}`);
    expect(order.refunds).toHaveLength(1);
    expect(recorded).toEqual({ id: String(order.refunds[0]?.id) });
    expect(served).toEqual([['2025-10', '2026-04']]);
  });

  it('reports a refund above the refundable amount as not retryable', async () => {
    const order = await paidOrder();
    const error = await platformError(
      platform.recordRefund(String(order.id), { uuid: REFUND_UUID, amount: 13000, reason: null }),
    );
    expect(error.retryable).toBe(false);
    expect(error.message).toContain('greater than net payment received');
  });

  it('writes a note and a tag instead when the payment was not on a manual gateway', async () => {
    const order = fake.addOrder({ manual: false, paid: true });
    const recorded = await platform.recordRefund(String(order.id), { uuid: REFUND_UUID, amount: 5000, reason: null });
    expect(recorded).toEqual({ id: `note:${REFUND_UUID}` });
    expect(order.refunds).toHaveLength(0);
    expect(fake.moneyMoved.cents).toBe(0);
    expect(order.tags).toEqual([GATEWAY_REFUND_TAG]);
    expect(order.note).toContain(`gateway refund ${REFUND_UUID}`);
    const again = await platform.recordRefund(String(order.id), { uuid: REFUND_UUID, amount: 5000, reason: null });
    expect(again).toEqual(recorded);
    expect(order.note?.split(REFUND_UUID)).toHaveLength(2);
  });

  it('refuses amounts that are not whole positive AMD, and missing orders', async () => {
    await expect(platform.recordRefund('1', { uuid: REFUND_UUID, amount: 0, reason: null })).rejects.toThrow(
      RangeError,
    );
    const error = await platformError(platform.recordRefund('999', { uuid: REFUND_UUID, amount: 10, reason: null }));
    expect(error).toMatchObject({ status: 404, retryable: false });
  });
});

describe('checkAccess and failures', () => {
  it('passes with the right token', async () => {
    await platform.checkAccess();
    expect(fake.requests[0]).toMatchObject({ operationName: 'ShopAccess', token: fake.accessToken });
  });

  it('reports a refused token as 401, not retryable, without the token', async () => {
    const wrong = 'shpat_wrong_token_value_000000000000';
    const error = await platformError(open('2026-04', wrong).checkAccess());
    expect(error).toMatchObject({ status: 401, retryable: false });
    expect(error.message).toContain('Invalid API key or access token');
    expect(error.message).not.toContain(wrong);
    expect(JSON.stringify(error)).not.toContain(wrong);
  });

  it('reports an API version Shopify does not serve as 404, not retryable', async () => {
    const error = await platformError(open('2099-01').checkAccess());
    expect(error).toMatchObject({ status: 404, retryable: false });
  });

  it('is served by the oldest supported version when it asks for one past its support', async () => {
    await open('2024-01').checkAccess();
    expect(fake.requests.at(-1)).toMatchObject({
      path: '/admin/api/2024-01/graphql.json',
      servedVersion: fake.versions[0],
    });
  });

  it('retries a THROTTLED answer after the wait the cost asks for', async () => {
    fake.inject({ kind: 'throttled' });
    await platform.checkAccess();
    expect(sleeps).toEqual([1720]);
    expect(fake.operations()).toEqual(['ShopAccess', 'ShopAccess']);
  });

  it('reports throttling that lasts as retryable 429', async () => {
    fake.inject({ kind: 'throttled' }, { kind: 'throttled' }, { kind: 'throttled' });
    const error = await platformError(platform.checkAccess());
    expect(error).toMatchObject({ status: 429, retryable: true });
    expect(sleeps).toHaveLength(2);
  });

  it('classifies HTTP failures', async () => {
    for (const [status, retryable] of [
      [500, true],
      [503, true],
      [429, true],
      [403, false],
      [401, false],
    ] as const) {
      fake.inject({ kind: 'status', status });
      const error = await platformError(platform.checkAccess());
      expect(error).toMatchObject({ status, retryable });
      expect(error.message).not.toContain(fake.accessToken);
    }
  });

  it('classifies GraphQL errors', async () => {
    fake.inject({
      kind: 'graphql',
      code: 'INTERNAL_SERVER_ERROR',
      message: 'Internal error. Looks like something went wrong on our end.',
    });
    expect(await platformError(platform.checkAccess())).toMatchObject({ retryable: true });
    fake.inject({ kind: 'graphql', code: 'ACCESS_DENIED', message: 'Access denied for orders field.' });
    expect(await platformError(platform.checkAccess())).toMatchObject({ retryable: false, status: 403 });
  });

  it('reports a shop that does not answer in time as retryable', async () => {
    platform = createShopifyAdminPlatform({
      shop: fake.shop,
      accessToken: async () => fake.accessToken,
      apiVersion: '2026-04',
      fetch: fake.fetch,
      gatewayName: GATEWAY,
      timeoutMs: 100,
    });
    fake.inject({ kind: 'delay', ms: 400 });
    const error = await platformError(platform.checkAccess());
    expect(error.retryable).toBe(true);
    expect(error.message).toContain('no answer within 100 ms');
  });

  it('refuses shop domains that are not myshopify.com', () => {
    expect(() =>
      createShopifyAdminPlatform({
        shop: 'evil.example',
        accessToken: async () => 't',
        apiVersion: '2026-04',
        fetch: fake.fetch,
        gatewayName: GATEWAY,
      }),
    ).toThrow(TypeError);
  });
});

describe('the shopify driver', () => {
  it("calls a connection saved with an older version with the app's version, and reports what Shopify served", async () => {
    const served: string[][] = [];
    const store = shopifyDriver.open(
      `https://${fake.shop}`,
      { shop: fake.shop, manual_method_name: GATEWAY, api_version: '2025-10', way: 'manual_bridge', test_mode: '1' },
      undefined as never,
      {
        accessToken: async () => fake.accessToken,
        fetch: fake.fetch,
        apiVersion: '2026-07',
        onVersionServed: (shop, requested, answered) => served.push([shop, requested, answered]),
      },
    );
    await store.checkAccess();
    expect(fake.requests.at(-1)).toMatchObject({ path: '/admin/api/2026-07/graphql.json', servedVersion: '2026-07' });
    expect(served).toEqual([]);

    const old = shopifyDriver.open(
      `https://${fake.shop}`,
      { shop: fake.shop, manual_method_name: GATEWAY, api_version: '2025-10', way: 'manual_bridge', test_mode: '1' },
      undefined as never,
      {
        accessToken: async () => fake.accessToken,
        fetch: fake.fetch,
        onVersionServed: (shop, requested, answered) => served.push([shop, requested, answered]),
      },
    );
    await old.checkAccess();
    expect(served).toEqual([[fake.shop, '2025-10', fake.versions[0]]]);
  });
});
