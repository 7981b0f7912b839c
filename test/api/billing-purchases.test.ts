/**
 * `POST /api/v1/billing/purchases` over real HTTP on both databases: card purchases (a live payment
 * on the house account behind a one-click link), bank transfers (a reference), idempotency,
 * validation, access, and crediting exactly once when the house payment completes.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HOUSE_ACCOUNT_NAME, HOUSE_SETTING } from '../../gateway/billing/house-account.js';
import { applyProviderResult, expireIfDueNow, startProcessing } from '../../gateway/payments/lifecycle.service.js';
import { PAYMENT_TTL_MS } from '../../gateway/payments/new-payment-row.js';
import { DIALECTS } from '../support/databases.js';
import { expectErrorBody, PUBLIC_URL, startTestGateway, type TestGateway } from '../support/gateway.js';
import { completeLivePayment, livePaymentsRouter } from '../support/live-payments.js';

type Json = Record<string, unknown>;

const PURCHASE_KEYS = [
  'amount_amd',
  'checkout_url',
  'counter',
  'created_at',
  'currency',
  'id',
  'method',
  'paid_at',
  'quantity',
  'reference',
  'source',
  'status',
];
const API_INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\+00:00$/;
const REFERENCE = /^GW-[23456789ABCDEFGHJKMNPQRSTVWXYZ]{4}-[23456789ABCDEFGHJKMNPQRSTVWXYZ]{4}$/;

const expectError = expectErrorBody;

describe.each(DIALECTS)('billing purchases on %s', (dialect) => {
  let t: TestGateway;
  const live = livePaymentsRouter();

  beforeAll(async () => {
    t = await startTestGateway(dialect, {
      routers: [live.router],
      env: { GATEWAY_RATE_LIMIT_PER_MINUTE: '100000' },
    });
    live.bind(t.gateway.deps);
  });
  afterAll(async () => t?.close());

  const db = () => t.gateway.deps.db;

  const purchase = (key: string, body: unknown, idempotencyKey: string | null = randomUUID()) =>
    t.call('POST', '/api/v1/billing/purchases', {
      key,
      body,
      headers: idempotencyKey === null ? {} : { 'Idempotency-Key': idempotencyKey },
    });

  /** Fetches a URL the service printed (under PUBLIC_URL) from the test server, without following redirects. */
  const open = (url: string) => fetch(url.replace(PUBLIC_URL, t.url), { redirect: 'manual' });

  const verified = async (email?: string) => t.merchant({ verifyBusiness: true, ...(email ? { email } : {}) });

  const available = async (key: string, counter: string): Promise<number> => {
    const res = await t.call<Array<Json>>('GET', '/api/v1/billing/balances', { key });
    expect(res.status, res.text).toBe(200);
    return res.body.find((b) => b.counter === counter)?.available as number;
  };

  const purchaseLedger = (purchaseId: string) =>
    db().selectFrom('billing_ledger').selectAll().where('ref_id', '=', purchaseId).execute();

  const housePayments = (purchaseId: string) =>
    db().selectFrom('payments').selectAll().where('order_id', '=', purchaseId).orderBy('created_at').execute();

  it('answers a preset quantity with a card purchase whose checkout_url leads to a checkout of a house payment', async () => {
    const m = await verified('owner@shop.am');
    const res = await purchase(m.testKey, { counter: 'transactions', quantity: 500 });
    expect(res.status, res.text).toBe(201);
    expect(Object.keys(res.body).sort()).toEqual(PURCHASE_KEYS);
    const p = res.body;
    expect(p).toMatchObject({
      counter: 'transactions',
      quantity: 500,
      amount_amd: 500 * 20,
      currency: 'AMD',
      method: 'card',
      status: 'pending',
      source: 'api',
      reference: null,
      paid_at: null,
    });
    expect(p.created_at).toMatch(API_INSTANT);
    expect(p.checkout_url).toMatch(
      new RegExp(`^${PUBLIC_URL}/billing/purchases/${p.id as string}/pay\\?t=[A-Za-z0-9_-]{43}$`),
    );

    // A real live payment on the house account, for the purchase's amount.
    const [payment, ...others] = await housePayments(p.id as string);
    expect(others).toHaveLength(0);
    expect(payment).toMatchObject({ environment: 'live', sandbox: 0, amount: 10000, status: 'pending' });
    expect(payment?.description).toBe('500 transactions units');
    expect(payment?.customer_email).toBe('owner@shop.am');
    const setting = await db()
      .selectFrom('service_settings')
      .select('value')
      .where('name', '=', HOUSE_SETTING)
      .executeTakeFirstOrThrow();
    expect(payment?.merchant_id).toBe(setting.value);
    const house = await db()
      .selectFrom('merchants')
      .selectAll()
      .where('id', '=', setting.value)
      .executeTakeFirstOrThrow();
    expect(house).toMatchObject({ name: HOUSE_ACCOUNT_NAME, business_verified: 1, unlimited: 1 });

    const link = await open(p.checkout_url as string);
    expect(link.status).toBe(302);
    expect(link.headers.get('location')).toBe(`${PUBLIC_URL}/checkout/${payment?.checkout_token}`);
    const checkout = await open(link.headers.get('location') as string);
    expect(checkout.status).toBe(200);
    expect(checkout.headers.get('content-type')).toMatch(/text\/html/);
    expect(await checkout.text()).toContain('10');

    // A second purchase reuses the same house account.
    const again = await purchase(m.testKey, { counter: 'receipts', quantity: 100 });
    expect(again.status, again.text).toBe(201);
    expect(again.body).toMatchObject({ method: 'card', amount_amd: 100 * 10, counter: 'receipts' });
    expect((await housePayments(again.body.id as string))[0]?.merchant_id).toBe(setting.value);
    const houses = await db().selectFrom('merchants').select('id').where('name', '=', HOUSE_ACCOUNT_NAME).execute();
    expect(houses).toHaveLength(1);
  });

  it('refuses a tampered or foreign one-click link', async () => {
    const m = await verified();
    const a = (await purchase(m.testKey, { counter: 'transactions', quantity: 100 })).body;
    const b = (await purchase(m.testKey, { counter: 'transactions', quantity: 100 })).body;
    const tokenOfB = new URL(b.checkout_url as string).searchParams.get('t') as string;
    const foreign = await open(`${PUBLIC_URL}/billing/purchases/${a.id as string}/pay?t=${tokenOfB}`);
    expect(foreign.status).toBe(404);
    const none = await open(`${PUBLIC_URL}/billing/purchases/${a.id as string}/pay`);
    expect(none.status).toBe(404);
    expect((await open(a.checkout_url as string)).status).toBe(302);
  });

  it('answers any other quantity with a bank transfer reference', async () => {
    const m = await verified();
    const res = await purchase(m.testKey, { counter: 'transactions', quantity: 250 });
    expect(res.status, res.text).toBe(201);
    expect(Object.keys(res.body).sort()).toEqual(PURCHASE_KEYS);
    expect(res.body).toMatchObject({
      counter: 'transactions',
      quantity: 250,
      amount_amd: 5000,
      method: 'bank_transfer',
      status: 'pending',
      checkout_url: null,
      paid_at: null,
    });
    expect(res.body.reference).toMatch(REFERENCE);
    const other = await purchase(m.testKey, { counter: 'receipts', quantity: 1234 });
    expect(other.body.reference).toMatch(REFERENCE);
    expect(other.body.reference).not.toBe(res.body.reference);
    expect(await housePayments(res.body.id as string)).toHaveLength(0);

    const read = await t.call('GET', `/api/v1/billing/purchases/${res.body.id as string}`, { key: m.testKey });
    expect(read.status).toBe(200);
    expect(read.body).toEqual(res.body);
  });

  it('answers a retry with the same Idempotency-Key with 200 and the original purchase', async () => {
    const m = await verified();
    const key = randomUUID();
    const first = await purchase(m.testKey, { counter: 'transactions', quantity: 1000 }, key);
    expect(first.status).toBe(201);
    const replay = await purchase(m.testKey, { counter: 'transactions', quantity: 1000 }, key);
    expect(replay.status).toBe(200);
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect(replay.body).toEqual(first.body);
    const rows = await db()
      .selectFrom('billing_purchases')
      .select('id')
      .where('merchant_id', '=', m.merchantId)
      .execute();
    expect(rows).toHaveLength(1);
    expect(await housePayments(first.body.id as string)).toHaveLength(1);

    const other = await purchase(m.testKey, { counter: 'transactions', quantity: 5000 }, key);
    const body = expectError(other, 422, 'validation_failed', ['errors']);
    expect(Object.keys(body.errors as Json)).toEqual(['Idempotency-Key']);
  });

  it('requires an Idempotency-Key', async () => {
    const m = await verified();
    const res = await purchase(m.testKey, { counter: 'transactions', quantity: 500 }, null);
    const body = expectError(res, 422, 'validation_failed', ['errors']);
    expect(Object.keys(body.errors as Json)).toEqual(['Idempotency-Key']);
    const rows = await db()
      .selectFrom('billing_purchases')
      .select('id')
      .where('merchant_id', '=', m.merchantId)
      .execute();
    expect(rows).toHaveLength(0);
  });

  it('answers below_minimum under the minimum purchase', async () => {
    const m = await verified();
    const res = await purchase(m.testKey, { counter: 'transactions', quantity: 99 });
    const body = expectError(res, 422, 'below_minimum', ['errors', 'min_quantity']);
    expect(body.min_quantity).toBe(100);
    expect((await purchase(m.testKey, { counter: 'transactions', quantity: 100 })).status).toBe(201);
  });

  it.each([
    ['quantity 0', { counter: 'transactions', quantity: 0 }, 'quantity'],
    ['quantity 1000001', { counter: 'transactions', quantity: 1_000_001 }, 'quantity'],
    ['quantity 1.5', { counter: 'transactions', quantity: 1.5 }, 'quantity'],
    ['quantity as a string', { counter: 'transactions', quantity: '500' }, 'quantity'],
    ['no quantity', { counter: 'transactions' }, 'quantity'],
    ['an unknown counter', { counter: 'sms', quantity: 500 }, 'counter'],
    ['no counter', { quantity: 500 }, 'counter'],
    [
      'a 121-character payment_method_id',
      { counter: 'transactions', quantity: 500, payment_method_id: 'p'.repeat(121) },
      'payment_method_id',
    ],
    [
      'a numeric payment_method_id',
      { counter: 'transactions', quantity: 500, payment_method_id: 7 },
      'payment_method_id',
    ],
    [
      'a payment_method_id with a lone surrogate',
      { counter: 'transactions', quantity: 500, payment_method_id: 'pm_\ud800' },
      'payment_method_id',
      'must be valid Unicode text',
    ],
  ])('answers 422 validation_failed for %s', async (_name, body, field, message?: string) => {
    const m = await verified();
    const res = await purchase(m.testKey, body);
    const error = expectError(res, 422, 'validation_failed', ['errors']);
    expect(Object.keys(error.errors as Json)).toEqual([field]);
    if (message !== undefined) expect((error.errors as Record<string, string[]>)[field]).toEqual([message]);
  });

  it('accepts and stores a payment_method_id of 120 characters (reserved)', async () => {
    const m = await verified();
    const res = await purchase(m.testKey, {
      counter: 'transactions',
      quantity: 500,
      payment_method_id: 'p'.repeat(120),
    });
    expect(res.status, res.text).toBe(201);
    const row = await db()
      .selectFrom('billing_purchases')
      .selectAll()
      .where('id', '=', res.body.id as string)
      .executeTakeFirstOrThrow();
    expect(row.payment_method_id).toBe('p'.repeat(120));
  });

  it('refuses a business that is not verified, even with a test key', async () => {
    const m = await t.merchant();
    const res = await purchase(m.testKey, { counter: 'transactions', quantity: 500 });
    const body = expectError(res, 403, 'VERIFICATION_REQUIRED', ['verification_url']);
    expect(body.verification_url).toBe(`${PUBLIC_URL}/docs/verification`);
  });

  it('refuses a payments-only key with insufficient_scope', async () => {
    const m = await verified();
    const paymentsOnly = await t.key(m.merchantId, 'test', 'payments');
    expectError(await purchase(paymentsOnly, { counter: 'transactions', quantity: 500 }), 403, 'insufficient_scope', [
      'required',
    ]);
    const full = await t.key(m.merchantId, 'live', 'full');
    expect((await purchase(full, { counter: 'transactions', quantity: 500 })).status).toBe(201);
  });

  it('credits the purchase exactly once when its house payment completes, however often it is confirmed', async () => {
    const m = await verified();
    const before = await available(m.testKey, 'transactions');
    const p = (await purchase(m.testKey, { counter: 'transactions', quantity: 500 })).body;
    const [payment] = await housePayments(p.id as string);
    const done = await completeLivePayment(t, payment?.id as string);
    expect(done.status, done.text).toBe(200);
    expect(done.body.status).toBe('completed');

    expect(await available(m.testKey, 'transactions')).toBe(before + 500);
    const ledger = await purchaseLedger(p.id as string);
    expect(ledger).toHaveLength(1);
    expect(ledger[0]).toMatchObject({
      merchant_id: m.merchantId,
      counter: 'transactions',
      event_type: 'purchase',
      ref_type: 'purchase',
    });
    expect(Number(ledger[0]?.delta)).toBe(500);
    expect(Number(ledger[0]?.balance_after)).toBe(before + 500);

    const read = await t.call('GET', `/api/v1/billing/purchases/${p.id as string}`, { key: m.testKey });
    expect(read.body.status).toBe('paid');
    expect(read.body.paid_at).toMatch(API_INSTANT);

    // The one-click link now shows the paid page, which no one may frame.
    const paidPage = await open(p.checkout_url as string);
    expect(paidPage.status).toBe(200);
    expect(await paidPage.text()).toContain('500 transactions units were added');
    expect(paidPage.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
    expect(paidPage.headers.get('x-frame-options')).toBe('DENY');

    // Completing again and confirming (late) again change nothing.
    expect((await completeLivePayment(t, payment?.id as string)).status).toBe(409);
    const confirmed = await t.call('POST', `/test-only/payments/${payment?.id}/confirm`);
    expect(confirmed.status).toBe(200);
    expect(await available(m.testKey, 'transactions')).toBe(before + 500);
    expect(await purchaseLedger(p.id as string)).toHaveLength(1);

    const paidLink = await open(p.checkout_url as string);
    expect(paidLink.status).toBe(200);
    expect(await paidLink.text()).toContain('500 transactions units were added');
  });

  it('keeps the link usable after the checkout expired, and credits once when an old attempt is confirmed late', async () => {
    const m = await verified();
    const before = await available(m.testKey, 'receipts');
    const p = (await purchase(m.testKey, { counter: 'receipts', quantity: 100 })).body;
    const [first] = await housePayments(p.id as string);
    t.clock.advance(21 * 60_000);

    const link = await open(p.checkout_url as string);
    expect(link.status).toBe(302);
    const location = link.headers.get('location') as string;
    expect(location).not.toBe(`${PUBLIC_URL}/checkout/${first?.checkout_token}`);
    const attempts = await housePayments(p.id as string);
    expect(attempts.map((a) => a.status)).toEqual(['expired', 'pending']);
    expect(location).toBe(`${PUBLIC_URL}/checkout/${attempts[1]?.checkout_token}`);
    expect((await open(location)).status).toBe(200);
    // Opening it again while the fresh checkout is open makes no other payment.
    expect((await open(p.checkout_url as string)).headers.get('location')).toBe(location);
    expect(await housePayments(p.id as string)).toHaveLength(2);

    // The expired first attempt is confirmed late: that credits the purchase.
    expect((await t.call('POST', `/test-only/payments/${first?.id}/confirm`)).body.status).toBe('completed');
    expect(await available(m.testKey, 'receipts')).toBe(before + 100);
    // The fresh attempt is paid too: nothing more is credited, and it is flagged for a refund.
    expect((await completeLivePayment(t, attempts[1]?.id as string)).body.status).toBe('completed');
    expect(await available(m.testKey, 'receipts')).toBe(before + 100);
    expect(await purchaseLedger(p.id as string)).toHaveLength(1);
    const second = await db()
      .selectFrom('payments')
      .select('reconciliation_flag')
      .where('id', '=', attempts[1]?.id as string)
      .executeTakeFirstOrThrow();
    expect(second.reconciliation_flag).toBe('duplicate_completion');
  });

  it('never lets the sandbox pay a purchase payment, so nothing is credited without money', async () => {
    const m = await verified();
    const before = await available(m.testKey, 'transactions');
    const p = (await purchase(m.testKey, { counter: 'transactions', quantity: 100 })).body;
    const [payment] = await housePayments(p.id as string);
    const id = payment?.id as string;
    const deps = t.gateway.deps;

    // The house account's hosted domain has the sandbox, but a purchase payment is live.
    const page = await open(`${PUBLIC_URL}/checkout/${payment?.checkout_token}`);
    expect(page.status).toBe(200);
    expect(await page.text()).not.toContain('value="sandbox"');
    expect(await startProcessing(deps, id, 'sandbox')).toMatchObject({
      status: 'pending',
      sandbox: false,
      processor: null,
    });
    // Expired unpaid, then a sandbox answer that would otherwise complete it late: it stays expired.
    t.clock.advance(PAYMENT_TTL_MS + 1_000);
    expect(await expireIfDueNow(deps, id)).toMatchObject({ status: 'expired' });
    const answered = await applyProviderResult(deps, id, {
      kind: 'paid',
      rrn: '123456789012',
      cardLast4: '4242',
      processor: 'sandbox',
    });
    expect(answered).toMatchObject({ status: 'expired', sandbox: false, completedAt: null });

    expect(await available(m.testKey, 'transactions')).toBe(before);
    expect(await purchaseLedger(p.id as string)).toHaveLength(0);
    const read = await t.call('GET', `/api/v1/billing/purchases/${p.id as string}`, { key: m.testKey });
    expect(read.body.status).toBe('pending');

    const link = await open(p.checkout_url as string);
    expect(link.status).toBe(302);
    expect(link.headers.get('location')).not.toBe(`${PUBLIC_URL}/checkout/${payment?.checkout_token}`);
    const attempts = await housePayments(p.id as string);
    expect(attempts).toHaveLength(2);
    expect((await completeLivePayment(t, attempts[1]?.id as string)).status).toBe(200);
    expect(await available(m.testKey, 'transactions')).toBe(before + 100);
  });

  it('hides another account’s purchase', async () => {
    const a = await verified();
    const b = await verified();
    const p = (await purchase(a.testKey, { counter: 'transactions', quantity: 500 })).body;
    expectError(
      await t.call('GET', `/api/v1/billing/purchases/${p.id as string}`, { key: b.testKey }),
      404,
      'not_found',
    );
    expectError(await t.call('GET', '/api/v1/billing/purchases/not-a-uuid', { key: a.testKey }), 404, 'not_found');
  });
});
