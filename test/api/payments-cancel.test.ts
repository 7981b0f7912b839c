/**
 * `POST /api/v1/payments/{uuid}/cancel` (an addition) over HTTP, on both databases: an open payment
 * becomes `expired` with `failure_code` `cancelled` at once, sends its `expired` event, frees its
 * order, and can no longer be paid on its checkout or with a test card; cancelling again answers it
 * unchanged; a paid payment is 409 `payment_not_cancellable`; another account's, or another
 * domain's for a connect token, is 404.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { issueFormToken } from '../../gateway/checkout/form-token.js';
import { createConnectToken } from '../../gateway/connect/connect-token.service.js';
import { DIALECTS } from '../support/databases.js';
import {
  expectErrorBody,
  paymentBody,
  startTestGateway,
  TEST_GATEWAY_SECRET,
  type TestGateway,
  type TestMerchant,
  uniqueHost,
} from '../support/gateway.js';

type Json = Record<string, unknown>;
const APPROVED = '4111 1111 1111 1111';

describe.each(DIALECTS)('cancelling a payment (%s)', (dialect) => {
  let t: TestGateway;
  let shop: TestMerchant;

  beforeAll(async () => {
    t = await startTestGateway(dialect);
    shop = await t.merchant();
  });
  afterAll(async () => {
    await t?.close();
  });

  async function create(body: Json = {}, key = shop.testKey): Promise<Json> {
    const res = await t.call('POST', '/api/v1/payments', { key, body: paymentBody(body) });
    expect(res.status, res.text).toBe(201);
    return res.body;
  }
  const cancel = (uuid: unknown, key = shop.testKey) =>
    t.call('POST', `/api/v1/payments/${String(uuid)}/cancel`, { key });
  const statusEvents = (uuid: unknown) =>
    t.gateway.deps.db
      .selectFrom('outbox_events')
      .select('payload')
      .where('payment_id', '=', String(uuid))
      .where('event', '=', 'transaction.status.updated')
      .execute();
  const checkoutPath = (payment: Json) => new URL(String(payment.checkout_url)).pathname;

  it('expires an open payment at once: its checkout and test cards can no longer pay it, its order is free', async () => {
    const payment = await create({ order_id: 'cancel-1' });
    const res = await cancel(payment.uuid);
    expect(res.status, res.text).toBe(200);
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(res.body).toMatchObject({ uuid: payment.uuid, status: 'expired', failure_code: 'cancelled' });
    const events = await statusEvents(payment.uuid);
    expect(events).toHaveLength(1);
    expect(JSON.parse(String(events[0]?.payload)).transaction).toMatchObject({ status: 'expired' });

    const page = await fetch(`${t.url}${checkoutPath(payment)}`);
    expect(page.status).toBe(200);
    expect(await page.text()).not.toContain('name="processor"');
    const paid = await t.call('POST', `/api/v1/test_helpers/payments/${String(payment.uuid)}/pay`, {
      key: shop.testKey,
      body: { card_number: APPROVED },
    });
    expect(paid.body).toMatchObject({ status: 'expired', completed_at: null });

    // Again: answered as it is, nothing more sent.
    const again = await cancel(payment.uuid);
    expect(again.status).toBe(200);
    expect(again.body).toMatchObject({ status: 'expired', failure_code: 'cancelled' });
    expect(await statusEvents(payment.uuid)).toHaveLength(1);

    // The order may be paid by a new payment.
    const retry = await create({ order_id: 'cancel-1' });
    expect(retry.status).toBe('pending');
  });

  it('cancels a payment waiting on the test page: a card posted there charges nothing', async () => {
    const payment = await create();
    const page = await fetch(`${t.url}${checkoutPath(payment)}`, { redirect: 'manual' });
    const html = await page.text();
    const token = /name="form_token" value="([^"]+)"/.exec(html)?.[1] ?? '';
    const chose = await fetch(`${t.url}${checkoutPath(payment)}/method`, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ form_token: token, processor: 'sandbox' }).toString(),
    });
    expect(chose.status).toBe(303);
    expect((await cancel(payment.uuid)).body).toMatchObject({ status: 'expired', failure_code: 'cancelled' });
    const checkoutToken = String(payment.checkout_url).split('/checkout/')[1] ?? '';
    const posted = await fetch(`${t.url}${checkoutPath(payment)}/sandbox`, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        form_token: issueFormToken(TEST_GATEWAY_SECRET, checkoutToken, 'sandbox', t.clock.nowMs()),
        card_number: APPROVED,
      }).toString(),
    });
    expect(posted.status).toBe(303);
    const read = await t.call('GET', `/api/v1/payments/${String(payment.uuid)}`, { key: shop.testKey });
    expect(read.body).toMatchObject({ status: 'expired', completed_at: null });
  });

  it('refuses to cancel a paid payment (409 payment_not_cancellable), and hides what the caller may not see', async () => {
    const payment = await create();
    await t.call('POST', `/api/v1/test_helpers/payments/${String(payment.uuid)}/pay`, {
      key: shop.testKey,
      body: { card_number: APPROVED },
    });
    const refused = await cancel(payment.uuid);
    const body = expectErrorBody(refused, 409, 'payment_not_cancellable', ['payment_status']);
    expect(body.payment_status).toBe('completed');

    const other = await t.merchant();
    expectErrorBody(await cancel(payment.uuid, other.testKey), 404, 'not_found');
    expectErrorBody(await cancel('not-a-uuid'), 404, 'not_found');

    // A payments-only key may cancel; a connect token only its own domain's payments.
    const paymentsOnly = await t.key(shop.merchantId, 'test', 'payments');
    const open = await create();
    expect((await cancel(open.uuid, paymentsOnly)).status).toBe(200);
    const host = uniqueHost('cancel');
    const live = await t.liveMerchant(host);
    const token = (
      await createConnectToken(t.gateway.deps, { merchantId: live.merchantId, domain: host, platform: 'woocommerce' })
    ).connect_token;
    const hosted = await create({}, live.testKey);
    const asToken = await t.call('POST', `/api/v1/payments/${String(hosted.uuid)}/cancel`, {
      headers: { 'X-Service-Connect': token },
    });
    expectErrorBody(asToken, 404, 'not_found');
  });
});
