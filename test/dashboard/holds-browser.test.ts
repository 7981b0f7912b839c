/**
 * Holds in the dashboard in headless Chromium (SQLite), at 1280px and at 375px: part of a hold
 * captured from the payment's page through its confirmation (an amount over the hold refused first,
 * said at the top of the page where it is seen), a hold released through its confirmation, and the
 * payments list's Uncaptured filter finding the authorized payments with their deadlines. The
 * sandbox holds each payment (a manual payment paid with an approved card through the API's test
 * helper). axe-core finds no violation on any of these pages, at either width, and they fit a phone.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatDateTime, formatDateTimeWithZone } from '../../gateway/i18n/format.js';
import { axeViolations } from '../support/axe.js';
import type { TestMerchant } from '../support/gateway.js';
import {
  type DashboardBrowser,
  expectAccessible,
  expectFitsWidth,
  signInThroughForm,
  startDashboardBrowser,
} from './browser-support.js';
import { heldPayment, type Json } from './holds-support.js';
import { type DashboardGateway, signedInMember, uniqueEmail } from './support.js';

const TIMEOUT = 180_000;
const WIDTHS = [
  [1280, 900],
  [375, 812],
] as const;

describe('holds in the dashboard in the browser (sqlite)', { timeout: TIMEOUT }, () => {
  let b: DashboardBrowser;
  let g: DashboardGateway;
  let m: TestMerchant;
  let page: Page;

  beforeAll(async () => {
    b = await startDashboardBrowser('sqlite', { env: { GATEWAY_CLOCK: 'manual' } });
    g = b.g;
    m = await g.t.merchant({ name: 'Ararat Rentals' });
    const email = uniqueEmail('owner');
    await signedInMember(g, m.merchantId, 'owner', email);
    page = await b.open();
    // The machine may be busy (password hashing, several browsers): generous waits.
    page.setDefaultTimeout(30_000);
    page.setDefaultNavigationTimeout(30_000);
    await signInThroughForm(page, g.t.url, email, undefined, { landing: null });
    await page.waitForURL((url) => url.pathname === '/dashboard');
  }, TIMEOUT);
  afterAll(async () => b?.close());

  const read = async (uuid: string): Promise<Json> =>
    (await g.t.call<Json>('GET', `/api/v1/payments/${uuid}`, { key: m.testKey })).body;

  /** No axe violation at all at the page's width, and none serious at 375px, where it fits. */
  async function expectNoViolations(): Promise<void> {
    expect(await axeViolations(page), page.url()).toEqual([]);
    await expectAccessible(page);
  }

  const text = async (testId: string) => ((await page.getByTestId(testId).textContent()) ?? '').trim();

  it('captures part of a hold from its page, after a refused amount said at the top', async () => {
    for (const [width, height] of WIDTHS) {
      await page.setViewportSize({ width, height });
      const held = await heldPayment(g, m.testKey);
      await page.goto(`${g.t.url}/dashboard/payments/${held.uuid}`);
      await page.getByRole('heading', { name: 'Hold on the card', level: 2 }).waitFor();
      expect(await text('payment-status')).toBe('Authorized');
      expect(await text('hold-amount')).toBe('AMD\u00a010,000');
      expect(await text('hold-deadline')).toBe(formatDateTimeWithZone('en', held.capture_before));
      await expectNoViolations();

      const amount = page.getByLabel('Amount to capture (AMD)');
      expect(await amount.inputValue()).toBe('10000');
      await amount.fill('12000');
      await page.getByRole('button', { name: 'Continue to capture' }).click();
      const problems = page.getByTestId('hold-problems');
      await problems.waitFor();
      expect(await page.evaluate('window.scrollY')).toBe(0);
      const box = await problems.boundingBox();
      expect((box?.y ?? height) + (box?.height ?? 0), `at ${width}px`).toBeLessThanOrEqual(height);
      const problem = problems.getByRole('link', { name: 'That is more than the AMD\u00a010,000 held on the card.' });
      expect(await problem.getAttribute('href')).toBe('#f-capture-amount');
      await expectNoViolations();

      await page.getByLabel('Amount to capture (AMD)').fill('6500');
      await page.getByRole('button', { name: 'Continue to capture' }).click();
      await page.getByRole('heading', { name: 'Confirm the capture', level: 1 }).waitFor();
      expect(await text('capture-question')).toBe(
        `Capture AMD\u00a06,500 from the buyer’s card for order ${held.order_id}?`,
      );
      expect(await text('capture-rest')).toBe(
        'The rest of the hold, AMD\u00a03,500, is released: it cannot be captured later.',
      );
      await expectNoViolations();
      await page.getByRole('button', { name: 'Capture', exact: true }).click();

      await page.getByText('The capture went through.').waitFor();
      expect(await text('payment-status')).toBe('Completed');
      expect(await text('hold-state')).toBe(
        'Captured AMD\u00a06,500, of the AMD\u00a010,000 held. The rest of the hold was released.',
      );
      expect(await page.getByRole('button', { name: 'Continue to capture' }).count()).toBe(0);
      expect(await page.getByLabel('Amount to refund (AMD)').inputValue()).toBe('6500');
      await expectNoViolations();
      expect(await read(held.uuid)).toMatchObject({ status: 'completed', amount: 6_500, authorized_amount: 10_000 });
    }
  });

  it('releases a hold from its page through the confirmation', async () => {
    for (const [width, height] of WIDTHS) {
      await page.setViewportSize({ width, height });
      const held = await heldPayment(g, m.testKey);
      await page.goto(`${g.t.url}/dashboard/payments/${held.uuid}`);
      await page.getByRole('button', { name: 'Continue to release' }).click();
      await page.getByRole('heading', { name: 'Confirm the release', level: 1 }).waitFor();
      expect(await text('release-question')).toBe(
        `Release the AMD\u00a010,000 held for order ${held.order_id}? Nothing is taken, and the payment can no longer be captured.`,
      );
      await expectNoViolations();
      await page.getByRole('button', { name: 'Release the hold', exact: true }).click();

      await page.getByText('The hold was released: nothing was taken.').waitFor();
      expect(await text('payment-status')).toBe('Expired');
      expect(await text('hold-state')).toBe('Released: nothing was taken, and the buyer’s bank frees the held amount.');
      expect(await page.getByRole('button', { name: 'Continue to release' }).count()).toBe(0);
      await expectNoViolations();
      expect(await read(held.uuid)).toMatchObject({ status: 'expired', failure_code: 'voided' });
    }
  });

  it('finds the uncaptured payments with the Uncaptured filter, each with its deadline', async () => {
    const held = await heldPayment(g, m.testKey);
    g.t.clock.advance(1000);
    const later = await heldPayment(g, m.testKey);
    for (const [width, height] of WIDTHS) {
      await page.setViewportSize({ width, height });
      await page.goto(`${g.t.url}/dashboard/payments?env=test`);
      await page.getByRole('link', { name: 'Uncaptured', exact: true }).click();
      await page.waitForURL(/status=authorized/);
      expect(await page.getByRole('link', { name: 'Uncaptured', exact: true }).getAttribute('aria-current')).toBe(
        'true',
      );
      expect(await page.locator('#pay-total').textContent()).toBe('2 payments match.');
      const rows = page.locator('table.pay-table tbody tr');
      expect(await rows.evaluateAll((trs) => trs.map((tr) => tr.getAttribute('data-uuid')))).toEqual([
        later.uuid,
        held.uuid,
      ]);
      expect(await rows.locator('.pay-badge').allTextContents()).toEqual(['Authorized', 'Authorized']);
      expect((await rows.locator('.pay-deadline').allTextContents()).map((t) => t.replace(/\s+/g, ' '))).toEqual(
        [later, held].map((p) => `Capture by ${formatDateTime('en', p.capture_before)}`.replace(/\s+/g, ' ')),
      );
      await expectFitsWidth(page, width);
      await expectNoViolations();
      await rows.first().getByRole('link', { name: later.order_id }).click();
      await page.getByRole('heading', { name: 'Hold on the card', level: 2 }).waitFor();
    }
  });
});
