/**
 * The WordPress/WooCommerce plugin (`plugins/woocommerce/wordpress-plugin/`): every PHP file passes
 * `php -l` and PHP_CodeSniffer (`plugins/woocommerce/phpcs.xml`); the Blocks script registers the payment method; and the gateway class, run by
 * `test/plugins/woocommerce/php/harness.php` inside stubs of WordPress and WooCommerce, talks to a
 * real HTTP server that plays the connector's plugin-facing API (docs/connector.md) exactly.
 */
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { runInNewContext } from 'node:vm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { shopUrl } from '../../../gateway/checkout/links.js';
import { freePort } from '../../support/ports.js';
import {
  type Answer,
  authorizeUrl,
  CHECKOUT_URL,
  type ConnectorRequest,
  connection,
  connectionState,
  FakeConnector,
  findings,
  type Json,
  PAYMENT_UUID,
  paymentState,
  refusal,
  SCHEDULED_RUN,
  TOKEN,
} from './fake-connector.js';

const run = promisify(execFile);

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const PLUGIN_DIR = fileURLToPath(new URL('../../../plugins/woocommerce/wordpress-plugin/', import.meta.url));
const PHPCS_RULESET = fileURLToPath(new URL('../../../plugins/woocommerce/phpcs.xml', import.meta.url));
const HARNESS = fileURLToPath(new URL('./php/harness.php', import.meta.url));
const TEXT_DOMAIN = 'armenian-payment-gateway';

const ORDER_KEY = 'wc_order_k3y';
const THANK_YOU_URL = `http://shop.test/checkout/order-received/123/?key=${ORDER_KEY}`;
const PAY_AGAIN_URL = `http://shop.test/checkout/order-pay/123/?pay_for_order=true&key=${ORDER_KEY}`;
const RETURN_URL = `http://shop.test/?wc-api=wc_armenian_gateway&apg_order=123&apg_key=${ORDER_KEY}`;
/** As WooCommerce's get_cancel_order_url_raw() builds it: an empty `redirect` without "=", the harness's nonce. */
const CANCEL_NONCE = '8a4da60bb5';
const CANCEL_URL = `http://shop.test/cart/?cancel_order=true&order=${ORDER_KEY}&order_id=123&redirect&_wpnonce=${CANCEL_NONCE}`;
const AUTHORIZE_URL = authorizeUrl();
const PLUGIN_SETTINGS_URL =
  'http://shop.test/wp-admin/admin.php?page=wc-settings&tab=checkout&section=armenian_gateway';

function pluginFiles(extension: string): string[] {
  return readdirSync(PLUGIN_DIR, { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith(extension))
    .map((file) => join(PLUGIN_DIR, file))
    .sort();
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
  /** WP-Cron recurring events by hook, with their recurrence. */
  readonly recurring: Record<string, string>;
  /** WP-Cron hooks unscheduled. */
  readonly unscheduled: string[];
  /** WP-Cron single events scheduled (seconds from now, hook, args). */
  readonly scheduled: Array<{ in: number; hook: string; args: unknown[] }>;
  /** WooCommerce's REST keys after the run (`woocommerce_api_keys` rows the scenario gave). */
  readonly api_keys: Array<{ description: string; truncated_key: string }>;
  /** Refunds deleted for good (`WC_Order_Refund::delete(true)`). */
  readonly deleted_refunds: number[];
  readonly output: string;
  readonly orders: Record<
    string,
    { meta: Record<string, string>; saves: number; notes: string[]; status: string; transaction_id: string }
  >;
  readonly meta_boxes: Array<{ id: string; title: string; screen: string; context: string; priority: string }>;
  readonly submenu_pages: Array<{ parent: string; page_title: string; capability: string; slug: string }>;
  readonly settings_errors: string[];
  readonly options: Json;
  readonly transient_writes?: Array<[string, number]>;
  readonly privacy: Array<{ plugin: string; text: string }>;
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
  allowErrors = false,
): Promise<HarnessRun> {
  const { stdout, stderr } = await run('php', [HARNESS, scenario, JSON.stringify(options)], {
    env: { ...process.env, HARNESS_CONNECTOR_URL: connectorUrl, HARNESS_CONNECT_TOKEN: TOKEN },
    timeout: 20_000,
  });
  expect(stderr).toBe('');
  expect(stdout).not.toContain(TOKEN);
  const lines = stdout.trim().split('\n');
  const outcome = JSON.parse(lines[lines.length - 1] ?? 'null') as HarnessRun;
  if (!allowErrors) expect(outcome.errors).toEqual([]);
  return outcome;
}

/** The harness's nonce for an action (stubs.php wp_create_nonce). */
function nonce(action: string): string {
  return createHash('md5').update(`harness-nonce|${action}`).digest('hex').slice(0, 10);
}

/** One admin request through admin.php. */
function page(path: string, options: Record<string, unknown> = {}): Promise<HarnessRun> {
  return harness('page', { path, ...options });
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
      'includes/class-armenian-gateway-admin-format.php',
      'includes/class-armenian-gateway-blocks.php',
      'includes/class-armenian-gateway-checkout.php',
      'includes/class-armenian-gateway-connection-actions.php',
      'includes/class-armenian-gateway-connection-settings.php',
      'includes/class-armenian-gateway-connector-url.php',
      'includes/class-armenian-gateway-connector.php',
      'includes/class-armenian-gateway-health.php',
      'includes/class-armenian-gateway-hold-panel.php',
      'includes/class-armenian-gateway-holds.php',
      'includes/class-armenian-gateway-order-panel.php',
      'includes/class-armenian-gateway-reconciliation-page.php',
      'includes/class-armenian-gateway-reconciliation-view.php',
      'includes/class-armenian-gateway-refunds.php',
      'includes/class-armenian-gateway-response.php',
      'includes/class-armenian-gateway-return.php',
      'includes/class-armenian-gateway-settings-fields.php',
      'includes/class-armenian-gateway.php',
      'uninstall.php',
    ]);
    for (const file of files) {
      const { stdout } = await run('php', ['-l', file]);
      expect(stdout).toContain('No syntax errors detected');
    }
  });

  it('passes PHP_CodeSniffer with the plugin’s ruleset (plugins/woocommerce/phpcs.xml)', async () => {
    const { stdout } = await run('phpcs', [`--standard=${PHPCS_RULESET}`, '--report=json', '-s'], {
      cwd: ROOT,
    }).catch((error: { stdout: string }) => ({ stdout: error.stdout }));
    const report = JSON.parse(stdout) as {
      totals: { errors: number; warnings: number };
      files: Record<string, { messages: Array<{ line: number; source: string; message: string }> }>;
    };
    const found = Object.entries(report.files).flatMap(([file, { messages }]) =>
      messages.map((m) => `${relative(PLUGIN_DIR, file)}:${m.line} ${m.source} ${m.message}`),
    );
    expect(found).toEqual([]);
    expect(Object.keys(report.files).map((file) => relative(PLUGIN_DIR, file))).toEqual(
      expect.arrayContaining(['armenian-payment-gateway.php', 'includes/class-armenian-gateway.php']),
    );
  });

  it('the ruleset refuses an unchecked request, eval, debug output, short arrays and space indentation', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'phpcs-'));
    const file = join(dir, 'bad.php');
    writeFileSync(
      file,
      [
        '<?php',
        '/**',
        ' * Bad.',
        ' *',
        ' * @package Bad',
        ' */',
        '',
        '/**',
        ' * Fetches.',
        ' *',
        ' * @param string $url URL.',
        ' */',
        'function bad_fetch( $url ) {',
        '\t$response = wp_remote_request( $url );',
        '\teval( $response );',
        '    print_r( [ 1 ] );',
        '}',
        '',
      ].join('\n'),
    );
    try {
      const { stdout } = await run('phpcs', [`--standard=${PHPCS_RULESET}`, '--report=json', file]).catch(
        (error: { stdout: string }) => ({ stdout: error.stdout }),
      );
      const messages = (JSON.parse(stdout) as { files: Record<string, { messages: Array<{ source: string }> }> }).files[
        file
      ]?.messages.map((m) => m.source);
      expect(messages).toEqual(
        expect.arrayContaining([
          'Generic.PHP.ForbiddenFunctions.FoundWithAlternative',
          'Squiz.PHP.Eval.Discouraged',
          'Generic.PHP.ForbiddenFunctions.Found',
          'Generic.Arrays.DisallowShortArraySyntax.Found',
          'Generic.WhiteSpace.DisallowSpaceIndent.SpacesUsed',
        ]),
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
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
      // uninstall.php is included by WordPress while it deletes the plugin: its guard is WP_UNINSTALL_PLUGIN.
      expect(source, file).toContain(
        file.endsWith('uninstall.php') ? "defined( 'WP_UNINSTALL_PLUGIN' ) || exit;" : "defined( 'ABSPATH' ) || exit;",
      );
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
    expect(readFileSync(join(PLUGIN_DIR, 'includes/class-armenian-gateway.php'), 'utf8')).toContain(TEXT_DOMAIN);
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
  canMakePayment: (args?: Json) => unknown;
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
      currency: 'AMD',
    });
    expect(settingNames).toEqual(['armenian_gateway_data']);
    expect(method.name).toBe('armenian_gateway');
    expect(textOf(method.label)).toBe('Card & wallet');
    expect(method.ariaLabel).toBe('Card & wallet');
    // As the classic checkout: a cart in AMD only.
    expect(method.canMakePayment({ cartTotals: { currency_code: 'AMD', total_price: '150000' } })).toBe(true);
    expect(method.canMakePayment({ cartTotals: { currency_code: 'USD', total_price: '1000' } })).toBe(false);
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
      'before_woocommerce_init',
      'woocommerce_blocks_payment_method_type_registration',
    ]);
    expect(outcome.gateway_classes).toEqual(['Armenian_Gateway']);
    expect(outcome.features).toEqual([
      { feature: 'custom_order_tables', file: 'armenian-payment-gateway.php', compatible: true },
      { feature: 'cart_checkout_blocks', file: 'armenian-payment-gateway.php', compatible: true },
    ]);
    expect(outcome.gateway).toMatchObject({
      id: 'armenian_gateway',
      supports: ['products', 'refunds'],
      title: 'Bank card or wallet',
      available: true,
      fields: ['enabled', 'title', 'description', 'connect_token', 'connector_url', 'capture_later', 'test_mode'],
    });
    expect(outcome.gateway?.field_type.connect_token).toBe('connect_token');
    expect(outcome.gateway?.field_type.test_mode).toBe('checkbox');
    expect(outcome.blocks).toEqual({
      class: 'Armenian_Gateway_Blocks',
      name: 'armenian_gateway',
      active: true,
      handles: ['armenian-gateway-blocks'],
      data: {
        title: 'Bank card or wallet',
        description: 'Pay with an Armenian bank card or wallet.',
        testMode: true,
        testModeNotice: expect.stringContaining('Test mode'),
        supports: ['products', 'refunds'],
        currency: 'AMD',
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

  it('is active in the Checkout block only as in the classic checkout: enabled, set up, a usable connector URL, a store in AMD', async () => {
    expect((await harness('bootstrap')).blocks?.active).toBe(true);
    for (const options of [
      { settings: { enabled: 'no' } },
      { settings: { connect_token: '' } },
      { settings: { connector_url: '' } },
      { settings: { connector_url: 'http://connector.example.am' }, local_connector: false },
      { store_currency: 'USD' },
    ]) {
      const outcome = await harness('bootstrap', options);
      expect(outcome.blocks?.active, JSON.stringify(options)).toBe(false);
      expect(outcome.gateway?.available, JSON.stringify(options)).toBe(false);
    }
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

  it('is not offered while the token is revoked or the store refuses the key, without asking the connector', async () => {
    for (const code of ['token_revoked', 'store_unauthorized']) {
      const outcome = await harness('bootstrap', { options: { armenian_gateway_payments_blocked: code } });
      expect(outcome.gateway?.available, code).toBe(false);
    }
    expect(connector.requests).toEqual([]);
    expect((await harness('bootstrap')).gateway?.available).toBe(true);
  });

  it('checks the connection every hour (WP-Cron), blocking the method on a refused key and offering it again once repaired', async () => {
    const boot = await harness('bootstrap');
    expect(boot.recurring).toEqual({ armenian_gateway_health_refresh: 'hourly' });

    connector.answer('GET /v1/connection', {
      status: 200,
      body: connectionState({ status: 'store_unauthorized' }, { store: 'unauthorized' }),
    });
    const refused = await harness('cron', { hook: 'armenian_gateway_health_refresh' });
    expect(refused.options).toMatchObject({ armenian_gateway_payments_blocked: 'store_unauthorized' });

    connector.reset();
    const repaired = await harness('cron', {
      hook: 'armenian_gateway_health_refresh',
      options: { armenian_gateway_payments_blocked: 'store_unauthorized' },
    });
    expect(repaired.options).not.toHaveProperty('armenian_gateway_payments_blocked');
    expect(only(connector.requests)).toMatchObject({ method: 'GET', path: '/v1/connection' });
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
    // The order travels with the call (the connector makes no store call while the store's worker waits).
    expect(request.body).toEqual({
      return_url: RETURN_URL,
      cancel_url: CANCEL_URL,
      order: {
        number: '123',
        total: '1500.00',
        currency: 'AMD',
        status: 'pending',
        created_at: '2026-11-23T10:00:00Z',
        customer_email: 'ani@example.am',
        customer_name: 'Ani Karapetyan',
        payment_method: 'armenian_gateway',
      },
    });
    expect(outcome.http[0]?.timeout).toBe(15);

    expect(outcome.result).toEqual({ result: 'success', redirect: CHECKOUT_URL });
    expect(outcome.orders['123']?.meta).toEqual({ _armenian_gateway_payment_uuid: PAYMENT_UUID });
    // WooCommerce's own field for the gateway's payment id.
    expect(outcome.orders['123']?.transaction_id).toBe(PAYMENT_UUID);
    expect(outcome.orders['123']?.saves).toBe(1);
    expect(outcome.post_meta_writes).toEqual([]);
    expect(outcome.notices).toEqual([]);
  });

  it('sends the shop’s order number, the total as a decimal string in UTC time, and null for a missing name or email', async () => {
    const outcome = await harness('payment', {
      order: {
        number: '1042',
        total: '1499.5',
        status: 'failed',
        date_created: '2026-11-23T14:00:00+04:00',
        billing_email: '',
        first_name: '',
        last_name: '',
      },
    });
    expect((only(connector.requests).body as Json).order).toEqual({
      number: '1042',
      total: '1499.50',
      currency: 'AMD',
      status: 'failed',
      created_at: '2026-11-23T10:00:00Z',
      customer_email: null,
      customer_name: null,
      payment_method: 'armenian_gateway',
    });
    // The fake connector validates the snapshot as the contract says: this one is accepted.
    expect(outcome.result).toEqual({ result: 'success', redirect: CHECKOUT_URL });
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

  it.each([
    [401, 'invalid_connect_token', 'token_revoked'],
    [409, 'store_unauthorized', 'store_unauthorized'],
  ] as const)('stops offering the method after a payment refused with %s %s', async (status, error, blocked) => {
    connector.answer('POST /v1/orders/123/payment', refusal(status, error, 'Refused.'));
    const outcome = await harness('payment');
    expect(outcome.result).toEqual({ result: 'failure' });
    expect(outcome.options).toMatchObject({ armenian_gateway_payments_blocked: blocked });
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

  it('says on the order received page, in classic and block themes, that an unpaid order is not confirmed yet', async () => {
    const unpaid = await harness('thankyou');
    expect(unpaid.output).toContain(
      '<div class="woocommerce-info" role="status">We could not confirm your payment yet.',
    );
    expect(connector.requests).toEqual([]);
    const paid = await harness('thankyou', { order: { status: 'processing' } });
    expect(paid.output).not.toContain('could not confirm');
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

  it('keeps the refund and says so in plain words when the processor has not confirmed it (202 pending)', async () => {
    connector.answer('POST /v1/orders/123/refunds', {
      status: 202,
      body: {
        refund_uuid: 'r-pending',
        payment_uuid: PAYMENT_UUID,
        amount: 600,
        status: 'pending',
        refunded_amount: 0,
      },
    });
    const outcome = await harness('refund', { amount: '600', refunds: [79] });
    expect(only(connector.requests).body).toEqual({ amount: 600, store_refund_id: '79' });
    expect(outcome.result).toBe(true);
    const notes = outcome.orders['123']?.notes ?? [];
    expect(notes).toHaveLength(1);
    expect(notes[0]).toContain('600 AMD');
    expect(notes[0]).toContain('do not refund it a second time');
    expect(notes[0]).not.toMatch(/GET \/api|payments\/|refund_outcome_unknown/);
    expect(outcome.scheduled).toEqual([]);
  });

  it.each([
    ['cannot be reached', null],
    [
      'fails itself (502)',
      { status: 502, body: { error: 'gateway_unavailable', message: 'The payment gateway did not answer.' } },
    ],
    ['answers something else than its JSON', { status: 200, body: null, raw: '<html>proxy error</html>' }],
  ] as const)('keeps the refund and sends the same one again later when the connector %s', async (_what, answer) => {
    if (answer !== null) connector.answer('POST /v1/orders/123/refunds', answer);
    // Nothing listens on the closed port: the request is never answered.
    const url = answer === null ? `http://127.0.0.1:${await freePort()}` : connector.url;
    const outcome = await harness('refund', { amount: '600', reason: 'Broken', refunds: [80] }, url);
    expect(outcome.result).toBe(true);
    expect(outcome.scheduled).toEqual([
      {
        in: 60,
        hook: 'armenian_gateway_resend_refund',
        args: [123, { amount: 600, reason: 'Broken', store_refund_id: '80' }, 1],
      },
    ]);
    expect(outcome.orders['123']?.notes).toEqual([expect.stringContaining('do not refund it a second time')]);
  });

  it('sends a refund whose answer never arrived again: refunded, pending, no answer again, or refused', async () => {
    const body = { amount: 600, reason: 'Broken', store_refund_id: '81' };
    const resend = (attempt: number) => harness('resend_refund', { body, attempt, refunds: [81] });

    const refunded = await resend(1);
    expect(only(connector.requests).body).toEqual(body);
    expect(refunded.orders['123']?.notes).toEqual([expect.stringContaining('Refunded 600 AMD')]);
    expect(refunded.deleted_refunds).toEqual([]);

    connector.reset();
    connector.answer('POST /v1/orders/123/refunds', {
      status: 502,
      body: { error: 'gateway_unavailable', message: 'x' },
    });
    const again = await resend(3);
    expect(again.scheduled).toEqual([{ in: 480, hook: 'armenian_gateway_resend_refund', args: [123, body, 4] }]);
    expect(again.orders['123']?.notes).toEqual([]);
    const givenUp = await resend(40);
    expect(givenUp.scheduled).toEqual([]);
    expect(givenUp.orders['123']?.notes).toEqual([expect.stringContaining('after many tries')]);

    connector.reset();
    const message = 'The refund is more than what is left of the payment (100 AMD).';
    connector.answer('POST /v1/orders/123/refunds', refusal(422, 'amount_exceeds_remaining', message));
    const refused = await resend(2);
    expect(refused.deleted_refunds).toEqual([81]);
    expect(refused.orders['123']?.notes).toEqual([
      expect.stringContaining('Nothing was refunded, and the refund was removed'),
    ]);
    expect(refused.scheduled).toEqual([]);
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
    connector.answer('GET /v1/connection', {
      status: 200,
      body: { ...connectionState({ status: 'awaiting_keys' }), authorize_url: AUTHORIZE_URL },
    });
    const outcome = await harness('settings', { post: posted() });
    expect(outcome.result).toBe(true);
    expect(connector.requests.map((r) => `${r.method} ${r.path}`)).toEqual([
      'POST /v1/connections',
      'GET /v1/connection',
    ]);
    const request = connector.requests[0] as ConnectorRequest;
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

  it('keeps the working connector URL when an invalid one is saved, and shows the error', async () => {
    const outcome = await harness('settings', {
      post: { ...posted(), woocommerce_armenian_gateway_connector_url: 'javascript:alert(1)' },
    });
    expect(outcome.options.woocommerce_armenian_gateway_settings.connector_url).toBe(connector.url);
    expect(outcome.settings_errors).toEqual([
      `The connector URL must be a full address starting with https://. The previous connector URL (${connector.url}) is kept.`,
    ]);
    // The store stays connected through the URL that works; the method stays at checkout.
    expect(connector.requests.map((r) => r.path)).toEqual(['/v1/connections', '/v1/connection']);
    expect(outcome.output).toContain('Connected');
    expect(outcome.output).not.toContain('javascript:');
  });

  it('keeps no connector URL that is not http(s) when there was none, and then calls nothing', async () => {
    const outcome = await harness('settings', {
      settings: { connector_url: '' },
      post: { ...posted(), woocommerce_armenian_gateway_connector_url: 'javascript:alert(1)' },
    });
    expect(connector.requests).toEqual([]);
    expect(outcome.settings_errors).toHaveLength(1);
    expect(outcome.output).toContain('Paste your connect token and the connector URL');
    expect(outcome.output).not.toContain('javascript:');
  });

  it('says "Connected" only when GET /v1/connection (which asks the gateway) says active', async () => {
    connector.answer('POST /v1/connections', { status: 200, body: connection({ status: 'active' }) });
    connector.answer('GET /v1/connection', refusal(401, 'invalid_connect_token', 'The gateway refused the token.'));
    const outcome = await harness('settings', { post: posted() });
    expect(outcome.output).not.toContain('Connected');
    expect(outcome.output).toContain('no longer accepts this store&#039;s connect token');
  });

  it('shows a refused store key with "Reconnect" and the manual-key fields', async () => {
    connector.answer('GET /v1/connection', {
      status: 200,
      body: connectionState({ status: 'store_unauthorized' }, { store: 'unauthorized' }),
    });
    const outcome = await harness('admin');
    expect(outcome.output).toContain('WooCommerce refused the connector&#039;s REST API key');
    expect(outcome.output).toContain(
      `href="http://shop.test/wp-admin/admin-post.php?action=armenian_gateway_reconnect&amp;_wpnonce=${nonce('armenian_gateway_reconnect')}"`,
    );
    expect(outcome.output).toContain('<details class="armenian-gateway-manual-key" open>');
    expect(outcome.output).toContain('name="armenian_gateway_consumer_key"');
    expect(outcome.output).toContain(
      'type="password" class="regular-text" autocomplete="new-password" id="armenian_gateway_consumer_secret"',
    );
    expect(outcome.output).not.toContain('Connected');
  });

  it('warns when WooCommerce cannot deliver keys to the connector, and why', async () => {
    connector.answer('GET /v1/connection', {
      status: 200,
      body: {
        ...connectionState({ status: 'awaiting_keys' }, {}, ['callback_not_https', 'callback_host_not_public']),
        authorize_url: AUTHORIZE_URL,
      },
    });
    const outcome = await harness('admin');
    expect(outcome.output).toContain('cannot work with this connector');
    expect(outcome.output).toContain('https://connector.example/woocommerce/auth/callback');
    expect(outcome.output).toContain('<li>The address is not https: WooCommerce sends keys only over https.</li>');
    expect(outcome.output).toContain('The address&#039;s host is localhost or a private address');
    expect(outcome.output).not.toContain('port is not');
    expect(outcome.output).toContain('<details class="armenian-gateway-manual-key" open>');
  });

  it('folds the manual-key route away while awaiting keys with nothing against the exchange, and hides it once active', async () => {
    connector.answer('GET /v1/connection', {
      status: 200,
      body: { ...connectionState({ status: 'awaiting_keys' }), authorize_url: AUTHORIZE_URL },
    });
    const awaiting = await harness('admin');
    expect(awaiting.output).toContain('<details class="armenian-gateway-manual-key">');
    expect(awaiting.output).not.toContain('cannot work with this connector');
    connector.reset();
    const active = await harness('admin');
    expect(active.output).not.toContain('armenian-gateway-manual-key');
    expect(active.output).toContain('Remove connection');
    // The confirmation is assets/js/admin.js's, not an inline onclick.
    expect(active.output).toContain('data-armenian-gateway-confirm="Remove this store&#039;s connection?');
    expect(active.output).not.toContain('onclick');
  });

  it('sends a manual key once to POST /v1/connection/credentials and keeps it nowhere', async () => {
    const outcome = await harness('settings', {
      post: {
        ...posted(),
        armenian_gateway_consumer_key: ' ck_manual_key ',
        armenian_gateway_consumer_secret: 'cs_good_secret',
      },
    });
    expect(connector.requests.map((r) => `${r.method} ${r.path}`)).toEqual([
      'POST /v1/connections',
      'POST /v1/connection/credentials',
      'GET /v1/connection',
    ]);
    expect(connector.requests[1]?.body).toEqual({ consumer_key: 'ck_manual_key', consumer_secret: 'cs_good_secret' });
    expect(outcome.output).toContain('The REST API key works');
    expect(JSON.stringify(outcome.options)).not.toContain('cs_good_secret');
    expect(JSON.stringify(outcome.options)).not.toContain('ck_manual_key');
    expect(outcome.output).not.toContain('cs_good_secret');
  });

  it('shows why a manual key was refused, and sends nothing when only half of it was pasted', async () => {
    const refused = await harness('settings', {
      post: { ...posted(), armenian_gateway_consumer_key: 'ck_x', armenian_gateway_consumer_secret: 'cs_wrong' },
    });
    expect(refused.output).toContain('The REST API key was not accepted: WooCommerce refused the key (401)');
    expect(refused.logs[0]?.message).toContain('store_credentials_refused');
    expect(JSON.stringify(refused.options)).not.toContain('cs_wrong');

    connector.reset();
    const half = await harness('settings', { post: { ...posted(), armenian_gateway_consumer_key: 'ck_x' } });
    expect(connector.requests.map((r) => r.path)).toEqual(['/v1/connections', '/v1/connection']);
    expect(half.output).toContain('Paste both the consumer key and the consumer secret');
  });

  it('forgets the cached health check when the settings are saved', async () => {
    const outcome = await harness('settings', {
      post: posted(),
      transients: { armenian_gateway_health: { problems: [{ code: 'token_revoked' }] } },
    });
    expect(outcome.options._transient_armenian_gateway_health).toBeUndefined();
  });

  it('asks the shop owner to save the settings when the store is not connected yet', async () => {
    connector.answer('GET /v1/connection', refusal(404, 'connection_not_found', 'No connection for this token.'));
    const outcome = await harness('admin');
    expect(outcome.output).toContain('not connected yet');
  });
});

describe('the Plugins screen', () => {
  it('links to the settings (and the reconciliation page) from the plugin’s row', async () => {
    const outcome = await page('/wp-admin/plugins.php');
    expect(outcome.output).toContain(`<a href="${PLUGIN_SETTINGS_URL.replaceAll('&', '&amp;')}">Settings</a>`);
    expect(outcome.output).toContain(
      '<a href="http://shop.test/wp-admin/admin.php?page=armenian-gateway-reconciliation">Reconciliation</a> | <a href="#">Deactivate</a>',
    );
  });
});

describe('the order panel', () => {
  const HPOS_EDIT = { get: { page: 'wc-orders', action: 'edit', id: '123' } };
  const POSTS_EDIT = { storage: 'posts', get: { post: '123', action: 'edit' } };

  it('shows the gateway payment on the HPOS order edit page', async () => {
    const outcome = await page('/wp-admin/admin.php', HPOS_EDIT);
    expect(outcome.meta_boxes).toEqual([
      {
        id: 'armenian-gateway-payment',
        title: 'Armenian Payment Gateway',
        screen: 'woocommerce_page_wc-orders',
        context: 'side',
        priority: 'high',
      },
    ]);
    const reads = connector.requests.filter((r) => r.path === '/v1/orders/123/payment');
    expect(reads).toHaveLength(1);
    expect(reads[0]?.method).toBe('GET');
    // The page's time budget: the order page must not hang on the connector.
    expect(outcome.http.find((call) => call.url.endsWith('/v1/orders/123/payment'))?.timeout).toBeLessThanOrEqual(1.5);
    for (const text of [
      `<th scope="row">Payment</th><td>${PAYMENT_UUID}</td>`,
      '<th scope="row">Status</th><td>completed</td>',
      '<th scope="row">Processor</th><td>sandbox</td>',
      '<th scope="row">RRN</th><td>123456789012</td>',
      '<th scope="row">Amount</th><td>1,500 AMD</td>',
      '<th scope="row">Refunded</th><td>500 AMD</td>',
      '<th scope="row">Environment</th><td>test (no real money)</td>',
      '<th scope="row">Last webhook</th><td>2026-11-23 10:05</td>',
      '<th scope="row">Store update</th><td>marked paid</td>',
      '<li title="r-5e6f7a8b">500 AMD, succeeded, 2026-11-23 12:00 (Damaged in transit)</li>',
      `href="http://shop.test/wp-admin/admin-post.php?action=armenian_gateway_check_payment&amp;order_id=123&amp;_wpnonce=${nonce('armenian_gateway_check_payment_123')}"`,
    ]) {
      expect(outcome.output).toContain(text);
    }
  });

  it('shows it on the posts-storage order edit page too', async () => {
    const outcome = await page('/wp-admin/post.php', POSTS_EDIT);
    expect(outcome.meta_boxes.map((box) => box.screen)).toEqual(['shop_order']);
    expect(outcome.output).toContain(`<td>${PAYMENT_UUID}</td>`);
  });

  it('is not added to orders paid with another method, and then calls nothing', async () => {
    const outcome = await page('/wp-admin/admin.php', { ...HPOS_EDIT, order: { payment_method: 'cod' } });
    expect(outcome.meta_boxes).toEqual([]);
    expect(connector.requests.filter((r) => r.path.startsWith('/v1/orders'))).toEqual([]);
  });

  it('names a flag with what to do, and says when the gateway has no payment', async () => {
    connector.answer('GET /v1/orders/123/payment', { status: 200, body: paymentState('123', { flag: 'paid_twice' }) });
    const flagged = await page('/wp-admin/admin.php', HPOS_EDIT);
    expect(flagged.output).toContain('The order was paid twice: refund one of the payments.');

    connector.reset();
    connector.answer('GET /v1/orders/123/payment', {
      status: 200,
      body: { order_id: '123', payment_uuid: null, status: null, paid: false },
    });
    const none = await page('/wp-admin/admin.php', HPOS_EDIT);
    expect(none.output).toContain('The gateway has no payment for this order yet.');
    expect(none.output).toContain('Check now');
  });

  it('says clearly when the connector cannot be reached', async () => {
    const closed = `http://127.0.0.1:${await freePort()}`;
    const outcome = await harness('page', { path: '/wp-admin/admin.php', ...HPOS_EDIT }, closed);
    expect(outcome.output).toContain('The connector did not answer in time, so the payment cannot be shown.');
  });

  it('offers "Check now" only to shop managers', async () => {
    const outcome = await page('/wp-admin/admin.php', { ...HPOS_EDIT, caps: ['edit_shop_orders'] });
    expect(outcome.output).toContain(`<td>${PAYMENT_UUID}</td>`);
    expect(outcome.output).not.toContain('Check now');
  });
});

describe('"Check now"', () => {
  const check = (extra: Record<string, unknown> = {}, wpnonce = nonce('armenian_gateway_check_payment_123')) =>
    page('/wp-admin/admin-post.php', {
      get: { action: 'armenian_gateway_check_payment', order_id: '123', _wpnonce: wpnonce },
      ...extra,
    });
  const flashOf = (outcome: HarnessRun) => outcome.options._transient_armenian_gateway_check_123_1;

  it('reads the payment back and returns to the order with "repaired"', async () => {
    connector.answer('GET /v1/orders/123/payment', { status: 200, body: paymentState('123', { repaired: true }) });
    const outcome = await check();
    expect(only(connector.requests).path).toBe('/v1/orders/123/payment');
    expect(outcome.redirect).toBe('http://shop.test/wp-admin/admin.php?page=wc-orders&action=edit&id=123');
    expect(flashOf(outcome)).toEqual({
      type: 'success',
      message: 'Repaired: the payment was completed at the gateway, and the order is being marked paid.',
    });
  });

  it('says "nothing to repair" when order and payment agree, and goes back to the posts-storage page', async () => {
    const outcome = await check({ storage: 'posts' });
    expect(outcome.redirect).toBe('http://shop.test/wp-admin/post.php?post=123&action=edit');
    expect(flashOf(outcome).message).toBe(
      'Nothing to repair: the order and the gateway agree (payment status: completed).',
    );
  });

  it('brings the error back when the connector refuses', async () => {
    connector.answer('GET /v1/orders/123/payment', refusal(502, 'gateway_unavailable', 'The gateway did not answer.'));
    const outcome = await check();
    expect(flashOf(outcome)).toEqual({
      type: 'error',
      message: 'The payment could not be read: The gateway did not answer.',
    });
  });

  it('shows the outcome once on the order page', async () => {
    const outcome = await page('/wp-admin/admin.php', {
      get: { page: 'wc-orders', action: 'edit', id: '123' },
      transients: { armenian_gateway_check_123_1: { type: 'success', message: 'Repaired: it worked.' } },
    });
    expect(outcome.output).toContain(
      'notice-success inline armenian-gateway-check-result"><p>Repaired: it worked.</p>',
    );
    expect(flashOf(outcome)).toBeUndefined();
  });

  it('refuses a wrong nonce or a user who is not a shop manager, without calling the connector', async () => {
    const forged = await check({}, 'forged');
    expect(forged.died?.status).toBe(403);
    const clerk = await check({ caps: ['edit_shop_orders'] });
    expect(clerk.died?.status).toBe(403);
    expect(connector.requests).toEqual([]);
  });
});

describe('the reconciliation page', () => {
  const SLUG = 'armenian-gateway-reconciliation';
  const start = (post: Record<string, string>) =>
    page('/wp-admin/admin-post.php', {
      method: 'POST',
      post: { action: 'armenian_gateway_reconcile', _wpnonce: nonce('armenian_gateway_reconcile'), ...post },
    });

  it('is a WooCommerce submenu page for shop managers', async () => {
    const outcome = await page('/wp-admin/admin.php', { get: { page: SLUG } });
    expect(outcome.submenu_pages).toEqual([
      {
        parent: 'woocommerce',
        page_title: 'Payment reconciliation',
        menu_title: 'Payment reconciliation',
        capability: 'manage_woocommerce',
        slug: SLUG,
      },
    ]);
    // The form defaults to the last 7 days.
    const today = new Date().toISOString().slice(0, 10);
    const weekAgo = new Date(Date.now() - 7 * 86_400_000).toISOString().slice(0, 10);
    expect(outcome.output).toContain(`name="from" value="${weekAgo}"`);
    expect(outcome.output).toContain(`name="to" value="${today}"`);
    expect(outcome.output).toContain(`name="_wpnonce" value="${nonce('armenian_gateway_reconcile')}"`);
  });

  it('starts a run with wait: false over the chosen days and shows it', async () => {
    const outcome = await start({ from: '2026-11-16', to: '2026-11-23' });
    const request = only(connector.requests);
    expect(request.method).toBe('POST');
    expect(request.path).toBe('/v1/reconciliation');
    expect(request.body).toEqual({
      from: '2026-11-16T00:00:00Z',
      to: '2026-11-23T23:59:59Z',
      repair: false,
      wait: false,
    });
    expect(outcome.redirect).toBe(
      `http://shop.test/wp-admin/admin.php?page=${SLUG}&from=2026-11-16&to=2026-11-23&run=run-1`,
    );
  });

  it('refuses a forged form', async () => {
    const outcome = await start({ from: '2026-11-16', to: '2026-11-23', _wpnonce: 'forged' });
    expect(outcome.died?.status).toBe(403);
    expect(connector.requests).toEqual([]);
  });

  it('reloads itself while the run is running, then shows the findings with what will be done', async () => {
    await start({ from: '2026-11-16', to: '2026-11-23' });
    const get = { page: SLUG, from: '2026-11-16', to: '2026-11-23', run: 'run-1' };
    // The harness is one PHP process per request: the fake connector keeps the run between them.
    const running = await page('/wp-admin/admin.php', { get });
    // assets/js/admin.js reloads the page (no <meta refresh>, no inline script).
    expect(running.output).toContain('data-armenian-gateway-reload="3"');
    expect(running.output).toContain('/wp-content/plugins/wordpress-plugin/assets/js/admin.js?ver=0.1.0');
    expect(running.output).not.toContain('http-equiv');
    expect(running.output).toContain('Running: the connector is comparing the orders with the gateway.');

    const finished = await page('/wp-admin/admin.php', { get });
    expect(finished.output).not.toContain('data-armenian-gateway-reload');
    for (const text of [
      '12 orders checked. 2 mismatches:',
      '<td>Paid at the gateway, unpaid in the store</td>',
      '<td><a href="http://shop.test/wp-admin/admin.php?page=wc-orders&amp;action=edit&amp;id=123">#1042</a></td>',
      `<td><code>${PAYMENT_UUID}</code></td>`,
      '<td>Mark the order paid: the gateway confirmed the payment.</td>',
      '<td>Paid twice</td>',
      '<td>#1043</td>',
      '1 mismatch can be repaired safely',
      'Repair the safe ones',
      '<input type="hidden" name="repair_run" value="run-1" />',
    ]) {
      expect(finished.output).toContain(text);
    }
    const paths = connector.requests.map((r) => `${r.method} ${r.path}`);
    expect(paths).toContain('GET /v1/reconciliation/run-1');
    expect(paths).toContain('GET /v1/reconciliation?trigger=scheduled&limit=1');
  });

  it('repairs the safe ones over exactly the range of the run shown, and shows that run’s result', async () => {
    await start({ from: '2026-11-16', to: '2026-11-23' });
    connector.reset();
    connector.runs.runningReads = 0;
    // The run the page showed, as the connector keeps it: its own UTC instants.
    connector.answer('GET /v1/reconciliation/run-7', {
      status: 200,
      body: {
        ...SCHEDULED_RUN,
        id: 'run-7',
        trigger: 'plugin',
        from: '2026-11-15T20:00:00Z',
        to: '2026-11-23T19:59:59Z',
      },
    });
    const outcome = await start({ from: '2026-11-16', to: '2026-11-23', repair_run: 'run-7' });
    expect(connector.requests.map((r) => `${r.method} ${r.path}`)).toEqual([
      'GET /v1/reconciliation/run-7',
      'POST /v1/reconciliation',
    ]);
    expect(connector.requests[1]?.body).toEqual({
      from: '2026-11-15T20:00:00Z',
      to: '2026-11-23T19:59:59Z',
      repair: true,
      wait: false,
    });
    const shown = await page('/wp-admin/admin.php', { get: { page: SLUG, run: 'run-1' } });
    expect(shown.output).toContain('<td>Repaired: the order was marked paid.</td>');
    expect(shown.output).not.toContain('Repair the safe ones');
    expect(outcome.redirect).toContain('run=run-1');
  });

  it('shows the last automatic run and its findings', async () => {
    const outcome = await page('/wp-admin/admin.php', { get: { page: SLUG } });
    // The health notice asks GET /v1/connection; the page itself only reads the last scheduled run.
    expect(connector.requests.map((r) => r.path)).toEqual([
      '/v1/connection',
      '/v1/reconciliation?trigger=scheduled&limit=1',
    ]);
    expect(outcome.output).toContain('Last automatic run');
    expect(outcome.output).toContain('14 orders checked. 1 mismatch:');
    expect(outcome.output).toContain('<td>Paid twice</td>');
    // Only this page's own run offers the repair.
    expect(outcome.output).not.toContain('Repair the safe ones');
  });

  it('shows a payment the payment system never confirmed as its own kind, with what to do, and offers no repair', async () => {
    const detail = `Payment ${PAYMENT_UUID} of order 1044 at Telcell is expired: Telcell has not told the gateway whether the buyer paid, and the gateway cannot ask Telcell without the invoice number that only Telcell's notice carries.`;
    const advice =
      "Look the order up in the merchant cabinet of the payment system named here: if the buyer paid, enter the invoice number on this payment's page in the gateway dashboard, and the gateway checks it and completes the payment (the order is then marked paid); if the buyer did not pay, nothing is owed. You may also wait: a late notice from the payment system completes the payment by itself.";
    connector.answer('GET /v1/reconciliation/run-5', {
      status: 200,
      body: {
        ...SCHEDULED_RUN,
        id: 'run-5',
        trigger: 'plugin',
        orders_checked: 3,
        findings: [
          {
            kind: 'awaiting_processor_reference',
            store_order_id: '125',
            order_number: '1044',
            payment_uuid: PAYMENT_UUID,
            detail,
            action: 'flagged',
            repairable: false,
            advice,
          },
        ],
      },
    });
    const outcome = await page('/wp-admin/admin.php', { get: { page: SLUG, run: 'run-5' } });
    for (const text of [
      '3 orders checked. 1 mismatch:',
      '<tr class="armenian-gateway-finding" data-kind="awaiting_processor_reference">',
      '<td>Not confirmed by the payment system</td>',
      '<td>#1044</td>',
      `<td><code>${PAYMENT_UUID}</code></td>`,
      // Escaped for HTML, as every text of the connector.
      `<td>${detail.replaceAll("'", '&#039;')}</td>`,
      `<td>${advice.replaceAll("'", '&#039;')}</td>`,
    ]) {
      expect(outcome.output).toContain(text);
    }
    // Only a person can settle it: nothing to repair.
    expect(outcome.output).not.toContain('Repair the safe ones');
  });

  it('says when there was no automatic run yet, a failed run and a connector that refuses to start one', async () => {
    connector.answer('GET /v1/reconciliation?trigger=scheduled&limit=1', { status: 200, body: { data: [] } });
    connector.answer('GET /v1/reconciliation/run-9', {
      status: 200,
      body: { id: 'run-9', status: 'failed', error: 'The store could not be reached.', findings: [] },
    });
    const outcome = await page('/wp-admin/admin.php', { get: { page: SLUG, run: 'run-9' } });
    expect(outcome.output).toContain('has not run an automatic reconciliation');
    expect(outcome.output).toContain('The run failed: The store could not be reached. Try again in a few minutes.');

    connector.answer(
      'POST /v1/reconciliation',
      refusal(409, 'connection_not_ready', 'The store has not finished connecting.'),
    );
    const refused = await start({ from: '2026-11-16', to: '2026-11-23' });
    expect(refused.redirect).toBe(`http://shop.test/wp-admin/admin.php?page=${SLUG}&from=2026-11-16&to=2026-11-23`);
    expect(refused.options._transient_armenian_gateway_reconciliation_1).toEqual({
      type: 'error',
      message: 'The reconciliation could not be started: The store has not finished connecting.',
    });
  });
});

describe('the connection health notice', () => {
  /** A WooCommerce screen (WooCommerce > Status), where the notice shows. */
  const dashboard = (extra: Record<string, unknown> = {}, url?: string) =>
    harness('page', { path: '/wp-admin/admin.php', get: { page: 'wc-status' }, ...extra }, url);
  const health = (body: Json) => connector.answer('GET /v1/connection', { status: 200, body });

  it('says nothing when all is well, and keeps the check for five minutes', async () => {
    const outcome = await dashboard();
    expect(only(connector.requests).path).toBe('/v1/connection');
    expect(outcome.http[0]?.timeout).toBeLessThanOrEqual(1.5);
    expect(outcome.output).not.toContain('armenian-gateway-health');
    expect(outcome.transient_writes).toEqual([['armenian_gateway_health', 300]]);
  });

  it('is not shown, and asks nothing, on screens that are not WooCommerce’s (the Dashboard, Posts)', async () => {
    health(connectionState({ status: 'token_revoked' }));
    for (const path of ['/wp-admin/index.php', '/wp-admin/edit.php']) {
      const outcome = await harness('page', { path });
      expect(outcome.output).not.toContain('armenian-gateway-health');
    }
    expect(connector.requests).toEqual([]);
    const plugins = await harness('page', { path: '/wp-admin/plugins.php' });
    expect(plugins.output).toContain('notice-error armenian-gateway-health is-dismissible');
  });

  it('answers from the cached check without calling the connector', async () => {
    const outcome = await dashboard({
      transients: { armenian_gateway_health: { problems: [{ code: 'gateway_unreachable' }] } },
    });
    expect(connector.requests).toEqual([]);
    expect(outcome.output).toContain(
      'Armenian Payment Gateway: The connector cannot reach the payment gateway right now',
    );
  });

  it('tells when the connector cannot be reached, and what to do', async () => {
    const closed = `http://127.0.0.1:${await freePort()}`;
    const outcome = await dashboard({}, closed);
    expect(outcome.output).toContain('The connector could not be reached. Check the connector URL.');
    // A failed check is kept one minute, so the next pages do not wait for the connector again.
    expect(outcome.transient_writes).toEqual([
      ['armenian_gateway_unreachable', 60],
      ['armenian_gateway_health', 60],
    ]);
    // Nothing about the network a shop manager could probe it with.
    expect(outcome.output).not.toContain(new URL(closed).port);
    expect(outcome.output).not.toMatch(/refused|errno|cURL|Connection/i);
    expect(outcome.output).toContain('If the connector URL in the settings is right, the connector is down');
    expect(outcome.output).toContain(`href="${PLUGIN_SETTINGS_URL.replaceAll('&', '&amp;')}"`);
  });

  it('tells when the token was revoked', async () => {
    connector.answer('GET /v1/connection', refusal(401, 'invalid_connect_token', 'Revoked.'));
    const outcome = await dashboard();
    expect(outcome.output).toContain('notice-error armenian-gateway-health is-dismissible');
    expect(outcome.output).toContain('Get a new connect token for this store');
  });

  it('offers "Reconnect" when the store refused the connector’s key', async () => {
    health(connectionState({ status: 'store_unauthorized' }, { store: 'unauthorized' }));
    const outcome = await dashboard();
    expect(outcome.output).toContain('WooCommerce refused the connector&#039;s REST API key');
    expect(outcome.output).toContain('armenian_gateway_reconnect&amp;_wpnonce=');
  });

  it('tells when the gateway is unreachable, the store unreachable, or webhooks stopped arriving', async () => {
    health(
      connectionState(
        {},
        {
          gateway: 'unreachable',
          store: 'unreachable',
          store_error: { at: '2026-11-23T10:00:00Z', message: 'The store could not be reached.' },
          webhooks: 'stale',
          last_missed_webhook_at: '2026-11-23T11:00:00Z',
        },
      ),
    );
    const outcome = await dashboard();
    expect(outcome.output).toContain(
      'Armenian Payment Gateway: The connector cannot reach the payment gateway right now',
    );
    expect(outcome.output).toContain('could not reach your store&#039;s REST API (The store could not be reached.)');
    expect(outcome.output).toContain('notifications stopped reaching the connector (last one: 2026-11-23 10:05)');
    expect(outcome.output.match(/armenian-gateway-health/g)).toHaveLength(3);
  });

  it('is shown only to shop managers, and not before the store is configured', async () => {
    health(connectionState({ status: 'token_revoked' }));
    const clerk = await dashboard({ caps: ['edit_shop_orders'] });
    expect(clerk.output).not.toContain('armenian-gateway-health');
    const unconfigured = await dashboard({ settings: { connect_token: '' } });
    expect(unconfigured.output).not.toContain('armenian-gateway-health');
    expect(connector.requests).toEqual([]);
  });
});

describe('reconnecting and removing the connection', () => {
  const action = (name: string, extra: Record<string, unknown> = {}) =>
    page('/wp-admin/admin-post.php', { get: { action: name, _wpnonce: nonce(name) }, ...extra });

  it('"Reconnect" starts a new key exchange and sends the shop owner to approve it', async () => {
    const outcome = await action('armenian_gateway_reconnect', {
      transients: { armenian_gateway_health: { problems: [{ code: 'store_unauthorized' }] } },
    });
    const request = only(connector.requests);
    expect(`${request.method} ${request.path}`).toBe('POST /v1/connection/reconnect');
    expect(outcome.redirect).toBe(AUTHORIZE_URL);
    expect(outcome.options._transient_armenian_gateway_health).toBeUndefined();
  });

  it('"Reconnect" comes back to the settings with the error when the connector refuses', async () => {
    connector.answer('POST /v1/connection/reconnect', refusal(401, 'invalid_connect_token', 'Revoked.'));
    const outcome = await action('armenian_gateway_reconnect');
    expect(outcome.redirect).toBe(PLUGIN_SETTINGS_URL);
    expect(outcome.options._transient_armenian_gateway_connection_1.message).toBe('Reconnecting failed: Revoked.');
  });

  it('"Remove connection" deletes it at the connector and switches the method off', async () => {
    const outcome = await action('armenian_gateway_remove_connection');
    expect(`${only(connector.requests).method} ${only(connector.requests).path}`).toBe('DELETE /v1/connection');
    expect(outcome.redirect).toBe(PLUGIN_SETTINGS_URL);
    expect(outcome.options.woocommerce_armenian_gateway_settings.enabled).toBe('no');
    expect(outcome.options._transient_armenian_gateway_connection_1.message).toContain('The connection was removed');
  });

  /** REST keys as WooCommerce keeps them: the key exchange's description, and one made by hand. */
  const KEYS = [
    { description: 'Armenian payment gateway - API (2026-01-10 09:00:00)', truncated_key: 'old0001' },
    { description: 'Armenian payment gateway - API (2026-05-02 11:30:00)', truncated_key: 'old0002' },
    { description: 'Armenian payment gateway - API (2026-11-20 08:15:00)', truncated_key: 'cur1234' },
    { description: 'Accounting export', truncated_key: 'own9999' },
  ];

  it('revokes the REST keys earlier key exchanges made once the connection is healthy, keeping the one in use', async () => {
    connector.answer('GET /v1/connection', {
      status: 200,
      body: connectionState({ store_key: { truncated_key: 'cur1234', app_name: 'Armenian payment gateway' } }),
    });
    const outcome = await page('/wp-admin/admin.php', {
      get: { page: 'wc-settings', tab: 'checkout', section: 'armenian_gateway' },
      api_keys: KEYS,
    });
    expect(outcome.api_keys.map((k) => k.truncated_key)).toEqual(['cur1234', 'own9999']);
    expect(outcome.options).toMatchObject({ armenian_gateway_key_app: 'Armenian payment gateway' });

    // Not while the connection is not active (its key may be the one being replaced).
    connector.answer('GET /v1/connection', {
      status: 200,
      body: connectionState({
        status: 'awaiting_keys',
        store_key: { truncated_key: 'cur1234', app_name: 'Armenian payment gateway' },
      }),
    });
    const waiting = await page('/wp-admin/admin.php', {
      get: { page: 'wc-settings', tab: 'checkout', section: 'armenian_gateway' },
      api_keys: KEYS,
    });
    expect(waiting.api_keys).toHaveLength(4);
  });

  it('"Remove connection" revokes the REST keys the connector used, and only those', async () => {
    const outcome = await action('armenian_gateway_remove_connection', {
      api_keys: KEYS,
      options: { armenian_gateway_key_app: 'Armenian payment gateway' },
    });
    expect(outcome.api_keys.map((k) => k.truncated_key)).toEqual(['own9999']);
    expect(outcome.options).not.toHaveProperty('armenian_gateway_key_app');
    expect(outcome.options._transient_armenian_gateway_connection_1.message).toContain(
      'REST keys it used were revoked',
    );
  });

  it('refuses both without the nonce or the capability', async () => {
    const forged = await action('armenian_gateway_remove_connection', {
      get: { action: 'armenian_gateway_remove_connection', _wpnonce: 'x' },
    });
    expect(forged.died?.status).toBe(403);
    const clerk = await action('armenian_gateway_reconnect', { caps: [] });
    expect(clerk.died?.status).toBe(403);
    expect(connector.requests).toEqual([]);
  });
});

describe('a connector that does not answer, or answers late: admin pages never wait more than ~2 s', () => {
  const PAGES: Array<[string, string, Record<string, unknown>]> = [
    [
      'the settings page',
      '/wp-admin/admin.php',
      { get: { page: 'wc-settings', tab: 'checkout', section: 'armenian_gateway' } },
    ],
    ['the order page (HPOS)', '/wp-admin/admin.php', { get: { page: 'wc-orders', action: 'edit', id: '123' } }],
    [
      'the order page (posts storage)',
      '/wp-admin/post.php',
      { storage: 'posts', get: { post: '123', action: 'edit' } },
    ],
    [
      'the reconciliation page with a run',
      '/wp-admin/admin.php',
      { get: { page: 'armenian-gateway-reconciliation', run: 'run-1' } },
    ],
  ];

  async function timed(path: string, options: Record<string, unknown>): Promise<[HarnessRun, number]> {
    const started = performance.now();
    const outcome = await page(path, options);
    return [outcome, performance.now() - started];
  }

  it.each(PAGES)(
    '%s answers within 2 s when the connector takes the request and never answers',
    async (_, path, options) => {
      connector.silence();
      const [outcome, ms] = await timed(path, options);
      expect(ms).toBeLessThan(2_000);
      expect(outcome.output).toMatch(/did not answer in time/);
      // One call waited (the health notice's); the page's own calls knew at once.
      expect(connector.requests).toHaveLength(1);
      expect(outcome.options._transient_armenian_gateway_unreachable).toBe(1);
    },
  );

  it('the next pages within a minute do not wait at all, and a save asks again', async () => {
    connector.silence();
    const unreachable = { armenian_gateway_unreachable: 1 };
    const [outcome, ms] = await timed('/wp-admin/admin.php', {
      get: { page: 'wc-orders', action: 'edit', id: '123' },
      transients: unreachable,
    });
    expect(ms).toBeLessThan(1_000);
    expect(connector.requests).toEqual([]);
    expect(outcome.output).toContain('The connector did not answer in time, so the payment cannot be shown.');
    connector.reset();
    const saved = await harness('settings', { transients: unreachable, post: {} });
    expect(saved.options._transient_armenian_gateway_unreachable).toBeUndefined();
  });

  it('a connector that answers within the budget is shown; one that answers after it is not waited for', async () => {
    connector.answer('GET /v1/orders/123/payment', { status: 200, body: paymentState('123'), delayMs: 600 });
    connector.answer('GET /v1/connection', { status: 200, body: connectionState() });
    const HPOS = { get: { page: 'wc-orders', action: 'edit', id: '123' } };
    const [late, lateMs] = await timed('/wp-admin/admin.php', HPOS);
    expect(late.output).toContain(`<td>${PAYMENT_UUID}</td>`);
    expect(lateMs).toBeLessThan(2_000);

    connector.reset();
    connector.answer('GET /v1/orders/123/payment', { status: 200, body: paymentState('123'), delayMs: 5_000 });
    const [tooLate, tooLateMs] = await timed('/wp-admin/admin.php', HPOS);
    expect(tooLate.output).not.toContain(`<td>${PAYMENT_UUID}</td>`);
    expect(tooLate.output).toContain('did not answer in time');
    expect(tooLateMs).toBeLessThan(2_000);
  });

  it('saving the settings waits at most 8 s in all for a connector that does not answer', async () => {
    connector.silence();
    const started = performance.now();
    const outcome = await harness('settings', {
      post: {
        woocommerce_armenian_gateway_enabled: '1',
        woocommerce_armenian_gateway_connector_url: connector.url,
        armenian_gateway_consumer_key: 'ck_manual',
        armenian_gateway_consumer_secret: 'cs_good_secret',
      },
    });
    const ms = performance.now() - started;
    expect(ms).toBeLessThan(9_000);
    expect(ms).toBeGreaterThan(7_500);
    // The connect call took the whole budget: the key was not sent, the page did not wait again.
    expect(connector.requests.map((r) => r.path)).toEqual(['/v1/connections']);
    expect(outcome.output).toContain('did not answer in time');
  });
});

describe('a connector that answers garbage: every page and flow shows a message, never a warning or a critical error', () => {
  /** Values a field can take that are not what the contract says. harness() fails on any PHP warning, notice or throw. */
  const GARBAGE: unknown[] = [
    [],
    {},
    ['x', 1],
    { a: { b: [] } },
    12345,
    -1.5,
    true,
    null,
    '',
    'Array',
    '2026-13-45T99:99:99Z',
  ];

  /** Each mutant replaces every field of `base` with a garbage value; across the mutants every field takes every value. */
  function mutants(base: Json): Json[] {
    const keys = Object.keys(base);
    return GARBAGE.map((_, i) => Object.fromEntries(keys.map((key, j) => [key, GARBAGE[(i + j) % GARBAGE.length]])));
  }

  /** The base with one nested object or list replaced: by each mutant of its first item, and by a list of garbage. */
  function nested(base: Json, key: string, inner?: string): Json[] {
    const holder = (inner === undefined ? base : base[inner]) as Json;
    const list = holder[key];
    const first = (Array.isArray(list) ? list[0] : list) as Json;
    const put = (value: unknown): Json =>
      inner === undefined ? { ...base, [key]: value } : { ...base, [inner]: { ...holder, [key]: value } };
    return [
      put(GARBAGE),
      ...(typeof first === 'object' && first !== null
        ? mutants(first).map((m) => put(Array.isArray(list) ? [m] : m))
        : []),
    ];
  }

  const RAW = ['not json', '[]', '"a string"', '123', 'null', '{"a":', `${'['.repeat(600)}${']'.repeat(600)}`];

  async function survives(route: string, bodies: Json[], run: () => Promise<HarnessRun>): Promise<void> {
    for (const body of bodies) {
      connector.reset();
      connector.answer(route, { status: 200, body });
      const outcome = await run();
      expect(outcome.died, JSON.stringify(body)).toBeNull();
    }
    for (const raw of RAW) {
      connector.reset();
      connector.answer(route, { status: 200, body: null, raw });
      expect((await run()).died).toBeNull();
    }
  }

  const settingsPage = () =>
    page('/wp-admin/admin.php', { get: { page: 'wc-settings', tab: 'checkout', section: 'armenian_gateway' } });
  const orderPage = () => page('/wp-admin/admin.php', { get: { page: 'wc-orders', action: 'edit', id: '123' } });

  it('GET /v1/connection: the settings page and the health notice', async () => {
    const base = {
      ...connectionState(
        { status: 'awaiting_keys' },
        { gateway: 'unreachable', store: 'unreachable', webhooks: 'stale' },
        ['callback_not_https'],
      ),
      authorize_url: authorizeUrl(),
    };
    const bodies = [
      ...mutants(base),
      ...nested(base, 'health'),
      ...nested(base, 'store_error', 'health'),
      ...nested(base, 'key_exchange'),
      ...nested(base, 'problems', 'key_exchange'),
    ];
    await survives('GET /v1/connection', bodies, settingsPage);
    // A status the plugin does not know is said in words, not shown raw when it is not text.
    connector.reset();
    connector.answer('GET /v1/connection', { status: 200, body: { ...base, status: ['active'] } });
    expect((await settingsPage()).output).not.toContain('Connected<');
  });

  it('GET /v1/orders/{id}/payment: the order panel, "Check now" and the buyer’s return', async () => {
    const base = paymentState('123', { flag: 'paid_twice' });
    const bodies = [...mutants(base), ...nested(base, 'refunds')];
    await survives('GET /v1/orders/123/payment', bodies, orderPage);
    await survives('GET /v1/orders/123/payment', bodies.slice(0, 4), () =>
      page('/wp-admin/admin-post.php', {
        get: {
          action: 'armenian_gateway_check_payment',
          order_id: '123',
          _wpnonce: nonce('armenian_gateway_check_payment_123'),
        },
      }),
    );
    for (const body of bodies.slice(0, 6)) {
      connector.reset();
      connector.answer('GET /v1/orders/123/payment', { status: 200, body });
      const back = await harness('return', { get: { apg_order: '123', apg_key: 'wc_order_k3y' } });
      expect(back.redirect).toMatch(/^http:\/\/shop\.test\/checkout\//);
    }
  });

  it('GET /v1/reconciliation/{id} and the last automatic run: the reconciliation page, with a finding that is not an object', async () => {
    const base = { ...SCHEDULED_RUN, id: 'run-1', findings: findings(false) } as unknown as Json;
    const bodies = [
      ...mutants(base),
      ...nested(base, 'findings'),
      { ...base, findings: ['a string', 42, null, ...findings(false)] },
    ];
    const reconciliation = () =>
      page('/wp-admin/admin.php', { get: { page: 'armenian-gateway-reconciliation', run: 'run-1' } });
    await survives('GET /v1/reconciliation/run-1', bodies, reconciliation);
    await survives(
      'GET /v1/reconciliation?trigger=scheduled&limit=1',
      [{ data: GARBAGE }, ...GARBAGE.map((data) => ({ data }))],
      reconciliation,
    );
    // The findings that are objects are still listed.
    connector.reset();
    connector.answer('GET /v1/reconciliation/run-1', {
      status: 200,
      body: { ...base, findings: ['a string', 42, ...findings(false)] },
    });
    expect((await reconciliation()).output).toContain('12 orders checked. 2 mismatches:'.replace('12', '14'));
  });

  it('POST answers: checkout, saving the settings, a refund, starting a run', async () => {
    const checkout = { order_id: '123', payment_uuid: PAYMENT_UUID, status: 'pending', checkout_url: CHECKOUT_URL };
    for (const body of mutants(checkout)) {
      connector.reset();
      connector.answer('POST /v1/orders/123/payment', { status: 201, body });
      const outcome = await harness('payment');
      expect(['success', 'failure']).toContain((outcome.result as Json).result);
    }
    await survives('POST /v1/connections', mutants(connection()), () => harness('settings', { post: {} }));
    await survives('POST /v1/orders/123/refunds', mutants({ refund_uuid: 'r-1', amount: 500 }), () =>
      harness('refund', { amount: '500', refunds: [77] }),
    );
    await survives('POST /v1/reconciliation', mutants({ id: 'run-1', status: 'running' }), () =>
      page('/wp-admin/admin-post.php', {
        method: 'POST',
        post: {
          action: 'armenian_gateway_reconcile',
          _wpnonce: nonce('armenian_gateway_reconcile'),
          from: '2026-11-16',
          to: '2026-11-23',
        },
      }),
    );
  });

  it('a date that does not exist in the form (2026-13-45, 2026-02-30) is replaced by the default range, not thrown on', async () => {
    for (const bad of ['2026-13-45', '2026-02-30', '0000-00-00']) {
      connector.reset();
      const outcome = await page('/wp-admin/admin-post.php', {
        method: 'POST',
        post: {
          action: 'armenian_gateway_reconcile',
          _wpnonce: nonce('armenian_gateway_reconcile'),
          from: bad,
          to: bad,
        },
      });
      expect(outcome.redirect).toContain('run=run-1');
      const body = only(connector.requests).body as Json;
      expect(body.from).toMatch(/^\d{4}-\d{2}-\d{2}T00:00:00Z$/);
      expect(body.from).not.toContain(bad);
    }
    const shown = await page('/wp-admin/admin.php', {
      get: { page: 'armenian-gateway-reconciliation', from: '2026-13-45' },
    });
    expect(shown.output).not.toContain('2026-13-45');
  });
});

describe('the reconciliation page in a time zone east of UTC (Asia/Yerevan, UTC+4)', () => {
  const YEREVAN = { options: { timezone_string: 'Asia/Yerevan' } };

  it('checks the local days chosen, as UTC instants', async () => {
    await page('/wp-admin/admin-post.php', {
      ...YEREVAN,
      method: 'POST',
      post: {
        action: 'armenian_gateway_reconcile',
        _wpnonce: nonce('armenian_gateway_reconcile'),
        from: '2026-11-16',
        to: '2026-11-23',
      },
    });
    expect(only(connector.requests).body).toEqual({
      from: '2026-11-15T20:00:00Z',
      to: '2026-11-23T19:59:59Z',
      repair: false,
      wait: false,
    });
  });

  it('"Repair the safe ones" repairs exactly the run’s range, never the wider one its UTC dates read as local days would make', async () => {
    connector.answer('GET /v1/reconciliation/run-9', {
      status: 200,
      body: {
        ...SCHEDULED_RUN,
        id: 'run-9',
        trigger: 'plugin',
        from: '2026-11-15T20:00:00Z',
        to: '2026-11-23T19:59:59Z',
      },
    });
    await page('/wp-admin/admin-post.php', {
      ...YEREVAN,
      method: 'POST',
      post: {
        action: 'armenian_gateway_reconcile',
        _wpnonce: nonce('armenian_gateway_reconcile'),
        from: '2026-11-16',
        to: '2026-11-23',
        repair_run: 'run-9',
      },
    });
    const repair = connector.requests.find((r) => r.method === 'POST');
    // Cutting the run's UTC times to dates and reading them in Yerevan would have sent 2026-11-14T20:00:00Z.
    expect(repair?.body).toEqual({
      from: '2026-11-15T20:00:00Z',
      to: '2026-11-23T19:59:59Z',
      repair: true,
      wait: false,
    });
  });

  it.each(['../connection', 'run-1?trigger=scheduled', 'run 1', 'x'.repeat(65), '%2e%2e'])(
    'a run id that is not one (%s) never reaches the connector’s path',
    async (bad) => {
      const shown = await page('/wp-admin/admin.php', { get: { page: 'armenian-gateway-reconciliation', run: bad } });
      expect(shown.output).toContain('That is not a reconciliation run of this store.');
      const repaired = await page('/wp-admin/admin-post.php', {
        method: 'POST',
        post: { action: 'armenian_gateway_reconcile', _wpnonce: nonce('armenian_gateway_reconcile'), repair_run: bad },
      });
      expect(repaired.options._transient_armenian_gateway_reconciliation_1.message).toContain(
        'not a reconciliation run',
      );
      expect(connector.requests.map((r) => r.path).filter((path) => path.startsWith('/v1/reconciliation'))).toEqual([
        '/v1/reconciliation?trigger=scheduled&limit=1',
      ]);
    },
  );
});

describe('attacks that fail', () => {
  const SETTINGS_PAGE = { get: { page: 'wc-settings', tab: 'checkout', section: 'armenian_gateway' } };
  const save = (url: string, extra: Record<string, unknown> = {}) =>
    harness('settings', {
      post: {
        woocommerce_armenian_gateway_enabled: '1',
        woocommerce_armenian_gateway_connect_token: '',
        woocommerce_armenian_gateway_connector_url: url,
        woocommerce_armenian_gateway_test_mode: '1',
      },
      ...extra,
    });

  it('the connect token is never in the settings page source, and an empty field keeps the saved token', async () => {
    // harness() also fails the test if the token appears anywhere in what the plugin printed.
    const outcome = await page('/wp-admin/admin.php', SETTINGS_PAGE);
    expect(outcome.output).toMatch(
      /<input class="input-text regular-input" type="password" name="woocommerce_armenian_gateway_connect_token" id="woocommerce_armenian_gateway_connect_token" value="" autocomplete="new-password" placeholder="Saved \(hidden\)\. Paste a new token to replace it\." \/>/,
    );
    connector.reset();
    const saved = await save(connector.url);
    // Kept in its own option, not autoloaded; the (autoloaded) settings never hold it.
    expect(saved.options.woocommerce_armenian_gateway_settings.connect_token).toBe('');
    expect(saved.options.armenian_gateway_connect_token).toBe('[set]');
    expect((saved as unknown as Json).autoload.armenian_gateway_connect_token).toBe(false);
    expect(connector.requests[0]?.headers['x-service-connect']).toBe(TOKEN);
  });

  it.each([
    ['http://connector.example.am', 'must start with https://'],
    ['https://user:secret@connector.example.am', 'must not carry a user name'],
    ['https://169.254.169.254', 'must be a public address'],
    ['https://10.0.0.5:8443', 'must be a public address'],
    ['ftp://connector.example.am', 'must be a full address starting with https://'],
  ])(
    'a connector URL the token must not travel to is refused on save (%s), and the working one kept',
    async (url, why) => {
      const outcome = await save(url, { local_connector: false });
      expect(outcome.options.woocommerce_armenian_gateway_settings.connector_url).toBe(connector.url);
      expect(outcome.settings_errors).toHaveLength(1);
      expect(outcome.settings_errors[0]).toContain(why);
      expect(outcome.settings_errors[0]).toContain(`The previous connector URL (${connector.url}) is kept.`);
    },
  );

  it('a bare host is saved as an https address, not http', async () => {
    const outcome = await save('connector.example.am', { local_connector: false });
    expect(outcome.settings_errors).toEqual([]);
    expect(outcome.options.woocommerce_armenian_gateway_settings.connector_url).toBe('https://connector.example.am');
  });

  it('an http connector URL saved before is never called on a production site: not at checkout, not in the admin', async () => {
    const settings = { connector_url: connector.url.replace('127.0.0.1', 'connector.example.am') };
    const payment = await harness('payment', { settings, local_connector: false });
    expect(payment.result).toEqual({ result: 'failure' });
    const admin = await harness('admin', { settings, local_connector: false });
    expect(admin.output).toContain('must start with https://');
    expect([...payment.http, ...admin.http]).toEqual([]);
  });

  it('server-side request forgery: WordPress refuses the request to a loopback or private connector and says so without detail', async () => {
    const port = new URL(connector.url).port;
    const outcome = await harness('admin', {
      settings: { connector_url: `https://127.0.0.1:${port}` },
      local_connector: false,
    });
    expect(connector.requests).toEqual([]);
    expect(outcome.output).toContain(
      'WordPress refused to call the connector URL: it must be a public address on port 443 (or 80 or 8080).',
    );
    // The notice says nothing about the network (the form below shows the saved URL itself).
    expect(outcome.output.split('<table class="form-table">')[0]).not.toContain(port);
  });

  it.each([
    ['http (unencrypted)', `http://gateway.example/checkout/${PAYMENT_UUID}`],
    ['not the payment page', 'https://gateway.example/wp-login.php'],
    ['a script', 'javascript:alert(document.cookie)'],
    ['user information', `https://gateway.example@evil.example/checkout/${PAYMENT_UUID}`],
    ['another host than the store’s gateway', `https://evil.example/checkout/${PAYMENT_UUID}`],
  ])('the buyer is never sent to a checkout URL that is %s', async (_, url) => {
    connector.answer('POST /v1/orders/123/payment', {
      status: 201,
      body: { order_id: '123', payment_uuid: PAYMENT_UUID, status: 'pending', checkout_url: url },
    });
    const outcome = await harness('payment', {
      local_connector: false,
      settings: { connector_url: 'https://connector.example.am' },
      options: { armenian_gateway_checkout_origin: 'https://gateway.example' },
    });
    expect(outcome.result).toEqual({ result: 'failure' });
    expect(outcome.notices[0]?.message).toMatch(/^We could not start the payment\./);
    expect(outcome.orders['123']?.transaction_id).toBe('');
  });

  it('the first checkout URL accepted fixes the gateway’s payment page; a new token or connector URL lets the next one be learnt', async () => {
    const first = await harness('payment');
    expect(first.result).toEqual({ result: 'success', redirect: CHECKOUT_URL });
    expect(first.options.armenian_gateway_checkout_origin).toBe('https://gateway.example');
    const saved = await harness('settings', {
      options: { armenian_gateway_checkout_origin: 'https://gateway.example' },
      post: {
        woocommerce_armenian_gateway_connect_token: 'another.connect.token',
        woocommerce_armenian_gateway_connector_url: connector.url,
      },
    });
    expect(saved.options.armenian_gateway_checkout_origin).toBeUndefined();
    const unchanged = await harness('settings', {
      options: { armenian_gateway_checkout_origin: 'https://gateway.example' },
      post: { woocommerce_armenian_gateway_connector_url: connector.url },
    });
    expect(unchanged.options.armenian_gateway_checkout_origin).toBe('https://gateway.example');
    // The shop owner sees where buyers pay.
    expect(unchanged.output).toContain('Buyers pay on https://gateway.example (');
  });

  it('every call asks WordPress to check the URL, follows no redirect and reads a bounded answer', async () => {
    const outcome = await harness('payment');
    expect(outcome.http).toEqual([
      expect.objectContaining({
        redirection: 0,
        limit_response_size: 2_097_152,
        url: `${connector.url}/v1/orders/123/payment`,
      }),
    ]);
  });

  it.each([
    'https://evil.example/wc-auth/v1/authorize?app_name=x',
    'http://shop.test.evil.example/wc-auth/v1/authorize',
    'http://shop.test/wp-login.php?redirect_to=https://evil.example',
    'https://shop.test/wc-auth/v1/authorize',
    'http://shop.test:8443/wc-auth/v1/authorize',
  ])('"Reconnect" never sends the shop owner to an approval link that is not the store’s own (%s)', async (link) => {
    connector.answer('POST /v1/connection/reconnect', {
      status: 200,
      body: { ...connectionState({ status: 'awaiting_keys' }), authorize_url: link },
    });
    const outcome = await page('/wp-admin/admin-post.php', {
      get: { action: 'armenian_gateway_reconnect', _wpnonce: nonce('armenian_gateway_reconnect') },
    });
    expect(outcome.redirect).toBe(PLUGIN_SETTINGS_URL);
    expect((outcome as unknown as Json).unsafe_redirect).toBeUndefined();
    expect(outcome.options._transient_armenian_gateway_connection_1.message).toContain(
      'without an approval link to this store',
    );

    connector.answer('GET /v1/connection', {
      status: 200,
      body: { ...connectionState({ status: 'awaiting_keys' }), authorize_url: link },
    });
    const settings = await harness('admin');
    expect(settings.output).not.toContain('Connect WooCommerce</a>');
    expect(settings.output).not.toContain(link.replaceAll('&', '&amp;'));
    expect(settings.output).toContain('is not this store&#039;s WooCommerce approval page');
  });
});

describe('uninstalling, and the privacy policy', () => {
  /** What the plugin leaves in WordPress after a save, a failed connect, health checks and one-time messages. */
  const KEPT = {
    armenian_gateway_connect_result: { error: 'x', message: 'y' },
    armenian_gateway_checkout_origin: 'https://gateway.example',
    armenian_gateway_connect_token: TOKEN,
    _transient_armenian_gateway_health: { problems: [] },
    _transient_timeout_armenian_gateway_health: 1_900_000_000,
    _transient_armenian_gateway_unreachable: 1,
    _transient_armenian_gateway_connection_1: { type: 'success', message: 'x' },
    _transient_armenian_gateway_check_123_1: { type: 'success', message: 'x' },
    _transient_armenian_gateway_reconciliation_7: { type: 'error', message: 'x' },
    _transient_wc_other_plugin: 'kept',
    woocommerce_other_gateway_settings: { enabled: 'yes' },
  };

  it('uninstall.php removes every option and transient of the plugin, and nothing else', async () => {
    const outcome = await harness('uninstall', { options: KEPT });
    expect(outcome.result).toBe('uninstalled');
    const left = Object.keys(outcome.options);
    expect(left.filter((name) => name.includes('armenian_gateway'))).toEqual([]);
    expect(left).toEqual(expect.arrayContaining(['_transient_wc_other_plugin', 'woocommerce_other_gateway_settings']));
  });

  it('uninstall.php requested directly (without WordPress uninstalling the plugin) deletes nothing', async () => {
    const outcome = await harness('uninstall', { options: KEPT, direct: true });
    expect(outcome.result).toBeUndefined();
    expect(Object.keys(outcome.options)).toEqual(expect.arrayContaining(Object.keys(KEPT)));
  });

  it('suggests privacy policy text that names what is sent about buyers, and to whom', async () => {
    const outcome = await page('/wp-admin/index.php');
    expect(outcome.privacy).toHaveLength(1);
    expect(outcome.privacy[0]?.plugin).toBe('Armenian Payment Gateway');
    for (const sent of [
      'order number',
      'total',
      'your name',
      'email address',
      'Armenian Payment Gateway',
      'card or wallet details',
    ]) {
      expect(outcome.privacy[0]?.text).toContain(sent);
    }
  });
});

describe("WooCommerce's cancel handler on the cancel URL the gateway sends the buyer to", () => {
  it('cancels the order: the gateway adds no order_id to a URL that carries one', async () => {
    const payment = await harness('payment');
    const cancelUrl = (only(connector.requests).body as Json).cancel_url as string;
    expect(cancelUrl).toBe(CANCEL_URL);
    expect(payment.result).toEqual({ result: 'success', redirect: CHECKOUT_URL });
    const sent = shopUrl(cancelUrl, { uuid: PAYMENT_UUID, orderId: 'wc-0192f0c4-123' });
    expect(sent).toBe(`${CANCEL_URL}&payment_uuid=${PAYMENT_UUID}`);
    connector.reset();
    const outcome = await harness('cancel', { get: phpGet(sent) });
    expect(outcome.orders['123']?.status).toBe('cancelled');
    expect(outcome.notices).toEqual([{ type: 'notice', message: 'Your order was cancelled.' }]);
    // The order's payment is cancelled at the gateway too: its checkout can no longer take money.
    const cancelled = only(connector.requests);
    expect(cancelled).toMatchObject({ method: 'POST', path: '/v1/orders/123/cancel', body: null });
    expect(cancelled.headers['x-service-connect']).toBe(TOKEN);
    expect(outcome.scheduled).toEqual([]);
  });

  it('asks the connector again later when it does not answer the cancellation', async () => {
    connector.answer('POST /v1/orders/123/cancel', {
      status: 503,
      body: { error: 'gateway_unavailable', message: 'The payment gateway did not answer; try again shortly.' },
    });
    const sent = shopUrl(CANCEL_URL, { uuid: PAYMENT_UUID, orderId: 'wc-0192f0c4-123' });
    const outcome = await harness('cancel', { get: phpGet(sent) });
    expect(outcome.orders['123']?.status).toBe('cancelled');
    expect(outcome.scheduled).toEqual([{ in: 60, hook: 'armenian_gateway_cancel_payment', args: [123, 2] }]);
  });

  it('is the PHP fatal of the issue when order_id is the gateway’s (what appending it used to do)', async () => {
    const overridden = `${CANCEL_URL}&payment_uuid=${PAYMENT_UUID}&order_id=wc-0192f0c4-123`;
    const outcome = await harness('cancel', { get: phpGet(overridden) }, connector.url, true);
    expect(outcome.errors).toEqual([
      expect.stringMatching(/^Error: Call to a member function has_status\(\) on (bool|false)/),
    ]);
    expect(outcome.orders['123']?.status).toBe('pending');
  });
});
