/**
 * The dashboard in headless Chromium, on both databases: sign up, confirm the address from the
 * mail, see the test key once, run the printed curl's request, see the checklist tick and the key
 * gone; sign out and in; reset the password through the mail; be locked out after repeated
 * failures. Every page passes axe-core (no serious or critical violation), and fits a 375px phone.
 * On a phone the menu folds behind a Menu button (a <details>, so it opens without script too) and
 * the header keeps most of the first screen for the page; on a desktop every entry shows at once.
 * Every page has its icon (`/favicon.ico`).
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NAV } from '../../gateway/dashboard/nav.js';
import { BROWSER_DIALECTS } from '../support/databases.js';
import {
  type DashboardBrowser,
  expectAccessible,
  signInThroughForm,
  startDashboardBrowser,
} from './browser-support.js';
import {
  curlRequest,
  type DashboardGateway,
  linkIn,
  mailTo,
  PASSWORD,
  signedInMember,
  uniqueEmail,
} from './support.js';

describe.each(BROWSER_DIALECTS)('dashboard in the browser (%s)', (dialect) => {
  let b: DashboardBrowser;
  let g: DashboardGateway;

  beforeAll(async () => {
    b = await startDashboardBrowser(dialect);
    g = b.g;
  });
  afterAll(() => b?.close());

  const open = (width?: number, height?: number) => b.open(width, height);
  const signIn = (page: Page, email: string, password: string) =>
    signInThroughForm(page, g.t.url, email, password, { landing: null });

  it('takes a new merchant from sign-up to a first test payment', async () => {
    const page = await open();
    const email = uniqueEmail();
    await page.goto(`${g.t.url}/dashboard/sign-up`);
    await expectAccessible(page, { phone: false });
    await page.getByLabel('Business name').fill('Ararat Books');
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Create account' }).click();
    await page.getByRole('heading', { name: 'Check your email' }).waitFor();
    await expectAccessible(page, { phone: false });

    const mail = await mailTo(g.smtp, email, /Confirm your email/);
    await page.goto(`${g.t.url}${linkIn(mail.text, '/dashboard/verify-email')}`);
    await expectAccessible(page, { phone: false });
    await page.getByRole('button', { name: 'Confirm email address' }).click();
    await page.getByText('Your email address is confirmed. Sign in to continue.').waitFor();
    await expectAccessible(page, { phone: false });

    await signIn(page, email, PASSWORD);
    await page.getByRole('heading', { name: 'Your test key' }).waitFor();
    await expectAccessible(page, { phone: false });
    const key = (await page.locator('#test-key').textContent()) ?? '';
    expect(key).toMatch(/^sk_test_/);
    const request = curlRequest((await page.locator('#curl').textContent()) ?? '');
    expect(request.headers['X-Service-Key']).toBe(key);
    expect(await page.locator('li[data-item="test_payment"]').getAttribute('class')).toBe('todo');
    const response = await fetch(request.url, { method: request.method, headers: request.headers, body: request.body });
    expect(response.status, await response.clone().text()).toBe(201);
    expect(((await response.json()) as { checkout_url: string }).checkout_url).toContain('/checkout/');

    await page.reload();
    expect(await page.locator('li[data-item="test_payment"]').getAttribute('class')).toBe('done');
    expect(await page.locator('#test-key').count()).toBe(0);
    expect(await page.content()).not.toContain(key);
    // Every entry of the navigation is there: a link, or a page still to come announced as such.
    const links = await page.locator('nav.main a').count();
    const soon = await page.locator('nav.main [aria-disabled="true"]').count();
    expect(links + soon).toBe(NAV.length);
    expect(links).toBe(NAV.filter((item) => item.href !== null).length);

    await page.getByRole('link', { name: 'Account' }).click();
    await page.getByRole('heading', { name: 'Your account' }).waitFor();
    await expectAccessible(page, { phone: false });
    // The signed-in pages fit a phone too.
    await page.setViewportSize({ width: 375, height: 812 });
    for (const path of ['/dashboard', '/dashboard/account']) {
      await page.goto(`${g.t.url}${path}`);
      expect((await page.evaluate('document.documentElement.scrollWidth')) as number, path).toBeLessThanOrEqual(375);
      await expectAccessible(page, { phone: false });
    }
    await page.setViewportSize({ width: 1280, height: 900 });

    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByText('You are signed out.').waitFor();
    await page.goto(`${g.t.url}/dashboard`);
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
    await signIn(page, email, PASSWORD);
    await page.getByRole('heading', { name: 'Get started' }).waitFor();
    expect(await page.locator('#test-key').count()).toBe(0);

    // Password reset through the mailed link.
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('link', { name: 'Forgot your password?' }).click();
    await expectAccessible(page, { phone: false });
    await page.getByLabel('Email').fill(email);
    await page.getByRole('button', { name: 'Send reset link' }).click();
    await page.getByText('If an account exists for this address, we sent it a link.').waitFor();
    const reset = await mailTo(g.smtp, email, /Reset your password/);
    await page.goto(`${g.t.url}${linkIn(reset.text, '/dashboard/reset/new')}`);
    await expectAccessible(page, { phone: false });
    await page.getByLabel('New password').fill('a brand new passphrase');
    await page.getByRole('button', { name: 'Set password' }).click();
    await page.getByText('Your password was changed and every session was signed out.').waitFor();
    await signIn(page, email, PASSWORD);
    await page.getByText('The email or the password is wrong.').waitFor();
    await expectAccessible(page, { phone: false });
    await signIn(page, email, 'a brand new passphrase');
    await page.getByRole('heading', { name: 'Get started' }).waitFor();
  });

  it('locks out repeated failed sign-ins with a clear message', async () => {
    const page = await open();
    const email = uniqueEmail('locked');
    for (let i = 0; i < 5; i += 1) {
      await signIn(page, email, `wrong guess ${i}`);
      await page.getByText('The email or the password is wrong.').waitFor();
    }
    await signIn(page, email, 'another guess here');
    const alert = page.getByRole('alert');
    await alert.waitFor();
    expect(await alert.textContent()).toContain('Too many failed sign-ins.');
    await expectAccessible(page, { phone: false });
  });

  it('folds the menu on a phone behind a Menu button that works with and without script', async () => {
    const m = await g.t.merchant({ name: 'Ararat Books' });
    const email = uniqueEmail('menu');
    await signedInMember(g, m.merchantId, 'owner', email);
    const entries = NAV.filter((item) => item.href !== null).length;
    const nav = (page: Page) => page.getByRole('navigation', { name: 'Dashboard' });
    /** How many of the menu's links are shown (laid out) now. */
    const visibleLinks = async (page: Page) =>
      (await page.locator('nav.main a').evaluateAll((links) => links.filter((a) => a.checkVisibility()))).length;

    for (const withScript of [true, false]) {
      const context = await b.browser.newContext({ viewport: { width: 375, height: 812 } });
      context.setDefaultTimeout(10_000);
      if (!withScript) {
        // The dashboard's pages as a browser without script sees them: their one script taken out.
        await context.route(/\/dashboard/, async (route) => {
          const response = await route.fetch({ maxRedirects: 0 });
          const body = (await response.text()).replace(/<script[\s\S]*?<\/script>/g, '');
          await route.fulfill({ response, body });
        });
      }
      const page = await context.newPage();
      await signIn(page, email, PASSWORD);
      await page.getByRole('heading', { name: 'Get started' }).waitFor();
      const menu = nav(page).getByText('Menu', { exact: true });
      expect(await menu.isVisible(), `with script: ${withScript}`).toBe(true);
      expect(await visibleLinks(page)).toBe(0);
      // The header with the folded menu takes at most a quarter of the first screen (it was 40%).
      const header = (await page.locator('header.top').boundingBox())?.height ?? 812;
      expect(header, `header ${header}px`).toBeLessThanOrEqual(812 / 4);
      await expectAccessible(page, { phone: false });

      await menu.click();
      expect(await visibleLinks(page)).toBe(entries);
      await expectAccessible(page, { phone: false });
      await nav(page).getByRole('link', { name: 'Payments' }).click();
      await page.getByRole('heading', { name: 'Payments', level: 1 }).waitFor();
      // Folded again on the next page; opened from the keyboard as well.
      expect(await visibleLinks(page)).toBe(0);
      await page.locator('nav.main summary').focus();
      await page.keyboard.press('Enter');
      expect(await visibleLinks(page)).toBe(entries);
      expect(await nav(page).getByRole('link', { name: 'Payments' }).getAttribute('aria-current')).toBe('page');

      // On a desktop every entry shows at once and the button is gone.
      await page.setViewportSize({ width: 1280, height: 900 });
      await page.goto(`${g.t.url}/dashboard/account`);
      expect(await menu.isVisible()).toBe(false);
      expect(await visibleLinks(page)).toBe(entries);
      await expectAccessible(page, { phone: false });
      if (withScript) {
        // The origin's icon, which browsers ask for beside every page, is an image Chromium reads.
        const icon = await page.goto(`${g.t.url}/favicon.ico`);
        expect([icon?.status(), icon?.headers()['content-type']]).toEqual([200, 'image/x-icon']);
        const width = await page
          .locator('img')
          .evaluate((img) => (img as unknown as { naturalWidth: number }).naturalWidth);
        expect(width).toBeGreaterThan(0);
      }
      await context.close();
    }
  }, 120_000);

  it('fits a 375px phone and speaks Armenian and Russian', async () => {
    const page = await open(375, 812);
    for (const path of ['/dashboard/sign-up?lang=hy', '/dashboard/sign-in', '/dashboard/reset?lang=ru']) {
      await page.goto(`${g.t.url}${path}`);
      const width = (await page.evaluate('document.documentElement.scrollWidth')) as number;
      expect(width, path).toBeLessThanOrEqual(375);
      await expectAccessible(page, { phone: false });
    }
    // The language chosen last is remembered by its cookie.
    expect(await page.locator('html').getAttribute('lang')).toBe('ru');
    await page.goto(`${g.t.url}/dashboard/sign-in`);
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Вход');
    await page.getByRole('link', { name: 'Հայերեն' }).click();
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Մուտք');
  });
});
