/**
 * The plugin's admin pages in headless Chromium (test/support/browser.ts): the PHP plugin runs in the
 * stubbed WordPress harness served by `php -S 127.0.0.1:<port> php/router.php` (state in a temporary
 * JSON file, so admin-post -> redirect -> page works across requests) against the fake connector.
 * The order panel in both order storages, "Check now", the reconciliation page (run, running ->
 * finished, repair, last automatic run) and the health notice with "Reconnect". Screenshots go to
 * test-results/woocommerce-admin/ (docs/images/woocommerce/ holds a copy of one good set).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { launchBrowser, newPage, type TestPage } from '../../support/browser.js';
import { freePort } from '../../support/ports.js';
import {
  authorizeUrl,
  connectionState,
  FakeConnector,
  type Json,
  PAYMENT_UUID,
  paymentState,
  TOKEN,
} from './fake-connector.js';

const ROUTER = fileURLToPath(new URL('./php/router.php', import.meta.url));
const SHOTS = fileURLToPath(new URL('../../../test-results/woocommerce-admin/', import.meta.url));
/** The reconciliation page reloads itself every 3 seconds while a run is running. */
const REFRESH_WAIT_MS = 10_000;

let connector: FakeConnector;
let php: ChildProcess;
let site = '';
let stateDir = '';
let stateFile = '';
let browser: Browser;
let current: TestPage | null = null;

function state(overrides: Json = {}): Json {
  return {
    storage: 'hpos',
    caps: ['manage_woocommerce', 'edit_shop_orders'],
    options: {
      woocommerce_armenian_gateway_settings: {
        enabled: 'yes',
        title: 'Bank card or wallet',
        description: 'Pay with an Armenian bank card or wallet.',
        connect_token: TOKEN,
        connector_url: connector.url,
        test_mode: 'yes',
      },
      date_format: 'F j, Y',
      time_format: 'H:i',
    },
    orders: [
      { id: 123, key: 'wc_order_k3y', number: '1042', status: 'processing', payment_method: 'armenian_gateway' },
      { id: 124, key: 'wc_order_k4y', number: '1043', status: 'processing', payment_method: 'armenian_gateway' },
    ],
    ...overrides,
  };
}

function readState(): Json {
  return JSON.parse(readFileSync(stateFile, 'utf8')) as Json;
}

async function waitForServer(url: string): Promise<void> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    try {
      await fetch(url, { signal: AbortSignal.timeout(1_000) });
      return;
    } catch (error) {
      if (Date.now() > deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
}

beforeAll(async () => {
  connector = new FakeConnector();
  await connector.start();
  stateDir = mkdtempSync(join(tmpdir(), 'wp-admin-'));
  stateFile = join(stateDir, 'state.json');
  writeFileSync(stateFile, JSON.stringify(state()));
  const port = await freePort();
  site = `http://127.0.0.1:${port}`;
  php = spawn('php', ['-S', `127.0.0.1:${port}`, ROUTER], {
    env: { ...process.env, HARNESS_STATE: stateFile, HARNESS_SITE_URL: site },
    stdio: 'ignore',
  });
  await waitForServer(`${site}/wp-admin/`);
  browser = await launchBrowser();
  mkdirSync(SHOTS, { recursive: true });
});

afterAll(async () => {
  await browser?.close().catch(() => {});
  if (php && php.exitCode === null) {
    const exited = new Promise((resolve) => php.once('exit', resolve));
    php.kill('SIGTERM');
    await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 5_000))]);
  }
  await connector?.close();
  if (stateDir !== '') rmSync(stateDir, { recursive: true, force: true });
});

beforeEach(() => {
  connector.reset();
  writeFileSync(stateFile, JSON.stringify(state()));
});

/** Waits until the PHP server has finished every request the page sent (and written their state). */
async function phpIdle(): Promise<void> {
  const response = await fetch(`${site}/harness-idle`, { signal: AbortSignal.timeout(10_000) });
  expect(response.status).toBe(204);
}

afterEach(async () => {
  await current?.close();
  current = null;
  await phpIdle();
  // No PHP warning or fatal in any request of the test.
  expect(readState().errors ?? []).toEqual([]);
});

async function open(path: string): Promise<Page> {
  current = await newPage(browser, { viewport: { width: 1200, height: 800 } });
  await current.page.goto(`${site}${path}`);
  return current.page;
}

async function shot(page: Page, name: string): Promise<void> {
  await page.screenshot({ path: join(SHOTS, `${name}.png`), fullPage: true });
}

describe('the order panel', () => {
  it('shows the payment on the HPOS order edit page', async () => {
    const page = await open('/wp-admin/admin.php?page=wc-orders&action=edit&id=123');
    const panel = page.locator('#armenian-gateway-payment');
    expect(await panel.locator('h2').innerText()).toBe('Armenian Payment Gateway');
    const text = await panel.innerText();
    expect(text).toContain(PAYMENT_UUID);
    expect(text).toContain('sandbox');
    expect(text).toContain('123456789012');
    expect(text).toContain('1,500 AMD');
    expect(text).toContain('500 AMD, succeeded');
    expect(text).toContain('test (no real money)');
    expect(text).toContain('November 23, 2026 10:05');
    expect(text).toContain('marked paid');
    expect(current?.errors).toEqual([]);
    await shot(page, 'order-panel-hpos');
  });

  it('shows the payment on the posts-storage order edit page', async () => {
    writeFileSync(stateFile, JSON.stringify(state({ storage: 'posts' })));
    const page = await open('/wp-admin/post.php?post=123&action=edit');
    expect(await page.locator('#armenian-gateway-payment').innerText()).toContain(PAYMENT_UUID);
    await shot(page, 'order-panel-posts');
  });

  it('"Check now" reads the payment back and comes back to the order with the result', async () => {
    connector.answer('GET /v1/orders/123/payment', {
      status: 200,
      body: paymentState('123', { repaired: true, store_sync: 'pending', refunded_amount: 0, refunds: [] }),
    });
    const page = await open('/wp-admin/admin.php?page=wc-orders&action=edit&id=123');
    await page.getByRole('link', { name: 'Check now' }).click();
    await page.waitForURL(`${site}/wp-admin/admin.php?page=wc-orders&action=edit&id=123`);
    expect(await page.locator('.armenian-gateway-check-result').innerText()).toContain(
      'Repaired: the payment was completed at the gateway, and the order is being marked paid.',
    );
    // Check now, then the page's own read.
    expect(connector.requests.filter((r) => r.path === '/v1/orders/123/payment')).toHaveLength(3);
    await shot(page, 'order-panel-check-now');
  });
});

describe('the reconciliation page', () => {
  it('runs over a date range, reloads while running, lists the findings, repairs the safe ones', async () => {
    const page = await open('/wp-admin/admin.php?page=armenian-gateway-reconciliation');
    expect(await page.locator('.armenian-gateway-scheduled-run').innerText()).toContain(
      '14 orders checked. 1 mismatch:',
    );
    await page.locator('#armenian-gateway-from').fill('2026-11-16');
    await page.locator('#armenian-gateway-to').fill('2026-11-23');
    await page.getByRole('button', { name: 'Check for mismatches' }).click();
    await page.waitForURL((url) => url.searchParams.get('run') === 'run-1');
    await page.locator('.armenian-gateway-this-run .armenian-gateway-running').waitFor();
    await shot(page, 'reconciliation-running');
    expect(connector.requests.find((r) => r.method === 'POST')?.body).toEqual({
      from: '2026-11-16T00:00:00Z',
      to: '2026-11-23T23:59:59Z',
      repair: false,
      wait: false,
    });

    // The page reloads itself until the run is finished.
    const findings = page.locator(
      '.armenian-gateway-this-run .armenian-gateway-run[data-status="finished"] .armenian-gateway-findings',
    );
    await findings.waitFor({ timeout: REFRESH_WAIT_MS });
    const rows = findings.locator('tbody tr');
    expect(await rows.count()).toBe(2);
    expect(await rows.nth(0).innerText()).toContain('Paid at the gateway, unpaid in the store');
    expect(await rows.nth(0).innerText()).toContain('Mark the order paid: the gateway confirmed the payment.');
    expect(await rows.nth(1).innerText()).toContain('Paid twice');
    expect(await rows.nth(0).getByRole('link', { name: '#1042' }).getAttribute('href')).toBe(
      `${site}/wp-admin/admin.php?page=wc-orders&action=edit&id=123`,
    );
    await shot(page, 'reconciliation-findings');

    await page.getByRole('button', { name: 'Repair the safe ones' }).click();
    await page.waitForURL((url) => url.searchParams.get('run') === 'run-2');
    const repaired = page.locator(
      '.armenian-gateway-this-run .armenian-gateway-run[data-status="finished"] .armenian-gateway-findings',
    );
    await repaired.waitFor({ timeout: REFRESH_WAIT_MS });
    expect(await repaired.locator('tbody tr').nth(0).innerText()).toContain('Repaired: the order was marked paid.');
    expect(await page.getByRole('button', { name: 'Repair the safe ones' }).count()).toBe(0);
    const posts = connector.requests.filter((r) => r.method === 'POST').map((r) => r.body as Json);
    expect(posts.map((body) => body.repair)).toEqual([false, true]);
    expect(posts[1]?.from).toBe('2026-11-16T00:00:00Z');
    await shot(page, 'reconciliation-repaired');
  });
});

describe('the connection health notice', () => {
  it('tells what is wrong on WooCommerce’s screens and the Plugins screen, and "Reconnect" leads to WooCommerce’s approval', async () => {
    const approval = authorizeUrl(site);
    connector.answer('GET /v1/connection', {
      status: 200,
      body: connectionState(
        { status: 'store_unauthorized', last_webhook_at: '2026-11-23T08:00:00.000Z' },
        { store: 'unauthorized', webhooks: 'stale', last_missed_webhook_at: '2026-11-23T10:00:00.000Z' },
      ),
    });
    connector.answer('POST /v1/connection/reconnect', {
      status: 200,
      body: { ...connectionState({ status: 'awaiting_keys' }), authorize_url: approval },
    });
    const page = await open('/wp-admin/plugins.php');
    const notices = page.locator('.armenian-gateway-health');
    expect(await notices.count()).toBe(2);
    expect(await notices.nth(0).innerText()).toContain('WooCommerce refused the connector');
    expect(await notices.nth(1).innerText()).toContain('notifications stopped reaching the connector');
    await shot(page, 'health-notice');

    await page.getByRole('link', { name: 'Reconnect' }).click();
    await page.waitForURL((url) => url.pathname === '/wc-auth/v1/authorize');
    expect(page.url()).toBe(approval);
    expect(connector.requests.filter((r) => r.path === '/v1/connection/reconnect')).toHaveLength(1);
  });
});
