/**
 * The merchant's journey with the payments app, against a Shopify whose Payments Apps API validates
 * every document against its published schema: install (OAuth) -> the settings saved in the app's
 * page with the payments app as the way buyers pay -> `paymentsAppConfigure(ready: true)` with the
 * gateway account as external handle (what lets the merchant activate the provider in Settings >
 * Payments) -> a payment session -> paid at the gateway -> resolved; a declined card -> rejected with
 * the mapped reason; the connection removed -> `paymentsAppConfigure(ready: false)`. Also: a
 * configuration Shopify does not take at once is retried from the queue; one it refuses is shown.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findPaymentSession } from '../../../connector/storage/shopify-payment-session.repository.js';
import { createConnectToken } from '../../../gateway/connect/connect-token.service.js';
import { MINUTE_MS } from '../../../gateway/domain/clock.js';
import { DIALECTS } from '../../support/databases.js';
import { eventually } from '../../support/eventually.js';
import { startTestGateway, type TestGateway, type TestMerchant } from '../../support/gateway.js';
import { install, sessionToken } from './install-support.js';
import { type PaymentsHarness, startPaymentsHarness } from './payments-support.js';

// biome-ignore lint/suspicious/noExplicitAny: JSON answers read field by field
type Json = Record<string, any>;

const APPROVED = '4111 1111 1111 1111';
const INSUFFICIENT_FUNDS = '4000 0000 0000 0069';

describe.each(DIALECTS)("the merchant's journey with the payments app (%s)", (dialect) => {
  let gw: TestGateway;
  let h: PaymentsHarness;
  const shop = `journey-${dialect}.myshopify.com`;
  let token: string;
  let merchant: TestMerchant;
  const newToken = async () =>
    (
      await createConnectToken(gw.gateway.deps, {
        merchantId: merchant.merchantId,
        domain: shop,
        platform: 'shopify',
        environment: 'test',
      })
    ).connect_token;

  beforeAll(async () => {
    gw = await startTestGateway(dialect, {
      env: { GATEWAY_ALLOW_PRIVATE_WEBHOOKS: '1', GATEWAY_CLOCK: 'manual', GATEWAY_RATE_LIMIT_PER_MINUTE: '100000' },
    });
    h = await startPaymentsHarness(dialect, gw);
    // The shop's own domain, verified at the gateway: what a Shopify connect token is bound to.
    merchant = await gw.merchant({ domains: [shop], verifyDomains: true });
  }, 60_000);
  afterAll(async () => {
    await h?.close();
    await gw?.close();
  });

  const db = () => h.connector.current().deps.db;
  const page = (method: string, path: string, body?: unknown) =>
    h.connector.call<Json>(method, `/shopify/api${path}`, {
      headers: { Authorization: `Bearer ${sessionToken(shop, gw.clock.nowMs())}` },
      ...(body === undefined ? {} : { body }),
    });
  const session = async (id: string) => {
    const row = await findPaymentSession(db(), id);
    if (row === undefined) throw new Error(`no session ${id}`);
    return row;
  };
  const pay = async (id: string, card: string) =>
    gw.call('POST', `/api/v1/test_helpers/payments/${(await session(id)).gateway_payment_uuid}/pay`, {
      key: merchant.testKey,
      body: { card_number: card },
    });
  const configureCalls = () => h.payments.calls.filter((c) => c.shop === shop && c.mutation === 'paymentsAppConfigure');

  it('install, save the settings: Shopify is told the provider is ready, with the gateway account', async () => {
    const oauthApp = { apiKey: '', apiSecret: '', redirectUri: `${h.connector.url}/shopify/auth/callback`, scopes: [] };
    await install({ connector: h.connector, fake: h.oauth, app: oauthApp, close: async () => {} }, shop);
    token = await newToken();
    // Before the settings: nothing configured, nothing told.
    expect((await page('GET', '/settings')).body.payments_app).toBeNull();
    expect(h.payments.configuration(shop)).toBeUndefined();

    const saved = await page('PUT', '/settings', {
      connect_token: token,
      way: 'payments_app',
      manual_method_name: '',
      test_mode: true,
    });
    expect(saved.status, saved.text).toBe(200);
    const handle = `Gateway account ${merchant.merchantId} (test)`;
    expect(h.payments.configuration(shop)).toEqual({ ready: true, externalHandle: handle });
    expect(configureCalls().map((c) => [c.variables, c.errors ?? [], c.version])).toEqual([
      [{ ready: true, externalHandle: handle }, [], '2026-07'],
    ]);
    expect(saved.body.payments_app).toMatchObject({
      ready: true,
      external_handle: handle,
      state: 'sent',
      configured_at: expect.any(String),
      last_error: null,
    });
    // Saving the same settings again tells Shopify nothing new.
    expect(
      (await page('PUT', '/settings', { way: 'payments_app', manual_method_name: '', test_mode: true })).status,
    ).toBe(200);
    expect(configureCalls()).toHaveLength(1);
  });

  it('a payment session paid at the gateway is resolved; a declined one rejected with the mapped reason', async () => {
    const paid = await h.postSession(shop);
    expect(paid.response.status, paid.response.text).toBe(200);
    await pay(paid.body.id, APPROVED);
    await eventually(async () => (await session(paid.body.id)).state === 'resolved', 'the session resolved');
    expect(h.payments.state(paid.body.gid)?.state).toBe('resolved');
    const resolve = h.payments.calls.filter((c) => c.variables.id === paid.body.gid);
    expect(resolve.map((c) => [c.mutation, c.errors ?? [], c.userErrors])).toEqual([['paymentSessionResolve', [], []]]);

    const declined = await h.postSession(shop);
    await pay(declined.body.id, INSUFFICIENT_FUNDS);
    await eventually(async () => (await session(declined.body.id)).state === 'rejected', 'the session rejected');
    expect(h.payments.state(declined.body.gid)).toMatchObject({
      state: 'rejected',
      reason: { code: 'CARD_DECLINED', merchantMessage: 'Payment failed at the gateway (insufficient_funds).' },
    });
  });

  it('removing the connection tells Shopify the provider is not ready any more', async () => {
    const removed = await h.connector.call<Json>('DELETE', '/v1/connection', { token });
    expect(removed.status, removed.text).toBe(200);
    await h.connector.current().deps.background.idle();
    expect(h.payments.configuration(shop)).toEqual({
      ready: false,
      externalHandle: `Gateway account ${merchant.merchantId} (test)`,
    });
    expect(configureCalls().map((c) => c.variables.ready)).toEqual([true, false]);
    expect((await page('GET', '/settings')).body.payments_app).toMatchObject({ ready: false, state: 'sent' });
  });

  it('a configuration Shopify did not take is sent again from the queue; one it refuses is shown, not retried', async () => {
    token = await newToken();
    h.payments.failNext(1, 'http_500');
    const saved = await page('PUT', '/settings', {
      connect_token: token,
      way: 'payments_app',
      manual_method_name: '',
      test_mode: true,
    });
    expect(saved.status, saved.text).toBe(200);
    expect(saved.body.payments_app).toMatchObject({
      ready: true,
      state: 'due',
      last_error: expect.stringContaining('500'),
    });
    expect(h.payments.configuration(shop)?.ready).toBe(false);
    gw.clock.advance(MINUTE_MS);
    await h.connector.runDueWork();
    expect(h.payments.configuration(shop)?.ready).toBe(true);
    expect((await page('GET', '/settings')).body.payments_app).toMatchObject({ ready: true, state: 'sent' });

    // Moving to the manual bridge is "not ready" for the payments app.
    const bridge = await page('PUT', '/settings', {
      way: 'manual_bridge',
      manual_method_name: 'Card',
      test_mode: true,
    });
    expect(bridge.status).toBe(200);
    expect(h.payments.configuration(shop)?.ready).toBe(false);
    expect(bridge.body.payments_app).toMatchObject({ ready: false, state: 'sent' });

    // Refused by Shopify (userErrors): failed, shown with Shopify's message, not sent again by the job.
    h.payments.refuseConfiguration('The payments app is not approved for this shop');
    try {
      const refused = await page('PUT', '/settings', { way: 'payments_app', manual_method_name: '', test_mode: true });
      expect(refused.status).toBe(200);
      expect(refused.body.payments_app).toMatchObject({
        ready: true,
        state: 'failed',
        last_error: 'The payments app is not approved for this shop',
      });
      const calls = configureCalls().length;
      gw.clock.advance(6 * 60 * MINUTE_MS);
      await h.connector.runDueWork();
      expect(configureCalls()).toHaveLength(calls);
    } finally {
      h.payments.refuseConfiguration(null);
    }
    // Saving again asks again.
    const again = await page('PUT', '/settings', { way: 'payments_app', manual_method_name: '', test_mode: true });
    expect(again.body.payments_app).toMatchObject({ ready: true, state: 'sent', last_error: null });
    expect(h.payments.configuration(shop)?.ready).toBe(true);
  });
});
