/**
 * The WordPress plugin against the real connector: the PHP plugin (in the stubbed WordPress of
 * `php/harness.php`, one PHP process per request as under PHP-FPM) calls a real connector, which
 * talks to a real gateway and to a fake WooCommerce store. The plugin's own tests play the connector
 * from its documented contract; this file checks that the plugin and the connector agree on it:
 * settings -> connection, checkout with the order snapshot (no call back into the store while the
 * plugin waits), the buyer's return with the exact URL the gateway builds, the order panel, the
 * reconciliation page, and the health notice once the connect token is revoked.
 */
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { shopUrl } from '../../../gateway/checkout/links.js';
import { createConnectToken, revokeConnectToken } from '../../../gateway/connect/connect-token.service.js';
import { startTestConnector, type TestConnector } from '../../support/connector.js';
import { eventually } from '../../support/eventually.js';
import { type FakeWooCommerce, LOOPBACK_TEST_CALLBACKS, startFakeWooCommerce } from '../../support/fake-woocommerce.js';
import { startTestGateway, type TestGateway, type TestMerchant } from '../../support/gateway.js';
import { runPluginScenario } from './harness-with-connector.js';

const ORDER_KEY = 'wc_order_e2e';
const APPROVED = '4111 1111 1111 1111';

interface HarnessRun {
  readonly result?: { result?: string; redirect?: string };
  readonly redirect: string | null;
  readonly died: { message: string; status: number } | null;
  readonly output: string;
  readonly errors: string[];
  readonly orders: Record<string, { meta: Record<string, unknown> }>;
}

describe('the WordPress plugin with the real connector', () => {
  let gw: TestGateway;
  let store: FakeWooCommerce;
  let connector: TestConnector;
  let merchant: TestMerchant;
  let token: string;
  let tokenId: string;
  let orderId: number;
  let paymentUuid: string;

  /** One plugin request, in the store's WordPress (its home URL is the fake store's). */
  const plugin = (scenario: string, options: Record<string, unknown> = {}) =>
    runPluginScenario<HarnessRun>({ connectorUrl: connector.url, token, siteUrl: store.url }, scenario, options);

  /** The store's order as the plugin sees it inside WordPress. */
  const order = (id = orderId, uuid: string | undefined = paymentUuid) => ({
    order_id: id,
    order_key: ORDER_KEY,
    order: {
      number: store.order(id)?.number,
      total: store.order(id)?.total,
      status: 'pending',
      payment_method: 'armenian_gateway',
      billing_email: 'ani@example.am',
      first_name: 'Ani',
      last_name: 'K',
      date_created: `${store.order(id)?.date_created_gmt}Z`,
      meta: uuid ? { _armenian_gateway_payment_uuid: uuid } : {},
    },
  });
  /** An order placed now (by the gateway's clock, which the connector shares). */
  const placeOrder = (total: string) => store.addOrder({ total }, new Date(gw.clock.nowMs()).toISOString()).id;
  const reconcilePage = async (post: Record<string, string>): Promise<string> => {
    const started = await plugin('page', {
      path: '/wp-admin/admin-post.php',
      method: 'POST',
      post: { action: 'armenian_gateway_reconcile', _wpnonce: nonceOf('armenian_gateway_reconcile'), ...post },
    });
    const redirect = new URL(started.redirect as string);
    expect(redirect.searchParams.get('run')).toBeTruthy();
    let shown = '';
    await eventually(async () => {
      const page = await plugin('page', {
        path: '/wp-admin/admin.php',
        get: Object.fromEntries(redirect.searchParams),
      });
      shown = page.output;
      return !shown.includes('data-armenian-gateway-reload');
    }, 'the run to finish');
    return shown;
  };

  beforeAll(async () => {
    gw = await startTestGateway('sqlite', {
      env: { GATEWAY_ALLOW_PRIVATE_WEBHOOKS: '1', GATEWAY_RATE_LIMIT_PER_MINUTE: '100000' },
    });
    store = await startFakeWooCommerce({ testCallbacks: LOOPBACK_TEST_CALLBACKS });
    connector = await startTestConnector('sqlite', gw);
    merchant = await gw.merchant();
    const created = await createConnectToken(gw.gateway.deps, {
      merchantId: merchant.merchantId,
      domain: merchant.hostedDomain,
      platform: 'woocommerce',
    });
    token = created.connect_token;
    tokenId = created.id;
  }, 60_000);

  afterAll(async () => {
    await connector?.close();
    await store?.close();
    await gw?.close();
  });

  it('saving the settings registers the store; after the key exchange the settings page says Connected', async () => {
    const saved = await plugin('settings', {
      post: {
        woocommerce_armenian_gateway_enabled: '1',
        woocommerce_armenian_gateway_title: 'Bank card or wallet',
        woocommerce_armenian_gateway_description: 'Pay securely.',
        woocommerce_armenian_gateway_connect_token: token,
        woocommerce_armenian_gateway_connector_url: connector.url,
        woocommerce_armenian_gateway_test_mode: '1',
      },
    });
    const authorize = /href="([^"]*\/wc-auth\/v1\/authorize[^"]*)"/.exec(saved.output)?.[1];
    expect(authorize, saved.output).toBeDefined();
    await store.approve((authorize as string).replaceAll('&amp;', '&'));

    const settings = await plugin('admin');
    expect(settings.output).toContain('Connected');
    expect(settings.output).toContain('Environment: test (no real money is taken)');
  });

  it('checkout sends the order snapshot: the connector creates the payment without calling the store', async () => {
    orderId = placeOrder('1500.00');
    const storeCallsBefore = store.requests.length;
    const checkout = await plugin('payment', order());
    expect(checkout.result?.result).toBe('success');
    expect(checkout.result?.redirect).toMatch(/\/checkout\//);
    expect(store.requests.length).toBe(storeCallsBefore);
    paymentUuid = checkout.orders[String(orderId)]?.meta._armenian_gateway_payment_uuid as string;
    expect(paymentUuid).toMatch(/^[0-9a-f-]{36}$/);

    const payment = await gw.call<Record<string, unknown>>('GET', `/api/v1/payments/${paymentUuid}`, {
      key: merchant.testKey,
    });
    expect(payment.body).toMatchObject({
      amount: 1500,
      currency: 'AMD',
      description: `Order #${store.order(orderId)?.number}`,
    });
  });

  it('the buyer comes back through the exact URL the gateway builds and lands on the thank-you page', async () => {
    const paid = await gw.call('POST', `/api/v1/test_helpers/payments/${paymentUuid}/pay`, {
      key: merchant.testKey,
      body: { card_number: APPROVED },
    });
    expect(paid.status).toBe(200);
    const payment = await gw.call<{ order_id: string }>('GET', `/api/v1/payments/${paymentUuid}`, {
      key: merchant.testKey,
    });
    const returnUrl = `${store.url}/?wc-api=wc_armenian_gateway&apg_order=${orderId}&apg_key=${ORDER_KEY}`;
    const back = shopUrl(returnUrl, { uuid: paymentUuid, orderId: payment.body.order_id });
    const outcome = await plugin('return', { ...order(), get: Object.fromEntries(new URL(back).searchParams) });
    expect(outcome.died).toBeNull();
    expect(outcome.redirect).toBe(`${store.url}/checkout/order-received/${orderId}/?key=${ORDER_KEY}`);
    // Marked paid in the store once, after the connector answered the plugin.
    await eventually(() => store.order(orderId)?.date_paid_gmt != null, 'the order to be marked paid');
    expect(store.order(orderId)?.transaction_id).toBe(paymentUuid);
  });

  it('the order panel shows the payment as the connector reads it back', async () => {
    const panel = await plugin('page', {
      ...order(),
      path: '/wp-admin/admin.php',
      get: { page: 'wc-orders', action: 'edit', id: String(orderId) },
    });
    for (const text of [paymentUuid, 'completed', 'sandbox', '1,500 AMD', 'test (no real money)', 'marked paid']) {
      expect(panel.output).toContain(text);
    }
  });

  it('the reconciliation page finds an order paid at the gateway only, and its repair marks it paid once', async () => {
    // The buyer pays; the gateway's webhook reaches the connector, but the store fails the one call
    // that marks the order paid (its retry is not due yet): paid at the gateway, unpaid in the store.
    const id = placeOrder('2500.00');
    const checkout = await plugin('payment', order(id, undefined));
    const uuid = checkout.orders[String(id)]?.meta._armenian_gateway_payment_uuid as string;
    const markPaid = (r: { method: string; route: string }) => r.method === 'PUT' && r.route === `orders/${id}`;
    store.failNext(1, 503, { method: 'PUT', route: new RegExp(`^orders/${id}$`) });
    const paid = await gw.call('POST', `/api/v1/test_helpers/payments/${uuid}/pay`, {
      key: merchant.testKey,
      body: { card_number: APPROVED },
    });
    expect(paid.status).toBe(200);
    await eventually(() => store.requests.some(markPaid), 'the webhook to try marking the order paid');
    expect(store.order(id)?.date_paid_gmt).toBeNull();

    const day = new Date(gw.clock.nowMs()).toISOString().slice(0, 10);
    const found = await reconcilePage({ from: day, to: day });
    expect(found).toContain('2 orders checked. 1 mismatch:');
    expect(found).toContain('<td>Paid at the gateway, unpaid in the store</td>');
    expect(found).toContain(`<td>#${store.order(id)?.number}</td>`);
    expect(found).toContain(uuid);
    expect(found).toContain('Repair the safe ones');
    expect(store.order(id)?.date_paid_gmt).toBeNull();
    // The finding is written on the order, once.
    const findingNotes = () => store.notes(id).filter((n) => n.note.includes(uuid) && !n.note.startsWith('Paid with'));
    expect(findingNotes()).toHaveLength(1);

    // "Repair the safe ones" names the run shown: the repair covers exactly its range.
    const run = /name="repair_run" value="([0-9a-f-]{36})"/.exec(found)?.[1] as string;
    expect(run).toBeTruthy();
    const repaired = await reconcilePage({ from: day, to: day, repair_run: run });
    expect(repaired).toContain('Repaired: the order was marked paid.');
    expect(store.order(id)?.transaction_id).toBe(uuid);
    // The failed try and the repair's: the order was marked paid once.
    expect(store.requests.filter(markPaid)).toHaveLength(2);
    expect(store.notes(id).filter((n) => n.note.startsWith('Paid with'))).toHaveLength(1);

    const clean = await reconcilePage({ from: day, to: day });
    expect(clean).toContain('2 orders checked. Everything matches.');
  });

  it('once the connect token is revoked, the admin notice says so and what to do', async () => {
    await revokeConnectToken(gw.gateway.deps, tokenId);
    const dashboard = await plugin('page', { path: '/wp-admin/plugins.php' });
    expect(dashboard.output).toMatch(/connect token .*(revoked|no longer accepted)/i);
  });
});

/** The harness's nonce for an action (stubs.php wp_create_nonce). */
function nonceOf(action: string): string {
  return createHash('md5').update(`harness-nonce|${action}`).digest('hex').slice(0, 10);
}
