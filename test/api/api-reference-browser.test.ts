/**
 * `/docs/api` in real headless Chromium: Swagger UI, served by the gateway itself, renders the
 * operations of the OpenAPI document under the page's CSP, with nothing refused and no errors, says
 * nothing against the document (no warning banner), and axe-core finds no accessibility violation,
 * of any impact, at 1280 and 375 px: as the page opens, with an operation open, and tried ("Try it
 * out", then Execute) with its answer shown; nothing is wider than the screen.
 */
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventNameSchema } from '../../gateway/api/openapi/components.js';
import { OPERATIONS } from '../../gateway/api/openapi/operations.js';
import { axeViolations } from '../support/axe.js';
import { launchBrowser, newPage } from '../support/browser.js';
import { startTestGateway, type TestGateway } from '../support/gateway.js';
import { freePort } from '../support/ports.js';

/** Every event the document describes a webhook for. */
const WEBHOOK_EVENTS = eventNameSchema.options;

/** Swagger UI's bundle is 1.5 MB: its first load under a busy machine takes longer than a click. */
const PAGE_LOAD_MS = 30_000;

/** Three axe runs over the whole page, on a machine other test files share. */
const AXE_TEST_MS = 90_000;

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

  it('opens without a warning: Swagger UI finds nothing to say against the document', async () => {
    const reader = await newPage(browser);
    try {
      await reader.page.goto(`${publicUrl}/docs/api`);
      await reader.page.locator('.opblock').first().waitFor({ timeout: PAGE_LOAD_MS });
      await expect(reader.page.locator('.errors-wrapper, .version-pragma').count()).resolves.toBe(0);
      // Swagger UI's own list of what it found wrong, shown or not.
      const errors = await reader.page.evaluate('window.ui.errSelectors.allErrors().toJS()');
      expect(errors).toEqual([]);
      await expect(reader.page.locator('.info .title').innerText()).resolves.toContain('Payment gateway API');
    } finally {
      await reader.close();
    }
  });

  for (const width of [1280, 375]) {
    it(
      `has no accessibility violation at ${width} px, opened, with an operation open, tried and answered`,
      async () => {
        const reader = await newPage(browser, { viewport: { width, height: 900 } });
        const found: string[] = [];
        const check = async (state: string) => {
          for (const v of await axeViolations(reader.page)) {
            found.push(`${state}: ${v.impact} ${v.id}: ${v.help} (${v.targets.slice(0, 3).join(', ')})`);
          }
        };
        try {
          await reader.page.goto(`${publicUrl}/docs/api`);
          await reader.page.locator('.opblock').first().waitFor({ timeout: PAGE_LOAD_MS });
          await check('opened');
          const operation = reader.page.locator('#operations-Payments-createPayment');
          await operation.locator('.opblock-summary-control').click();
          await operation.locator('.responses-wrapper').waitFor();
          await check('operation open');
          await operation.locator('.try-out__btn').click();
          // The request body editor stays beside the answer: checked with it.
          await operation.locator('textarea.body-param__text').waitFor();
          // Without a key: the server's 401, shown with the curl command and the request URL.
          await operation.locator('.execute').click();
          await operation.locator('.live-responses-table').waitFor();
          await expect(
            operation.locator('.live-responses-table tbody .response-col_status').first().innerText(),
          ).resolves.toContain('401');
          await check('tried and answered');
          expect(found).toEqual([]);
          // Nothing wider than the screen.
          await expect(reader.page.evaluate('document.documentElement.scrollWidth')).resolves.toBe(width);
        } finally {
          await reader.close();
        }
      },
      AXE_TEST_MS,
    );
  }
});
