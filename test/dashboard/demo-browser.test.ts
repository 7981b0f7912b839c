/**
 * The first minutes of a developer, in headless Chromium against `bin/gateway serve` (what
 * `npm start` runs) on an empty SQLite database: the link printed beside the demo key opens a form
 * (accessible at 1280 and 375 px), the developer chooses an email and password and lands signed in
 * on the home page, which shows the printed key; the payment the printed curl creates is in the
 * dashboard's payment list; the link does not work a second time; the developer signs in again.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, newPage, type TestPage } from '../support/browser.js';
import { freePort } from '../support/ports.js';
import { type ServeProcess, startServe, stopServe } from '../support/serve-process.js';
import { expectAccessible, signInThroughForm } from './browser-support.js';
import { PASSWORD } from './support.js';

const TIMEOUT = 120_000;

describe('the demo merchant from npm start (sqlite)', { timeout: TIMEOUT }, () => {
  const dir = mkdtempSync(join(tmpdir(), 'gateway-demo-'));
  let served: ServeProcess;
  let browser: Browser;
  let base: string;
  const pages: TestPage[] = [];

  beforeAll(async () => {
    const port = await freePort();
    base = `http://localhost:${port}`;
    served = await startServe({
      PORT: String(port),
      DATABASE_URL: `sqlite:${join(dir, 'gateway.sqlite')}`,
      GATEWAY_PASSWORD_HASH_COST: '10',
    });
    browser = await launchBrowser();
  }, TIMEOUT);
  afterAll(async () => {
    for (const page of pages) await page.close().catch(() => {});
    await browser?.close().catch(() => {});
    if (served !== undefined) expect(await stopServe(served)).toBe(0);
    rmSync(dir, { recursive: true, force: true });
  });

  async function open(width = 1280, height = 900) {
    const testPage = await newPage(browser, { viewport: { width, height } });
    pages.push(testPage);
    return testPage.page;
  }

  /** Runs the printed curl through a shell, as a newcomer pastes it; answers the payment. */
  async function runPrintedCurl(): Promise<Record<string, unknown>> {
    const curl = spawn('bash', ['-c', served.output.slice(served.output.indexOf('curl -sS')).trim()]);
    let answer = '';
    curl.stdout.on('data', (chunk: Buffer) => {
      answer += chunk.toString();
    });
    const [code] = (await once(curl, 'exit')) as [number];
    expect(code).toBe(0);
    return JSON.parse(answer) as Record<string, unknown>;
  }

  it('sets up the dashboard from the printed link and shows the payment of the printed key', async () => {
    const key = /sk_test_[A-Za-z0-9_-]{43}/.exec(served.output)?.[0] ?? '';
    const link = new RegExp(`${base}/dashboard/demo\\?token=[A-Za-z0-9_-]{43}`).exec(served.output)?.[0] ?? '';
    expect(key).not.toBe('');
    expect(link).not.toBe('');

    const page = await open();
    await page.goto(link);
    await page.getByRole('heading', { name: 'Become the owner of Demo Shop', level: 1 }).waitFor();
    await expectAccessible(page);
    const email = 'developer@ararat-books.am';
    await page.getByLabel('Your sign-in email').fill(email);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Become the owner and sign in' }).click();
    await page.getByRole('heading', { name: 'Get started', level: 1 }).waitFor();
    expect(await page.locator('#test-key').textContent()).toBe(key);
    expect(await page.locator('#curl').textContent()).toContain(key);

    const payment = await runPrintedCurl();
    expect(payment).toMatchObject({ status: 'pending', livemode: false });
    const orderId = String(payment.order_id);
    await page.getByRole('navigation', { name: 'Dashboard' }).getByRole('link', { name: 'Payments' }).click();
    await page.getByRole('heading', { name: 'Payments', level: 1 }).waitFor();
    await page.getByText(orderId).first().waitFor();

    // The link worked once: a second visitor is told so, and offered the sign-in page instead.
    const second = await open();
    const answer = await second.goto(link);
    expect(answer?.status()).toBe(400);
    await second.getByRole('heading', { name: 'This link no longer works' }).waitFor();
    expect(await second.getByLabel('Password').count()).toBe(0);
    await expectAccessible(second, { phone: false });

    // The developer can come back: the address chosen signs in.
    const later = await open();
    await signInThroughForm(later, base, email);
    await later.goto(`${base}/dashboard/payments`);
    await later.getByText(orderId).first().waitFor();
  });
});
