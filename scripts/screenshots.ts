/**
 * `npm run screenshots`: what the buyer and the merchant see, as PNG files under docs/screenshots/.
 * Starts a gateway on a temporary SQLite database (manual clock, so a payment can be made to
 * expire; mail to a local SMTP sink, so the dashboard's links can be followed), creates a few
 * sandbox payments through the API and photographs their pages in headless Chromium at desktop
 * (1280x900) and phone (390x844) sizes; then walks the merchant dashboard from sign-up to the first
 * test payment and photographs each page at desktop (1280x900) and phone (375x812) sizes, with each
 * section's own walk (scripts/dashboard-shots/sections.ts).
 */
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser } from 'playwright-core';
import { loadConfig } from '../gateway/config.js';
import { ManualClock, MINUTE_MS } from '../gateway/domain/clock.js';
import { createMerchant } from '../gateway/merchants/merchant.service.js';
import type { Deps } from '../gateway/runtime/deps.js';
import { createLogger } from '../gateway/runtime/logger.js';
import { startGateway } from '../gateway/runtime/start.js';
import { curlRequest, linkIn, mailTo } from '../test/dashboard/readers.js';
import { launchBrowser } from '../test/support/browser.js';
import { freePort } from '../test/support/ports.js';
import { startSmtp, type TestSmtp } from '../test/support/smtp-server.js';
import { SECTION_SHOTS } from './dashboard-shots/sections.js';

const OUT_DIR = resolve(dirname(fileURLToPath(import.meta.url)), '..', 'docs', 'screenshots');

const SIZES = [
  { name: 'desktop', viewport: { width: 1280, height: 900 }, deviceScaleFactor: 1, isMobile: false },
  { name: 'phone', viewport: { width: 390, height: 844 }, deviceScaleFactor: 2, isMobile: true },
] as const;

interface Size {
  readonly name: string;
  readonly viewport: { readonly width: number; readonly height: number };
  readonly deviceScaleFactor: number;
  readonly isMobile: boolean;
}

/** A page at `size`, and `shoot(name)` that writes `<prefix><name>-<size>.png`. */
async function sizedPage(browser: Browser, size: Size, prefix: string, fullPage: boolean) {
  const context = await browser.newContext({
    viewport: size.viewport,
    deviceScaleFactor: size.deviceScaleFactor,
    isMobile: size.isMobile,
    locale: 'en-US',
  });
  const page = await context.newPage();
  const shoot = async (name: string) => {
    const path = join(OUT_DIR, `${prefix}${name}-${size.name}.png`);
    await page.screenshot({ path, fullPage });
    console.log(path);
  };
  return { context, page, shoot };
}

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'gateway-screenshots-'));
  const port = await freePort();
  const publicUrl = `http://127.0.0.1:${port}`;
  const clock = new ManualClock(Date.now());
  const smtp = await startSmtp();
  const gateway = await startGateway({
    config: loadConfig({
      PORT: String(port),
      HOST: '127.0.0.1',
      PUBLIC_URL: publicUrl,
      DATABASE_URL: `sqlite:${join(dir, 'gateway.sqlite')}`,
      LOG_LEVEL: 'silent',
      SMTP_URL: `smtp://127.0.0.1:${smtp.port}`,
    }),
    clock,
    logger: createLogger('silent'),
  });
  const browser = await launchBrowser();
  try {
    // A verified website of the account: the test payments bind to it (their return_url names it).
    const merchant = await createMerchant(gateway.deps, {
      name: 'Ararat Books',
      domains: ['ararat-books.am'],
      verifyDomains: true,
    });
    const key = merchant.keys[0]?.key ?? '';
    let order = 1040;
    const createPayment = async (extra: Record<string, unknown> = {}): Promise<string> => {
      order += 1;
      const response = await fetch(`${publicUrl}/api/v1/payments`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', 'X-Service-Key': key },
        body: JSON.stringify({
          amount: 18500,
          order_id: `A-${order}`,
          description: 'Armenian–English dictionary, hardcover',
          return_url: 'https://ararat-books.am/order/done',
          cancel_url: 'https://ararat-books.am/cart',
          ...extra,
        }),
      });
      if (response.status !== 201) throw new Error(`payment creation failed: ${await response.text()}`);
      return ((await response.json()) as { checkout_url: string }).checkout_url;
    };

    // The expired one first: moving the clock past its 20 minutes would expire the others too.
    const expired = await createPayment();
    clock.advance(21 * MINUTE_MS);
    const checkout = await createPayment();
    const testPage = await createPayment({ processor: 'sandbox', redirect_mode: 'direct' });
    const declined = await createPayment({ processor: 'sandbox', redirect_mode: 'direct' });
    // A test key's receipt is a sandbox receipt, issued at once: its page is the one a buyer's QR code opens.
    const receiptResponse = await fetch(`${publicUrl}/api/v1/receipts`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'X-Service-Key': key, 'Idempotency-Key': `shots-${Date.now()}` },
      body: JSON.stringify({
        items: [{ name: 'Armenian–English dictionary, hardcover', unit_price: 18500 }],
        card_amount: 18500,
      }),
    });
    if (receiptResponse.status !== 201) throw new Error(`receipt creation failed: ${await receiptResponse.text()}`);
    const receipt = String(((await receiptResponse.json()) as { qr_url: string }).qr_url);

    mkdirSync(OUT_DIR, { recursive: true });
    for (const size of SIZES) {
      const { context, page, shoot } = await sizedPage(browser, size, '', size.name === 'phone');

      await page.goto(checkout);
      await shoot('checkout');

      await page.goto(testPage);
      await page.waitForURL(/\/sandbox$/);
      await shoot('test-payment');

      if (size.name === 'desktop') {
        await page.goto(declined);
        await page.locator('#card_number').fill('4000 0000 0000 0002');
        await page.locator('form button[type="submit"]').click();
        await page.locator('h1', { hasText: 'Payment not completed' }).waitFor();
      } else {
        await page.goto(declined);
      }
      await shoot('declined');

      await page.goto(expired);
      await page.locator('h1', { hasText: 'This payment has expired' }).waitFor();
      await shoot('expired');

      // The buyer's pages in Armenian and Russian: the checkout and the receipt.
      await page.goto(`${checkout}?lang=hy`);
      await shoot('checkout-armenian');
      await page.goto(`${checkout}?lang=ru`);
      await shoot('checkout-russian');
      await page.goto(`${receipt}?lang=hy`);
      await shoot('receipt-armenian');
      await page.goto(`${receipt}?lang=ru`);
      await shoot('receipt-russian');
      await context.close();
    }
    await dashboardShots(browser, publicUrl, smtp, gateway.deps);
  } finally {
    await browser.close().catch(() => {});
    await gateway.close();
    await smtp.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

const DASHBOARD_SIZES = [
  { name: 'desktop', viewport: { width: 1280, height: 900 }, deviceScaleFactor: 1, isMobile: false },
  { name: 'phone', viewport: { width: 375, height: 812 }, deviceScaleFactor: 2, isMobile: true },
] as const;

/** The dashboard, page by page, with a new account at each size (the test key shows only once). */
async function dashboardShots(browser: Browser, publicUrl: string, smtp: TestSmtp, deps: Deps): Promise<void> {
  const password = 'correct horse battery';
  for (const size of DASHBOARD_SIZES) {
    const { context, page, shoot } = await sizedPage(browser, size, 'dashboard-', true);
    const signIn = async (email: string, secret: string) => {
      await page.goto(`${publicUrl}/dashboard/sign-in`);
      await page.getByLabel('Email').fill(email);
      await page.getByLabel('Password').fill(secret);
      await page.getByRole('button', { name: 'Sign in' }).click();
    };
    const email = `owner-${size.name}@ararat-books.am`;

    await page.goto(`${publicUrl}/dashboard/sign-up`);
    await shoot('sign-up');
    await page.getByLabel('Business name').fill('Ararat Books');
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill('short');
    await page.getByRole('button', { name: 'Create account' }).click();
    await page.getByText('Please correct the fields marked below.').waitFor();
    await shoot('sign-up-errors');
    await page.getByLabel('Password').fill(password);
    await page.getByRole('button', { name: 'Create account' }).click();
    await page.getByRole('heading', { name: 'Check your email' }).waitFor();
    await shoot('check-email');

    const mail = await mailTo(smtp, email, /Confirm your email/);
    await page.goto(`${publicUrl}${linkIn(mail.text, '/dashboard/verify-email')}`);
    await shoot('confirm-email');
    await page.getByRole('button', { name: 'Confirm email address' }).click();
    await page.getByText('Your email address is confirmed.').waitFor();
    await shoot('sign-in');

    await signIn(email, password);
    await page.getByRole('heading', { name: 'Your test key' }).waitFor();
    await shoot('first-visit');
    const request = curlRequest((await page.locator('#curl').textContent()) ?? '');
    const response = await fetch(request.url, { method: request.method, headers: request.headers, body: request.body });
    if (response.status !== 201) throw new Error(`the printed curl failed: ${await response.text()}`);
    await page.reload();
    await shoot('get-started');
    if (size.name === 'phone') {
      // The menu folded behind its button on a phone, opened.
      await page.locator('nav.main summary').click();
      await shoot('menu-open');
      await page.locator('nav.main summary').click();
    }
    await page.goto(`${publicUrl}/dashboard/account`);
    await shoot('account');
    await page.goto(`${publicUrl}/dashboard?lang=hy`);
    await shoot('get-started-armenian');
    await page.goto(`${publicUrl}/dashboard/account?lang=en`);
    const owner = await deps.db
      .selectFrom('dashboard_users')
      .select('merchant_id')
      .where('email', '=', email)
      .executeTakeFirstOrThrow();
    for (const sectionShots of SECTION_SHOTS) {
      await sectionShots({
        page,
        shoot,
        publicUrl,
        smtp,
        deps,
        merchantId: owner.merchant_id,
        email,
        password,
        size: size.name,
      });
      await page.goto(`${publicUrl}/dashboard/account?lang=en`);
    }

    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.goto(`${publicUrl}/dashboard/reset`);
    await shoot('reset');
    await page.getByLabel('Email').fill(email);
    await page.getByRole('button', { name: 'Send reset link' }).click();
    const reset = await mailTo(smtp, email, /Reset your password/);
    await page.goto(`${publicUrl}${linkIn(reset.text, '/dashboard/reset/new')}`);
    await shoot('new-password');

    for (let i = 0; i < 6; i += 1) await signIn(email, `wrong guess ${i}`);
    await page.getByRole('alert').waitFor();
    await shoot('locked-out');
    await context.close();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
