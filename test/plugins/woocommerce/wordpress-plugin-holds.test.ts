/**
 * The WordPress plugin's "Authorize only, capture later", run by `php/harness.php` inside stubs of
 * WordPress and WooCommerce against the fake connector (its plugin-facing API, docs/connector.md):
 * the setting (off by default, cards only), the payment asked for with `capture_method: manual`,
 * the status hooks that capture a held order, the order panel's hold and its Capture button, the
 * buyer's message when no method can hold, and the refusal of a refund before capture.
 */
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { FakeConnector, type Json, PAYMENT_UUID, paymentState, refusal, TOKEN } from './fake-connector.js';

const run = promisify(execFile);
const HARNESS = fileURLToPath(new URL('./php/harness.php', import.meta.url));
const HPOS_EDIT = { get: { page: 'wc-orders', action: 'edit', id: '123' } };
const CAPTURE_LATER = { settings: { capture_later: 'yes' } };
/** An order of ours whose payment was created to be captured later. */
const HELD_ORDER = {
  order: {
    status: 'on-hold',
    meta: { _armenian_gateway_capture_later: 'yes' },
    saved_meta: { _armenian_gateway_capture_later: 'yes' },
  },
};

interface Run {
  readonly result?: Json;
  readonly notices: Array<{ type: string; message: string }>;
  readonly redirect: string | null;
  readonly died: { message: string; status: number } | null;
  readonly errors: string[];
  readonly output: string;
  readonly options: Json;
  readonly orders: Record<string, { meta: Record<string, string>; notes: string[]; status: string }>;
  readonly gateway?: {
    fields: string[];
    field_type: Record<string, string>;
    field_default?: Record<string, string>;
    field_description?: Record<string, string>;
  };
}

let connector: FakeConnector;

beforeAll(async () => {
  connector = new FakeConnector();
  await connector.start();
});

afterAll(async () => {
  await connector?.close();
});

beforeEach(() => {
  connector.reset();
});

async function harness(scenario: string, options: Json = {}): Promise<Run> {
  const { stdout, stderr } = await run('php', [HARNESS, scenario, JSON.stringify(options)], {
    env: { ...process.env, HARNESS_CONNECTOR_URL: connector.url, HARNESS_CONNECT_TOKEN: TOKEN },
    timeout: 20_000,
  });
  expect(stderr).toBe('');
  expect(stdout).not.toContain(TOKEN);
  const lines = stdout.trim().split('\n');
  const outcome = JSON.parse(lines[lines.length - 1] ?? 'null') as Run;
  expect(outcome.errors).toEqual([]);
  return outcome;
}

function nonce(action: string): string {
  return createHash('md5').update(`harness-nonce|${action}`).digest('hex').slice(0, 10);
}

const captures = () => connector.requests.filter((r) => r.path === '/v1/orders/123/capture');

describe('the "Authorize only, capture later" setting', () => {
  it('is a checkbox, off by default, whose help says cards only', async () => {
    const outcome = await harness('bootstrap');
    expect(outcome.gateway?.field_type.capture_later).toBe('checkbox');
    expect(outcome.gateway?.field_default?.capture_later).toBe('no');
    expect(outcome.gateway?.field_description?.capture_later).toMatch(/^Cards only: wallets cannot hold a payment/);
    const settings = await harness('admin');
    expect(settings.output).toContain(
      '<label for="woocommerce_armenian_gateway_capture_later">Authorize only, capture later</label>',
    );
    // Off: the payment is asked for as before, without a capture method.
    await harness('payment');
    const [request] = connector.requests.filter((r) => r.path === '/v1/orders/123/payment');
    expect(request?.body).not.toHaveProperty('capture_method');
  });

  it('asks for a payment to capture later when on, and remembers it on the order', async () => {
    const outcome = await harness('payment', CAPTURE_LATER);
    expect(outcome.result).toMatchObject({ result: 'success' });
    const [request] = connector.requests.filter((r) => r.path === '/v1/orders/123/payment');
    expect(request?.body).toMatchObject({ capture_method: 'manual' });
    expect(outcome.orders['123']?.meta).toMatchObject({ _armenian_gateway_capture_later: 'yes' });
  });

  it('tells the buyer clearly when no payment method of the shop can hold a card', async () => {
    connector.answer(
      'POST /v1/orders/123/payment',
      refusal(422, 'hold_not_supported', 'none of its payment methods can hold a card payment'),
    );
    const outcome = await harness('payment', CAPTURE_LATER);
    expect(outcome.result).toEqual({ result: 'failure' });
    expect(outcome.notices).toEqual([
      {
        type: 'error',
        message:
          'Card payments are not available for this order right now, and this payment method takes cards only. Please choose another payment method.',
      },
    ]);
    expect(outcome.orders['123']?.meta).not.toHaveProperty('_armenian_gateway_capture_later');
  });
});

describe('capturing when the owner sets a held order Processing or Completed', () => {
  for (const to of ['processing', 'completed']) {
    it(`captures the whole hold on ${to}, once, and remembers it`, async () => {
      const outcome = await harness('status', { ...HELD_ORDER, to });
      const request = captures();
      expect(request).toHaveLength(1);
      expect(request[0]?.method).toBe('POST');
      // The whole hold: no body (the connector reads none as `{}`).
      expect(request[0]?.body).toBeNull();
      expect(outcome.orders['123']).toMatchObject({
        status: to,
        meta: { _armenian_gateway_captured: '1500' },
      });
      // The connector writes the one "Paid with" note: the plugin adds none.
      expect(outcome.orders['123']?.notes).toEqual([]);
    });
  }

  it('leaves orders alone that do not wait for a capture', async () => {
    await harness('status', { to: 'completed' });
    await harness('status', {
      to: 'completed',
      order: {
        meta: { _armenian_gateway_capture_later: 'yes', _armenian_gateway_captured: '1500' },
        saved_meta: { _armenian_gateway_capture_later: 'yes', _armenian_gateway_captured: '1500' },
      },
    });
    await harness('status', { ...HELD_ORDER, to: 'completed', order: { ...HELD_ORDER.order, payment_method: 'cod' } });
    expect(captures()).toEqual([]);
  });

  it('notes a refused capture on the order: it is not paid', async () => {
    connector.answer(
      'POST /v1/orders/123/capture',
      refusal(409, 'capture_declined', 'The processor declined the capture; the hold stands'),
    );
    const outcome = await harness('status', { ...HELD_ORDER, to: 'completed' });
    expect(outcome.orders['123']?.notes).toEqual([
      'The card hold could not be captured: The processor declined the capture; the hold stands. The order is not paid yet: capture it from the Armenian Payment Gateway panel, or cancel the order to release the hold.',
    ]);
    expect(outcome.orders['123']?.meta).not.toHaveProperty('_armenian_gateway_captured');
  });

  it('adds nothing when the connector is still settling the capture, or when nothing was ever held', async () => {
    connector.answer('POST /v1/orders/123/capture', {
      status: 202,
      body: {
        order_id: '123',
        payment_uuid: PAYMENT_UUID,
        capture: 'pending',
        captured_amount: 1500,
        status: 'authorized',
      },
    });
    const pending = await harness('status', { ...HELD_ORDER, to: 'completed' });
    expect(pending.orders['123']?.notes).toEqual([]);
    expect(pending.orders['123']?.meta).not.toHaveProperty('_armenian_gateway_captured');
    connector.answer(
      'POST /v1/orders/123/capture',
      refusal(409, 'no_card_hold', 'Order 123 has no card hold to capture.'),
    );
    const never = await harness('status', { ...HELD_ORDER, to: 'processing' });
    expect(never.orders['123']?.notes).toEqual([]);
  });
});

describe('the hold in the order panel', () => {
  const held = (hold: Json, overrides: Json = {}) =>
    paymentState('123', {
      status: hold.state === 'captured' ? 'completed' : 'authorized',
      paid: false,
      amount: 40000,
      refunded_amount: 0,
      refunds: [],
      hold: {
        payment_uuid: PAYMENT_UUID,
        authorized_amount: 40000,
        capture_before: '2026-11-28T10:36:49.000Z',
        capture_amount: null,
        ...hold,
      },
      ...overrides,
    });

  it('shows what is held until when, with the amount field and the Capture button', async () => {
    connector.answer('GET /v1/orders/123/payment', { status: 200, body: held({ state: 'authorized' }) });
    const outcome = await harness('page', { path: '/wp-admin/admin.php', ...HPOS_EDIT });
    for (const text of [
      '<th scope="row">Card hold</th><td>40,000 AMD</td>',
      '<th scope="row">Capture before</th><td>2026-11-28 10:36</td>',
      '<th scope="row">Hold</th><td>held, not captured yet</td>',
      'name="armenian_gateway_capture_amount" value="40000"',
      `formaction="http://shop.test/wp-admin/admin-post.php?action=armenian_gateway_capture&amp;order_id=123&amp;_wpnonce=${nonce('armenian_gateway_capture_123')}"`,
      '>Capture</button>',
    ]) {
      expect(outcome.output).toContain(text);
    }
  });

  it('offers no button once captured, or to a user who is not a shop manager', async () => {
    connector.answer('GET /v1/orders/123/payment', {
      status: 200,
      body: held({ state: 'captured', capture_amount: 32000 }, { paid: true }),
    });
    const captured = await harness('page', { path: '/wp-admin/admin.php', ...HPOS_EDIT });
    expect(captured.output).toContain('<th scope="row">Captured</th><td>32,000 AMD</td>');
    expect(captured.output).toContain('<th scope="row">Hold</th><td>captured</td>');
    expect(captured.output).not.toContain('>Capture</button>');
    connector.answer('GET /v1/orders/123/payment', { status: 200, body: held({ state: 'authorized' }) });
    const clerk = await harness('page', { path: '/wp-admin/admin.php', ...HPOS_EDIT, caps: ['edit_shop_orders'] });
    expect(clerk.output).toContain('<th scope="row">Card hold</th>');
    expect(clerk.output).not.toContain('>Capture</button>');
  });

  it('says when the hold ran out, and when a capture waits for the bank', async () => {
    connector.answer('GET /v1/orders/123/payment', {
      status: 200,
      body: held({ state: 'expired' }, { status: 'expired' }),
    });
    const expired = await harness('page', { path: '/wp-admin/admin.php', ...HPOS_EDIT });
    expect(expired.output).toContain('The card hold ran out before it was captured: nothing was taken from the buyer');
    expect(expired.output).toContain('<th scope="row">Hold</th><td>ran out uncaptured</td>');
    expect(expired.output).not.toContain('>Capture</button>');
    connector.answer('GET /v1/orders/123/payment', {
      status: 200,
      body: held({ state: 'capture_unknown', capture_amount: 40000 }),
    });
    const pending = await harness('page', { path: '/wp-admin/admin.php', ...HPOS_EDIT });
    expect(pending.output).toContain('A capture was sent and the bank has not confirmed it yet.');
    expect(pending.output).not.toContain('>Capture</button>');
  });

  it('shows nothing of a hold for an order without one', async () => {
    const outcome = await harness('page', { path: '/wp-admin/admin.php', ...HPOS_EDIT });
    expect(outcome.output).not.toContain('Card hold');
  });
});

describe('the Capture button', () => {
  const press = (post: Json, extra: Json = {}, wpnonce = nonce('armenian_gateway_capture_123')) =>
    harness('page', {
      path: '/wp-admin/admin-post.php',
      method: 'POST',
      get: { action: 'armenian_gateway_capture', order_id: '123', _wpnonce: wpnonce },
      post,
      ...extra,
    });
  const flashOf = (outcome: Run) => outcome.options._transient_armenian_gateway_check_123_1;

  it('captures the amount entered and returns to the order with the outcome', async () => {
    const outcome = await press({ armenian_gateway_capture_amount: '32000', order_status: 'wc-on-hold' });
    expect(captures().map((r) => r.body)).toEqual([{ amount: 32000 }]);
    expect(outcome.redirect).toBe('http://shop.test/wp-admin/admin.php?page=wc-orders&action=edit&id=123');
    expect(flashOf(outcome)).toEqual({
      type: 'success',
      message: 'Captured 32,000 AMD: the order is being marked paid.',
    });
    expect(outcome.orders['123']?.meta).toMatchObject({ _armenian_gateway_captured: '32000' });
  });

  it('captures the whole hold when the field is left empty, and says when the bank has not confirmed yet', async () => {
    connector.answer('POST /v1/orders/123/capture', {
      status: 202,
      body: {
        order_id: '123',
        payment_uuid: PAYMENT_UUID,
        capture: 'pending',
        captured_amount: 40000,
        status: 'authorized',
      },
    });
    const outcome = await press({ armenian_gateway_capture_amount: '' });
    expect(captures().map((r) => r.body)).toEqual([null]);
    expect(flashOf(outcome)).toMatchObject({ type: 'warning' });
    expect(String(flashOf(outcome).message)).toContain('do not capture it again');
  });

  it('refuses an amount that is not whole AMD without calling the connector, and brings back a refusal', async () => {
    const bad = await press({ armenian_gateway_capture_amount: '12.5' });
    expect(captures()).toEqual([]);
    expect(flashOf(bad)).toMatchObject({ type: 'error' });
    expect(String(flashOf(bad).message)).toContain('whole Armenian dram');
    connector.answer(
      'POST /v1/orders/123/capture',
      refusal(422, 'amount_exceeds_authorized', 'Only 40000 AMD is held on the buyer’s card: capture at most that.'),
    );
    const over = await press({ armenian_gateway_capture_amount: '50000' });
    expect(flashOf(over)).toEqual({
      type: 'error',
      message: 'The card hold was not captured: Only 40000 AMD is held on the buyer’s card: capture at most that.',
    });
  });

  it('refuses a wrong nonce or a user who is not a shop manager, without calling the connector', async () => {
    const forged = await press({ armenian_gateway_capture_amount: '100' }, {}, 'forged');
    expect(forged.died?.status).toBe(403);
    const clerk = await press({ armenian_gateway_capture_amount: '100' }, { caps: ['edit_shop_orders'] });
    expect(clerk.died?.status).toBe(403);
    expect(captures()).toEqual([]);
  });
});

describe('refunds of a held order', () => {
  it('are refused with the connector’s clear message before the capture', async () => {
    connector.answer(
      'POST /v1/orders/123/refunds',
      refusal(
        409,
        'payment_not_captured',
        "The buyer's card is only held for order 123: nothing was taken yet, so there is nothing to refund.",
      ),
    );
    const outcome = await harness('refund', { amount: '500.00', refunds: [77], ...HELD_ORDER });
    expect(outcome.result).toEqual({
      wp_error: 'armenian_gateway_refund_failed',
      message: "The buyer's card is only held for order 123: nothing was taken yet, so there is nothing to refund.",
    });
  });
});
