/**
 * The browser SDK in real headless Chromium: `inline` mode, the message checks, bad options and
 * `redirect` mode. The SDK comes from a real gateway (`<script src="{gateway}/sdk/v1/">`) onto a
 * merchant page on one origin; the stand-in checkout lives on another.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestPage } from '../../support/browser.js';
import {
  checkoutFrame,
  DECLINE_MESSAGE,
  events,
  frameHeight,
  ORDER_ID,
  openCheckout,
  PAYMENT_UUID,
  type SdkHarness,
  seenCount,
  startSdkHarness,
  waitForEvents,
  waitForSeen,
  waitUntil,
} from './fixtures.js';

let harness: SdkHarness;

beforeAll(async () => {
  harness = await startSdkHarness();
});

afterAll(async () => {
  await harness?.close();
});

async function inlineShop(checkoutUrl = harness.checkoutUrl): Promise<TestPage> {
  const shop = await harness.openShop();
  await openCheckout(shop.page, { mode: 'inline', container: '#checkout', checkoutUrl });
  return shop;
}

function iframeCount(shop: TestPage): Promise<number> {
  return shop.page.evaluate('document.querySelectorAll("iframe").length') as Promise<number>;
}

describe('inline', () => {
  it('renders the checkout in an iframe inside the container; onSuccess gets the order on completed', async () => {
    const shop = await inlineShop();
    const { page } = shop;
    expect(await page.evaluate('PaymentGateway.version')).toBe('1.0.0');

    const iframe = page.locator('#checkout > iframe');
    await iframe.waitFor({ state: 'attached' });
    const origin = harness.merchant.origin;
    expect(await iframe.getAttribute('src')).toBe(
      `${harness.checkoutUrl}&embed=1&origin=${encodeURIComponent(origin)}`,
    );
    expect(await iframe.getAttribute('allow')).toBe('payment');
    expect(await iframe.getAttribute('title')).toBeTruthy();
    expect(await iframe.getAttribute('sandbox')).toBeNull();

    const frame = await checkoutFrame(page);
    expect(await frame.textContent('#embed')).toBe('embed=1');
    expect(await frame.textContent('#origin')).toBe(`origin=${origin}`);

    await frame.click('#pay');
    expect(await waitForEvents(page, 1)).toEqual([
      { name: 'success', data: { order_id: ORDER_ID, payment_uuid: PAYMENT_UUID, status: 'completed' } },
    ]);
    // Inline stays, showing the checkout's own result page.
    expect(await iframeCount(shop)).toBe(1);
    expect(shop.errors).toEqual([]);
    expect(await page.evaluate('window.violations')).toEqual([]);
  });

  it('adds the embed parameters with ? to a checkout URL without a query', async () => {
    const bare = harness.checkoutUrl.split('?')[0] ?? '';
    const { page } = await inlineShop(bare);
    const frame = await checkoutFrame(page);
    expect(frame.url()).toBe(`${bare}?embed=1&origin=${encodeURIComponent(harness.merchant.origin)}`);
    expect(await frame.textContent('#embed')).toBe('embed=1');
  });

  it('calls onError with the code, message, order and payment on failed, once', async () => {
    const { page } = await inlineShop();
    const frame = await checkoutFrame(page);
    await frame.click('#fail');
    expect(await waitForEvents(page, 1)).toEqual([
      {
        name: 'error',
        data: { code: 'failed', message: DECLINE_MESSAGE, order_id: ORDER_ID, payment_uuid: PAYMENT_UUID },
      },
    ]);

    // A second failure and an expiry after it: onError has fired already.
    const before = await seenCount(page);
    await frame.click('#fail');
    await frame.click('#expire');
    await waitForSeen(page, before + 2);
    expect(await events(page)).toHaveLength(1);
  });

  it('calls onSuccess once however often completed arrives, and nothing after it', async () => {
    const { page } = await inlineShop();
    const frame = await checkoutFrame(page);
    const before = await seenCount(page);
    await frame.click('#pay');
    await frame.click('#pay');
    await frame.click('#fail');
    await waitForSeen(page, before + 3);
    const recorded = await events(page);
    expect(recorded.map((e) => e.name)).toEqual(['success']);
  });

  it('reports expired with a default message when the checkout sends none', async () => {
    const { page } = await inlineShop();
    const frame = await checkoutFrame(page);
    await frame.click('#expire');
    const [event] = await waitForEvents(page, 1);
    expect(event).toEqual({
      name: 'error',
      data: { code: 'expired', message: 'The payment expired.', order_id: ORDER_ID, payment_uuid: PAYMENT_UUID },
    });
  });

  it('sets the iframe height from checkout.resize', async () => {
    const { page } = await inlineShop();
    const frame = await checkoutFrame(page);
    expect(await frameHeight(page)).toBe(600);
    await frame.click('#grow');
    await waitUntil(page, 'document.querySelector("#checkout > iframe").getBoundingClientRect().height === 700');
    await frame.click('#shrink');
    await waitUntil(page, 'document.querySelector("#checkout > iframe").getBoundingClientRect().height === 250');
    expect(await events(page)).toEqual([]);
  });

  it('ignores messages from another origin, another window of the checkout origin, or another source', async () => {
    const { page } = await inlineShop();
    const frame = await checkoutFrame(page);
    const forged = {
      source: 'payment-gateway-checkout',
      version: 1,
      type: 'checkout.result',
      status: 'completed',
      payment_uuid: 'forged',
      order_id: 'forged',
      message: '',
    };
    const forgedResize = { source: 'payment-gateway-checkout', version: 1, type: 'checkout.resize', height: 123 };

    // 1. The merchant page itself (wrong origin, wrong window).
    await page.evaluate(`window.postMessage(${JSON.stringify(forged)}, '*')`);
    // 2. Another iframe on the checkout's origin (right origin, wrong window).
    await page.evaluate(`(() => {
      const rogue = document.createElement('iframe');
      rogue.id = 'rogue';
      rogue.src = ${JSON.stringify(`${harness.checkout.url}/rogue`)};
      document.body.appendChild(rogue);
    })()`);
    const rogueHandle = await page.waitForSelector('#rogue', { state: 'attached' });
    const rogue = await rogueHandle.contentFrame();
    if (rogue === null) throw new Error('no rogue frame');
    await rogue.waitForSelector('#pay');
    await rogue.evaluate(`window.parent.postMessage(${JSON.stringify(forged)}, '*')`);
    await rogue.evaluate(`window.parent.postMessage(${JSON.stringify(forgedResize)}, '*')`);
    // 3. The checkout iframe, but not the checkout's message (another source, or not an object).
    await frame.evaluate(`window.parent.postMessage(${JSON.stringify({ ...forged, source: 'someone-else' })}, '*')`);
    await frame.evaluate(`window.parent.postMessage('checkout.result completed', '*')`);
    await frame.evaluate(`window.parent.postMessage(${JSON.stringify({ ...forged, status: 'paid' })}, '*')`);

    await waitForSeen(page, 6);
    expect(await events(page)).toEqual([]);
    expect(await frameHeight(page)).toBe(600);

    // The real checkout is still heard.
    await frame.click('#pay');
    const [event] = await waitForEvents(page, 1);
    expect(event?.data).toMatchObject({ order_id: ORDER_ID, payment_uuid: PAYMENT_UUID });
  });

  it('ignores the checkout iframe once it has navigated to another origin', async () => {
    const { page } = await inlineShop();
    const frame = await checkoutFrame(page);
    const embed = `embed=1&origin=${encodeURIComponent(harness.merchant.origin)}`;
    // Same window as the SDK's iframe, other origin: only the origin check stops it.
    await frame.goto(`${harness.elsewhere.url}/checkout/${PAYMENT_UUID}?${embed}`);
    await frame.click('#grow');
    await frame.click('#pay');
    await waitForSeen(page, 2);
    expect(await events(page)).toEqual([]);
    expect(await frameHeight(page)).toBe(600);

    await frame.goto(`${harness.checkoutUrl}&${embed}`);
    await frame.click('#pay');
    expect((await waitForEvents(page, 1)).map((e) => e.name)).toEqual(['success']);
  });

  it('close() removes the iframe and no callback fires', async () => {
    const shop = await inlineShop();
    await checkoutFrame(shop.page);
    await shop.page.evaluate('window.handle.close(); window.handle.close();');
    expect(await iframeCount(shop)).toBe(0);
    expect(await events(shop.page)).toEqual([]);
  });
});

describe('bad options', () => {
  const cases: Array<[string, Record<string, unknown> | null, RegExp]> = [
    ['missing checkoutUrl', { mode: 'inline', container: '#checkout' }, /checkoutUrl is required/],
    ['empty checkoutUrl', { checkoutUrl: '  ' }, /checkoutUrl is required/],
    ['relative checkoutUrl', { checkoutUrl: '/checkout/abc' }, /absolute URL/],
    ['javascript: checkoutUrl', { checkoutUrl: 'javascript:alert(1)', mode: 'redirect' }, /http\(s\) URL/],
    ['unknown mode', { checkoutUrl: 'CHECKOUT', mode: 'popup' }, /Unknown mode "popup"/],
    ['inline without container', { checkoutUrl: 'CHECKOUT', mode: 'inline' }, /container is required/],
    ['unmatched container', { checkoutUrl: 'CHECKOUT', mode: 'inline', container: '#nope' }, /No element matches/],
    ['invalid selector', { checkoutUrl: 'CHECKOUT', mode: 'inline', container: '##' }, /not a valid CSS selector/],
    ['onSuccess not a function', { checkoutUrl: 'CHECKOUT', onSuccess: 'yes' }, /onSuccess must be a function/],
  ];

  it.each(cases)(
    '%s: onError(invalid_options) with a message, no iframe, no throw',
    async (_name, options, message) => {
      const shop = await harness.openShop();
      const resolved = JSON.parse(JSON.stringify(options).replaceAll('CHECKOUT', harness.checkoutUrl));
      await openCheckout(shop.page, resolved);
      const [event] = await waitForEvents(shop.page, 1);
      expect(event?.name).toBe('error');
      expect(event?.data.code).toBe('invalid_options');
      expect(event?.data.message).toMatch(message);
      expect(await iframeCount(shop)).toBe(0);
      expect(await shop.page.evaluate('document.querySelector("[data-payment-gateway]")')).toBeNull();
      expect(shop.page.url()).toContain('/shop');
      expect(shop.errors).toEqual([]);
      // The handle is usable all the same.
      await shop.page.evaluate('window.handle.close()');
    },
  );

  it('reports after open() has returned, and to console.error without onError', async () => {
    const { page, console: consoleLines, errors } = await harness.openShop();
    const order = await page.evaluate(`(() => {
      const order = [];
      PaymentGateway.open({ mode: 'popup', checkoutUrl: 'https://x.test/', onError: () => order.push('onError') });
      order.push('returned');
      return new Promise((resolve) => setTimeout(() => resolve(order), 50));
    })()`);
    expect(order).toEqual(['returned', 'onError']);

    await page.evaluate(
      'PaymentGateway.open(); PaymentGateway.open({ mode: "inline", checkoutUrl: "https://x.test/" })',
    );
    await expect.poll(() => consoleLines.filter((l) => l.startsWith('error: [PaymentGateway]')).length).toBe(2);
    expect(consoleLines.join('\n')).toMatch(/invalid_options: .*options object/);
    expect(consoleLines.join('\n')).toMatch(/invalid_options: container is required/);
    expect(errors).toEqual([]);
  });
});

describe('redirect', () => {
  it('navigates the page to checkoutUrl, without the embed parameters', async () => {
    const { page } = await harness.openShop();
    await Promise.all([
      page.waitForURL(harness.checkoutUrl),
      openCheckout(page, { mode: 'redirect', checkoutUrl: harness.checkoutUrl }).catch(() => {}),
    ]);
    expect(page.url()).toBe(harness.checkoutUrl);
    expect(await page.textContent('#embed')).toBe('embed=null');
  });
});
