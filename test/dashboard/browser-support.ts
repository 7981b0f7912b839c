/**
 * What every dashboard test in Chromium is written with: a gateway on a free port with its
 * PUBLIC_URL and a headless browser (`startDashboardBrowser`), the accessibility check of a page
 * (`expectAccessible`) and signing in through the sign-in form (`signInThroughForm`).
 */
import type { Browser, Page } from 'playwright-core';
import { expect } from 'vitest';
import type { DialectName } from '../../storage/database.js';
import { seriousViolations } from '../support/axe.js';
import { launchBrowser, newPage, type TestPage } from '../support/browser.js';
import { freePort } from '../support/ports.js';
import { type DashboardGateway, PASSWORD, startDashboardGateway } from './support.js';

type GatewayOptions = NonNullable<Parameters<typeof startDashboardGateway>[1]>;

export interface DashboardBrowser {
  readonly g: DashboardGateway;
  readonly browser: Browser;
  /** A page in a context of its own (no cookies shared), closed by `close`. */
  open(width?: number, height?: number): Promise<Page>;
  /** Closes the pages, the browser and the gateway. */
  close(): Promise<void>;
}

/** The gateway on a free port (PORT and PUBLIC_URL set, `options.env` added) and Chromium. */
export async function startDashboardBrowser(
  dialect: DialectName,
  options: GatewayOptions = {},
): Promise<DashboardBrowser> {
  const port = await freePort();
  const g = await startDashboardGateway(dialect, {
    ...options,
    env: { PORT: String(port), PUBLIC_URL: `http://127.0.0.1:${port}`, ...options.env },
  });
  let browser: Browser;
  try {
    browser = await launchBrowser();
  } catch (error) {
    await g.close();
    throw error;
  }
  const pages: TestPage[] = [];
  return {
    g,
    browser,
    async open(width = 1280, height = 900) {
      const testPage = await newPage(browser, { viewport: { width, height } });
      pages.push(testPage);
      return testPage.page;
    },
    async close() {
      for (const page of pages) await page.close().catch(() => {});
      await browser.close().catch(() => {});
      await g.close();
    },
  };
}

/** The page is no wider than `width` (no sideways scrolling). */
export async function expectFitsWidth(page: Page, width = 375): Promise<void> {
  expect((await page.evaluate('document.documentElement.scrollWidth')) as number, page.url()).toBeLessThanOrEqual(
    width,
  );
}

/**
 * No serious or critical axe violation at the page's size; with `phone` (the default) also at
 * 375px, where the page must fit, and then back to the page's size.
 */
export async function expectAccessible(page: Page, { phone = true }: { phone?: boolean } = {}): Promise<void> {
  expect(await seriousViolations(page), page.url()).toEqual([]);
  if (!phone) return;
  const size = page.viewportSize();
  await page.setViewportSize({ width: 375, height: 812 });
  await expectFitsWidth(page, 375);
  expect(await seriousViolations(page), `${page.url()} at 375px`).toEqual([]);
  if (size !== null) await page.setViewportSize(size);
}

/**
 * Signs in through the sign-in form, then waits for the heading `landing` ("Get started", the
 * home page); `landing: null` waits for nothing (a refusal, a second step...).
 */
export async function signInThroughForm(
  page: Page,
  baseUrl: string,
  email: string,
  password = PASSWORD,
  { landing = 'Get started' }: { landing?: string | null } = {},
): Promise<void> {
  await page.goto(`${baseUrl}/dashboard/sign-in`);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  if (landing !== null) await page.getByRole('heading', { name: landing }).waitFor();
}
