/**
 * The browser SDK's `modal` mode in real headless Chromium: an overlay with the checkout iframe and a
 * close button; focus moves in, stays in, and returns; Escape and the close button cancel; the page
 * behind does not scroll; a result closes the modal; resizes stay within the viewport.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestPage } from '../../support/browser.js';
import {
  checkoutFrame,
  events,
  frameHeight,
  ORDER_ID,
  openCheckout,
  PAYMENT_UUID,
  type SdkHarness,
  startSdkHarness,
  waitForEvents,
  waitUntil,
} from './fixtures.js';

const OVERLAY = '[data-payment-gateway="overlay"]';

let harness: SdkHarness;

beforeAll(async () => {
  harness = await startSdkHarness();
});

afterAll(async () => {
  await harness?.close();
});

/** Opens the modal the way a keyboard user does: focus the shop's button, press Enter. */
async function modalShop(): Promise<TestPage> {
  const shop = await harness.openShop();
  await shop.page.focus('#open-modal');
  await shop.page.keyboard.press('Enter');
  await shop.page.waitForSelector(OVERLAY);
  await checkoutFrame(shop.page);
  return shop;
}

function activeElement(page: Page): Promise<string> {
  return page.evaluate(`(() => {
    const el = document.activeElement;
    if (!el) return 'none';
    if (el.id) return '#' + el.id;
    return el.getAttribute('data-payment-gateway') || el.getAttribute('role') || el.tagName.toLowerCase();
  })()`) as Promise<string>;
}

function focusInsideModal(page: Page): Promise<boolean> {
  return page.evaluate(
    `!!document.activeElement && document.activeElement.closest('${OVERLAY}') !== null`,
  ) as Promise<boolean>;
}

function overlayCount(page: Page): Promise<number> {
  return page.evaluate(`document.querySelectorAll('${OVERLAY}').length`) as Promise<number>;
}

function rootOverflow(page: Page): Promise<string> {
  return page.evaluate('getComputedStyle(document.documentElement).overflow') as Promise<string>;
}

describe('modal', () => {
  it('opens a fixed overlay with a semi-transparent backdrop, a labelled dialog and the iframe', async () => {
    const { page, errors } = await modalShop();
    const overlay = await page.evaluate(`(() => {
      const overlay = document.querySelector('${OVERLAY}');
      const style = getComputedStyle(overlay);
      const rect = overlay.getBoundingClientRect();
      const dialog = overlay.querySelector('[role="dialog"]');
      const iframe = dialog.querySelector('iframe');
      return {
        position: style.position,
        background: style.backgroundColor,
        covers: rect.top === 0 && rect.left === 0 && rect.width === innerWidth && rect.height === innerHeight,
        modal: dialog.getAttribute('aria-modal'),
        label: dialog.getAttribute('aria-label'),
        closeLabel: dialog.querySelector('button').getAttribute('aria-label'),
        closeType: dialog.querySelector('button').type,
        src: iframe.getAttribute('src'),
        allow: iframe.getAttribute('allow'),
        title: iframe.getAttribute('title'),
      };
    })()`);
    expect(overlay).toEqual({
      position: 'fixed',
      background: 'rgba(15, 23, 42, 0.6)',
      covers: true,
      modal: 'true',
      label: 'Payment checkout',
      closeLabel: 'Close checkout',
      closeType: 'button',
      src: `${harness.checkoutUrl}&embed=1&origin=${encodeURIComponent(harness.merchant.origin)}`,
      allow: 'payment',
      title: 'Payment checkout',
    });
    expect(await page.evaluate('window.violations')).toEqual([]);
    expect(errors).toEqual([]);
  });

  it('moves focus into the dialog; Escape closes it, calls onError cancelled and gives focus back', async () => {
    const { page } = await modalShop();
    expect(await focusInsideModal(page)).toBe(true);
    expect(await activeElement(page)).toBe('dialog');

    await page.keyboard.press('Escape');
    await page.waitForSelector(OVERLAY, { state: 'detached' });
    expect(await waitForEvents(page, 1)).toEqual([
      { name: 'error', data: { code: 'cancelled', message: 'The buyer closed the checkout before paying.' } },
    ]);
    expect(await activeElement(page)).toBe('#open-modal');
    expect(await rootOverflow(page)).toBe('visible');
  });

  it('the close button is reachable by keyboard and closes it as cancelled; focus stays in the dialog', async () => {
    const { page } = await modalShop();
    await page.keyboard.press('Tab');
    expect(await activeElement(page)).toBe('close');
    // Shift+Tab from the close button wraps to the checkout iframe, Tab from there goes into it.
    await page.keyboard.press('Shift+Tab');
    expect(await activeElement(page)).toBe('checkout');
    expect(await focusInsideModal(page)).toBe(true);
    // Tab out of the checkout's last control wraps to the close button.
    await (await checkoutFrame(page)).focus('#huge');
    await page.keyboard.press('Tab');
    expect(await activeElement(page)).toBe('close');

    await page.keyboard.press('Enter');
    await page.waitForSelector(OVERLAY, { state: 'detached' });
    const [event] = await waitForEvents(page, 1);
    expect(event).toMatchObject({ name: 'error', data: { code: 'cancelled' } });
    expect(await activeElement(page)).toBe('#open-modal');
  });

  it('a click on the close button cancels once; later keys do nothing', async () => {
    const { page } = await modalShop();
    await page.click(`${OVERLAY} button[aria-label="Close checkout"]`);
    await page.waitForSelector(OVERLAY, { state: 'detached' });
    await page.keyboard.press('Escape');
    await page.waitForTimeout(100);
    expect((await events(page)).map((e) => e.data.code)).toEqual(['cancelled']);
  });

  it('keeps the page behind from scrolling while open, and restores it after', async () => {
    const shop = await harness.openShop();
    const { page } = shop;
    await page.evaluate('window.scrollTo(0, 200)');
    await waitUntil(page, 'window.scrollY === 200');
    await page.evaluate(`openCheckout({ mode: 'modal', checkoutUrl: ${JSON.stringify(harness.checkoutUrl)} })`);
    await page.waitForSelector(OVERLAY);
    expect(await rootOverflow(page)).toBe('hidden');
    await page.mouse.move(20, 20);
    await page.mouse.wheel(0, 600);
    await page.waitForTimeout(200);
    expect(await page.evaluate('window.scrollY')).toBe(200);

    await page.keyboard.press('Escape');
    await page.waitForSelector(OVERLAY, { state: 'detached' });
    expect(await rootOverflow(page)).toBe('visible');
    await page.mouse.wheel(0, 600);
    await waitUntil(page, 'window.scrollY > 200');
  });

  it('closes itself on completed and calls onSuccess (not cancelled); focus returns', async () => {
    const { page } = await modalShop();
    const frame = await checkoutFrame(page);
    await frame.click('#pay');
    await page.waitForSelector(OVERLAY, { state: 'detached' });
    expect(await waitForEvents(page, 1)).toEqual([
      { name: 'success', data: { order_id: ORDER_ID, payment_uuid: PAYMENT_UUID, status: 'completed' } },
    ]);
    await page.keyboard.press('Escape');
    await page.waitForTimeout(100);
    expect(await events(page)).toHaveLength(1);
    expect(await activeElement(page)).toBe('#open-modal');
    expect(await rootOverflow(page)).toBe('visible');
  });

  it('closes itself on failed and on a cancel from the checkout, calling onError with that result', async () => {
    const first = await modalShop();
    await (await checkoutFrame(first.page)).click('#fail');
    await first.page.waitForSelector(OVERLAY, { state: 'detached' });
    expect((await waitForEvents(first.page, 1))[0]?.data).toMatchObject({ code: 'failed', order_id: ORDER_ID });

    const second = await modalShop();
    await (await checkoutFrame(second.page)).click('#cancel');
    await second.page.waitForSelector(OVERLAY, { state: 'detached' });
    expect(await waitForEvents(second.page, 1)).toEqual([
      {
        name: 'error',
        data: {
          code: 'cancelled',
          message: 'The buyer cancelled on the checkout page.',
          order_id: ORDER_ID,
          payment_uuid: PAYMENT_UUID,
        },
      },
    ]);
  });

  it('resizes the iframe, bounded to the viewport', async () => {
    const { page } = await modalShop();
    const frame = await checkoutFrame(page);
    await frame.click('#shrink');
    await waitUntil(page, `document.querySelector('${OVERLAY} iframe').getBoundingClientRect().height === 250`);
    await frame.click('#huge');
    await waitUntil(page, `document.querySelector('${OVERLAY} iframe').getBoundingClientRect().height > 250`);
    const bounds = (await page.evaluate(`(() => {
      const dialog = document.querySelector('${OVERLAY} [role="dialog"]').getBoundingClientRect();
      return { innerHeight, top: dialog.top, bottom: dialog.bottom };
    })()`)) as { innerHeight: number; top: number; bottom: number };
    expect(await frameHeight(page)).toBeLessThan(bounds.innerHeight);
    expect(bounds.top).toBeGreaterThanOrEqual(0);
    expect(bounds.bottom).toBeLessThanOrEqual(bounds.innerHeight);
    expect(await events(page)).toEqual([]);
  });

  it('close() from the merchant removes it without a callback; a second open replaces the first', async () => {
    const { page } = await modalShop();
    await page.evaluate('window.handle.close()');
    await page.waitForSelector(OVERLAY, { state: 'detached' });
    expect(await activeElement(page)).toBe('#open-modal');

    await openCheckout(page, { mode: 'modal', checkoutUrl: harness.checkoutUrl });
    await openCheckout(page, { mode: 'modal', checkoutUrl: harness.checkoutUrl });
    await page.waitForSelector(OVERLAY);
    expect(await overlayCount(page)).toBe(1);
    expect(await rootOverflow(page)).toBe('hidden');
    await page.keyboard.press('Escape');
    await page.waitForSelector(OVERLAY, { state: 'detached' });
    expect(await rootOverflow(page)).toBe('visible');
    expect((await waitForEvents(page, 1)).map((e) => e.data.code)).toEqual(['cancelled']);
    await page.waitForTimeout(100);
    expect(await events(page)).toHaveLength(1);
  });
});
