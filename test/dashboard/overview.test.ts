/**
 * The overview page over HTTP: its figures match the sandbox payments made on the manual clock
 * (completed volume and count per day, success rate, refunds, split by processor), failed webhook
 * deliveries of the last 24 hours linked to their payments, both balances with the way to top up,
 * test and live apart; a viewer reads it too.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DAY_MS, HOUR_MS, toStoredInstant } from '../../gateway/domain/clock.js';
import { DIALECTS } from '../support/databases.js';
import { type Json, payWith } from './sandbox-payments.js';
import {
  DashboardClient,
  type DashboardGateway,
  signedInMember,
  signedInOwner,
  signIn,
  startDashboardGateway,
} from './support.js';

const DECLINED = '4000 0000 0000 0002';

function dayOf(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}

/** The day-by-day table's row of `day`: [count, volume] as printed. */
function dayRow(html: string, day: string): string[] {
  const row = new RegExp(
    `<tr><th scope="row">${day}</th><td class="num">([^<]*)</td><td class="num">([^<]*)</td></tr>`,
  ).exec(html);
  return row === null ? [] : [row[1] ?? '', row[2] ?? ''];
}

describe.each(DIALECTS)('dashboard overview (%s)', (dialect) => {
  let g: DashboardGateway;
  let owner: DashboardClient;
  let viewer: DashboardClient;
  let merchantId: string;
  let first: Json;
  let startDay: string;
  let laterDay: string;

  beforeAll(async () => {
    g = await startDashboardGateway(dialect, { env: { GATEWAY_CLOCK: 'manual' } });
    const signedIn = await signedInOwner(g);
    merchantId = signedIn.merchantId;
    const key = await g.t.key(merchantId, 'test');
    startDay = dayOf(g.t.clock.nowMs());
    first = await payWith(g, key, { amount: 3000 });
    await payWith(g, key, { amount: 2000 });
    await payWith(g, key, { amount: 999 }, DECLINED);
    const refund = await g.t.call<Json>('POST', `/api/v1/payments/${first.uuid}/refund`, {
      key,
      body: { amount: 500 },
    });
    expect(refund.status, refund.text).toBe(201);
    g.t.clock.advance(2 * DAY_MS);
    laterDay = dayOf(g.t.clock.nowMs());
    await payWith(g, key, { amount: 1000 });
    // Sessions end while the clock runs two days: sign in again now.
    owner = new DashboardClient(g.t.url);
    expect((await signIn(owner, signedIn.email)).status).toBe(303);
    viewer = await signedInMember(g, merchantId, 'viewer');
    // A delivery of the first payment's event that failed for good an hour ago.
    const deps = g.t.gateway.deps;
    const event = await deps.db
      .selectFrom('outbox_events')
      .select(['id', 'domain_id'])
      .where('payment_id', '=', first.uuid)
      .orderBy('created_at', 'asc')
      .executeTakeFirstOrThrow();
    const at = toStoredInstant(g.t.clock.nowMs() - HOUR_MS);
    await deps.db
      .insertInto('webhook_deliveries')
      .values({
        id: deps.ids.uuid(deps.clock.nowMs()),
        event_id: event.id,
        merchant_id: merchantId,
        domain_id: event.domain_id,
        url: 'https://hooks.ararat-books.am/gateway?token=never-shown',
        status: 'failed',
        attempts: 8,
        next_attempt_at: null,
        last_attempt_at: at,
        last_status_code: 500,
        last_error: null,
        delivered_at: null,
        created_at: at,
        updated_at: at,
      })
      .execute();
  });
  afterAll(async () => {
    await g?.close();
  });

  it("shows the test environment's last 30 days as the payments made", async () => {
    const page = await owner.get('/dashboard/overview?env=test');
    expect(page.status).toBe(200);
    expect(page.text).toContain('aria-current="page">Overview');
    // Completed: 3000 + 2000 on the first day, 1000 two days later.
    expect(page.text).toContain('AMD\u00a06,000');
    expect(dayRow(page.text, startDay)).toEqual(['2', 'AMD\u00a05,000']);
    expect(dayRow(page.text, laterDay)).toEqual(['1', 'AMD\u00a01,000']);
    // Three paid of four finished (one declined).
    expect(page.text).toContain('75%');
    expect(page.text).toContain('3 paid of 4 finished payments');
    // The refund of 500.
    expect(page.text).toContain('AMD\u00a0500');
    expect(page.text).toContain('1 succeeded refund');
    // Split by processor: every sandbox payment.
    expect(page.text).toMatch(/data-label="Processor">sandbox<\/td>/);
    // Two charts of 30 bars, each an image with a title and a description in words.
    expect(page.text.match(/<rect class="bar"/g)).toHaveLength(60);
    expect(page.text.match(/<svg [^>]*role="img"/g)).toHaveLength(2);
    expect(page.text).toContain(
      '<desc id="volume-desc">30 days, AMD\u00a06,000 in all; the tallest bar is AMD\u00a05,000.</desc>',
    );
  });

  it('lists failed webhook deliveries of the last 24 hours, linked to their payment, without the URL', async () => {
    const page = await owner.get('/dashboard/overview?env=test');
    expect(page.text).toContain('data-health="failed"');
    expect(page.text).toContain('1 failed for good, 0 delivered.');
    expect(page.text).toContain(`href="/dashboard/payments/${first.uuid}"`);
    expect(page.text).toContain('hooks.ararat-books.am');
    expect(page.text).not.toContain('never-shown');
  });

  it('keeps live apart, and shows both balances with the way to top up', async () => {
    const live = await owner.get('/dashboard/overview');
    expect(live.status).toBe(200);
    expect(live.text).toContain('No payment completed in these days.');
    expect(live.text).not.toContain('AMD\u00a06,000');
    expect(live.text).toContain('data-health="ok"');
    expect(live.text).toMatch(/data-label="Counter">Transactions<\/td>/);
    expect(live.text).toMatch(/data-label="Counter">Receipts<\/td>/);
    expect(live.text).toContain('data-blocked="no"');
    expect(live.text).toContain('href="/dashboard/billing"');
  });

  it('shows a balance past its grace floor as blocked, in words', async () => {
    const deps = g.t.gateway.deps;
    await deps.db
      .updateTable('billing_balances')
      .set({ available: -1_000_000 })
      .where('merchant_id', '=', merchantId)
      .where('counter', '=', 'transactions')
      .execute();
    const page = await owner.get('/dashboard/overview?env=test');
    expect(page.text).toContain('data-blocked="yes"');
    expect(page.text).toContain('Blocked: new live payments are refused');
  });

  it('lets a viewer read it, in every language', async () => {
    const page = await viewer.get('/dashboard/overview?env=test');
    expect(page.status).toBe(200);
    expect(page.text).toContain('AMD\u00a06,000');
    expect((await viewer.get('/dashboard/overview?env=test&lang=hy')).text).toContain('Ամփոփում');
    expect((await viewer.get('/dashboard/overview?env=test&lang=ru')).text).toContain('Обзор');
  });

  it('forgets a failed delivery after 24 hours', async () => {
    const longAgo = toStoredInstant(g.t.clock.nowMs() - 25 * HOUR_MS);
    await g.t.gateway.deps.db
      .updateTable('webhook_deliveries')
      .set({ updated_at: longAgo })
      .where('merchant_id', '=', merchantId)
      .execute();
    const dayLater = await owner.get('/dashboard/overview?env=test');
    expect(dayLater.text).toContain('data-health="ok"');
  });
});
