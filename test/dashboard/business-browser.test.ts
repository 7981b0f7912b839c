/**
 * Business verification in headless Chromium (SQLite): an owner fills the form, is told what is
 * wrong, chooses a PDF and sends it, and sees the request being checked; every page passes axe-core
 * at desktop size and at 375px, and fits the phone.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seriousViolations } from '../support/axe.js';
import { launchBrowser, newPage, type TestPage } from '../support/browser.js';
import { freePort } from '../support/ports.js';
import { samplePdf } from './business-support.js';
import { type DashboardGateway, PASSWORD, signUpAndConfirm, startDashboardGateway, uniqueEmail } from './support.js';

describe('business verification in the browser (sqlite)', () => {
  let g: DashboardGateway;
  let browser: Browser;
  const pages: TestPage[] = [];

  beforeAll(async () => {
    const port = await freePort();
    g = await startDashboardGateway('sqlite', {
      env: { PORT: String(port), PUBLIC_URL: `http://127.0.0.1:${port}` },
    });
    browser = await launchBrowser();
  }, 120_000);
  afterAll(async () => {
    for (const page of pages) await page.close().catch(() => {});
    await browser?.close().catch(() => {});
    await g?.close();
  });

  async function open(width: number, height: number): Promise<Page> {
    const testPage = await newPage(browser, { viewport: { width, height } });
    pages.push(testPage);
    return testPage.page;
  }

  async function expectAccessible(page: Page): Promise<void> {
    expect(await seriousViolations(page), page.url()).toEqual([]);
  }

  async function expectFitsPhone(page: Page): Promise<void> {
    expect((await page.evaluate('document.documentElement.scrollWidth')) as number, page.url()).toBeLessThanOrEqual(
      375,
    );
  }

  async function signIn(page: Page, email: string): Promise<void> {
    await page.goto(`${g.t.url}/dashboard/sign-in`);
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: 'Your test key' }).waitFor();
  }

  for (const size of [
    { name: 'desktop', width: 1280, height: 900 },
    { name: 'phone', width: 375, height: 812 },
  ]) {
    it(`sends the form with a PDF and shows the request being checked (${size.name})`, {
      timeout: 180_000,
    }, async () => {
      const email = uniqueEmail(`business-${size.name}`);
      await signUpAndConfirm(g, email);
      const page = await open(size.width, size.height);
      await signIn(page, email);

      await page.getByRole('link', { name: 'Business' }).click();
      await page.getByRole('heading', { name: 'Business verification' }).waitFor();
      await page.getByText('Not sent').waitFor();
      await expectAccessible(page);
      if (size.width === 375) await expectFitsPhone(page);

      await page.getByLabel('Legal name').fill('Ararat Books LLC');
      await page.getByLabel('Tax id (TIN)').fill('0251234');
      await page.getByLabel('Legal address').fill('5 Abovyan St, Yerevan 0001');
      await page.getByLabel('Contact phone').fill('+374 10 12345');
      await page.getByRole('button', { name: 'Send for verification' }).click();
      await page.getByText('A TIN is exactly 8 digits.').waitFor();
      await page.getByText('Add at least one document.').waitFor();
      expect(await page.getByLabel('Legal name').inputValue()).toBe('Ararat Books LLC');
      await expectAccessible(page);
      if (size.width === 375) await expectFitsPhone(page);

      await page.getByLabel('Tax id (TIN)').fill('02512345');
      await page.getByLabel('Contact phone').fill('+374 10 123456');
      await page
        .getByLabel('Documents')
        .setInputFiles([{ name: 'state-register-extract.pdf', mimeType: 'application/pdf', buffer: samplePdf() }]);
      await page.getByRole('button', { name: 'Send for verification' }).click();
      await page.getByText('Your request is sent.').waitFor();
      await page.getByText('Being checked').waitFor();
      await page.getByRole('link', { name: 'state-register-extract.pdf' }).waitFor();
      expect(await page.getByRole('button', { name: 'Send for verification' }).count()).toBe(0);
      await expectAccessible(page);
      if (size.width === 375) await expectFitsPhone(page);

      // The document downloads as an attachment, as it was sent.
      const [download] = await Promise.all([
        page.waitForEvent('download'),
        page.getByRole('link', { name: 'state-register-extract.pdf' }).click(),
      ]);
      expect(download.suggestedFilename()).toBe('state-register-extract.pdf');
    });
  }
});
