/**
 * The Shopify payments app end to end: Shopify (a fake, over mTLS) starts payment sessions, the
 * connector makes gateway payments (a real gateway), the buyer pays with the sandbox test helper, the
 * gateway's webhook reaches the connector, and the fake Payments Apps API sees each session resolved
 * or rejected once. Also refunds, retries of a failing Payments Apps endpoint, refusals and mTLS.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { webhookSecretsOf } from '../../../connector/connections/connection-access.js';
import { findConnection } from '../../../connector/storage/connection.repository.js';
import { findPaymentSession } from '../../../connector/storage/shopify-payment-session.repository.js';
import { MINUTE_MS } from '../../../gateway/domain/clock.js';
import { signatureHeaders } from '../../../gateway/webhooks/signer.js';
import { DIALECTS } from '../../support/databases.js';
import { eventually } from '../../support/eventually.js';
import { shopifyPost } from '../../support/fake-shopify-payments.js';
import { signProxyQuery } from '../../support/fake-shopify-storefront.js';
import { startTestGateway, type TestGateway } from '../../support/gateway.js';
import { expectedStatusEvent } from '../../support/payment-shape.js';
import { API_SECRET } from './install-support.js';
import { fixture, type PaymentsHarness, startPaymentsHarness } from './payments-support.js';

const APPROVED = '4111 1111 1111 1111';
const INSUFFICIENT_FUNDS = '4000 0000 0000 0069';

describe.each(DIALECTS)('Shopify payments app (%s)', (dialect) => {
  let gw: TestGateway;
  let h: PaymentsHarness;
  let shop: string;
  let connectionId: string;
  let shops = 0;

  beforeAll(async () => {
    gw = await startTestGateway(dialect, {
      env: { GATEWAY_ALLOW_PRIVATE_WEBHOOKS: '1', GATEWAY_CLOCK: 'manual', GATEWAY_RATE_LIMIT_PER_MINUTE: '100000' },
    });
    h = await startPaymentsHarness(dialect, gw);
    shop = `pay-shop-${dialect}.myshopify.com`;
    connectionId = await h.connectShop(shop);
  }, 60_000);
  afterAll(async () => {
    await h?.close();
    await gw?.close();
  });

  const db = () => h.connector.current().deps.db;
  const session = async (id: string) => {
    const row = await findPaymentSession(db(), id);
    if (row === undefined) throw new Error(`no session ${id}`);
    return row;
  };
  const pay = (uuid: string, card = APPROVED) =>
    gw.call('POST', `/api/v1/test_helpers/payments/${uuid}/pay`, {
      key: h.merchant.testKey,
      body: { card_number: card },
    });
  const callsFor = (gid: string, mutation?: string) =>
    h.payments.calls.filter((c) => c.variables.id === gid && (mutation === undefined || c.mutation === mutation));
  const gatewayPayments = async (orderId: string) =>
    Number(
      (
        await gw.gateway.deps.db
          .selectFrom('payments')
          .select((eb) => eb.fn.countAll().as('n'))
          .where('order_id', '=', orderId)
          .executeTakeFirstOrThrow()
      ).n,
    );
  /** The gateway's checkout page at `redirect_url` (served from the test gateway, not its public URL). */
  const checkoutPage = async (redirectUrl: string, page = '') => {
    const { pathname } = new URL(redirectUrl);
    return fetch(`${gw.url}${pathname}${page}`, { redirect: 'manual' });
  };
  /**
   * The buyer comes back to the shop through the shop's storefront: by the checkout's link once the
   * payment is decided, or (still open, e.g. from a processor's page) at the return URL the gateway
   * gave the processor, which carries the same two parameters.
   */
  const returnPage = async (id: string) => {
    const row = await session(id);
    const html = await (await checkoutPage(row.checkout_url as string)).text();
    const link = /href="(https:\/\/[^"]+\/apps\/connector-pay\/return\/[^"]+)"/
      .exec(html)?.[1]
      ?.replaceAll('&amp;', '&');
    const href =
      link ??
      `https://${row.shop}/apps/connector-pay/return/${id}?payment_uuid=${row.gateway_payment_uuid}&order_id=shopify-${id}`;
    const back = await h.storefront.visit(href);
    return { status: back.status, headers: new Headers(back.location === null ? {} : { location: back.location }) };
  };

  it('answers a repeated session POST with the same redirect_url and makes one gateway payment', async () => {
    const first = await h.postSession(shop);
    expect(first.response.status, first.response.text).toBe(200);
    expect(Object.keys(first.response.body)).toEqual(['redirect_url']);
    expect(first.response.body.redirect_url).toMatch(/\/checkout\//);

    const again = await shopifyPost(`${h.mtlsUrl}/shopify/payments/sessions`, shop, first.body, {
      ca: h.pki.ca,
      client: { cert: h.pki.clientCert, key: h.pki.clientKey },
    });
    const racing = await Promise.all(
      [1, 2].map(() =>
        shopifyPost(`${h.mtlsUrl}/shopify/payments/sessions`, shop, first.body, {
          ca: h.pki.ca,
          client: { cert: h.pki.clientCert, key: h.pki.clientKey },
        }),
      ),
    );
    for (const answer of [again, ...racing]) {
      expect(answer.status).toBe(200);
      expect(answer.body.redirect_url).toBe(first.response.body.redirect_url);
    }
    expect(await gatewayPayments(`shopify-${first.body.id}`)).toBe(1);
    const row = await session(first.body.id);
    expect(row).toMatchObject({
      state: 'open',
      amount: '1500.00',
      amount_amd: 1500,
      currency: 'AMD',
      test: 1,
      kind: 'sale',
    });
  });

  it('resolves once when the buyer pays, even with the webhook delivered twice, then the return page sends the buyer on', async () => {
    const { body } = await h.postSession(shop);
    const row = await session(body.id);
    const uuid = row.gateway_payment_uuid as string;
    expect((await pay(uuid)).status).toBe(200);
    await eventually(async () => (await session(body.id)).state === 'resolved', 'the session to be resolved');

    // The same delivery again, and another delivery of the same event: nothing is sent twice.
    const payment = (await gw.call('GET', `/api/v1/payments/${uuid}`, { key: h.merchant.testKey })).body;
    const connection = await findConnection(db(), connectionId);
    if (connection === undefined) throw new Error('no connection');
    const [secret = ''] = webhookSecretsOf(h.connector.current().deps, connection);
    for (const deliveryId of ['dup-1', 'dup-1', 'dup-2']) {
      const ts = Math.floor(gw.clock.nowMs() / 1000);
      const raw = JSON.stringify({ ...expectedStatusEvent(payment), delivery_id: deliveryId, timestamp: ts });
      const answer = await h.connector.call('POST', `/shopify/payments/webhooks/${connectionId}`, {
        rawBody: raw,
        headers: { 'Content-Type': 'application/json', ...signatureHeaders(deliveryId, ts, raw, [secret]) },
      });
      expect(answer.status, answer.text).toBe(200);
    }
    await h.connector.current().deps.background.idle();
    expect(callsFor(body.gid, 'paymentSessionResolve')).toHaveLength(1);
    expect(callsFor(body.gid, 'paymentSessionResolve')[0]?.userErrors).toEqual([]);
    expect(h.payments.state(body.gid)?.state).toBe('resolved');

    const back = await returnPage(body.id);
    expect(back.status).toBe(302);
    expect(back.headers.get('location')).toBe(h.payments.nextActionUrl(body.gid));
    expect(callsFor(body.gid)).toHaveLength(1);
  });

  it('resolves only the first paid session of a group; a second paid one is rejected and flagged for a refund', async () => {
    const group = `group-${dialect}-1=`;
    const a = await h.postSession(shop, { group });
    const b = await h.postSession(shop, { group });
    const uuidA = (await session(a.body.id)).gateway_payment_uuid as string;
    const uuidB = (await session(b.body.id)).gateway_payment_uuid as string;
    expect(uuidA).not.toBe(uuidB);
    await pay(uuidA);
    await eventually(async () => (await session(a.body.id)).state === 'resolved', 'the first session resolved');
    await pay(uuidB);
    await eventually(async () => (await session(b.body.id)).state === 'rejected', 'the second session rejected');
    const second = await session(b.body.id);
    expect(second.flag).toBe('refund_needed');
    expect(callsFor(b.body.gid, 'paymentSessionResolve')).toHaveLength(0);
    expect(callsFor(b.body.gid, 'paymentSessionReject')[0]?.variables.reason).toMatchObject({
      code: 'PROCESSING_ERROR',
    });
    expect(callsFor(a.body.gid, 'paymentSessionResolve')).toHaveLength(1);
  });

  it('rejects a declined payment with the mapped reason; the return page sends the buyer on', async () => {
    const { body } = await h.postSession(shop);
    const uuid = (await session(body.id)).gateway_payment_uuid as string;
    await pay(uuid, INSUFFICIENT_FUNDS);
    await eventually(async () => (await session(body.id)).state === 'rejected', 'the session to be rejected');
    const [reject] = callsFor(body.gid, 'paymentSessionReject');
    expect(reject?.variables.reason).toEqual({
      code: 'CARD_DECLINED',
      merchantMessage: 'Payment failed at the gateway (insufficient_funds).',
    });
    const back = await returnPage(body.id);
    expect(back.status).toBe(302);
    expect(back.headers.get('location')).toBe(h.payments.nextActionUrl(body.gid));
  });

  it('reports a payment still open when the buyer comes back with paymentSessionPending', async () => {
    const { body } = await h.postSession(shop);
    const back = await returnPage(body.id);
    expect(back.status).toBe(302);
    expect(back.headers.get('location')).toBe(h.payments.nextActionUrl(body.gid));
    const [pending] = callsFor(body.gid, 'paymentSessionPending');
    expect(pending?.variables.reason).toBe('BUYER_ACTION_REQUIRED');
    expect((await session(body.id)).state).toBe('pending');
    // Paid later: still resolved.
    await pay((await session(body.id)).gateway_payment_uuid as string);
    await eventually(async () => (await session(body.id)).state === 'resolved', 'the pending session resolved');
  });

  it('retries the Payments Apps endpoint failing twice (1 min, then 5 min) until it succeeds', async () => {
    const { body } = await h.postSession(shop);
    h.payments.failNext(2);
    await pay((await session(body.id)).gateway_payment_uuid as string);
    await eventually(async () => (await session(body.id)).attempts === 1, 'the first attempt');
    expect((await session(body.id)).state).toBe('resolve_due');
    gw.clock.advance(MINUTE_MS);
    await h.connector.runDueWork();
    expect((await session(body.id)).attempts).toBe(2);
    gw.clock.advance(4 * MINUTE_MS);
    await h.connector.runDueWork();
    expect((await session(body.id)).state).toBe('resolve_due');
    gw.clock.advance(MINUTE_MS);
    await h.connector.runDueWork();
    const done = await session(body.id);
    expect(done).toMatchObject({ state: 'resolved', attempts: 3, last_error: null });
    expect(callsFor(body.gid, 'paymentSessionResolve').map((c) => c.status)).toEqual([500, 500, 200]);
  });

  it('refund session: 201 with an empty body, one gateway refund, then refundSessionResolve', async () => {
    const { body } = await h.postSession(shop);
    const uuid = (await session(body.id)).gateway_payment_uuid as string;
    await pay(uuid);
    await eventually(async () => (await session(body.id)).state === 'resolved', 'the session resolved');
    const refund = await h.postRefund(shop, { payment_id: body.id, amount: '500.00' });
    expect(refund.response.status).toBe(201);
    expect(refund.response.text).toBe('');
    const again = await shopifyPost(`${h.mtlsUrl}/shopify/payments/refunds`, shop, refund.body, {
      ca: h.pki.ca,
      client: { cert: h.pki.clientCert, key: h.pki.clientKey },
    });
    expect(again.status).toBe(201);
    await eventually(() => h.payments.state(refund.body.gid)?.state === 'resolved', 'the refund session resolved');
    await h.connector.current().deps.background.idle();
    const refunds = await gw.call<{ data: { amount: number; status: string }[] }>(
      'GET',
      `/api/v1/payments/${uuid}/refunds`,
      {
        key: h.merchant.testKey,
      },
    );
    expect(refunds.body.data).toHaveLength(1);
    expect(refunds.body.data[0]).toMatchObject({ amount: 500, status: 'succeeded' });
    expect(callsFor(refund.body.gid, 'refundSessionResolve')).toHaveLength(1);
  });

  it("calls back with the session's own Shopify-Api-Version when supported, logging the difference; else the connector's", async () => {
    const warn = vi.spyOn(h.connector.current().deps.logger, 'warn');
    try {
      const older = await h.postSession(shop, {}, '2026-04');
      expect(older.response.status, older.response.text).toBe(200);
      expect((await session(older.body.id)).api_version).toBe('2026-04');
      expect(warn).toHaveBeenCalledWith(
        expect.objectContaining({
          session: older.body.id,
          session_api_version: '2026-04',
          configured_api_version: '2026-07',
          calls_use: '2026-04',
        }),
        expect.stringContaining('set the extension'),
      );
      await pay((await session(older.body.id)).gateway_payment_uuid as string);
      await eventually(async () => (await session(older.body.id)).state === 'resolved', 'the session resolved');
      expect(callsFor(older.body.gid).map((c) => [c.mutation, c.version, c.servedVersion])).toEqual([
        ['paymentSessionResolve', '2026-04', '2026-04'],
      ]);

      // A refund session of that payment, sent with its own version, is answered with it too.
      const refund = await h.postRefund(shop, { payment_id: older.body.id, amount: '500.00' }, '2026-01');
      expect(refund.response.status).toBe(201);
      await eventually(() => h.payments.state(refund.body.gid)?.state === 'resolved', 'the refund resolved');
      expect(callsFor(refund.body.gid).map((c) => [c.mutation, c.version])).toEqual([
        ['refundSessionResolve', '2026-01'],
      ]);

      // A version the app does not support (past its support): the connector's own version.
      const unsupported = await h.postSession(shop, {}, '2025-10');
      expect(unsupported.response.status).toBe(200);
      expect(warn).toHaveBeenCalledWith(
        expect.objectContaining({ session: unsupported.body.id, session_api_version: '2025-10', calls_use: '2026-07' }),
        expect.stringContaining('which the app does not support'),
      );
      await pay((await session(unsupported.body.id)).gateway_payment_uuid as string, INSUFFICIENT_FUNDS);
      await eventually(async () => (await session(unsupported.body.id)).state === 'rejected', 'the session rejected');
      expect(callsFor(unsupported.body.gid).map((c) => [c.mutation, c.version])).toEqual([
        ['paymentSessionReject', '2026-07'],
      ]);

      // The connector's own version: nothing to say.
      warn.mockClear();
      const same = await h.postSession(shop, {}, '2026-07');
      expect(same.response.status).toBe(200);
      expect(warn.mock.calls.filter(([fields]) => (fields as { session?: string }).session === same.body.id)).toEqual(
        [],
      );
    } finally {
      warn.mockRestore();
    }
  });

  it('refuses another currency and a fractional AMD amount (sale or authorization) with a clear 422, creating nothing', async () => {
    for (const [overrides, code] of [
      [{ currency: 'CAD', amount: '123.00' }, 'unsupported_currency'],
      [{ amount: '1500.50' }, 'fractional_amount'],
      [{ kind: 'authorization', amount: '1500.50' }, 'fractional_amount'],
    ] as const) {
      const { response, body } = await h.postSession(shop, overrides);
      expect(response.status, response.text).toBe(422);
      expect(response.body.error).toBe(code);
      expect(typeof response.body.message).toBe('string');
      expect(await findPaymentSession(db(), body.id)).toBeUndefined();
      expect(await gatewayPayments(`shopify-${body.id}`)).toBe(0);
    }
  });

  it('refuses a live session on a test connection and a shop that is not installed', async () => {
    const live = await h.postSession(shop, { test: false });
    expect(live.response.status).toBe(409);
    expect(live.response.body.error).toBe('environment_mismatch');
    shops += 1;
    const stranger = await h.postSession(`not-installed-${shops}.myshopify.com`);
    expect(stranger.response.status).toBe(401);
    expect(stranger.response.body.error).toBe('shop_not_installed');
  });

  it("sends the gateway storefront URLs on the shop's domain; the buyer who cancels goes back to Shopify's checkout", async () => {
    const { body } = await h.postSession(shop);
    const row = await session(body.id);
    const payment = (await gw.call('GET', `/api/v1/payments/${row.gateway_payment_uuid}`, { key: h.merchant.testKey }))
      .body;
    expect(payment.status).toBe('pending');

    // The gateway's cancel link leads to the storefront's proxied cancel page with its two parameters.
    const cancel = await checkoutPage(row.checkout_url as string, '/cancel');
    expect(cancel.status).toBe(303);
    const location = new URL(cancel.headers.get('location') ?? '');
    expect(`${location.origin}${location.pathname}`).toBe(`https://${shop}/apps/connector-pay/cancel/${body.id}`);
    expect(location.searchParams.get('payment_uuid')).toBe(row.gateway_payment_uuid);

    const back = await h.storefront.visit(location.href);
    expect(back.status).toBe(302);
    expect(back.location).toBe(fixture('payment-session').payment_method.data.cancel_url);
    const forwarded = new URL(h.storefront.forwarded.at(-1)?.url ?? '');
    expect(forwarded.pathname).toBe(`/shopify/proxy/cancel/${body.id}`);
    expect(forwarded.searchParams.get('shop')).toBe(shop);
    // Cancelling decides nothing: the payment expires at the gateway and the session is then rejected.
    expect((await session(body.id)).state).toBe('open');
    expect(callsFor(body.gid)).toHaveLength(0);
  });

  it("refuses a proxied page without Shopify's signature, with a stale or forged one, or for another shop's session", async () => {
    const { body } = await h.postSession(shop);
    const direct = await h.connector.call('GET', `/shopify/proxy/return/${body.id}`);
    expect(direct.status).toBe(401);
    expect(direct.body.error).toBe('invalid_proxy_signature');

    const signed = (shopName: string, timestampS: number, secret = API_SECRET) => {
      const params: [string, string][] = [
        ['shop', shopName],
        ['logged_in_customer_id', ''],
        ['path_prefix', '/apps/connector-pay'],
        ['timestamp', String(timestampS)],
      ];
      const query = new URLSearchParams(params);
      query.append('signature', signProxyQuery(secret, params));
      return fetch(`${h.connector.url}/shopify/proxy/return/${body.id}?${query}`, { redirect: 'manual' });
    };
    const nowS = Math.floor(gw.clock.nowMs() / 1000);
    for (const refused of [await signed(shop, nowS - 91), await signed(shop, nowS, 'shpss_not_the_app_secret')]) {
      expect(refused.status).toBe(401);
      expect(((await refused.json()) as { error: string }).error).toBe('invalid_proxy_signature');
    }
    // Signed by Shopify, but for a shop the session does not belong to.
    const other = await h.storefront.visit(`https://someone-else.myshopify.com/apps/connector-pay/return/${body.id}`);
    expect(other.status).toBe(404);
    expect(callsFor(body.gid)).toHaveLength(0);

    const fresh = await signed(shop, nowS);
    expect(fresh.status).toBe(302);
    expect(fresh.headers.get('cache-control')).toBe('no-store');
    expect(fresh.headers.get('location')).toBe(h.payments.nextActionUrl(body.gid));
  });

  it("a live shop: the token of the shop's own domain makes live payments whose return and cancel URLs lie on it", async () => {
    const liveShop = `live-shop-${dialect}.myshopify.com`;
    const owner = await gw.liveMerchant(liveShop);
    await h.connectShop(liveShop, 'live', { merchantId: owner.merchantId, domain: liveShop });
    const { response, body } = await h.postSession(liveShop, { test: false });
    expect(response.status, response.text).toBe(200);
    const row = await session(body.id);
    expect(row.test).toBe(0);
    const payment = (await gw.call('GET', `/api/v1/payments/${row.gateway_payment_uuid}`, { key: owner.liveKey })).body;
    expect(payment).toMatchObject({ status: 'pending', livemode: true });
    const cancel = await checkoutPage(row.checkout_url as string, '/cancel');
    expect(new URL(cancel.headers.get('location') ?? '').host).toBe(liveShop);
  });

  it('mTLS: refuses a client without a certificate or with one of another CA; the plain listener refuses the route', async () => {
    const { body } = { body: { id: 'x' } };
    await expect(shopifyPost(`${h.mtlsUrl}/shopify/payments/sessions`, shop, body, { ca: h.pki.ca })).rejects.toThrow();
    await expect(
      shopifyPost(`${h.mtlsUrl}/shopify/payments/sessions`, shop, body, {
        ca: h.pki.ca,
        client: { cert: h.pki.strangerCert, key: h.pki.strangerKey },
      }),
    ).rejects.toThrow();
    const plain = await h.connector.call('POST', '/shopify/payments/sessions', {
      body,
      headers: { 'Shopify-Shop-Domain': shop, 'Shopify-Request-Id': 'r', 'Shopify-Api-Version': '2026-07' },
    });
    expect(plain.status).toBe(401);
    expect(plain.body.error).toBe('client_certificate_required');
  });
});
