/**
 * The payments list in headless Chromium (SQLite): payments are found by the beginning of their
 * order id in any case, with counts by each language's plural rules and amounts in its one format;
 * a sandbox payment made and paid through the API is found by its order id, completed; the CSV export (read with
 * its progress said in a live region) equals the API's list. Every page passes axe-core at 1280px
 * and at 375px, and fits a phone.
 */
import { readFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CSV_COLUMNS } from '../../gateway/dashboard/payments/payments.csv.js';
import { paymentBody } from '../support/gateway.js';
import {
  type DashboardBrowser,
  expectAccessible,
  signInThroughForm,
  startDashboardBrowser,
} from './browser-support.js';
import { parseCsv } from './payments-support.js';
import { type DashboardGateway, signUpAndConfirm, uniqueEmail } from './support.js';

const TIMEOUT = 120_000;

describe('dashboard payments in the browser (sqlite)', { timeout: TIMEOUT }, () => {
  let g: DashboardGateway;
  let b: DashboardBrowser;

  beforeAll(async () => {
    b = await startDashboardBrowser('sqlite');
    g = b.g;
  }, TIMEOUT);
  afterAll(async () => {
    await b?.close();
  });

  it('finds a payment by order id, sees it completed, and exports the CSV the API lists', async () => {
    const email = uniqueEmail();
    await signUpAndConfirm(g, email);
    const { merchant_id: merchantId } = await g.t.gateway.deps.db
      .selectFrom('dashboard_users')
      .select('merchant_id')
      .where('email', '=', email)
      .executeTakeFirstOrThrow();
    const key = await g.t.key(merchantId, 'test');
    const uuids: string[] = [];
    for (const orderId of ['book-1041', 'book-1042', 'book-1043']) {
      const created = await g.t.call<{ uuid: string }>('POST', '/api/v1/payments', {
        key,
        body: paymentBody({ order_id: orderId, amount: 12_500, customer_email: 'anna@example.am' }),
      });
      expect(created.status).toBe(201);
      uuids.push(created.body.uuid);
      g.t.clock.advance(1000);
    }
    const paid = await g.t.call<{ status: string }>('POST', `/api/v1/test_helpers/payments/${uuids[1]}/pay`, {
      key,
      body: { card_number: '4242424242424242' },
    });
    expect(paid.body.status).toBe('completed');

    const page = await b.open();
    await signInThroughForm(page, g.t.url, email);
    await page.getByRole('navigation', { name: 'Dashboard' }).getByRole('link', { name: 'Payments' }).click();
    await page.getByRole('heading', { name: 'Payments', level: 1 }).waitFor();
    expect(await page.locator('#pay-total').textContent()).toBe('3 payments match.');
    await expectAccessible(page);

    // The beginning of an order id finds every payment it begins, in any case; amounts and counts in
    // one format per language.
    await page.getByLabel('Search', { exact: true }).fill('BOOK-104');
    await page.getByRole('button', { name: 'Show payments' }).click();
    await page.waitForURL(/q=BOOK-104/);
    expect(await page.locator('table.pay-table tbody tr').count()).toBe(3);
    expect(await page.locator('td.pay-amount').allTextContents()).toEqual(Array(3).fill('AMD\u00a012,500'));
    for (const [lang, three, one, amount] of [
      ['ru', 'Найдено 3 платежа.', 'Найден 1 платёж.', '12\u00a0500\u00a0драмов'],
      ['hy', 'Համապատասխանող վճարումներ՝ 3։', 'Համապատասխանող վճարումներ՝ 1։', '12\u00a0500\u00a0֏'],
    ]) {
      await page.goto(`${g.t.url}/dashboard/payments?env=test&q=book-104&lang=${lang}`);
      expect(await page.locator('#pay-total').textContent()).toBe(three);
      expect(new Set(await page.locator('td.pay-amount').allTextContents())).toEqual(new Set([amount]));
      await page.goto(`${g.t.url}/dashboard/payments?env=test&q=book-1041&lang=${lang}`);
      expect(await page.locator('#pay-total').textContent()).toBe(one);
    }
    await page.goto(`${g.t.url}/dashboard/payments?env=test&lang=en`);
    await page.getByLabel('Search', { exact: true }).fill('book-1042');
    await page.getByRole('button', { name: 'Show payments' }).click();
    await page.waitForURL(/q=book-1042/);
    const rows = page.locator('table.pay-table tbody tr');
    expect(await rows.count()).toBe(1);
    expect(await rows.first().getByRole('link', { name: 'book-1042' }).getAttribute('href')).toBe(
      `/dashboard/payments/${uuids[1]}`,
    );
    expect(await rows.first().locator('.pay-badge').textContent()).toBe('Completed');
    await expectAccessible(page);

    // The whole list's export, with its progress.
    await page.goto(`${g.t.url}/dashboard/payments?env=test`);
    const downloading = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Download CSV' }).click();
    const download = await downloading;
    await page.locator('#pay-export-status').getByText('Done: 3 rows downloaded.').waitFor();
    expect(download.suggestedFilename()).toBe('payments-test.csv');
    const file = await download.path();
    const records = parseCsv(await readFile(file, 'utf8'));
    expect(records[0]).toEqual([...CSV_COLUMNS]);
    const api = await g.t.call<{ data: Array<{ uuid: string; order_id: string; status: string; amount: number }> }>(
      'GET',
      '/api/v1/payments',
      { key },
    );
    expect(records.slice(1).map((r) => [r[0], r[1], r[2], r[3]])).toEqual(
      api.body.data.map((p) => [p.uuid, p.order_id, p.status, String(p.amount)]),
    );
    await expectAccessible(page);
  });
});
