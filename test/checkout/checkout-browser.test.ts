/**
 * The hosted checkout in real headless Chromium (test/support/browser.ts): a buyer pays and lands
 * back on the shop, every decline card shows its message, an expired payment's page; then the
 * browser SDK end to end with the real checkout inside its iframe (inline and modal) and redirect
 * mode. The gateway listens on a port chosen in advance so that its PUBLIC_URL is its real origin.
 */
import type { Browser, FrameLocator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MINUTE_MS } from '../../gateway/domain/clock.js';
import { merchantPage } from '../plugins/browser-sdk/fixtures.js';
import {
  BROWSER_TIMEOUT_MS,
  type LocalServer,
  launchBrowser,
  newPage,
  startLocalServer,
  type TestPage,
} from '../support/browser.js';
import { startTestGateway, type TestGateway, type TestMerchant } from '../support/gateway.js';
import { freePort } from '../support/ports.js';
import { createPayment, type Json, readPayment } from './support.js';

/** The completed page goes back to the shop after 3 seconds: wait a little longer than that. */
const LEAVE_TIMEOUT_MS = 10_000;

const DECLINES: ReadonlyArray<[string, string]> = [
  ['4000 0000 0000 0002', 'The card was declined by the issuer.'],
  ['4000 0000 0000 0069', 'There is not enough money on the card.'],
  ['4000 0000 0000 0101', 'The card could not be verified (3-D Secure failed).'],
  ['4000 0000 0000 0127', "The amount is above the card's limit."],
  ['4000 0000 0000 0200', 'The bank refused the payment as a duplicate transaction.'],
  ['4000 0000 0000 0259', "The bank's authorisation expired before the payment finished."],
  ['4000 0000 0000 0309', 'The payment processor is unavailable right now.'],
  ['4000 0000 0000 0341', 'The payment could not be completed.'],
];

function shopPage(title: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${title}</title></head><body><h1>${title}</h1></body></html>`;
}

let t: TestGateway;
let merchant: TestMerchant;
let shop: LocalServer;
let browser: Browser;
const pages: TestPage[] = [];

beforeAll(async () => {
  const port = await freePort();
  t = await startTestGateway('sqlite', {
    env: {
      PORT: String(port),
      PUBLIC_URL: `http://127.0.0.1:${port}`,
      GATEWAY_RATE_LIMIT_PER_MINUTE: '100000',
    },
  });
  merchant = await t.merchant({ name: 'Ararat Books' });
  const csp = [
    "default-src 'self'",
    `script-src 'self' 'unsafe-inline' ${t.url}`,
    "style-src 'self'",
    `frame-src ${t.url}`,
  ].join('; ');
  shop = await startLocalServer((url) => {
    if (url.pathname === '/merchant') return { body: merchantPage(t.url), headers: { 'Content-Security-Policy': csp } };
    if (url.pathname === '/done') return { body: shopPage('Thank you for your order') };
    if (url.pathname === '/cart') return { body: shopPage('Your cart') };
    return undefined;
  });
  browser = await launchBrowser();
});

afterAll(async () => {
  await Promise.allSettled(pages.map((p) => p.close()));
  await browser?.close().catch(() => {});
  await shop?.close();
  await t?.close();
});

async function open(): Promise<TestPage> {
  const testPage = await newPage(browser);
  pages.push(testPage);
  return testPage;
}

function payment(overrides: Record<string, unknown> = {}): Promise<Json> {
  return createPayment(t, merchant.testKey, {
    return_url: `${shop.url}/done`,
    cancel_url: `${shop.url}/cart`,
    description: 'Two books and a map',
    ...overrides,
  });
}

/** Fills the test page's card form (in a page or in the checkout's iframe) and pays. */
async function payWithCard(scope: Page | FrameLocator, card: string): Promise<void> {
  await scope.locator('#card_number').fill(card);
  await scope.locator('input[name="expiry"]').fill('12/34');
  await scope.locator('input[name="cvv"]').fill('123');
  await scope.locator('input[name="cardholder"]').fill('Test Buyer');
  await scope.locator('form button[type="submit"]').click();
}

function expectNoCspTrouble(testPage: TestPage): void {
  expect(testPage.errors).toEqual([]);
  expect(testPage.console.filter((line) => /Content Security Policy|Refused to/i.test(line))).toEqual([]);
}

describe('a buyer on the hosted checkout', () => {
  it('picks the sandbox, pays with 4111 1111 1111 1111 and lands on return_url with the payment', async () => {
    const created = await payment({ amount: 5000 });
    const buyer = await open();
    const { page } = buyer;
    await page.goto(String(created.checkout_url));
    await expect.poll(() => page.locator('[data-testid="amount"]').textContent()).toBe('AMD\u00a05,000');
    expect(await page.locator('.merchant-name').textContent()).toBe('Ararat Books');

    await page.locator('input[name="processor"][value="sandbox"]').check();
    await page.locator('form button[type="submit"]').click();
    await page.waitForURL(/\/sandbox$/);
    expect(await page.locator('h1').textContent()).toBe('Test payment');

    await payWithCard(page, '4111 1111 1111 1111');
    await page.locator('text=Payment received').waitFor();
    await page.waitForURL((url) => url.origin === shop.origin && url.pathname === '/done', {
      timeout: LEAVE_TIMEOUT_MS,
    });
    const landed = new URL(page.url());
    expect(landed.searchParams.get('payment_uuid')).toBe(created.uuid);
    expect(landed.searchParams.get('order_id')).toBe(created.order_id);
    expect(await page.locator('h1').textContent()).toBe('Thank you for your order');
    expect((await readPayment(t, merchant.testKey, created.uuid)).status).toBe('completed');
    expectNoCspTrouble(buyer);
  });

  it('shows each decline card its own message', async () => {
    const buyer = await open();
    const { page } = buyer;
    for (const [card, message] of DECLINES) {
      const created = await payment({ processor: 'sandbox', redirect_mode: 'direct' });
      await page.goto(String(created.checkout_url));
      await page.waitForURL(/\/sandbox$/);
      // The test page's "Use" button fills the card in.
      await page.locator(`button[data-card="${card}"]`).click();
      expect(await page.locator('#card_number').inputValue()).toBe(card);
      await page.locator('form button[type="submit"]').click();
      await page.locator('h1', { hasText: 'Payment not completed' }).waitFor();
      expect(await page.locator('.result .message').textContent()).toBe(message);
      const back = page.locator('a.button', { hasText: 'Return to the shop' });
      expect(await back.getAttribute('href')).toBe(
        `${shop.url}/done?payment_uuid=${created.uuid}&order_id=${created.order_id}`,
      );
      expect((await readPayment(t, merchant.testKey, created.uuid)).status).toBe('failed');
    }
    expectNoCspTrouble(buyer);
  });

  it('refuses a short card number on the page, then accepts a good one', async () => {
    const created = await payment({ processor: 'sandbox', redirect_mode: 'direct' });
    const { page } = await open();
    await page.goto(String(created.checkout_url));
    await payWithCard(page, '4111 1111');
    await page.locator('#form-error', { hasText: 'The card number must have 16 digits.' }).waitFor();
    expect(await page.locator('#card_number').inputValue()).toBe('');
    await payWithCard(page, '4242 4242 4242 4242');
    await page.locator('text=Payment received').waitFor();
  });

  it("shows an expired payment's page, with the way back to the shop's return address", async () => {
    const created = await payment();
    t.clock.advance(21 * MINUTE_MS);
    const buyer = await open();
    const { page } = buyer;
    await page.goto(String(created.checkout_url));
    await page.locator('h1', { hasText: 'This payment has expired' }).waitFor();
    await page.locator('a.button', { hasText: 'Return to the shop' }).click();
    // The return address reads the payment back (and offers paying again), where the cancel
    // address could show a buyer on a new session an empty cart.
    await page.waitForURL((url) => url.origin === shop.origin && url.pathname === '/done');
    expect(new URL(page.url()).searchParams.get('payment_uuid')).toBe(created.uuid);
    expect((await readPayment(t, merchant.testKey, created.uuid)).status).toBe('expired');
    expectNoCspTrouble(buyer);
  });

  it('cancels back to cancel_url and leaves the payment pending', async () => {
    const created = await payment();
    const { page } = await open();
    await page.goto(String(created.checkout_url));
    await page.locator('a', { hasText: 'Cancel and return to the shop' }).click();
    await page.waitForURL((url) => url.origin === shop.origin && url.pathname === '/cart');
    expect(new URL(page.url()).searchParams.get('order_id')).toBe(created.order_id);
    expect((await readPayment(t, merchant.testKey, created.uuid)).status).toBe('pending');
  });
});

interface Recorded {
  name: 'success' | 'error';
  data: Record<string, unknown>;
}

async function openShop(): Promise<TestPage> {
  const testPage = await open();
  await testPage.page.goto(`${shop.url}/merchant`);
  await waitUntil(testPage.page, 'typeof window.PaymentGateway === "object"');
  return testPage;
}

async function openCheckout(page: Page, options: Record<string, unknown>): Promise<void> {
  await page.evaluate(`openCheckout(${JSON.stringify(options)})`);
}

/**
 * Polls from the test side: the merchant page's CSP has no 'unsafe-eval', which Playwright's
 * in-page polling of a string predicate would need.
 */
async function waitUntil(page: Page, expression: string): Promise<void> {
  await expect.poll(() => page.evaluate(expression), { timeout: BROWSER_TIMEOUT_MS, interval: 50 }).toBe(true);
}

async function waitForEvents(page: Page, count: number): Promise<Recorded[]> {
  await waitUntil(page, `window.events.length >= ${count}`);
  return page.evaluate('window.events') as Promise<Recorded[]>;
}

/** The messages the merchant page received from the checkout origin. */
async function checkoutMessages(page: Page): Promise<Array<Record<string, unknown>>> {
  const seen = (await page.evaluate('window.seen')) as Array<{ origin: string; data: Record<string, unknown> }>;
  return seen.filter((m) => m.origin === t.url).map((m) => m.data);
}

const FRAME = 'iframe[data-payment-gateway="checkout"]';

/** In the SDK's iframe: choose the sandbox, then pay with `card` on the test page. */
async function payInFrame(page: Page, card: string): Promise<void> {
  const frame = page.frameLocator(FRAME);
  await frame.locator('form button[type="submit"]').click();
  await frame.locator('#card_number').waitFor();
  await payWithCard(frame, card);
}

describe('the browser SDK with the real checkout', () => {
  it('inline: paying inside the iframe calls onSuccess with the order; the page speaks the protocol', async () => {
    const created = await payment();
    const merchantPage = await openShop();
    const { page } = merchantPage;
    await openCheckout(page, { mode: 'inline', container: '#checkout', checkoutUrl: created.checkout_url });
    const iframe = page.locator(`#checkout > ${FRAME}`);
    expect(await iframe.getAttribute('src')).toBe(
      `${created.checkout_url}?embed=1&origin=${encodeURIComponent(shop.origin)}`,
    );
    // The checkout tells its height: the iframe leaves the SDK's default 600px.
    await waitUntil(page, `document.querySelector('#checkout > iframe').getBoundingClientRect().height !== 600`);

    await payInFrame(page, '4111 1111 1111 1111');
    expect(await waitForEvents(page, 1)).toEqual([
      { name: 'success', data: { order_id: created.order_id, payment_uuid: created.uuid, status: 'completed' } },
    ]);
    const messages = await checkoutMessages(page);
    const results = messages.filter((m) => m.type === 'checkout.result');
    expect(results).toEqual([
      {
        source: 'payment-gateway-checkout',
        version: 1,
        type: 'checkout.result',
        status: 'completed',
        payment_uuid: created.uuid,
        order_id: created.order_id,
        message: 'Thank you! Your payment has been received.',
      },
    ]);
    const resize = messages.find((m) => m.type === 'checkout.resize');
    expect(Object.keys(resize ?? {})).toEqual(['source', 'version', 'type', 'height']);
    expect(resize?.height).toEqual(expect.any(Number));
    // Embedded, the checkout stays in its frame and does not go to return_url.
    await page.waitForTimeout(3500);
    expect(page.url()).toBe(`${shop.url}/merchant`);
    expect(await page.frameLocator(FRAME).locator('h1').textContent()).toBe('Payment received');
    expect((await readPayment(t, merchant.testKey, created.uuid)).status).toBe('completed');
    expect(await page.evaluate('window.violations')).toEqual([]);
    expect(merchantPage.errors).toEqual([]);
  });

  it('inline: a decline card calls onError with its message', async () => {
    const created = await payment();
    const { page } = await openShop();
    await openCheckout(page, { mode: 'inline', container: '#checkout', checkoutUrl: created.checkout_url });
    await payInFrame(page, '4000 0000 0000 0002');
    expect(await waitForEvents(page, 1)).toEqual([
      {
        name: 'error',
        data: {
          code: 'failed',
          message: 'The card was declined by the issuer.',
          order_id: created.order_id,
          payment_uuid: created.uuid,
        },
      },
    ]);
  });

  it('modal: paying calls onSuccess and closes the modal', async () => {
    const created = await payment();
    const { page } = await openShop();
    await openCheckout(page, { mode: 'modal', checkoutUrl: created.checkout_url });
    await page.locator('[data-payment-gateway="overlay"]').waitFor();
    await payInFrame(page, '4111 1111 1111 1111');
    expect(await waitForEvents(page, 1)).toEqual([
      { name: 'success', data: { order_id: created.order_id, payment_uuid: created.uuid, status: 'completed' } },
    ]);
    await page.locator('[data-payment-gateway="overlay"]').waitFor({ state: 'detached' });
  });

  it('modal: a decline card calls onError', async () => {
    const created = await payment();
    const { page } = await openShop();
    await openCheckout(page, { mode: 'modal', checkoutUrl: created.checkout_url });
    await payInFrame(page, '4000 0000 0000 0069');
    const [event] = await waitForEvents(page, 1);
    expect(event?.name).toBe('error');
    expect(event?.data.message).toBe('There is not enough money on the card.');
    expect(event?.data.code).toBe('failed');
  });

  it('inline: cancelling in the checkout calls onError with cancelled', async () => {
    const created = await payment();
    const { page } = await openShop();
    await openCheckout(page, { mode: 'inline', container: '#checkout', checkoutUrl: created.checkout_url });
    await page.frameLocator(FRAME).locator('a', { hasText: 'Cancel and return to the shop' }).click();
    const [event] = await waitForEvents(page, 1);
    expect(event?.data.code).toBe('cancelled');
    expect(page.url()).toBe(`${shop.url}/merchant`);
    expect((await readPayment(t, merchant.testKey, created.uuid)).status).toBe('pending');
  });

  it('redirect: navigates to the checkout', async () => {
    const created = await payment();
    const { page } = await openShop();
    await Promise.all([
      page.waitForURL(String(created.checkout_url)),
      openCheckout(page, { mode: 'redirect', checkoutUrl: created.checkout_url }).catch(() => {}),
    ]);
    expect(await page.locator('[data-testid="amount"]').textContent()).toBe('AMD\u00a05,000');
  });
});
