/**
 * The hourly reconciliation when the store keeps failing: a failed run is recorded and the next one
 * waits 5 minutes, twice as long after each further failure, at most 6 hours, instead of running
 * again on every job tick; a run that succeeds returns the connection to the hourly schedule. Driven
 * by the manual clock and `runDueWork` as the job loop would be, against a fake WooCommerce store.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  RECONCILE_EVERY_MS,
  RECONCILE_RETRY_FIRST_MS,
  RECONCILE_RETRY_MAX_MS,
  reconcileRetryDelayMs,
} from '../../connector/jobs/due-work.js';
import { findReconciliationBackoff } from '../../connector/storage/reconciliation-backoff.repository.js';
import { createConnectToken } from '../../gateway/connect/connect-token.service.js';
import { MINUTE_MS } from '../../gateway/domain/clock.js';
import { startTestConnector, type TestConnector } from '../support/connector.js';
import { DIALECTS } from '../support/databases.js';
import { type FakeWooCommerce, LOOPBACK_TEST_CALLBACKS, startFakeWooCommerce } from '../support/fake-woocommerce.js';
import { startTestGateway, type TestGateway } from '../support/gateway.js';

const TICK_MS = 5_000;

describe('the reconciliation retry schedule', () => {
  it('doubles from 5 minutes and stops at 6 hours', () => {
    expect([1, 2, 3, 4, 5, 6, 7, 8, 9, 50].map((n) => reconcileRetryDelayMs(n) / MINUTE_MS)).toEqual([
      5, 10, 20, 40, 80, 160, 320, 360, 360, 360,
    ]);
    expect(RECONCILE_RETRY_FIRST_MS).toBe(5 * MINUTE_MS);
    expect(RECONCILE_RETRY_MAX_MS).toBeLessThan(24 * 60 * MINUTE_MS);
  });
});

describe.each(DIALECTS)('scheduled reconciliation of a failing store (%s)', (dialect) => {
  let gw: TestGateway;
  let store: FakeWooCommerce;
  let connector: TestConnector;
  let connectionId: string;

  /** Store calls the reconciliation made (it starts by listing the store's orders; not the key's test read). */
  const listings = () =>
    store.requests.filter((r) => r.method === 'GET' && r.route === 'orders' && r.query.per_page !== '1').length;
  const backoff = () => findReconciliationBackoff(connector.current().deps.db, connectionId);
  /** Runs the job loop every 5 seconds of the manual clock for `ms`. */
  async function tick(ms: number): Promise<void> {
    for (let elapsed = 0; elapsed < ms; elapsed += TICK_MS) {
      await connector.runDueWork();
      gw.clock.advance(TICK_MS);
    }
  }

  beforeAll(async () => {
    gw = await startTestGateway(dialect);
    store = await startFakeWooCommerce({ testCallbacks: LOOPBACK_TEST_CALLBACKS });
    connector = await startTestConnector(dialect, gw);
    const merchant = await gw.merchant();
    const token = (
      await createConnectToken(gw.gateway.deps, {
        merchantId: merchant.merchantId,
        domain: merchant.hostedDomain,
        platform: 'woocommerce',
      })
    ).connect_token;
    const registered = await connector.call<{ connection_id: string; authorize_url: string }>(
      'POST',
      '/v1/connections',
      { token, body: { store_url: store.url } },
    );
    connectionId = registered.body.connection_id;
    await store.approve(registered.body.authorize_url);
  }, 60_000);

  afterAll(async () => {
    await connector?.close();
    await store?.close();
    await gw?.close();
  });

  it('backs off after failed runs instead of calling the store on every tick, and a success resets it', async () => {
    const failures = 9;
    // The listings fail; the connector's own check of the key (one order) is left alone.
    store.failNext(failures, 503, { method: 'GET', route: /^orders$/, query: (q) => q.per_page !== '1' });

    // Five minutes of 5-second ticks: the first run fails, and nothing runs again until its wait is over.
    await tick(5 * MINUTE_MS - TICK_MS);
    expect(listings()).toBe(1);
    const first = await backoff();
    expect(first).toMatchObject({ failures: 1 });
    expect(Date.parse(first?.retry_at ?? '') - Date.parse(first?.last_failed_at ?? '')).toBe(5 * MINUTE_MS);
    expect(first?.last_error).toContain('503');

    // The next hour: runs at 5, 15 and 35 minutes after the first, all failing.
    await tick(60 * MINUTE_MS);
    expect(listings()).toBe(4);
    expect((await backoff())?.failures).toBe(4);

    // Each wait doubles up to the cap; jump from one retry to the next.
    for (let failed = 4; failed < failures; failed += 1) {
      const row = await backoff();
      gw.clock.advance(Date.parse(row?.retry_at ?? '') - gw.clock.nowMs() - TICK_MS);
      await tick(TICK_MS);
      expect(listings(), 'not before its time').toBe(failed);
      await tick(TICK_MS);
      expect(listings()).toBe(failed + 1);
    }
    const last = await backoff();
    expect(last?.failures).toBe(failures);
    expect(Date.parse(last?.retry_at ?? '') - Date.parse(last?.last_failed_at ?? '')).toBe(RECONCILE_RETRY_MAX_MS);

    // The store answers again: the next run succeeds and the connection is back on the hourly schedule.
    gw.clock.advance(Date.parse(last?.retry_at ?? '') - gw.clock.nowMs());
    await tick(TICK_MS);
    expect(listings()).toBe(failures + 1);
    expect(await backoff()).toBeUndefined();
    await tick(RECONCILE_EVERY_MS - 2 * TICK_MS);
    expect(listings()).toBe(failures + 1);
    await tick(2 * TICK_MS);
    expect(listings()).toBe(failures + 2);
  }, 120_000);
});
