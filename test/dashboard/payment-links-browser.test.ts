/**
 * Payment links in headless Chromium (SQLite): the owner creates a single-use link in the
 * dashboard, copies its address; a buyer opens it, pays with the sandbox test card through the
 * hosted checkout and lands on the link's thank-you page (the business named by its name, never by the
 * generated name of the account's hosted domain); a second attempt is refused; the
 * dashboard shows the link paid with its payment. Every page passes axe-core at desktop size and at
 * 375px (the buyer's page too).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type DashboardBrowser,
  expectAccessible,
  signInThroughForm,
  startDashboardBrowser,
} from './browser-support.js';
import { type DashboardGateway, signUpAndConfirm, uniqueEmail } from './support.js';

const TIMEOUT = 180_000;

describe('payment links in the browser (sqlite)', () => {
  let b: DashboardBrowser;
  let g: DashboardGateway;

  beforeAll(async () => {
    b = await startDashboardBrowser('sqlite');
    g = b.g;
  }, TIMEOUT);
  afterAll(() => b?.close());

  it(
    'create a single-use payment link, pay it in the browser, and see a second pay attempt refused',
    async () => {
      const email = uniqueEmail();
      await signUpAndConfirm(g, email);
      const page = await b.open();
      await signInThroughForm(page, g.t.url, email, undefined, { landing: null });
      await page.goto(`${g.t.url}/dashboard/payment-links`);
      await page.getByRole('heading', { name: 'Payment links', level: 1 }).waitFor();
      await expectAccessible(page);

      // A refused form first: the problem is named at the field.
      await page.locator('#f-amount').fill('12.5');
      await page.getByRole('button', { name: 'Create the link' }).click();
      await page.locator('#f-amount-error').waitFor();
      await expectAccessible(page);

      await page.locator('#f-amount').fill('4500');
      await page.getByLabel('Description (optional)').fill('Pottery workshop');
      await page.getByRole('button', { name: 'Create the link' }).click();
      await page.getByText('The payment link was created.').waitFor();
      await expectAccessible(page);
      const url = ((await page.locator('#link-url').textContent()) ?? '').trim();
      expect(url).toMatch(new RegExp(`^${g.t.url}/l/plink_`));
      expect(
        await page
          .locator('img.plinks-qr')
          .evaluate((img) => (img as unknown as { naturalWidth: number }).naturalWidth),
      ).toBe(200);
      const detailUrl = page.url().replace(/\?.*$/, '');

      // The buyer, in a browser of their own.
      const buyer = await b.open();
      await buyer.goto(url);
      await buyer.getByText('AMD\u00a04,500').first().waitFor();
      expect(await buyer.content()).toContain('Pottery workshop');
      // The business by its name; the account's hosted domain has a generated name, never shown.
      expect(await buyer.locator('.merchant-name').textContent()).toBe('Ararat Books');
      const hosted = await g.t.gateway.deps.db
        .selectFrom('domains')
        .innerJoin('dashboard_users', 'dashboard_users.merchant_id', 'domains.merchant_id')
        .select('domains.host')
        .where('dashboard_users.email', '=', email)
        .where('domains.hosted', '=', 1)
        .executeTakeFirstOrThrow();
      expect(await buyer.locator('body').innerText()).not.toContain(hosted.host);
      await expectAccessible(buyer);
      await buyer.getByRole('button', { name: 'Pay AMD\u00a04,500' }).click();
      await buyer.waitForURL(/\/checkout\//);
      await buyer.locator('input[name="processor"][value="sandbox"]').check();
      await buyer.locator('form button[type="submit"]').click();
      await buyer.waitForURL(/\/sandbox$/);
      await buyer.locator('#card_number').fill('4111 1111 1111 1111');
      await buyer.locator('form button[type="submit"]').click();
      await buyer.locator('text=Payment received').waitFor();
      await buyer.waitForURL(/\/l\/plink_[^/]+\/thanks/, { timeout: 30_000 });
      await buyer.getByRole('heading', { name: 'Thank you, payment received' }).waitFor();
      await expectAccessible(buyer);

      // A second buyer opens the same link: refused, nothing to pay.
      const second = await b.open();
      const answer = await second.goto(url);
      expect(answer?.status()).toBe(410);
      await second.getByRole('heading', { name: 'This payment link has already been paid' }).waitFor();
      await expectAccessible(second);
      // The first buyer going back and pressing pay again is refused too.
      await buyer.goBack();
      await buyer.goto(url);
      expect(await buyer.locator('button[type="submit"]').count()).toBe(0);

      await page.goto(detailUrl);
      await page.locator('[data-status="completed"]').first().waitFor();
      expect(await page.content()).toContain('1 paid of 1');
      await expectAccessible(page);
      await page.goto(`${g.t.url}/dashboard/payment-links`);
      expect(await page.locator('tr[data-link-id] [data-status="completed"]').count()).toBe(1);
      await expectAccessible(page);
    },
    TIMEOUT,
  );

  it(
    'a buyer chooses the amount of a ranged link, within its range',
    async () => {
      const email = uniqueEmail();
      await signUpAndConfirm(g, email);
      const page = await b.open();
      await signInThroughForm(page, g.t.url, email, undefined, { landing: null });
      await page.goto(`${g.t.url}/dashboard/payment-links`);
      await page.locator('#amount_kind-range').check();
      await page.getByLabel('Smallest amount (AMD)').fill('1000');
      await page.getByLabel('Largest amount (AMD)').fill('5000');
      await page.locator('#reusable-yes').check();
      await page.getByRole('button', { name: 'Create the link' }).click();
      await page.getByText('The payment link was created.').waitFor();
      const url = ((await page.locator('#link-url').textContent()) ?? '').trim();
      const buyer = await b.open();
      await buyer.goto(url);
      await buyer.getByLabel('Amount to pay (AMD)').fill('99999');
      await buyer.getByRole('button', { name: 'Continue to payment' }).click();
      await buyer.getByRole('alert').waitFor();
      await expectAccessible(buyer);
      await buyer.getByLabel('Amount to pay (AMD)').fill('2500');
      await buyer.getByRole('button', { name: 'Continue to payment' }).click();
      await buyer.waitForURL(/\/checkout\//);
      await expect.poll(() => buyer.locator('[data-testid="amount"]').textContent()).toBe('AMD\u00a02,500');
    },
    TIMEOUT,
  );
});
