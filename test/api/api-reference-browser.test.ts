/**
 * `/docs/api` in real headless Chromium: Swagger UI, served by the gateway itself, renders the
 * operations of the OpenAPI document under the page's CSP, with nothing refused and no errors.
 */
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OPERATIONS } from '../../gateway/api/openapi/operations.js';
import { launchBrowser, newPage } from '../support/browser.js';
import { startTestGateway, type TestGateway } from '../support/gateway.js';
import { freePort } from '../support/ports.js';

const WEBHOOK_EVENTS = ['transaction.status.updated', 'payment.refunded'];

/** Not a loopback name: Swagger UI treats localhost specially (its online validator badge, for one). */
const HOST = 'api.gateway.test';

let t: TestGateway;
let browser: Browser;
let publicUrl: string;

beforeAll(async () => {
  const port = await freePort();
  publicUrl = `http://${HOST}:${port}`;
  t = await startTestGateway('sqlite', { env: { PORT: String(port), PUBLIC_URL: publicUrl } });
  browser = await launchBrowser([`--host-resolver-rules=MAP ${HOST} 127.0.0.1`]);
});

afterAll(async () => {
  await browser?.close();
  await t?.close();
});

describe('GET /docs/api', () => {
  it('renders every operation of the document, loading only from the gateway, under its CSP', async () => {
    const reader = await newPage(browser);
    const origins = new Set<string>();
    reader.page.on('request', (request) => origins.add(new URL(request.url()).origin));
    const failed: string[] = [];
    reader.page.on('response', (response) => {
      if (response.status() >= 400) failed.push(`${response.status()} ${response.url()}`);
    });
    const violations: string[] = [];
    await reader.page.exposeFunction('reportViolation', (text: string) => violations.push(text));
    // Every CSP refusal of the page, reported to the test as it happens.
    await reader.page.addInitScript({
      content:
        "document.addEventListener('securitypolicyviolation', (e) => window.reportViolation(e.violatedDirective + ' ' + e.blockedURI));",
    });
    try {
      const answer = await reader.page.goto(`${publicUrl}/docs/api`);
      expect(answer?.status()).toBe(200);
      expect(answer?.headers()['content-security-policy']).toContain("script-src 'self'");
      await reader.page.locator('.opblock').first().waitFor();
      const summaries = await reader.page.locator('.opblock-summary-path').allTextContents();
      const rendered = new Set(summaries.map((text) => text.replace(/\u200b/g, '').trim()));
      for (const operation of OPERATIONS) expect(rendered, operation.path).toContain(operation.path);
      // The webhooks section renders its operations the same way, under their event names.
      for (const event of WEBHOOK_EVENTS) expect(rendered, event).toContain(event);
      await expect(reader.page.locator('.opblock').count()).resolves.toBe(OPERATIONS.length + WEBHOOK_EVENTS.length);
      expect(failed).toEqual([]);
      expect(violations).toEqual([]);
      expect(reader.errors).toEqual([]);
      expect(reader.console.filter((line) => /^error:|Content Security Policy|Refused to/i.test(line))).toEqual([]);
      expect([...origins]).toEqual([publicUrl]);
    } finally {
      await reader.close();
    }
  });
});
