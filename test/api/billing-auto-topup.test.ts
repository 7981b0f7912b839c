/**
 * Auto top-up over real HTTP on both databases: `PUT /api/v1/billing/auto-topup/{counter}`, and the
 * purchase + email once per crossing of the threshold, driven by completed live payments, with the
 * email received by a real local SMTP server and its one-click link leading to a checkout.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { afterBalanceChange } from '../../gateway/billing/auto-topup.service.js';
import { addDomain } from '../../gateway/merchants/domains.service.js';
import { DIALECTS } from '../support/databases.js';
import {
  enableLiveProcessor,
  expectErrorBody,
  PUBLIC_URL,
  paymentBody,
  startTestGateway,
  type TestGateway,
  uniqueHost,
} from '../support/gateway.js';
import { completeLivePayment, livePaymentsRouter } from '../support/live-payments.js';
import { parseMessage, startSmtp, type TestSmtp } from '../support/smtp-server.js';

type Json = Record<string, unknown>;

const SETTINGS_KEYS = ['armed', 'counter', 'enabled', 'payment_method_id', 'refill_qty', 'threshold_qty', 'updated_at'];

async function until(what: string, check: () => boolean | Promise<boolean>, timeoutMs = 15_000): Promise<void> {
  const deadline = performance.now() + timeoutMs;
  while (!(await check())) {
    if (performance.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

const expectError = expectErrorBody;

describe.each(DIALECTS)('billing auto top-up on %s', (dialect) => {
  let t: TestGateway;
  let smtp: TestSmtp;
  const live = livePaymentsRouter();

  beforeAll(async () => {
    smtp = await startSmtp();
    t = await startTestGateway(dialect, {
      routers: [live.router],
      env: {
        GATEWAY_RATE_LIMIT_PER_MINUTE: '100000',
        SMTP_URL: `smtp://127.0.0.1:${smtp.port}`,
        GATEWAY_SIGNUP_GRANT: '3',
        GATEWAY_MIN_PURCHASE: '2',
        GATEWAY_PRESET_QUANTITIES: '2,500',
      },
    });
    live.bind(t.gateway.deps);
  });
  afterAll(async () => {
    await t?.close();
    await smtp?.close();
  });

  const db = () => t.gateway.deps.db;

  const put = (key: string, counter: string, body: unknown) =>
    t.call('PUT', `/api/v1/billing/auto-topup/${counter}`, { key, body });

  /** A verified business with an email, a verified domain and a live key. */
  const liveShop = async (email: string | undefined = undefined) => {
    const host = uniqueHost('topup');
    const m = await t.merchant({ verifyBusiness: true, ...(email ? { email } : {}) });
    const deps = t.gateway.deps;
    await addDomain(deps, { merchantId: m.merchantId, host, verified: true });
    await enableLiveProcessor(deps, m.merchantId, host);
    return { ...m, host, liveKey: await t.key(m.merchantId, 'live') };
  };

  /** A completed live payment of 1000 AMD: consumes one `transactions` unit. */
  const pay = async (shop: { liveKey: string; host: string }) => {
    const created = await t.call('POST', '/api/v1/payments', {
      key: shop.liveKey,
      body: paymentBody({ amount: 1000, return_url: `https://${shop.host}/done` }),
    });
    expect(created.status, created.text).toBe(201);
    const done = await completeLivePayment(t, created.body.uuid as string);
    expect(done.status, done.text).toBe(200);
    expect(done.body.status).toBe('completed');
  };

  const available = async (key: string, counter = 'transactions'): Promise<number> => {
    const res = await t.call<Array<Json>>('GET', '/api/v1/billing/balances', { key });
    return res.body.find((b) => b.counter === counter)?.available as number;
  };

  const autoPurchases = (merchantId: string) =>
    db()
      .selectFrom('billing_purchases')
      .selectAll()
      .where('merchant_id', '=', merchantId)
      .where('source', '=', 'auto_topup')
      .orderBy('created_at')
      .orderBy('id')
      .execute();

  const topupEmails = (merchantId: string) =>
    db()
      .selectFrom('merchant_emails')
      .selectAll()
      .where('merchant_id', '=', merchantId)
      .where('kind', '=', 'auto_topup')
      .execute();

  const mailsTo = (address: string) => smtp.received.filter((mail) => mail.to.includes(address));

  const open = (url: string) => fetch(url.replace(PUBLIC_URL, t.url), { redirect: 'manual' });

  describe('PUT /api/v1/billing/auto-topup/{counter}', () => {
    it('saves the settings and answers the settings object', async () => {
      const m = await t.merchant();
      const res = await put(m.testKey, 'transactions', { enabled: true, threshold_qty: 1, refill_qty: 500 });
      expect(res.status, res.text).toBe(200);
      expect(Object.keys(res.body).sort()).toEqual(SETTINGS_KEYS);
      expect(res.body).toEqual({
        counter: 'transactions',
        enabled: true,
        threshold_qty: 1,
        refill_qty: 500,
        payment_method_id: null,
        armed: true,
        updated_at: '2026-11-21T10:00:30+00:00',
      });

      t.clock.advance(1000);
      const changed = await put(m.testKey, 'transactions', {
        enabled: false,
        threshold_qty: 3,
        refill_qty: 1_000_000,
        payment_method_id: 'pm_123',
      });
      expect(changed.status).toBe(200);
      // The balance (3, the signup grant) is not above 3: not armed.
      expect(changed.body).toMatchObject({ enabled: false, threshold_qty: 3, refill_qty: 1_000_000, armed: false });
      expect(changed.body.payment_method_id).toBe('pm_123');
      expect(changed.body.updated_at).toBe('2026-11-21T10:00:31+00:00');
      const rows = await db()
        .selectFrom('billing_auto_topups')
        .selectAll()
        .where('merchant_id', '=', m.merchantId)
        .execute();
      expect(rows).toHaveLength(1);

      const receipts = await put(m.testKey, 'receipts', { enabled: true, threshold_qty: 0, refill_qty: 2 });
      expect(receipts.body).toMatchObject({ counter: 'receipts', threshold_qty: 0, refill_qty: 2, armed: true });
    });

    it('answers 404 for an unknown counter', async () => {
      const m = await t.merchant();
      expectError(await put(m.testKey, 'sms', { enabled: true, threshold_qty: 1, refill_qty: 500 }), 404, 'not_found');
    });

    it.each([
      ['no enabled', { threshold_qty: 1, refill_qty: 500 }, 'enabled'],
      ['enabled as a string', { enabled: 'yes', threshold_qty: 1, refill_qty: 500 }, 'enabled'],
      ['threshold_qty -1', { enabled: true, threshold_qty: -1, refill_qty: 500 }, 'threshold_qty'],
      ['threshold_qty 1000001', { enabled: true, threshold_qty: 1_000_001, refill_qty: 500 }, 'threshold_qty'],
      ['threshold_qty 1.5', { enabled: true, threshold_qty: 1.5, refill_qty: 500 }, 'threshold_qty'],
      ['no threshold_qty', { enabled: true, refill_qty: 500 }, 'threshold_qty'],
      ['no refill_qty', { enabled: true, threshold_qty: 1 }, 'refill_qty'],
      ['refill_qty 1000001', { enabled: true, threshold_qty: 1, refill_qty: 1_000_001 }, 'refill_qty'],
      ['refill_qty under the minimum purchase', { enabled: true, threshold_qty: 1, refill_qty: 1 }, 'refill_qty'],
      [
        'a 121-character payment_method_id',
        { enabled: true, threshold_qty: 1, refill_qty: 500, payment_method_id: 'x'.repeat(121) },
        'payment_method_id',
      ],
      [
        'a payment_method_id with a lone surrogate',
        { enabled: true, threshold_qty: 1, refill_qty: 500, payment_method_id: '\udc00pm' },
        'payment_method_id',
        'must be valid Unicode text',
      ],
    ])('answers 422 validation_failed for %s', async (_name, body, field, message?: string) => {
      const m = await t.merchant();
      const error = expectError(await put(m.testKey, 'transactions', body), 422, 'validation_failed', ['errors']);
      expect(Object.keys(error.errors as Json)).toEqual([field]);
      if (message !== undefined) expect((error.errors as Record<string, string[]>)[field]).toEqual([message]);
      const rows = await db()
        .selectFrom('billing_auto_topups')
        .selectAll()
        .where('merchant_id', '=', m.merchantId)
        .execute();
      expect(rows).toHaveLength(0);
    });

    it('refuses a payments-only key', async () => {
      const m = await t.merchant();
      const key = await t.key(m.merchantId, 'test', 'payments');
      expectError(
        await put(key, 'transactions', { enabled: true, threshold_qty: 1, refill_qty: 500 }),
        403,
        'insufficient_scope',
        ['required'],
      );
    });
  });

  it('prepares one purchase and sends one email per crossing, and re-arms after a credit', async () => {
    const owner = `owner-${Math.random().toString(36).slice(2, 8)}@shop.am`;
    const shop = await liveShop(owner);
    const saved = await put(shop.testKey, 'transactions', { enabled: true, threshold_qty: 1, refill_qty: 2 });
    expect(saved.body.armed).toBe(true);

    await pay(shop); // 3 → 2
    expect(await available(shop.testKey)).toBe(2);
    expect(await autoPurchases(shop.merchantId)).toHaveLength(0);

    await pay(shop); // 2 → 1: the crossing
    expect(await available(shop.testKey)).toBe(1);
    const [first, ...more] = await autoPurchases(shop.merchantId);
    expect(more).toHaveLength(0);
    expect(first).toMatchObject({ counter: 'transactions', method: 'card', status: 'pending', source: 'auto_topup' });
    expect(Number(first?.quantity)).toBe(2);
    expect(Number(first?.amount_amd)).toBe(40);
    expect(await topupEmails(shop.merchantId)).toHaveLength(1);

    await pay(shop); // 1 → 0: still below, nothing more
    await pay(shop); // 0 → -1
    expect(await autoPurchases(shop.merchantId)).toHaveLength(1);
    expect(await topupEmails(shop.merchantId)).toHaveLength(1);

    // The email reaches the SMTP server, with the one-click link.
    await until('the auto top-up email', () => mailsTo(owner).length >= 1);
    const mail = parseMessage(mailsTo(owner)[0]?.raw ?? '');
    expect(mail.subject).toBe('Top up your transactions: 2 units ready to pay');
    expect(mail.text).toContain('Your transactions balance is down to 1 unit,');
    expect(mail.text).toContain('Price:      AMD\u00a040');
    const link = new RegExp(`${PUBLIC_URL}/billing/purchases/${first?.id}/pay\\?t=[A-Za-z0-9_-]{43}`).exec(
      mail.text,
    )?.[0];
    expect(link).toBeDefined();

    // Following the link leads to a checkout of a fresh house payment for the purchase.
    const followed = await open(link as string);
    expect(followed.status).toBe(302);
    const location = followed.headers.get('location') as string;
    expect(location).toMatch(new RegExp(`^${PUBLIC_URL}/checkout/[A-Za-z0-9_-]{20,}$`));
    const checkout = await open(location);
    expect(checkout.status).toBe(200);
    expect(await checkout.text()).toContain('40');

    // Paying it credits 2 units: -1 → 1, not above the threshold, so still not armed.
    const purchase = await db()
      .selectFrom('billing_purchases')
      .selectAll()
      .where('id', '=', first?.id as string)
      .executeTakeFirstOrThrow();
    expect(purchase.payment_id).not.toBeNull();
    expect((await completeLivePayment(t, purchase.payment_id as string)).status).toBe(200);
    expect(await available(shop.testKey)).toBe(1);
    const setting = () =>
      db()
        .selectFrom('billing_auto_topups')
        .selectAll()
        .where('merchant_id', '=', shop.merchantId)
        .executeTakeFirstOrThrow();
    expect((await setting()).armed).toBe(0);

    // A credit (a card purchase paid) lifting it above the threshold re-arms it.
    const topUp = await t.call('POST', '/api/v1/billing/purchases', {
      key: shop.testKey,
      body: { counter: 'transactions', quantity: 2 },
      headers: { 'Idempotency-Key': `topup-${shop.merchantId}` },
    });
    expect(topUp.status, topUp.text).toBe(201);
    const house = await db()
      .selectFrom('payments')
      .select('id')
      .where('order_id', '=', topUp.body.id as string)
      .executeTakeFirstOrThrow();
    expect((await completeLivePayment(t, house.id)).status).toBe(200);
    expect(await available(shop.testKey)).toBe(3);
    expect((await setting()).armed).toBe(1);
    expect(await autoPurchases(shop.merchantId)).toHaveLength(1);

    await pay(shop); // 3 → 2
    expect(await topupEmails(shop.merchantId)).toHaveLength(1);
    await pay(shop); // 2 → 1: the second crossing
    expect(await autoPurchases(shop.merchantId)).toHaveLength(2);
    expect(await topupEmails(shop.merchantId)).toHaveLength(2);
    await until('the second auto top-up email', () => mailsTo(owner).length >= 2);
    expect(mailsTo(owner)).toHaveLength(2);
  });

  it('emails the transfer reference and amount when the refill is not a preset quantity', async () => {
    const owner = `owner-${Math.random().toString(36).slice(2, 8)}@shop.am`;
    const shop = await liveShop(owner);
    expect((await put(shop.testKey, 'transactions', { enabled: true, threshold_qty: 2, refill_qty: 7 })).status).toBe(
      200,
    );
    await pay(shop); // 3 → 2
    const [purchase] = await autoPurchases(shop.merchantId);
    expect(purchase).toMatchObject({ method: 'bank_transfer', status: 'pending' });
    expect(purchase?.reference).toMatch(/^GW-[0-9A-Z]{4}-[0-9A-Z]{4}$/);
    await until('the transfer email', () => mailsTo(owner).length >= 1);
    const mail = parseMessage(mailsTo(owner)[0]?.raw ?? '');
    expect(mail.text).toContain(`Reference:  ${purchase?.reference}`);
    expect(mail.text).toContain('Amount:     AMD\u00a0140');
    expect(mail.text).not.toContain('/pay?t=');
  });

  it("writes the email in the account's language", async () => {
    const owner = `owner-${Math.random().toString(36).slice(2, 8)}@shop.am`;
    const shop = await liveShop(owner);
    await db().updateTable('merchants').set({ language: 'ru' }).where('id', '=', shop.merchantId).execute();
    expect((await put(shop.testKey, 'transactions', { enabled: true, threshold_qty: 2, refill_qty: 7 })).status).toBe(
      200,
    );
    await pay(shop); // 3 → 2
    const [purchase] = await autoPurchases(shop.merchantId);
    await until('the transfer email', () => mailsTo(owner).length >= 1);
    const mail = parseMessage(mailsTo(owner)[0]?.raw ?? '');
    expect(mail.subject).toBe('Пополните баланс транзакций: 7 единиц готовы к оплате');
    expect(mail.text).toContain('Баланс транзакций снизился до 2 единиц');
    expect(mail.text).toContain(`Код:        ${purchase?.reference}`);
    expect(mail.text).toContain('Сумма:      140\u00a0драмов');
    expect(mail.text).not.toContain('Hello');
  });

  it('sends nothing while disabled, nor when saved at or below the threshold until a credit lifts the balance', async () => {
    const shop = await liveShop('quiet@shop.am');
    await put(shop.testKey, 'transactions', { enabled: false, threshold_qty: 2, refill_qty: 500 });
    await pay(shop); // 3 → 2
    expect(await autoPurchases(shop.merchantId)).toHaveLength(0);

    const saved = await put(shop.testKey, 'transactions', { enabled: true, threshold_qty: 2, refill_qty: 500 });
    expect(saved.body.armed).toBe(false);
    await pay(shop); // 2 → 1
    expect(await autoPurchases(shop.merchantId)).toHaveLength(0);
    expect(await topupEmails(shop.merchantId)).toHaveLength(0);
  });

  it('never triggers for an unlimited account', async () => {
    const m = await t.merchant({ unlimited: true, email: 'big@shop.am' });
    expect(
      (await put(m.testKey, 'transactions', { enabled: true, threshold_qty: 1, refill_qty: 500 })).body.armed,
    ).toBe(true);
    const deps = t.gateway.deps;
    await deps.transact((trx) =>
      afterBalanceChange(deps, trx, { merchantId: m.merchantId, counter: 'transactions', balanceAfter: 0 }),
    );
    expect(await autoPurchases(m.merchantId)).toHaveLength(0);
    expect(await topupEmails(m.merchantId)).toHaveLength(0);

    // The same change for a limited account does trigger (the check above is not vacuous).
    const limited = await t.merchant({ email: 'small@shop.am' });
    await put(limited.testKey, 'transactions', { enabled: true, threshold_qty: 1, refill_qty: 500 });
    await deps.transact((trx) =>
      afterBalanceChange(deps, trx, { merchantId: limited.merchantId, counter: 'transactions', balanceAfter: 0 }),
    );
    expect(await autoPurchases(limited.merchantId)).toHaveLength(1);
    expect(await topupEmails(limited.merchantId)).toHaveLength(1);
  });
});
