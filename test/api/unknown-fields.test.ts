/**
 * A request body names only fields the API has: a typo (`callbak_url` for `callback_url`) would
 * otherwise be dropped in silence, and with it the webhook address or the refund's reason. Every
 * write answers 422 `validation_failed` naming the unknown field, and writes nothing.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UNKNOWN_FIELD } from '../../gateway/api/schemas/validation.js';
import { DIALECTS } from '../support/databases.js';
import { paymentBody, startTestGateway, type TestGateway, type TestMerchant, uniqueHost } from '../support/gateway.js';

type Json = Record<string, unknown>;

describe.each(DIALECTS)('unknown fields in a request body (%s)', (dialect) => {
  let t: TestGateway;
  let m: TestMerchant;

  beforeAll(async () => {
    t = await startTestGateway(dialect);
    m = await t.merchant();
  });
  afterAll(async () => t?.close());

  const refused = (res: { status: number; body: Json }, field: string) => {
    expect(res.status, JSON.stringify(res.body)).toBe(422);
    expect(res.body.error).toBe('validation_failed');
    expect((res.body.errors as Record<string, string[]>)[field]).toEqual([UNKNOWN_FIELD]);
  };
  const paymentsOf = async (orderId: string) =>
    (await t.call<{ data: Json[] }>('GET', `/api/v1/payments?order_id=${orderId}`, { key: m.testKey })).body.data;

  it('refuses a payment with a misspelt field, at the top and in an order line, and creates none', async () => {
    const body = paymentBody({ callbak_url: 'https://shop.example/hook' });
    refused(await t.call('POST', '/api/v1/payments', { key: m.testKey, body }), 'callbak_url');
    const lines = paymentBody({ items: [{ name: 'Cup', unit_price: 5000, quantity: 1, clasification_code: '1' }] });
    refused(await t.call('POST', '/api/v1/payments', { key: m.testKey, body: lines }), 'items.0.clasification_code');
    expect(await paymentsOf(String(body.order_id))).toEqual([]);
    expect(await paymentsOf(String(lines.order_id))).toEqual([]);
    // The same request without the typo is fine.
    const { callbak_url: _, ...right } = body;
    expect((await t.call('POST', '/api/v1/payments', { key: m.testKey, body: right })).status).toBe(201);
  });

  it('refuses a payment link, a refund, a purchase, an auto top-up and a test card with an unknown field', async () => {
    const links = async () =>
      (await t.call<{ data: Json[] }>('GET', '/api/v1/payment_links', { key: m.testKey })).body.data.length;
    const linksBefore = await links();
    refused(
      await t.call('POST', '/api/v1/payment_links', { key: m.testKey, body: { amount: 1200, descripton: 'Tea' } }),
      'descripton',
    );
    expect(await links()).toBe(linksBefore);

    const created = await t.call<Json>('POST', '/api/v1/payments', { key: m.testKey, body: paymentBody() });
    const uuid = String(created.body.uuid);
    refused(
      await t.call('POST', `/api/v1/test_helpers/payments/${uuid}/pay`, {
        key: m.testKey,
        body: { card_number: '4111 1111 1111 1111', cvv: '123' },
      }),
      'cvv',
    );
    const paid = await t.call('POST', `/api/v1/test_helpers/payments/${uuid}/pay`, {
      key: m.testKey,
      body: { card_number: '4111 1111 1111 1111' },
    });
    expect(paid.status).toBe(200);
    refused(
      await t.call('POST', `/api/v1/payments/${uuid}/refund`, { key: m.testKey, body: { amount: 100, reasn: 'cup' } }),
      'reasn',
    );
    refused(
      await t.call('POST', `/api/v1/payments/${uuid}/processor_reference`, {
        key: m.testKey,
        body: { referense: '1234567' },
      }),
      'referense',
    );
    const after = await t.call<Json>('GET', `/api/v1/payments/${uuid}`, { key: m.testKey });
    expect(after.body.refunded_amount ?? 0).toBe(0);

    // Buying units needs a verified business.
    const verified = await t.liveMerchant(uniqueHost('units'));
    refused(
      await t.call('POST', '/api/v1/billing/purchases', {
        key: verified.testKey,
        headers: { 'Idempotency-Key': `units-${Math.random().toString(36).slice(2)}` },
        body: { counter: 'transactions', quantity: 100, quantiy: 100 },
      }),
      'quantiy',
    );
    refused(
      await t.call('PUT', '/api/v1/billing/auto-topup/transactions', {
        key: verified.testKey,
        body: { enabled: true, threshold_qty: 10, refill_qty: 100, treshold: 5 },
      }),
      'treshold',
    );
  });
});
