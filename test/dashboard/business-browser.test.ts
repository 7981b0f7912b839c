/**
 * Business verification in headless Chromium (SQLite): an owner fills the form, is told what is
 * wrong, chooses a PDF and sends it, and sees the request being checked; every page passes axe-core
 * at desktop size and at 375px, and fits the phone.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type DashboardBrowser,
  expectAccessible,
  expectFitsWidth,
  signInThroughForm,
  startDashboardBrowser,
} from './browser-support.js';
import { samplePdf } from './business-support.js';
import { type DashboardGateway, PASSWORD, signUpAndConfirm, uniqueEmail } from './support.js';

describe('business verification in the browser (sqlite)', () => {
  let b: DashboardBrowser;
  let g: DashboardGateway;

  beforeAll(async () => {
    b = await startDashboardBrowser('sqlite');
    g = b.g;
  }, 120_000);
  afterAll(() => b?.close());

  for (const size of [
    { name: 'desktop', width: 1280, height: 900 },
    { name: 'phone', width: 375, height: 812 },
  ]) {
    it(`sends the form with a PDF and shows the request being checked (${size.name})`, {
      timeout: 180_000,
    }, async () => {
      const email = uniqueEmail(`business-${size.name}`);
      await signUpAndConfirm(g, email);
      const page = await b.open(size.width, size.height);
      await signInThroughForm(page, g.t.url, email, PASSWORD, { landing: 'Your test key' });

      // On a phone the menu is folded: a person opens it first.
      if (size.width === 375) await page.getByRole('navigation', { name: 'Dashboard' }).getByText('Menu').click();
      await page.getByRole('link', { name: 'Business', exact: true }).click();
      await page.getByRole('heading', { name: 'Business verification' }).waitFor();
      await page.getByText('Not sent').waitFor();
      await expectAccessible(page, { phone: false });
      if (size.width === 375) await expectFitsWidth(page);

      await page.getByLabel('Legal name').fill('Ararat Books LLC');
      await page.getByLabel('Tax id (TIN)').fill('0251234');
      await page.getByLabel('Legal address').fill('5 Abovyan St, Yerevan 0001');
      await page.getByLabel('Contact phone').fill('+374 10 12345');
      await page.getByRole('button', { name: 'Send for verification' }).click();
      await page.getByText('A TIN is exactly 8 digits.').waitFor();
      await page.getByText('Add at least one document.').waitFor();
      expect(await page.getByLabel('Legal name').inputValue()).toBe('Ararat Books LLC');
      await expectAccessible(page, { phone: false });
      if (size.width === 375) await expectFitsWidth(page);

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
      await expectAccessible(page, { phone: false });
      if (size.width === 375) await expectFitsWidth(page);

      // The document downloads as an attachment, as it was sent.
      const [download] = await Promise.all([
        page.waitForEvent('download'),
        page.getByRole('link', { name: 'state-register-extract.pdf' }).click(),
      ]);
      expect(download.suggestedFilename()).toBe('state-register-extract.pdf');
    });
  }
});
