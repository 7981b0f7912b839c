/**
 * What the browser-SDK tests share: a real gateway serving the SDK, a merchant page on one local
 * origin that loads it with a script tag, and a stand-in checkout page on another origin that speaks
 * the checkout's message protocol (the real checkout pages are built elsewhere). Test glue on the
 * merchant page records every callback (`window.events`), every message the page receives
 * (`window.seen`) and every CSP violation (`window.violations`).
 */
import type { Browser, Frame, Page } from 'playwright-core';
import {
  BROWSER_TIMEOUT_MS,
  type LocalServer,
  launchBrowser,
  newPage,
  startLocalServer,
  type TestPage,
} from '../../support/browser.js';
import { startTestGateway, type TestGateway } from '../../support/gateway.js';

export const PAYMENT_UUID = '7d1e2c9a-4b7f-4f3e-9d2a-1a2b3c4d5e6f';
export const ORDER_ID = 'order-42';
export const DECLINE_MESSAGE = 'The card was declined by the issuer.';

/** The stand-in checkout: buttons post each result, and resizes, to the `origin` parameter. */
function checkoutPage(): string {
  return `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><title>Stand-in checkout</title></head>
<body>
<h1>Pay 5000 AMD</h1>
<p id="embed"></p>
<p id="origin"></p>
<button id="pay">Pay</button>
<button id="fail">Fail</button>
<button id="expire">Expire</button>
<button id="cancel">Cancel</button>
<button id="grow">Grow</button>
<button id="shrink">Shrink</button>
<button id="huge">Huge</button>
<script>
  const params = new URLSearchParams(window.location.search);
  const target = params.get('origin');
  document.getElementById('embed').textContent = 'embed=' + params.get('embed');
  document.getElementById('origin').textContent = 'origin=' + target;
  const base = { source: 'payment-gateway-checkout', version: 1 };
  function result(status, message) {
    window.parent.postMessage(Object.assign({}, base, {
      type: 'checkout.result', status: status, payment_uuid: ${JSON.stringify(PAYMENT_UUID)},
      order_id: ${JSON.stringify(ORDER_ID)}, message: message,
    }), target);
  }
  function resize(height) {
    window.parent.postMessage(Object.assign({}, base, { type: 'checkout.resize', height: height }), target);
  }
  const on = (id, fn) => document.getElementById(id).addEventListener('click', fn);
  on('pay', () => result('completed', 'Paid.'));
  on('fail', () => result('failed', ${JSON.stringify(DECLINE_MESSAGE)}));
  on('expire', () => result('expired', ''));
  on('cancel', () => result('cancelled', 'The buyer cancelled on the checkout page.'));
  on('grow', () => resize(700));
  on('shrink', () => resize(250));
  on('huge', () => resize(5000));
</script>
</body>
</html>
`;
}

/** The merchant's page: loads the SDK from the gateway under a strict CSP (no inline styles). */
/** A merchant's page that loads the SDK from the gateway and records what the SDK reports. */
export function merchantPage(gatewayUrl: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>Shop</title>
<script>
  window.events = [];
  window.seen = [];
  window.violations = [];
  document.addEventListener('securitypolicyviolation', (e) => violations.push(e.violatedDirective + ' ' + e.blockedURI));
  window.addEventListener('message', (e) => seen.push({ origin: e.origin, data: e.data }));
  window.record = (name) => (data) => events.push({ name: name, data: data });
  window.openCheckout = (options) => {
    window.handle = PaymentGateway.open(Object.assign({ onSuccess: record('success'), onError: record('error') }, options));
    return true;
  };
</script>
<script src="${gatewayUrl}/sdk/v1/"></script>
</head>
<body>
<h1>Shop</h1>
<button id="before">Before</button>
<div id="checkout"></div>
<button id="open-modal">Pay in a modal</button>
<div id="tall">Tall content</div>
<script>
  document.getElementById('tall').style.height = '3000px';
  document.getElementById('open-modal').addEventListener('click', () => {
    openCheckout({ mode: 'modal', checkoutUrl: new URLSearchParams(location.search).get('checkout') });
  });
</script>
</body>
</html>
`;
}

export interface SdkHarness {
  readonly browser: Browser;
  readonly gateway: TestGateway;
  readonly merchant: LocalServer;
  readonly checkout: LocalServer;
  /** A third origin serving the same stand-in page: what the checkout frame may navigate away to. */
  readonly elsewhere: LocalServer;
  /** The stand-in checkout URL of the payment (it already has a query, like a real `checkout_url`). */
  readonly checkoutUrl: string;
  /** Opens the merchant page (its "Pay in a modal" button opens `checkoutUrl`) in a fresh context. */
  openShop(): Promise<TestPage>;
  close(): Promise<void>;
}

export async function startSdkHarness(): Promise<SdkHarness> {
  const gateway = await startTestGateway('sqlite');
  const checkout = await startLocalServer((url) =>
    url.pathname.startsWith('/checkout/') || url.pathname === '/rogue' ? { body: checkoutPage() } : undefined,
  );
  const elsewhere = await startLocalServer((url) =>
    url.pathname.startsWith('/checkout/') ? { body: checkoutPage() } : undefined,
  );
  const merchantHtml = merchantPage(gateway.url);
  const csp = [
    "default-src 'self'",
    `script-src 'self' 'unsafe-inline' ${gateway.url}`,
    "style-src 'self'",
    `frame-src ${checkout.origin} ${elsewhere.origin}`,
  ].join('; ');
  const merchant = await startLocalServer({
    '/shop': { body: merchantHtml, headers: { 'Content-Security-Policy': csp } },
  });
  const browser = await launchBrowser();
  const checkoutUrl = `${checkout.url}/checkout/${PAYMENT_UUID}?token=t0k3n`;
  const pages: TestPage[] = [];
  return {
    browser,
    gateway,
    merchant,
    checkout,
    elsewhere,
    checkoutUrl,
    async openShop() {
      const testPage = await newPage(browser);
      pages.push(testPage);
      await testPage.page.goto(`${merchant.url}/shop?checkout=${encodeURIComponent(checkoutUrl)}`);
      await waitUntil(testPage.page, 'typeof window.PaymentGateway === "object"');
      return testPage;
    },
    async close() {
      await Promise.allSettled(pages.map((p) => p.close()));
      await browser.close().catch(() => {});
      await Promise.allSettled([merchant.close(), checkout.close(), elsewhere.close(), gateway.close()]);
    },
  };
}

export interface RecordedEvent {
  name: 'success' | 'error';
  data: Record<string, unknown>;
}

export function events(page: Page): Promise<RecordedEvent[]> {
  return page.evaluate('window.events') as Promise<RecordedEvent[]>;
}

/**
 * Waits (bounded) until the JavaScript expression `expression` is truthy on the page. Polls from
 * here: `page.waitForFunction` with a string needs `eval` in the page, which the merchant's CSP
 * forbids.
 */
export async function waitUntil(page: Page, expression: string, timeoutMs = BROWSER_TIMEOUT_MS): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (await page.evaluate(`!!(${expression})`)) return;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${expression}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/** Waits until the page has recorded `count` callbacks (bounded), and returns them. */
export async function waitForEvents(page: Page, count: number): Promise<RecordedEvent[]> {
  await waitUntil(page, `window.events.length >= ${count}`);
  return events(page);
}

/** Waits until the page has received `count` messages (of any origin) in all. */
export async function waitForSeen(page: Page, count: number): Promise<void> {
  await waitUntil(page, `window.seen.length >= ${count}`);
}

export function seenCount(page: Page): Promise<number> {
  return page.evaluate('window.seen.length') as Promise<number>;
}

/** Calls `PaymentGateway.open` on the merchant page with the recording callbacks plus `options`. */
export async function openCheckout(page: Page, options: Record<string, unknown>): Promise<void> {
  await page.evaluate(`openCheckout(${JSON.stringify(options)})`);
}

/** The checkout iframe the SDK made, as a Playwright frame (after it loaded). */
export async function checkoutFrame(page: Page): Promise<Frame> {
  const handle = await page.waitForSelector('iframe[data-payment-gateway="checkout"]', { state: 'attached' });
  const frame = await handle.contentFrame();
  if (frame === null) throw new Error('the checkout iframe has no frame');
  await frame.waitForSelector('#pay');
  return frame;
}

/** The rendered height (px) of the checkout iframe. */
export function frameHeight(page: Page): Promise<number> {
  return page.evaluate(
    'document.querySelector(\'iframe[data-payment-gateway="checkout"]\').getBoundingClientRect().height',
  ) as Promise<number>;
}
