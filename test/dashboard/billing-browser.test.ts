/**
 * Billing in headless Chromium, on both databases: an owner of a verified business buys units by
 * bank transfer in the dashboard, is shown the reference, amount, bank details and instructions;
 * the operator runs `bin/gateway purchase credit` with that reference (a real process on the test
 * database); the billing page then shows the balance risen, and the purchase paid. The ledger,
 * purchases and auto top-up pages too; every page passes axe-core (no serious or critical violation)
 * at 1280px and at 375px, and fits a 375px phone.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifyBusiness } from '../../gateway/merchants/merchant.service.js';
import { CLI_TEST_TIMEOUT_MS, gateway } from '../support/cli.js';
import { BROWSER_DIALECTS } from '../support/databases.js';
import {
  type DashboardBrowser,
  expectAccessible,
  signInThroughForm,
  startDashboardBrowser,
} from './browser-support.js';
import { type DashboardGateway, signUpAndConfirm, uniqueEmail } from './support.js';

describe.each(BROWSER_DIALECTS)('billing in the browser (%s)', (dialect) => {
  let b: DashboardBrowser;
  let g: DashboardGateway;

  beforeAll(async () => {
    b = await startDashboardBrowser(dialect, {
      env: { GATEWAY_BANK_TRANSFER_DETAILS: 'Ararat Bank CJSC | Account 1570-0123-4567-8900' },
    });
    g = b.g;
  }, 120_000);
  afterAll(() => b?.close());

  it(
    'buys units by bank transfer and sees the balance rise after bin/gateway purchase credit',
    async () => {
      const email = uniqueEmail();
      await signUpAndConfirm(g, email);
      const deps = g.t.gateway.deps;
      const user = await deps.db
        .selectFrom('dashboard_users')
        .select('merchant_id')
        .where('email', '=', email)
        .executeTakeFirstOrThrow();
      await verifyBusiness(deps, user.merchant_id);

      const page = await b.open();
      // A busy machine (several Chromium runs and CLI processes at once) can take over 5 s a step.
      page.setDefaultTimeout(20_000);
      page.setDefaultNavigationTimeout(20_000);
      await signInThroughForm(page, g.t.url, email);
      await page.getByRole('link', { name: 'Billing', exact: true }).click();
      await page.getByRole('heading', { name: 'Billing', level: 1 }).waitFor();
      const available = page.locator('[data-counter="transactions"] .bill-available');
      expect((await available.textContent())?.trim()).toBe('50');
      expect(await page.locator('[data-counter="transactions"] .bill-state').textContent()).toBe('Active');
      await expectAccessible(page);

      await page.getByRole('link', { name: 'Buy transactions units' }).click();
      await page.getByRole('heading', { name: 'Buy units', level: 1 }).waitFor();
      await expectAccessible(page);
      expect(await page.getByLabel('Counter').inputValue()).toBe('transactions');
      await page.getByLabel('Quantity (units)').fill('300');
      await page.getByRole('button', { name: 'Buy' }).click();
      await page.getByRole('heading', { name: 'Purchase', level: 1 }).waitFor();
      await page.getByText('The purchase is created.').waitFor();
      const reference = ((await page.locator('#transfer-reference').textContent()) ?? '').trim();
      expect(reference).toMatch(/^GW-[A-Z0-9]{4}-[A-Z0-9]{4}$/);
      expect(await page.locator('#transfer-amount').textContent()).toBe('AMD\u00a06,000');
      await page.getByText('Account 1570-0123-4567-8900').waitFor();
      await expectAccessible(page);

      const credited = await gateway(deps.config.databaseUrl, 'purchase', 'credit', '--reference', reference);
      expect(credited.stderr).toBe('');
      expect(credited.code).toBe(0);

      await page.reload();
      await page.getByText('Paid on').waitFor();
      await page.getByRole('link', { name: 'Back to billing' }).click();
      await page.getByRole('heading', { name: 'Billing', level: 1 }).waitFor();
      expect((await available.textContent())?.trim()).toBe('350');

      await page.getByRole('link', { name: 'Purchases and receipts' }).click();
      await page.getByRole('heading', { name: 'Purchases', level: 1 }).waitFor();
      await page.getByRole('cell', { name: 'Paid' }).first().waitFor();
      await expectAccessible(page);

      await page.goto(`${g.t.url}/dashboard/billing/ledger`);
      await page.getByRole('heading', { name: 'Ledger', level: 1 }).waitFor();
      await page.getByRole('cell', { name: '+300' }).waitFor();
      await expectAccessible(page);

      await page.goto(`${g.t.url}/dashboard/billing/auto-topup`);
      await page.getByRole('heading', { name: 'Auto top-up', level: 1 }).waitFor();
      await page.locator('#transactions-enabled').check();
      await page.locator('#transactions-threshold').fill('20');
      await page.getByRole('button', { name: 'Save transactions auto top-up' }).click();
      await page.getByText('Auto top-up is saved.').waitFor();
      await expectAccessible(page);
    },
    CLI_TEST_TIMEOUT_MS,
  );
});
