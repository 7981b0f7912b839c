/**
 * Payments priced in another currency over HTTP on both databases (docs/decisions.md,
 * "Currencies"): the operator's rate is locked into the payment at creation, `amount` and
 * `currency` read back as sent, `charge` holds the whole AMD charged (rounded down) with the rate,
 * processors, billing and refunds count in AMD, and a currency without a rate is refused.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setDomainLimits } from '../../gateway/merchants/domain-limits.service.js';
import { removeFxRate, setFxRate } from '../../gateway/payments/fx-rates.service.js';
import { DIALECTS } from '../support/databases.js';
import {
  type ApiResponse,
  expectErrorBody,
  paymentBody,
  startTestGateway,
  type TestGateway,
  uniqueHost,
} from '../support/gateway.js';
import { ALL_PAYMENT_KEYS_SORTED } from '../support/payment-shape.js';

type Json = Record<string, unknown>;

const APPROVED = '4111 1111 1111 1111';

describe.each(DIALECTS)('payments in other currencies on %s', (dialect) => {
  let t: TestGateway;
  beforeAll(async () => {
    t = await startTestGateway(dialect, { env: { GATEWAY_RATE_LIMIT_PER_MINUTE: '100000' } });
  });
  afterAll(async () => t?.close());

  const create = (key: string, body: Json) => t.call('POST', '/api/v1/payments', { key, body });
  const setRate = (currency: string, rate: string) => setFxRate(t.gateway.deps, { currency, rate });

  function expectValidation(res: ApiResponse): Record<string, string[]> {
    return expectErrorBody(res, 422, 'validation_failed', ['errors']).errors as Record<string, string[]>;
  }

  function storedRow(uuid: string) {
    return t.gateway.deps.db.selectFrom('payments').selectAll().where('id', '=', uuid).executeTakeFirstOrThrow();
  }

  it('refuses a currency without a rate with 422 validation_failed on currency, naming what is accepted', async () => {
    const m = await t.merchant();
    const none = expectValidation(await create(m.testKey, paymentBody({ amount: 10, currency: 'GBP' })));
    expect(none).toEqual({ currency: ['is not supported; supported: AMD'] });

    await setRate('CHF', '450');
    const listed = expectValidation(await create(m.testKey, paymentBody({ amount: 10, currency: 'gbp' })));
    expect(listed).toEqual({ currency: ['is not supported; supported: AMD, CHF'] });
    expect((await create(m.testKey, paymentBody({ amount: 10, currency: 'chf' }))).status).toBe(201);

    await removeFxRate(t.gateway.deps, { currency: 'CHF' });
    const withdrawn = expectValidation(await create(m.testKey, paymentBody({ amount: 10, currency: 'CHF' })));
    expect(withdrawn).toEqual({ currency: ['is not supported; supported: AMD'] });
  });

  it('locks the rate in force into the payment: amount and currency as sent, charge in whole AMD', async () => {
    await setRate('USD', '387.5');
    const m = await t.merchant();
    const res = await create(m.testKey, paymentBody({ amount: 10, currency: 'usd' }));
    expect(res.status, res.text).toBe(201);
    expect(Object.keys(res.body).sort()).toEqual(ALL_PAYMENT_KEYS_SORTED);
    expect(res.body).toMatchObject({ amount: 10, currency: 'USD', refunded_amount: 0 });
    expect(res.body.charge).toEqual({
      amount: 3875,
      currency: 'AMD',
      fx_rate: 387.5,
      locked_at: res.body.created_at,
    });
    expect(res.text).toContain('"charge":{"amount":3875,"currency":"AMD","fx_rate":387.5,"locked_at":');

    // The processor, billing and refunds see whole AMD.
    const row = await storedRow(res.body.uuid as string);
    expect(row).toMatchObject({ amount: 3875, currency: 'AMD', price_amount: 10, price_currency: 'USD' });
    expect(Number(row.amount)).toBe(3875);

    const read = await t.call('GET', `/api/v1/payments/${res.body.uuid}`, { key: m.testKey });
    expect(read.body).toEqual(res.body);
  });

  it('keeps the locked rate when the operator changes the rate later; new payments take the new one', async () => {
    await setRate('EUR', '420');
    const m = await t.merchant();
    const before = await create(m.testKey, paymentBody({ amount: 2, currency: 'EUR' }));
    expect(before.body.charge).toMatchObject({ amount: 840, fx_rate: 420 });

    t.clock.advance(60_000);
    await setRate('EUR', '415.25');
    const after = await create(m.testKey, paymentBody({ amount: 2, currency: 'EUR' }));
    expect(after.body.charge).toMatchObject({ amount: 830, fx_rate: 415.25, locked_at: after.body.created_at });

    const reread = await t.call('GET', `/api/v1/payments/${before.body.uuid}`, { key: m.testKey });
    expect(reread.body.charge).toEqual(before.body.charge);
    expect(Number((await storedRow(before.body.uuid as string)).amount)).toBe(840);
  });

  it('rounds the AMD amount down, never charging more than the exact conversion', async () => {
    const m = await t.merchant();
    await setRate('CAD', '280.99');
    const down = await create(m.testKey, paymentBody({ amount: 3, currency: 'CAD' })); // 842.97
    expect(down.body.charge).toMatchObject({ amount: 842, fx_rate: 280.99 });

    await setRate('CAD', '280.5');
    const half = await create(m.testKey, paymentBody({ amount: 3, currency: 'CAD' })); // 841.5
    expect(half.body.charge).toMatchObject({ amount: 841 });

    await setRate('CAD', '1.15');
    const exact = await create(m.testKey, paymentBody({ amount: 100, currency: 'CAD' })); // 115 (not 114.999…)
    expect(exact.body.charge).toMatchObject({ amount: 115 });
  });

  it('refuses an amount that converts to less than 1 AMD', async () => {
    const m = await t.merchant();
    await setRate('IRR', '0.5');
    const errors = expectValidation(await create(m.testKey, paymentBody({ amount: 1, currency: 'IRR' })));
    expect(errors).toEqual({ amount: ['is less than 1 AMD at the rate 0.5 AMD per IRR'] });
    const two = await create(m.testKey, paymentBody({ amount: 2, currency: 'IRR' }));
    expect(two.body).toMatchObject({ amount: 2, currency: 'IRR', charge: { amount: 1, fx_rate: 0.5 } });
  });

  it("names the payment's currency in the amount's messages", async () => {
    const m = await t.merchant();
    await setRate('USD', '387.5');
    expect(expectValidation(await create(m.testKey, paymentBody({ amount: 10.5, currency: 'USD' })))).toEqual({
      amount: ['must be a whole number of USD (no minor units)'],
    });
    expect(expectValidation(await create(m.testKey, paymentBody({ amount: 10.5 })))).toEqual({
      amount: ['must be a whole number of AMD (no minor units)'],
    });
  });

  it('checks the largest amount in AMD after conversion, service-wide and per domain', async () => {
    await setRate('USD', '387.5');
    const host = uniqueHost();
    const m = await t.merchant({ domains: [host], verifyDomains: true });
    // 12903 USD = 4,999,912 AMD fits; 12904 USD = 5,000,300 AMD does not.
    expect((await create(m.testKey, paymentBody({ amount: 12_903, currency: 'USD' }))).status).toBe(201);
    const over = await create(m.testKey, paymentBody({ amount: 12_904, currency: 'USD' }));
    const body = expectErrorBody(over, 422, 'amount_limit_exceeded', ['max_amount']);
    expect(body.max_amount).toBe(5_000_000);
    expect(body.message).toBe(
      'The amount, 12904 USD at the rate 387.5 = 5000300 AMD, is above the largest amount one payment may carry (5000000 AMD).',
    );

    await setDomainLimits(t.gateway.deps, { merchantId: m.merchantId, host, maxAmount: 3_875 });
    expect((await create(m.testKey, paymentBody({ domain: host, amount: 10, currency: 'USD' }))).status).toBe(201);
    const domainOver = await create(m.testKey, paymentBody({ domain: host, amount: 11, currency: 'USD' }));
    expect(expectErrorBody(domainOver, 422, 'amount_limit_exceeded', ['max_amount']).max_amount).toBe(3_875);
  });

  it('answers charge null for AMD payments, with or without currency', async () => {
    const m = await t.merchant();
    for (const body of [paymentBody({ amount: 3875 }), paymentBody({ amount: 3875, currency: 'amd' })]) {
      const res = await create(m.testKey, body);
      expect(res.status, res.text).toBe(201);
      expect(res.body).toMatchObject({ amount: 3875, currency: 'AMD', charge: null });
      expect(res.text).toContain('"charge":null');
      expect(await storedRow(res.body.uuid as string)).toMatchObject({ price_amount: null, price_currency: null });
    }
  });

  it('shows the buyer both amounts on the checkout, and asks to pay the AMD', async () => {
    await setRate('USD', '387.5');
    const m = await t.merchant();
    const converted = await create(m.testKey, paymentBody({ amount: 1000, currency: 'USD' }));
    const page = await fetch(`${t.url}${new URL(converted.body.checkout_url as string).pathname}`);
    const html = await page.text();
    expect(page.status).toBe(200);
    expect(html).toContain('<p class="amount" data-testid="amount">$1,000</p>');
    expect(html).toContain('data-testid="charge">Charged in drams: AMD\u00a0387,500 (1 USD = 387.5 AMD)</p>');
    expect(html).toContain('Continue to pay AMD\u00a0387,500');

    const plain = await create(m.testKey, paymentBody({ amount: 1000 }));
    const plainHtml = await (await fetch(`${t.url}${new URL(plain.body.checkout_url as string).pathname}`)).text();
    expect(plainHtml).toContain('data-testid="amount">AMD\u00a01,000</p>');
    expect(plainHtml).not.toContain('data-testid="charge"');
  });

  it('pays, reports and refunds a converted payment in AMD', async () => {
    await setRate('USD', '387.5');
    const m = await t.merchant();
    const created = await create(m.testKey, paymentBody({ amount: 10, currency: 'USD' }));
    const uuid = created.body.uuid as string;
    const paid = await t.call('POST', `/api/v1/test_helpers/payments/${uuid}/pay`, {
      key: m.testKey,
      body: { card_number: APPROVED },
    });
    expect(paid.body).toMatchObject({ status: 'completed', amount: 10, currency: 'USD', charge: created.body.charge });

    // The webhook's transaction reads as the payment object does.
    const events = await t.call<{ data: Array<{ body: { transaction: Json } }> }>(
      'GET',
      `/api/v1/payments/${uuid}/events`,
      { key: m.testKey },
    );
    expect(events.body.data[0]?.body.transaction).toMatchObject({ amount: 10, currency: 'USD', refunded_amount: 0 });

    // Refunds are whole AMD, at most what was charged.
    const tooMuch = await t.call('POST', `/api/v1/payments/${uuid}/refund`, { key: m.testKey, body: { amount: 3876 } });
    expect(tooMuch.status, tooMuch.text).toBe(422);
    expect(tooMuch.body.error).toBe('amount_exceeds_remaining');
    const partial = await t.call('POST', `/api/v1/payments/${uuid}/refund`, { key: m.testKey, body: { amount: 875 } });
    expect(partial.status, partial.text).toBe(201);
    const rest = await t.call('POST', `/api/v1/payments/${uuid}/refund`, { key: m.testKey, body: {} });
    expect(rest.status, rest.text).toBe(201);
    expect(rest.body.amount).toBe(3000);
    const after = await t.call('GET', `/api/v1/payments/${uuid}`, { key: m.testKey });
    expect(after.body).toMatchObject({ status: 'refunded', amount: 10, currency: 'USD', refunded_amount: 3875 });
  });
});
