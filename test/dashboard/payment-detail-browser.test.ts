/**
 * A payment's page in headless Chromium (both databases), the three journeys of the issue: a sandbox
 * payment created through the API and paid with the test card on the hosted checkout shows
 * completed with its delivered webhook and the receiver's answer; with the receiver failing, the
 * failed attempts show, and after fixing it a Resend delivers the event; a partial refund from the
 * page, through its confirmation, sends `payment.refunded`; a refused one says why at the top of the
 * page, where it is seen, and the page reads on a phone (tables as blocks of lines, nothing said
 * twice). The webhook receiver is a local server
 * the test controls; the scheduler runs when the test says (manual clock). Every page passes axe at
 * 1280px and 375px and fits a phone.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MINUTE_MS } from '../../gateway/domain/clock.js';
import { BROWSER_DIALECTS } from '../support/databases.js';
import { paymentBody, type TestMerchant } from '../support/gateway.js';
import { WebhookReceiver } from '../support/webhook-receiver.js';
import {
  type DashboardBrowser,
  expectAccessible,
  signInThroughForm,
  startDashboardBrowser,
} from './browser-support.js';
import { type DashboardGateway, signedInMember, uniqueEmail } from './support.js';

// biome-ignore lint/suspicious/noExplicitAny: JSON answers read field by field
type Json = Record<string, any>;

const TIMEOUT = 180_000;

describe.each(BROWSER_DIALECTS)('a payment in the dashboard (%s)', { timeout: TIMEOUT }, (dialect) => {
  let b: DashboardBrowser;
  let g: DashboardGateway;
  let receiver: WebhookReceiver;
  let m: TestMerchant;
  let page: Page;

  beforeAll(async () => {
    receiver = await WebhookReceiver.start();
    b = await startDashboardBrowser(dialect, {
      env: { GATEWAY_ALLOW_PRIVATE_WEBHOOKS: '1', GATEWAY_CLOCK: 'manual' },
    });
    g = b.g;
    m = await g.t.merchant({ name: 'Ararat Books' });
    const email = uniqueEmail('owner');
    await signedInMember(g, m.merchantId, 'owner', email);
    page = await b.open();
    // The machine may be busy (password hashing, several browsers): generous waits.
    page.setDefaultTimeout(30_000);
    page.setDefaultNavigationTimeout(30_000);
    await signInThroughForm(page, g.t.url, email, undefined, { landing: null });
    await page.waitForURL((url) => url.pathname === '/dashboard');
  }, TIMEOUT);
  afterAll(async () => {
    await b?.close();
    await receiver?.close();
  });

  const runDue = () => g.t.gateway.scheduler.runDueNow();

  /** A sandbox payment created through the API and paid with the test card on the hosted checkout. */
  async function paidThroughCheckout(amount: number): Promise<Json> {
    const created = await g.t.call<Json>('POST', '/api/v1/payments', {
      key: m.testKey,
      body: paymentBody({ amount, callback_url: `${receiver.url}/hooks`, return_url: `${receiver.url}/done` }),
    });
    expect(created.status, created.text).toBe(201);
    const buyer = await b.open();
    buyer.setDefaultTimeout(30_000);
    buyer.setDefaultNavigationTimeout(30_000);
    await buyer.goto(String(created.body.checkout_url));
    await buyer.locator('input[name="processor"][value="sandbox"]').check();
    await buyer.locator('form button[type="submit"]').click();
    await buyer.waitForURL(/\/sandbox$/);
    await buyer.locator('#card_number').fill('4111 1111 1111 1111');
    await buyer.locator('input[name="expiry"]').fill('12/34');
    await buyer.locator('input[name="cvv"]').fill('123');
    await buyer.locator('input[name="cardholder"]').fill('Test Buyer');
    await buyer.locator('form button[type="submit"]').click();
    await buyer.locator('text=Payment received').waitFor();
    await buyer.close();
    return created.body;
  }

  const deliveryStatuses = (event: string) =>
    page.locator(`section.pd-event:has(h3 code:text-is("${event}")) [data-testid="delivery-status"]`).allTextContents();
  /** The attempt rows of the event's deliveries, in order: [attempt, answer, outcome]. */
  const attemptRows = async (event: string) => {
    const rows = page.locator(`section.pd-event:has(h3 code:text-is("${event}")) tr.pd-attempt`);
    const out: string[][] = [];
    for (const row of await rows.all()) {
      const cells = (await row.locator('td').allTextContents()).map((c) => c.trim());
      out.push([cells[0] ?? '', cells[3] ?? '', cells[6] ?? '']);
      expect(cells[4]).toMatch(/^\d[\d,]* ms$/);
    }
    return out;
  };
  const deliveryCell = (name: string) =>
    page.locator('tr[data-delivery-id]').getByRole('cell', { name, exact: true }).first();

  it('shows a paid payment completed, with its delivered webhook and the answer', async () => {
    receiver.replyWith({ status: 200 });
    const payment = await paidThroughCheckout(5000);
    await runDue();
    await receiver.waitFor(1);

    await page.goto(`${g.t.url}/dashboard/payments/${payment.uuid}`);
    await page.getByRole('heading', { name: `Payment for order ${payment.order_id}`, level: 1 }).waitFor();
    expect((await page.getByTestId('payment-status').textContent())?.trim()).toBe('Completed');
    expect(await page.locator('#payment-uuid').textContent()).toBe(payment.uuid);
    expect(await deliveryStatuses('transaction.status.updated')).toEqual(['Delivered']);
    await deliveryCell('HTTP 200').waitFor();
    expect(await attemptRows('transaction.status.updated')).toEqual([['1', 'HTTP 200', 'Delivered']]);
    await page.getByText(`${receiver.url}/hooks`).first().waitFor();
    await expectAccessible(page);
  });

  it('shows the failed attempts of a failing receiver, and a resend after fixing it delivered', async () => {
    receiver.received.length = 0;
    receiver.replyWith({ status: 503 });
    const payment = await paidThroughCheckout(3000);
    const path = `${g.t.url}/dashboard/payments/${payment.uuid}`;
    await runDue();
    // The retries, 1, 5 and 30 minutes later; the page is read between them (sessions end after 30 idle minutes).
    for (const wait of [MINUTE_MS, 5 * MINUTE_MS, 29 * MINUTE_MS, MINUTE_MS]) {
      g.t.clock.advance(wait);
      await runDue();
      await page.goto(path);
    }
    expect(receiver.received).toHaveLength(4);
    expect(await deliveryStatuses('transaction.status.updated')).toEqual(['Failed']);
    await deliveryCell('HTTP 503').waitFor();
    expect(await page.locator('tr[data-delivery-id] td', { hasText: /^4$/ }).count()).toBe(1);
    // Each attempt is a row under the delivery: three retried, the fourth given up.
    expect(await attemptRows('transaction.status.updated')).toEqual([
      ['1', 'HTTP 503', 'Will retry'],
      ['2', 'HTTP 503', 'Will retry'],
      ['3', 'HTTP 503', 'Will retry'],
      ['4', 'HTTP 503', 'Given up'],
    ]);
    await expectAccessible(page);

    receiver.replyWith({ status: 200 });
    await page.getByRole('button', { name: 'Resend transaction.status.updated' }).click();
    await page.getByText('The event is queued for a new delivery.').waitFor();
    await runDue();
    await page.reload();
    expect(await deliveryStatuses('transaction.status.updated')).toEqual(['Failed', 'Delivered']);
    expect((await attemptRows('transaction.status.updated')).at(-1)).toEqual(['1', 'HTTP 200', 'Delivered']);
    await page.getByRole('heading', { name: 'Delivery 2: attempts', level: 4 }).waitFor();
    await expectAccessible(page);
    expect(receiver.received).toHaveLength(5);
    expect((receiver.received[4]?.json as Json | undefined)?.transaction.uuid).toBe(payment.uuid);
  });

  it('says at the top of the page why a refund was not made, and reads on a phone without squeezed tables', async () => {
    receiver.replyWith({ status: 200 });
    const payment = await paidThroughCheckout(5000);
    await runDue();
    const path = `${g.t.url}/dashboard/payments/${payment.uuid}`;
    for (const [width, height] of [
      [1280, 900],
      [375, 812],
    ] as const) {
      await page.setViewportSize({ width, height });
      await page.goto(path);
      await page.getByLabel('Amount to refund (AMD)').fill('999999');
      await page.getByRole('button', { name: 'Continue to confirm' }).click();
      // The form is far down the page: the problem is said at its top, in the first screen.
      const problems = page.getByTestId('refund-problems');
      await problems.waitFor();
      expect(await page.evaluate('window.scrollY')).toBe(0);
      const box = await problems.boundingBox();
      expect((box?.y ?? height) + (box?.height ?? 0), `at ${width}px`).toBeLessThanOrEqual(height);
      expect(await problems.getByRole('heading', { level: 2 }).textContent()).toBe('The refund was not made');
      const problem = problems.getByRole('link', {
        name: 'That is more than the AMD\u00a05,000 that remain refundable.',
      });
      expect(await problem.getAttribute('href')).toBe('#f-amount');
      expect(await page.locator('#f-amount-error').textContent()).toBe(
        'That is more than the AMD\u00a05,000 that remain refundable.',
      );
      await expectAccessible(page, { phone: false });
      await problem.click();
      await page.waitForURL(/#f-amount$/);
      const field = await page.locator('#f-amount').boundingBox();
      expect(field?.y ?? -1, 'the field scrolled into view').toBeGreaterThanOrEqual(0);
      expect(field?.y ?? height, 'the field scrolled into view').toBeLessThan(height);
    }

    // On a phone each table row is a block of "column: value" lines the width of the page, and the
    // delivery's last answer, said again by its attempt just below, is left out.
    await page.goto(path);
    const cells = await page
      .locator('.pd-table td')
      .evaluateAll((tds) => tds.filter((td) => td.checkVisibility()).map((td) => td.getBoundingClientRect().width));
    expect(cells.length).toBeGreaterThan(8);
    expect(Math.min(...cells)).toBeGreaterThan(280);
    expect(await page.locator('tr[data-delivery-id] td[data-label="Answer"]').isVisible()).toBe(false);
    expect(await page.locator('tr.pd-attempt td[data-label="Answer"]').first().isVisible()).toBe(true);
    // A paid payment with its one webhook: about 2,400px (it was 3,300px in one column with squeezed tables).
    const tall = (await page.evaluate('document.documentElement.scrollHeight')) as number;
    expect(tall).toBeLessThan(2_800);
    await expectAccessible(page, { phone: false });
    await page.setViewportSize({ width: 1280, height: 900 });
    expect(await page.locator('tr[data-delivery-id] td[data-label="Answer"]').isVisible()).toBe(true);
  });

  it('refunds part of a payment from the page and shows payment.refunded delivered', async () => {
    receiver.received.length = 0;
    receiver.replyWith({ status: 200 });
    const payment = await paidThroughCheckout(5000);
    await runDue();
    await page.goto(`${g.t.url}/dashboard/payments/${payment.uuid}`);
    const amount = page.getByLabel('Amount to refund (AMD)');
    expect(await amount.inputValue()).toBe('5000');
    await amount.fill('1500');
    await page.getByLabel('Reason (optional)').fill('One book returned');
    await page.getByRole('button', { name: 'Continue to confirm' }).click();

    await page.getByRole('heading', { name: 'Confirm the refund', level: 1 }).waitFor();
    expect(await page.getByTestId('refund-question').textContent()).toBe(
      `Refund AMD\u00a01,500 of the payment for order ${payment.order_id}?`,
    );
    await expectAccessible(page);
    await page.getByRole('button', { name: 'Refund', exact: true }).click();

    await page.getByText('The refund went through.').waitFor();
    await runDue();
    await page.reload();
    expect(await deliveryStatuses('payment.refunded')).toEqual(['Delivered']);
    await page.locator('#refunds').getByText('One book returned').waitFor();
    expect(await page.getByLabel('Amount to refund (AMD)').inputValue()).toBe('3500');
    const refunded = receiver.received.map((r) => r.json as Json).find((body) => body.event === 'payment.refunded');
    expect(refunded?.refund).toMatchObject({ amount: 1500, reason: 'One book returned' });
    await expectAccessible(page);
  });
});
