/**
 * The WordPress/WooCommerce plugin (`plugins/woocommerce/wordpress-plugin/`): every PHP file passes
 * `php -l`; the Blocks script registers the payment method; and the gateway class, run by
 * `test/plugins/woocommerce/php/harness.php` inside stubs of WordPress and WooCommerce, talks to a
 * real HTTP server that plays the connector's plugin-facing API (docs/connector.md) exactly.
 */
import { execFile } from 'node:child_process';
import { once } from 'node:events';
import { readdirSync, readFileSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { runInNewContext } from 'node:vm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { shopUrl } from '../../../gateway/checkout/links.js';
import { freePort } from '../../support/ports.js';

const run = promisify(execFile);

const PLUGIN_DIR = fileURLToPath(new URL('../../../plugins/woocommerce/wordpress-plugin/', import.meta.url));
const HARNESS = fileURLToPath(new URL('./php/harness.php', import.meta.url));
const TEXT_DOMAIN = 'armenian-payment-gateway';

/** What a shop owner pastes; it must never reach a notice, a log line or a page. */
const TOKEN = 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJzaG9wLnRlc3QifQ.c2VjcmV0LWNvbm5lY3QtdG9rZW4';
const ORDER_KEY = 'wc_order_k3y';
const THANK_YOU_URL = `http://shop.test/checkout/order-received/123/?key=${ORDER_KEY}`;
const PAY_AGAIN_URL = `http://shop.test/checkout/order-pay/123/?pay_for_order=true&key=${ORDER_KEY}`;
const RETURN_URL = `http://shop.test/?wc-api=wc_armenian_gateway&apg_order=123&apg_key=${ORDER_KEY}`;
const CANCEL_URL = `http://shop.test/cart/?cancel_order=true&order=${ORDER_KEY}&order_id=123&_wpnonce=nonce`;
const PAYMENT_UUID = '9b2f6a3e-4c1d-4e8f-9a7b-2d5c8e1f0a36';
const CHECKOUT_URL = `https://gateway.example/checkout/${PAYMENT_UUID}?sig=abc`;
const AUTHORIZE_URL =
  'http://shop.test/wc-auth/v1/authorize?app_name=Armenian%20Payment%20Gateway&scope=read_write&user_id=u-1&return_url=x&callback_url=y';
const PLUGIN_SETTINGS_URL =
  'http://shop.test/wp-admin/admin.php?page=wc-settings&tab=checkout&section=armenian_gateway';

function pluginFiles(extension: string): string[] {
  return readdirSync(PLUGIN_DIR, { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith(extension))
    .map((file) => join(PLUGIN_DIR, file))
    .sort();
}

// ---------------------------------------------------------------------------------------------
// The connector, as docs/connector.md describes it.

interface ConnectorRequest {
  readonly method: string;
  readonly path: string;
  readonly headers: IncomingHttpHeaders;
  readonly body: unknown;
}

interface Answer {
  readonly status: number;
  readonly body: unknown;
}

function refusal(status: number, error: string, message: string): Answer {
  return { status, body: { error, message } };
}

function connection(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    connection_id: '0f5c2d1e-7a8b-4c9d-8e0f-1a2b3c4d5e6f',
    platform: 'woocommerce',
    store_url: 'http://shop.test',
    domain: 'shop.test',
    environment: 'test',
    status: 'awaiting_keys',
    authorize_url: AUTHORIZE_URL,
    ...overrides,
  };
}

function isHttpUrl(value: unknown): boolean {
  return typeof value === 'string' && /^https?:\/\//.test(value);
}

/** The connector's default answers; a test overrides one route with `answer()`. */
function contractAnswer(method: string, path: string, body: unknown): Answer {
  const fields = (typeof body === 'object' && body !== null ? body : {}) as Record<string, unknown>;
  const order = /^\/v1\/orders\/([^/]+)\/(payment|refunds)$/.exec(path);
  if (method === 'POST' && path === '/v1/connections') {
    if (!isHttpUrl(fields.store_url)) {
      return { status: 422, body: { error: 'validation_failed', message: 'Invalid', errors: { store_url: ['bad'] } } };
    }
    return { status: 201, body: connection({ store_url: fields.store_url }) };
  }
  if (method === 'GET' && path === '/v1/connection') {
    return {
      status: 200,
      body: { ...connection({ status: 'active' }), authorize_url: undefined, last_webhook_at: null },
    };
  }
  if (order?.[2] === 'payment' && method === 'POST') {
    const errors: Record<string, string[]> = {};
    if (!isHttpUrl(fields.return_url)) errors.return_url = ['must be an http(s) URL'];
    if (!isHttpUrl(fields.cancel_url)) errors.cancel_url = ['must be an http(s) URL'];
    if (Object.keys(errors).length > 0) {
      return { status: 422, body: { error: 'validation_failed', message: 'Some fields are invalid.', errors } };
    }
    return {
      status: 201,
      body: {
        order_id: order[1],
        gateway_order_id: `wc-0f5c-${order[1]}`,
        payment_uuid: PAYMENT_UUID,
        status: 'pending',
        amount: 1500,
        currency: 'AMD',
        checkout_url: CHECKOUT_URL,
      },
    };
  }
  if (order?.[2] === 'payment' && method === 'GET') {
    return {
      status: 200,
      body: {
        order_id: order[1],
        payment_uuid: PAYMENT_UUID,
        status: 'completed',
        paid: true,
        amount: 1500,
        currency: 'AMD',
        rrn: '123456789012',
      },
    };
  }
  if (order?.[2] === 'refunds' && method === 'POST') {
    if (!Number.isInteger(fields.amount) || (fields.amount as number) <= 0) {
      return {
        status: 422,
        body: { error: 'validation_failed', message: 'Invalid', errors: { amount: ['whole AMD'] } },
      };
    }
    return {
      status: 201,
      body: {
        refund_uuid: 'r-5e6f7a8b',
        payment_uuid: PAYMENT_UUID,
        amount: fields.amount,
        status: 'completed',
        refunded_amount: fields.amount,
      },
    };
  }
  return refusal(404, 'not_found', 'No such route.');
}

class FakeConnector {
  readonly requests: ConnectorRequest[] = [];
  readonly #answers = new Map<string, Answer>();
  readonly #server: Server;
  url = '';

  constructor() {
    this.#server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        const raw = Buffer.concat(chunks).toString('utf8');
        let body: unknown = null;
        try {
          body = raw === '' ? null : JSON.parse(raw);
        } catch {
          body = raw;
        }
        const method = req.method ?? 'GET';
        const path = req.url ?? '/';
        this.requests.push({ method, path, headers: req.headers, body });
        const answer =
          req.headers['x-service-connect'] !== TOKEN
            ? refusal(401, 'invalid_connect_token', 'The connect token is missing or not accepted.')
            : (this.#answers.get(`${method} ${path}`) ?? contractAnswer(method, path, body));
        res.writeHead(answer.status, { 'content-type': 'application/json' });
        res.end(JSON.stringify(answer.body));
      });
    });
  }

  async start(): Promise<void> {
    this.#server.listen(0, '127.0.0.1');
    await once(this.#server, 'listening');
    this.url = `http://127.0.0.1:${(this.#server.address() as AddressInfo).port}`;
  }

  answer(route: string, answer: Answer): void {
    this.#answers.set(route, answer);
  }

  reset(): void {
    this.requests.length = 0;
    this.#answers.clear();
  }

  async close(): Promise<void> {
    this.#server.closeAllConnections();
    await new Promise<void>((resolve) => this.#server.close(() => resolve()));
  }
}

// ---------------------------------------------------------------------------------------------
// The PHP harness.

interface HarnessRun {
  readonly result?: unknown;
  readonly notices: Array<{ type: string; message: string }>;
  readonly redirect: string | null;
  readonly died: { message: string; status: number } | null;
  readonly logs: Array<{ level: string; message: string; source: string }>;
  readonly http: Array<{ method: string; url: string; timeout: number | null; header_names: string[] }>;
  readonly post_meta_writes: unknown[];
  readonly scripts: Record<string, { src: string; deps: string[]; ver: string }>;
  readonly features: Array<{ feature: string; file: string; compatible: boolean }>;
  readonly errors: string[];
  readonly hook_names: string[];
  readonly gateway_classes: string[];
  readonly loaded_before_plugins_loaded: boolean;
  readonly gateway_loaded?: boolean;
  readonly blocks?: {
    class: string;
    name: string;
    active: boolean;
    handles: string[];
    data: Record<string, unknown>;
  };
  readonly gateway?: {
    id: string;
    supports: string[];
    title: string;
    available: boolean;
    fields: string[];
    field_type: Record<string, string>;
  };
  readonly output: string;
  readonly orders: Record<string, { meta: Record<string, string>; saves: number; notes: string[] }>;
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

/**
 * Runs one scenario and checks what holds for every run: no PHP warning, nothing on stderr, and the
 * connect token nowhere in what the plugin printed, noticed, logged or returned.
 */
async function harness(
  scenario: string,
  options: Record<string, unknown> = {},
  connectorUrl = connector.url,
): Promise<HarnessRun> {
  const { stdout, stderr } = await run('php', [HARNESS, scenario, JSON.stringify(options)], {
    env: { ...process.env, HARNESS_CONNECTOR_URL: connectorUrl, HARNESS_CONNECT_TOKEN: TOKEN },
    timeout: 20_000,
  });
  expect(stderr).toBe('');
  expect(stdout).not.toContain(TOKEN);
  const lines = stdout.trim().split('\n');
  const outcome = JSON.parse(lines[lines.length - 1] ?? 'null') as HarnessRun;
  expect(outcome.errors).toEqual([]);
  return outcome;
}

function only(requests: readonly ConnectorRequest[]): ConnectorRequest {
  expect(requests).toHaveLength(1);
  return requests[0] as ConnectorRequest;
}

// ---------------------------------------------------------------------------------------------

describe('the plugin folder', () => {
  it('has php', async () => {
    const { stdout } = await run('php', ['--version']);
    expect(stdout).toMatch(/^PHP [78]\./);
  });

  it('every PHP file passes php -l', async () => {
    const files = pluginFiles('.php');
    expect(files.map((file) => relative(PLUGIN_DIR, file))).toEqual([
      'armenian-payment-gateway.php',
      'includes/class-wc-armenian-gateway-blocks.php',
      'includes/class-wc-armenian-gateway-response.php',
      'includes/class-wc-armenian-gateway.php',
    ]);
    for (const file of files) {
      const { stdout } = await run('php', ['-l', file]);
      expect(stdout).toContain('No syntax errors detected');
    }
  });

  it('has the plugin header, one version everywhere, an ABSPATH guard and no closing ?> tag', () => {
    const main = readFileSync(join(PLUGIN_DIR, 'armenian-payment-gateway.php'), 'utf8');
    expect(main).toMatch(/^ \* Plugin Name:\s+Armenian Payment Gateway$/m);
    expect(main).toMatch(/^ \* Description:\s+\S/m);
    expect(main).toMatch(/^ \* Version:\s+0\.1\.0$/m);
    expect(main).toMatch(/^ \* Requires PHP:\s+7\.4$/m);
    expect(main).toMatch(/^ \* WC requires at least:\s+8\.0$/m);
    expect(main).toMatch(/^ \* WC tested up to:\s+\d+\.\d+$/m);
    expect(main).toMatch(/^ \* Text Domain:\s+armenian-payment-gateway$/m);
    expect(main).toContain("define( 'ARMENIAN_GATEWAY_VERSION', '0.1.0' );");
    expect(readFileSync(join(PLUGIN_DIR, 'readme.txt'), 'utf8')).toMatch(/^Stable tag: 0\.1\.0$/m);
    for (const file of pluginFiles('.php')) {
      const source = readFileSync(file, 'utf8');
      expect(source, file).toContain("defined( 'ABSPATH' ) || exit;");
      expect(source, file).not.toContain('?>');
    }
  });

  it('gives every translated string the text domain', () => {
    const call = /\b(?:__|_e|esc_html__|esc_html_e|esc_attr__|esc_attr_e)\(/g;
    const withDomain =
      /\b(?:__|_e|esc_html__|esc_html_e|esc_attr__|esc_attr_e)\(\s*'(?:[^'\\]|\\.)*'\s*,\s*'armenian-payment-gateway'\s*\)/g;
    for (const file of [...pluginFiles('.php'), ...pluginFiles('.js')]) {
      const source = readFileSync(file, 'utf8');
      expect(source.match(withDomain)?.length ?? 0, file).toBe(source.match(call)?.length ?? 0);
    }
    expect(readFileSync(join(PLUGIN_DIR, 'includes/class-wc-armenian-gateway.php'), 'utf8')).toContain(TEXT_DOMAIN);
  });
});

// ---------------------------------------------------------------------------------------------

interface Element {
  readonly type: unknown;
  readonly props: Record<string, unknown>;
  readonly children: unknown[];
}

interface RegisteredMethod {
  name: string;
  label: Element;
  content: Element;
  edit: Element;
  canMakePayment: () => unknown;
  ariaLabel: string;
  supports: { features: unknown };
}

function runBlocksScript(settings: Record<string, unknown>): { method: RegisteredMethod; settingNames: unknown[] } {
  const registered: RegisteredMethod[] = [];
  const settingNames: unknown[] = [];
  const createElement = (type: unknown, props: Record<string, unknown> | null, ...children: unknown[]): Element => ({
    type,
    props: props ?? {},
    children,
  });
  const window = {
    wc: {
      wcBlocksRegistry: { registerPaymentMethod: (method: RegisteredMethod) => registered.push(method) },
      wcSettings: {
        getSetting: (name: string, fallback: unknown) => {
          settingNames.push(name);
          return name === 'armenian_gateway_data' ? settings : fallback;
        },
      },
    },
    wp: {
      element: { createElement },
      htmlEntities: { decodeEntities: (text: string) => text.replaceAll('&amp;', '&') },
      i18n: { __: (text: string) => text },
    },
  };
  const source = readFileSync(join(PLUGIN_DIR, 'assets/js/blocks.js'), 'utf8');
  runInNewContext(source, { window }, { filename: 'blocks.js' });
  expect(registered).toHaveLength(1);
  return { method: registered[0] as RegisteredMethod, settingNames };
}

/** Renders a function component of the fake createElement to its text. */
function textOf(node: unknown): string {
  if (typeof node === 'string') return node;
  if (Array.isArray(node)) return node.map(textOf).join(' ');
  if (typeof node === 'object' && node !== null) {
    const element = node as Element;
    if (typeof element.type === 'function') return textOf((element.type as (props: unknown) => unknown)(element.props));
    return textOf(element.children);
  }
  return '';
}

describe('the Blocks script (assets/js/blocks.js)', () => {
  it('registers armenian_gateway with the settings title, content, features and canMakePayment', () => {
    const { method, settingNames } = runBlocksScript({
      title: 'Card &amp; wallet',
      description: 'Pay on a secure page.',
      testMode: true,
      testModeNotice: 'Test mode: no real money.',
      supports: ['products', 'refunds'],
    });
    expect(settingNames).toEqual(['armenian_gateway_data']);
    expect(method.name).toBe('armenian_gateway');
    expect(textOf(method.label)).toBe('Card & wallet');
    expect(method.ariaLabel).toBe('Card & wallet');
    expect(method.canMakePayment()).toBe(true);
    expect(method.supports.features).toEqual(['products', 'refunds']);
    expect(textOf(method.content)).toBe('Pay on a secure page. Test mode: no real money.');
    expect(textOf(method.edit)).toBe(textOf(method.content));
  });

  it('has defaults when the settings are empty, and no test notice when test mode is off', () => {
    const { method } = runBlocksScript({ testMode: false });
    expect(textOf(method.label)).toBe('Bank card or wallet');
    expect(method.supports.features).toEqual(['products']);
    expect(textOf(method.content)).toBe('');
  });
});

// ---------------------------------------------------------------------------------------------

describe('loading the plugin', () => {
  it('registers the gateway on plugins_loaded, declares HPOS and Blocks compatibility, and gives Blocks its data', async () => {
    const outcome = await harness('bootstrap');
    expect(outcome.loaded_before_plugins_loaded).toBe(false);
    expect(outcome.hook_names).toEqual([
      'plugins_loaded',
      'init',
      'before_woocommerce_init',
      'woocommerce_blocks_payment_method_type_registration',
    ]);
    expect(outcome.gateway_classes).toEqual(['WC_Armenian_Gateway']);
    expect(outcome.features).toEqual([
      { feature: 'custom_order_tables', file: 'armenian-payment-gateway.php', compatible: true },
      { feature: 'cart_checkout_blocks', file: 'armenian-payment-gateway.php', compatible: true },
    ]);
    expect(outcome.gateway).toMatchObject({
      id: 'armenian_gateway',
      supports: ['products', 'refunds'],
      title: 'Bank card or wallet',
      available: true,
      fields: ['enabled', 'title', 'description', 'connect_token', 'connector_url', 'test_mode'],
    });
    expect(outcome.gateway?.field_type.connect_token).toBe('password');
    expect(outcome.gateway?.field_type.test_mode).toBe('checkbox');
    expect(outcome.blocks).toEqual({
      class: 'WC_Armenian_Gateway_Blocks',
      name: 'armenian_gateway',
      active: true,
      handles: ['armenian-gateway-blocks'],
      data: {
        title: 'Bank card or wallet',
        description: 'Pay with an Armenian bank card or wallet.',
        testMode: true,
        testModeNotice: expect.stringContaining('Test mode'),
        supports: ['products', 'refunds'],
      },
    });
    const script = outcome.scripts['armenian-gateway-blocks'];
    expect(script?.src).toMatch(/\/assets\/js\/blocks\.js$/);
    expect(script?.deps).toEqual(['wc-blocks-registry', 'wc-settings', 'wp-element', 'wp-html-entities', 'wp-i18n']);
    // The classic checkout shows the description and, in test mode, the notice.
    expect(outcome.output).toContain('Pay with an Armenian bank card or wallet.');
    expect(outcome.output).toContain('Test mode:');
    expect(connector.requests).toEqual([]);
  });

  it('loads nothing but an admin notice when WooCommerce is not active', async () => {
    const outcome = await harness('no_woocommerce');
    expect(outcome.gateway_loaded).toBe(false);
    expect(outcome.hook_names).not.toContain('woocommerce_payment_gateways');
    expect(outcome.output).toBe(
      '<div class="notice notice-error"><p>Armenian Payment Gateway needs WooCommerce to be installed and active.</p></div>',
    );
  });

  it('shows no test notice when test mode is off', async () => {
    const outcome = await harness('bootstrap', { settings: { test_mode: 'no' } });
    expect(outcome.output).not.toContain('Test mode:');
    expect(outcome.blocks?.data.testMode).toBe(false);
  });

  it('is not offered at checkout without a connect token, or when the store does not sell in AMD', async () => {
    expect((await harness('bootstrap', { settings: { connect_token: '' } })).gateway?.available).toBe(false);
    expect((await harness('bootstrap', { store_currency: 'USD' })).gateway?.available).toBe(false);
  });
});

describe('process_payment', () => {
  it('asks the connector for the payment, stores its uuid on the order and sends the buyer to checkout_url', async () => {
    const outcome = await harness('payment');
    const request = only(connector.requests);
    expect(request.method).toBe('POST');
    expect(request.path).toBe('/v1/orders/123/payment');
    expect(request.headers['x-service-connect']).toBe(TOKEN);
    expect(request.headers['content-type']).toBe('application/json');
    expect(request.headers.accept).toBe('application/json');
    expect(request.body).toEqual({ return_url: RETURN_URL, cancel_url: CANCEL_URL });
    expect(outcome.http[0]?.timeout).toBe(15);

    expect(outcome.result).toEqual({ result: 'success', redirect: CHECKOUT_URL });
    expect(outcome.orders['123']?.meta).toEqual({ _armenian_gateway_payment_uuid: PAYMENT_UUID });
    expect(outcome.orders['123']?.saves).toBe(1);
    expect(outcome.post_meta_writes).toEqual([]);
    expect(outcome.notices).toEqual([]);
  });

  it('answers failure with a buyer-facing notice, and no redirect, when the connector refuses', async () => {
    connector.answer(
      'POST /v1/orders/123/payment',
      refusal(502, 'platform_unavailable', `The store refused the credentials sent with ${TOKEN}`),
    );
    const outcome = await harness('payment');
    expect(outcome.result).toEqual({ result: 'failure' });
    expect(outcome.notices).toEqual([
      {
        type: 'error',
        message: 'We could not start the payment. Please try again in a moment, or choose another payment method.',
      },
    ]);
    expect(outcome.orders['123']?.meta).toEqual({});
    // The shop owner finds the reason in the WooCommerce log, with the token scrubbed.
    expect(outcome.logs).toHaveLength(1);
    expect(outcome.logs[0]?.source).toBe('armenian-gateway');
    expect(outcome.logs[0]?.message).toContain('platform_unavailable');
    expect(outcome.logs[0]?.message).toContain('[connect token]');
  });

  it('tells the buyer when the order total is not whole AMD', async () => {
    connector.answer(
      'POST /v1/orders/123/payment',
      refusal(422, 'unsupported_amount', 'The total 1500.50 AMD is not whole.'),
    );
    const outcome = await harness('payment');
    expect(outcome.result).toEqual({ result: 'failure' });
    expect(outcome.notices[0]?.message).toContain('whole amounts in Armenian dram (AMD)');
  });

  it('answers failure with a notice when the connector cannot be reached', async () => {
    const closed = `http://127.0.0.1:${await freePort()}`;
    const outcome = await harness('payment', {}, closed);
    expect(outcome.result).toEqual({ result: 'failure' });
    expect(outcome.notices).toHaveLength(1);
    expect(outcome.notices[0]?.type).toBe('error');
    expect(outcome.logs[0]?.message).toContain('transport_error');
  });

  it('sends the buyer to the thank-you page when the order is already paid', async () => {
    connector.answer('POST /v1/orders/123/payment', refusal(409, 'order_already_paid', 'This order is already paid.'));
    const outcome = await harness('payment');
    expect(outcome.result).toEqual({ result: 'success', redirect: THANK_YOU_URL });
    expect(outcome.notices).toEqual([]);
    expect(outcome.orders['123']?.meta).toEqual({});
  });
});

/** `$_GET` as PHP builds it from a URL's query: a repeated key keeps its last value. */
function phpGet(url: string): Record<string, string> {
  return Object.fromEntries(new URL(url).searchParams.entries());
}

describe('the return handler (?wc-api=wc_armenian_gateway)', () => {
  const back = { get: { apg_order: '123', apg_key: ORDER_KEY } };

  it('takes the return exactly as the gateway sends the buyer back (its parameters added to the plugin’s URL)', async () => {
    // The gateway's own order id for a WooCommerce order is the connector's (`wc-<uuid>-123`).
    const returned = shopUrl(RETURN_URL, { uuid: PAYMENT_UUID, orderId: 'wc-0192f0c4-123' });
    expect(returned).toBe(`${RETURN_URL}&payment_uuid=${PAYMENT_UUID}&order_id=wc-0192f0c4-123`);
    const outcome = await harness('return', { get: phpGet(returned) });
    expect(outcome.died).toBeFalsy();
    expect(outcome.redirect).toBe(THANK_YOU_URL);
    expect(only(connector.requests).path).toBe('/v1/orders/123/payment');
  });

  it('still takes a return link made before the plugin used its own parameter names', async () => {
    const legacy = `http://shop.test/?wc-api=wc_armenian_gateway&order_id=123&key=${ORDER_KEY}`;
    const outcome = await harness('return', {
      get: phpGet(shopUrl(legacy, { uuid: PAYMENT_UUID, orderId: 'wc-x-123' })),
    });
    expect(outcome.redirect).toBe(THANK_YOU_URL);
  });

  function paymentStatus(status: string, paid = false): Answer {
    return {
      status: 200,
      body: { order_id: '123', payment_uuid: PAYMENT_UUID, status, paid, amount: 1500, currency: 'AMD', rrn: null },
    };
  }

  it('reads the payment back and redirects to the thank-you page when it is completed', async () => {
    const outcome = await harness('return', back);
    const request = only(connector.requests);
    expect(request.method).toBe('GET');
    expect(request.path).toBe('/v1/orders/123/payment');
    expect(request.headers['x-service-connect']).toBe(TOKEN);
    expect(request.body).toBeNull();
    expect(outcome.redirect).toBe(THANK_YOU_URL);
    expect(outcome.notices).toEqual([]);
    expect(outcome.orders['123']?.saves).toBe(0);
  });

  it.each(['pending', 'processing'])('redirects to the thank-you page while the payment is %s', async (status) => {
    connector.answer('GET /v1/orders/123/payment', paymentStatus(status));
    const outcome = await harness('return', back);
    expect(outcome.redirect).toBe(THANK_YOU_URL);
    expect(outcome.notices).toEqual([]);
  });

  it('sends the buyer back to the payment page with a notice when the payment failed', async () => {
    connector.answer('GET /v1/orders/123/payment', paymentStatus('failed'));
    const outcome = await harness('return', back);
    expect(outcome.redirect).toBe(PAY_AGAIN_URL);
    expect(outcome.notices).toEqual([{ type: 'error', message: expect.stringMatching(/^The payment was declined\./) }]);
  });

  it('sends the buyer back to the payment page with a notice when the payment expired', async () => {
    connector.answer('GET /v1/orders/123/payment', paymentStatus('expired'));
    const outcome = await harness('return', back);
    expect(outcome.redirect).toBe(PAY_AGAIN_URL);
    expect(outcome.notices[0]?.message).toContain('expired');
  });

  it('refuses a wrong order key without calling the connector', async () => {
    const outcome = await harness('return', { get: { apg_order: '123', apg_key: 'wc_order_other' } });
    expect(outcome.died?.status).toBe(400);
    expect(outcome.redirect).toBeNull();
    expect(connector.requests).toEqual([]);
  });
});

describe('process_refund', () => {
  it('sends the amount in whole AMD, the reason and the newest refund id; answers true', async () => {
    const outcome = await harness('refund', { amount: '500.00', reason: 'Damaged in transit', refunds: [76, 77] });
    const request = only(connector.requests);
    expect(request.method).toBe('POST');
    expect(request.path).toBe('/v1/orders/123/refunds');
    expect(request.headers['x-service-connect']).toBe(TOKEN);
    expect(request.body).toEqual({ amount: 500, reason: 'Damaged in transit', store_refund_id: '77' });
    expect(outcome.result).toBe(true);
    expect(outcome.orders['123']?.notes).toEqual([expect.stringContaining('r-5e6f7a8b')]);
  });

  it('refuses a fractional amount with a WP_Error before any request', async () => {
    const outcome = await harness('refund', { amount: '500.50', refunds: [77] });
    expect(outcome.result).toEqual({
      wp_error: 'armenian_gateway_refund_failed',
      message: expect.stringContaining('whole'),
    });
    expect(outcome.http).toEqual([]);
    expect(connector.requests).toEqual([]);
  });

  it("answers a WP_Error with the connector's message when it refuses", async () => {
    const message = 'The refund is more than what is left of the payment (1000 AMD).';
    connector.answer('POST /v1/orders/123/refunds', refusal(422, 'refund_exceeds_payment', message));
    const outcome = await harness('refund', { amount: 1500, refunds: [78] });
    expect(only(connector.requests).body).toEqual({ amount: 1500, store_refund_id: '78' });
    expect(outcome.result).toEqual({ wp_error: 'armenian_gateway_refund_failed', message });
    expect(outcome.orders['123']?.notes).toEqual([]);
  });
});

describe('the settings page', () => {
  /** The settings form as WooCommerce posts it: the token pasted with spaces, the URL with a slash. */
  function posted(): Record<string, string> {
    return {
      woocommerce_armenian_gateway_enabled: '1',
      woocommerce_armenian_gateway_title: 'Bank card or wallet',
      woocommerce_armenian_gateway_description: 'Pay securely.',
      woocommerce_armenian_gateway_connect_token: `  ${TOKEN}\n`,
      woocommerce_armenian_gateway_connector_url: `${connector.url}/`,
      woocommerce_armenian_gateway_test_mode: '1',
    };
  }

  it('connects the store on save and shows the "Connect WooCommerce" button while awaiting keys', async () => {
    const outcome = await harness('settings', { post: posted() });
    expect(outcome.result).toBe(true);
    const request = only(connector.requests);
    expect(request.method).toBe('POST');
    expect(request.path).toBe('/v1/connections');
    expect(request.headers['x-service-connect']).toBe(TOKEN);
    expect(request.body).toEqual({ store_url: 'http://shop.test', return_url: PLUGIN_SETTINGS_URL });
    expect(outcome.output).toContain(`href="${AUTHORIZE_URL.replaceAll('&', '&amp;')}"`);
    expect(outcome.output).toContain('Connect WooCommerce');
    expect(outcome.output).toContain('Environment: test');
    expect(outcome.output).toContain('<table class="form-table">');
  });

  it('says "Connected" once the connection is active', async () => {
    connector.answer('POST /v1/connections', {
      status: 200,
      body: connection({ status: 'active', authorize_url: null }),
    });
    const outcome = await harness('settings', { post: posted() });
    expect(outcome.output).toContain('Connected');
    expect(outcome.output).not.toContain('Connect WooCommerce');
    expect(outcome.output).not.toContain('notice-warning');
  });

  it("shows the connector's message when it refuses to connect", async () => {
    connector.answer('POST /v1/connections', refusal(401, 'invalid_connect_token', 'This connect token was revoked.'));
    const outcome = await harness('settings', { post: posted() });
    expect(outcome.output).toContain('notice-error');
    expect(outcome.output).toContain('The connector refused to connect this store: This connect token was revoked.');
    expect(outcome.logs[0]?.message).toContain('invalid_connect_token');
  });

  it('shows the environment from GET /v1/connection and warns when test mode disagrees with it', async () => {
    const agreeing = await harness('admin');
    expect(only(connector.requests).path).toBe('/v1/connection');
    expect(agreeing.output).toContain('Connected');
    expect(agreeing.output).toContain('Environment: test');
    expect(agreeing.output).not.toContain('notice-warning');

    connector.reset();
    connector.answer('GET /v1/connection', {
      status: 200,
      body: connection({ status: 'active', environment: 'live' }),
    });
    const live = await harness('admin');
    expect(live.output).toContain('Environment: live');
    expect(live.output).toContain('notice-warning');
    expect(live.output).toContain('live token, but test mode is on');

    connector.reset();
    const testOff = await harness('admin', { settings: { test_mode: 'no' } });
    expect(testOff.output).toContain('test token, but test mode is off');
  });

  it('keeps no connector URL that is not http(s), and then calls nothing', async () => {
    const outcome = await harness('settings', {
      post: { ...posted(), woocommerce_armenian_gateway_connector_url: 'javascript:alert(1)' },
    });
    expect(connector.requests).toEqual([]);
    expect(outcome.output).toContain('Paste your connect token and the connector URL');
    expect(outcome.output).not.toContain('javascript:');
  });

  it('asks the shop owner to save the settings when the store is not connected yet', async () => {
    connector.answer('GET /v1/connection', refusal(404, 'connection_not_found', 'No connection for this token.'));
    const outcome = await harness('admin');
    expect(outcome.output).toContain('not connected yet');
  });
});
