/**
 * A receipt's public page (the one its QR code opens) in headless Chromium, in Armenian and Russian
 * at 1280px and 375px: no serious or critical axe violation, no sideways scrolling, the amounts in
 * the language's one format (the dram sign ֏ in Armenian), and the values keep at least 40% of the
 * card's width (on a phone the names of the fields wrap instead of squeezing the values).
 */
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seriousViolations } from '../support/axe.js';
import { launchBrowser, newPage } from '../support/browser.js';
import { startTestGateway, type TestGateway } from '../support/gateway.js';

describe('a receipt page in the browser (sqlite)', () => {
  let t: TestGateway;
  let browser: Browser;
  beforeAll(async () => {
    t = await startTestGateway('sqlite');
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });

  it('reads in Armenian and Russian on a desktop and on a phone', async () => {
    const shop = await t.merchant({ name: 'Ararat Books' });
    const created = await t.call<{ qr_url: string }>('POST', '/api/v1/receipts', {
      key: shop.testKey,
      headers: { 'Idempotency-Key': 'receipt-page-browser-1' },
      body: { items: [{ name: 'Armenian–English dictionary, hardcover', unit_price: 18_500 }], card_amount: 18_500 },
    });
    expect(created.status, created.text).toBe(201);
    const path = new URL(created.body.qr_url).pathname;
    for (const [lang, total] of [
      ['hy', '18\u00a0500\u00a0֏'],
      ['ru', '18\u00a0500\u00a0драмов'],
    ] as const) {
      for (const width of [1280, 375]) {
        const { page, close } = await newPage(browser, { viewport: { width, height: 900 } });
        const answer = await page.goto(`${t.url}${path}?lang=${lang}`);
        expect(answer?.status()).toBe(200);
        expect(await page.locator('dd').allTextContents()).toContain(total);
        expect(await seriousViolations(page), `${lang} at ${width}px`).toEqual([]);
        expect((await page.evaluate('document.documentElement.scrollWidth')) as number).toBeLessThanOrEqual(width);
        const card = (await page.locator('main').boundingBox())?.width ?? 0;
        const values = await page.locator('dd').evaluateAll((dds) => dds.map((dd) => dd.getBoundingClientRect().width));
        expect(Math.min(...values), `${lang} at ${width}px`).toBeGreaterThanOrEqual(card * 0.4);
        await close();
      }
    }
  });
});
