/**
 * The WordPress plugin's "Authorize only, capture later" against the real connector: the PHP plugin
 * (in the stubbed WordPress of `php/harness.php`) asks for a payment to capture later, the real
 * gateway holds the card, the connector puts the fake WooCommerce order on hold, and the plugin's
 * status hook and the panel's Capture button capture it through the real connector, which marks
 * the order paid once. A refund before the capture is refused with the connector's message.
 */
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createConnectToken } from '../../../gateway/connect/connect-token.service.js';
import { startTestConnector, type TestConnector } from '../../support/connector.js';
import { eventually } from '../../support/eventually.js';
import { type FakeWooCommerce, LOOPBACK_TEST_CALLBACKS, startFakeWooCommerce } from '../../support/fake-woocommerce.js';
import { startTestGateway, type TestGateway, type TestMerchant } from '../../support/gateway.js';
import { runPluginScenario } from './harness-with-connector.js';

const ORDER_KEY = 'wc_order_hold';
const APPROVED = '4111 1111 1111 1111';
const CAPTURE_LATER = { capture_later: 'yes' };

interface HarnessRun {
  readonly result?: { result?: string; redirect?: string; wp_error?: string; message?: string };
  readonly redirect: string | null;
  readonly output: string;
  readonly errors: string[];
  readonly options: Record<string, unknown>;
  readonly orders: Record<string, { meta: Record<string, unknown>; notes: string[]; status: string }>;
}

describe('"Authorize only, capture later" with the real connector', () => {
  let gw: TestGateway;
  let store: FakeWooCommerce;
  let connector: TestConnector;
  let merchant: TestMerchant;
  let token: string;

  const plugin = (scenario: string, options: Record<string, unknown> = {}) =>
    runPluginScenario<HarnessRun>({ connectorUrl: connector.url, token, siteUrl: store.url }, scenario, options);

  /** The store's order as the plugin sees it inside WordPress. */
  const order = (id: number, status: string, meta: Record<string, string> = {}) => ({
    order_id: id,
    order_key: ORDER_KEY,
    settings: CAPTURE_LATER,
    order: {
      number: store.order(id)?.number,
      total: store.order(id)?.total,
      status,
      payment_method: 'armenian_gateway',
      billing_email: 'ani@example.am',
      first_name: 'Ani',
      last_name: 'K',
      date_created: `${store.order(id)?.date_created_gmt}Z`,
      meta,
      saved_meta: meta,
    },
  });
  const paidNotes = (id: number) => store.notes(id).filter((n) => n.note.startsWith('Paid with'));

  /** An order placed and paid by the buyer with the setting on: the card is held, the order on hold. */
  async function heldOrder(total: string): Promise<{ id: number; uuid: string; meta: Record<string, string> }> {
    const id = store.addOrder({ total }, new Date(gw.clock.nowMs()).toISOString()).id;
    const checkout = await plugin('payment', order(id, 'pending'));
    expect(checkout.result?.result).toBe('success');
    const meta = checkout.orders[String(id)]?.meta as Record<string, string>;
    expect(meta._armenian_gateway_capture_later).toBe('yes');
    const uuid = meta._armenian_gateway_payment_uuid as string;
    (store.order(id) as { transaction_id: string }).transaction_id = uuid;
    const paid = await gw.call<Record<string, unknown>>('POST', `/api/v1/test_helpers/payments/${uuid}/pay`, {
      key: merchant.testKey,
      body: { card_number: APPROVED },
    });
    expect(paid.body).toMatchObject({ status: 'authorized', capture_method: 'manual' });
    await eventually(
      () => store.notes(id).filter((n) => n.note.startsWith('Card hold of')).length === 1,
      'the hold note',
    );
    expect(store.order(id)?.status).toBe('on-hold');
    return { id, uuid, meta };
  }

  beforeAll(async () => {
    gw = await startTestGateway('sqlite', {
      env: { GATEWAY_ALLOW_PRIVATE_WEBHOOKS: '1', GATEWAY_RATE_LIMIT_PER_MINUTE: '100000' },
    });
    store = await startFakeWooCommerce({ testCallbacks: LOOPBACK_TEST_CALLBACKS });
    connector = await startTestConnector('sqlite', gw);
    merchant = await gw.merchant();
    token = (
      await createConnectToken(gw.gateway.deps, {
        merchantId: merchant.merchantId,
        domain: merchant.hostedDomain,
        platform: 'woocommerce',
      })
    ).connect_token;
    const saved = await plugin('settings', {
      post: {
        woocommerce_armenian_gateway_enabled: '1',
        woocommerce_armenian_gateway_title: 'Bank card',
        woocommerce_armenian_gateway_description: 'Pay securely.',
        woocommerce_armenian_gateway_connect_token: token,
        woocommerce_armenian_gateway_connector_url: connector.url,
        woocommerce_armenian_gateway_capture_later: '1',
        woocommerce_armenian_gateway_test_mode: '1',
      },
    });
    const authorize = /href="([^"]*\/wc-auth\/v1\/authorize[^"]*)"/.exec(saved.output)?.[1];
    expect(authorize, saved.output).toBeDefined();
    await store.approve((authorize as string).replaceAll('&amp;', '&'));
  }, 60_000);

  afterAll(async () => {
    await connector?.close();
    await store?.close();
    await gw?.close();
  });

  it('refuses a refund before the capture; the owner completes the order and the hook captures it, paid once', async () => {
    const { id, uuid, meta } = await heldOrder('12000.00');
    const refund = await plugin('refund', { ...order(id, 'on-hold', meta), amount: '1000.00', refunds: [901] });
    expect(refund.result?.wp_error).toBe('armenian_gateway_refund_failed');
    expect(refund.result?.message).toContain('only held');

    // The owner sets it Completed in the admin: WooCommerce saves it, then the status hook runs.
    store.adminSetStatus(id, 'completed');
    const completed = await plugin('status', { ...order(id, 'on-hold', meta), to: 'completed' });
    expect(completed.orders[String(id)]?.meta._armenian_gateway_captured).toBe('12000');
    expect(completed.orders[String(id)]?.notes).toEqual([]);
    await eventually(() => paidNotes(id).length === 1, 'the paid note');
    expect(store.order(id)).toMatchObject({ status: 'completed', transaction_id: uuid });
    expect(store.order(id)?.date_paid_gmt).not.toBeNull();
    const payment = await gw.call<Record<string, unknown>>('GET', `/api/v1/payments/${uuid}`, {
      key: merchant.testKey,
    });
    expect(payment.body).toMatchObject({ status: 'completed', amount: 12000, authorized_amount: 12000 });

    // The hook again (the order set Completed twice): the same capture, no second note.
    await plugin('status', { ...order(id, 'processing', meta), to: 'completed' });
    expect(paidNotes(id)).toHaveLength(1);
  });

  it('the panel shows the hold, and its Capture button takes less: the order goes Processing, paid once', async () => {
    const { id, uuid, meta } = await heldOrder('9000.00');
    const panel = await plugin('page', {
      ...order(id, 'on-hold', meta),
      path: '/wp-admin/admin.php',
      get: { page: 'wc-orders', action: 'edit', id: String(id) },
    });
    for (const text of [
      '<th scope="row">Card hold</th><td>9,000 AMD</td>',
      'held, not captured yet',
      '>Capture</button>',
    ]) {
      expect(panel.output).toContain(text);
    }
    const pressed = await plugin('page', {
      ...order(id, 'on-hold', meta),
      path: '/wp-admin/admin-post.php',
      method: 'POST',
      get: {
        action: 'armenian_gateway_capture',
        order_id: String(id),
        _wpnonce: nonceOf(`armenian_gateway_capture_${id}`),
      },
      post: { armenian_gateway_capture_amount: '7000' },
    });
    expect(pressed.options[`_transient_armenian_gateway_check_${id}_1`]).toEqual({
      type: 'success',
      message: 'Captured 7,000 AMD: the order is being marked paid.',
    });
    await eventually(() => paidNotes(id).length === 1, 'the paid note');
    expect(store.order(id)).toMatchObject({ status: 'processing', transaction_id: uuid });
    const payment = await gw.call<Record<string, unknown>>('GET', `/api/v1/payments/${uuid}`, {
      key: merchant.testKey,
    });
    expect(payment.body).toMatchObject({ status: 'completed', amount: 7000, authorized_amount: 9000 });
    const after = await plugin('page', {
      ...order(id, 'processing', { ...meta, _armenian_gateway_captured: '7000' }),
      path: '/wp-admin/admin.php',
      get: { page: 'wc-orders', action: 'edit', id: String(id) },
    });
    expect(after.output).toContain('<th scope="row">Captured</th><td>7,000 AMD</td>');
    expect(after.output).not.toContain('>Capture</button>');
  });
});

/** The harness's nonce for an action (stubs.php wp_create_nonce). */
function nonceOf(action: string): string {
  return createHash('md5').update(`harness-nonce|${action}`).digest('hex').slice(0, 10);
}
