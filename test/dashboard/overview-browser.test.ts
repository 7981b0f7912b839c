/**
 * Overview and customers in headless Chromium, on both databases: an owner with sandbox payments opens the
 * overview (test environment), reads the charts' numbers, goes to the customers, searches one by
 * email and opens their page. Every page passes axe-core (no serious or critical violation) at
 * desktop width and at 375px, without sideways scrolling.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BROWSER_DIALECTS } from '../support/databases.js';
import {
  type DashboardBrowser,
  expectAccessible,
  signInThroughForm,
  startDashboardBrowser,
} from './browser-support.js';
import { payWith } from './sandbox-payments.js';
import { type DashboardGateway, signUpAndConfirm, uniqueEmail } from './support.js';

describe.each(BROWSER_DIALECTS)('overview and customers in the browser (%s)', (dialect) => {
  let b: DashboardBrowser;
  let g: DashboardGateway;

  beforeAll(async () => {
    b = await startDashboardBrowser(dialect, { env: { GATEWAY_CLOCK: 'manual' } });
    g = b.g;
  }, 120_000);
  afterAll(() => b?.close());

  async function open(): Promise<Page> {
    const page = await b.open();
    page.setDefaultTimeout(30_000);
    page.setDefaultNavigationTimeout(30_000);
    return page;
  }

  it('reads the overview, then finds a customer and their payments', { timeout: 240_000 }, async () => {
    const email = uniqueEmail();
    await signUpAndConfirm(g, email);
    const user = await g.t.gateway.deps.db
      .selectFrom('dashboard_users')
      .select('merchant_id')
      .where('email', '=', email)
      .executeTakeFirstOrThrow();
    const key = await g.t.key(user.merchant_id, 'test');
    const ann = await payWith(g, key, { amount: 3000, customer_email: 'ann@example.am', customer_name: 'Ann' });
    await payWith(g, key, { amount: 1200, customer_email: 'ann@example.am' });
    await payWith(g, key, { amount: 800, customer_email: 'gor@example.am' });

    const page = await open();
    await signInThroughForm(page, g.t.url, email);
    await page.getByRole('link', { name: 'Overview' }).click();
    await page.getByRole('heading', { name: 'Overview', level: 1 }).waitFor();
    await expectAccessible(page);
    await page.getByRole('link', { name: 'Test' }).click();
    await page.getByText('AMD\u00a05,000').first().waitFor();
    expect(await page.getByRole('img', { name: /Completed volume per day/ }).count()).toBe(1);
    await page.getByText('Show the numbers of each day').click();
    await page.getByRole('table', { name: 'Completed payments and volume per day' }).waitFor();
    await expectAccessible(page);

    await page.getByRole('link', { name: 'Customers' }).click();
    await page.getByRole('heading', { name: 'Customers', level: 1 }).waitFor();
    await page.getByRole('link', { name: 'Test' }).click();
    await page.getByText('gor@example.am').waitFor();
    await expectAccessible(page);
    await page.getByLabel('Customer id or email').fill('ann@example.am');
    await page.getByRole('button', { name: 'Search' }).click();
    await page.getByRole('link', { name: ann.customer_id }).waitFor();
    expect(await page.getByText('gor@example.am').count()).toBe(0);
    await expectAccessible(page);
    await page.getByRole('link', { name: ann.customer_id }).click();
    await page.getByRole('heading', { name: `Customer ${ann.customer_id}` }).waitFor();
    expect(await page.locator('a[href^="/dashboard/payments/"]').count()).toBe(2);
    expect(await page.locator(`a[href="/dashboard/payments/${ann.uuid}"]`).count()).toBe(1);
    await expectAccessible(page);
  });
});
