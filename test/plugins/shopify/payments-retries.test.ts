/**
 * The payments app's calls to the Payments Apps API when Shopify does not take them at once:
 * throttled (Shopify's THROTTLED GraphQL error in an HTTP 200, or an HTTP 429 with Retry-After) and
 * retried from the durable queue until sent once; failing on every attempt of the whole schedule
 * (1 min, 5, 30, 2 h, 6 h) and then `failed` with an error logged; and a resolve whose answer was
 * lost, sent again: Shopify documents that a repeated resolve succeeds, and the connector ends
 * `resolved`; were it refused instead, the session is reported `failed`, never resolved twice.
 * The connector's manual clock is moved; nothing waits for real minutes.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { findPaymentSession } from '../../../connector/storage/shopify-payment-session.repository.js';
import { HOUR_MS, MINUTE_MS } from '../../../gateway/domain/clock.js';
import { RETURN_CHECKS } from '../../../plugins/shopify/payments-app/buyer-return.js';
import { FINALIZE_FOR_MS, RETRY_DELAYS_MS } from '../../../plugins/shopify/payments-app/queue.js';
import { DIALECTS } from '../../support/databases.js';
import { eventually } from '../../support/eventually.js';
import { startTestGateway, type TestGateway } from '../../support/gateway.js';
import { sessionToken } from './install-support.js';
import { fixture, type PaymentsHarness, startPaymentsHarness } from './payments-support.js';

// biome-ignore lint/suspicious/noExplicitAny: JSON answers read field by field
type Json = Record<string, any>;

const APPROVED = '4111 1111 1111 1111';
const DECLINED = '4000 0000 0000 0002';

describe.each(DIALECTS)('Shopify payments app: throttling, retries and repeated calls (%s)', (dialect) => {
  let gw: TestGateway;
  let h: PaymentsHarness;
  let shop: string;

  beforeAll(async () => {
    gw = await startTestGateway(dialect, {
      env: { GATEWAY_ALLOW_PRIVATE_WEBHOOKS: '1', GATEWAY_CLOCK: 'manual', GATEWAY_RATE_LIMIT_PER_MINUTE: '100000' },
    });
    h = await startPaymentsHarness(dialect, gw);
    shop = `retry-shop-${dialect}.myshopify.com`;
    await h.connectShop(shop);
  }, 60_000);
  afterEach(() => {
    h.payments.failNext(0);
    h.payments.repeats('succeed');
    vi.restoreAllMocks();
  });
  afterAll(async () => {
    await h?.close();
    await gw?.close();
  });

  const deps = () => h.connector.current().deps;
  const session = async (id: string) => {
    const row = await findPaymentSession(deps().db, id);
    if (row === undefined) throw new Error(`no session ${id}`);
    return row;
  };
  const pay = async (id: string, card = APPROVED) =>
    gw.call('POST', `/api/v1/test_helpers/payments/${(await session(id)).gateway_payment_uuid}/pay`, {
      key: h.merchant.testKey,
      body: { card_number: card },
    });
  const callsFor = (gid: string, mutation: string) =>
    h.payments.calls.filter((c) => c.variables.id === gid && c.mutation === mutation);
  /** Calls Shopify took: answered 200 without GraphQL errors, and the answer reached the connector. */
  const taken = (gid: string, mutation: string) =>
    callsFor(gid, mutation).filter((c) => c.status === 200 && c.errorCodes === undefined && !c.answerLost);
  const firstAttemptDone = (id: string) =>
    eventually(async () => (await session(id)).attempts === 1, 'the first Payments Apps call');

  it('a resolve answered THROTTLED (HTTP 200) is retried from the queue and sent once', async () => {
    const { response, body } = await h.postSession(shop);
    expect(response.status, response.text).toBe(200);
    h.payments.failNext(1, 'throttled');
    await pay(body.id);
    await firstAttemptDone(body.id);
    const waiting = await session(body.id);
    expect(waiting).toMatchObject({ state: 'resolve_due', attempts: 1 });
    expect(waiting.last_error).toContain('THROTTLED');
    expect(h.payments.state(body.gid)?.state).toBe('initiated');

    // Not before its minute is up.
    gw.clock.advance(MINUTE_MS - 1_000);
    await h.connector.runDueWork();
    expect(callsFor(body.gid, 'paymentSessionResolve')).toHaveLength(1);
    gw.clock.advance(1_000);
    await h.connector.runDueWork();
    expect(await session(body.id)).toMatchObject({ state: 'resolved', attempts: 2, last_error: null });
    expect(callsFor(body.gid, 'paymentSessionResolve').map((c) => c.errorCodes ?? [])).toEqual([['THROTTLED'], []]);
    expect(taken(body.gid, 'paymentSessionResolve')).toHaveLength(1);
    expect(h.payments.state(body.gid)?.state).toBe('resolved');

    // Nothing more is sent later.
    gw.clock.advance(HOUR_MS);
    await h.connector.runDueWork();
    expect(callsFor(body.gid, 'paymentSessionResolve')).toHaveLength(2);
  });

  it('a reject answered HTTP 429 with Retry-After is retried from the queue and sent once', async () => {
    const { body } = await h.postSession(shop);
    h.payments.failNext(1, 'http_429');
    await pay(body.id, DECLINED);
    await firstAttemptDone(body.id);
    const waiting = await session(body.id);
    expect(waiting).toMatchObject({ state: 'reject_due', attempts: 1 });
    expect(waiting.last_error).toContain('429');

    gw.clock.advance(MINUTE_MS);
    await h.connector.runDueWork();
    expect(await session(body.id)).toMatchObject({ state: 'rejected', attempts: 2, last_error: null });
    expect(callsFor(body.gid, 'paymentSessionReject').map((c) => c.status)).toEqual([429, 200]);
    expect(taken(body.gid, 'paymentSessionReject')).toHaveLength(1);
    expect(h.payments.state(body.gid)).toMatchObject({ state: 'rejected', reason: { code: 'CARD_DECLINED' } });
  });

  it('a resolve whose answer was lost is sent again; Shopify answers a repeated resolve as done: resolved', async () => {
    const { body } = await h.postSession(shop);
    h.payments.failNext(1, 'answer_lost');
    await pay(body.id);
    await firstAttemptDone(body.id);
    expect((await session(body.id)).state).toBe('resolve_due');
    // Shopify applied it; the connector does not know.
    expect(h.payments.state(body.gid)?.state).toBe('resolved');

    gw.clock.advance(MINUTE_MS);
    await h.connector.runDueWork();
    const done = await session(body.id);
    expect(done).toMatchObject({ state: 'resolved', attempts: 2, last_error: null });
    expect(done.next_action_url).toBe(h.payments.nextActionUrl(body.gid));
    const calls = callsFor(body.gid, 'paymentSessionResolve');
    expect(calls.map((c) => [c.answerLost ?? false, c.userErrors])).toEqual([
      [true, []],
      [false, []],
    ]);
  });

  it('were a repeated resolve refused (userErrors), the session is reported failed with an error, never resolved twice', async () => {
    const errors = vi.spyOn(deps().logger, 'error');
    h.payments.repeats('user_error');
    const { body } = await h.postSession(shop);
    h.payments.failNext(1, 'answer_lost');
    await pay(body.id);
    await firstAttemptDone(body.id);
    gw.clock.advance(MINUTE_MS);
    await h.connector.runDueWork();
    const done = await session(body.id);
    expect(done).toMatchObject({ state: 'failed', attempts: 2, next_attempt_at: null });
    expect(done.last_error).toContain('already been resolved');
    expect(errors).toHaveBeenCalledWith(
      expect.objectContaining({ session: body.id, user_errors: expect.stringContaining('already been resolved') }),
      'Shopify refused to finalize the payment session',
    );
    gw.clock.advance(HOUR_MS);
    await h.connector.runDueWork();
    expect(callsFor(body.gid, 'paymentSessionResolve')).toHaveLength(2);
  });

  it('a resolve failing on every call is sent again on the schedule, then every 6 hours for a week, then failed', async () => {
    expect(RETRY_DELAYS_MS).toEqual([MINUTE_MS, 5 * MINUTE_MS, 30 * MINUTE_MS, 2 * HOUR_MS, 6 * HOUR_MS]);
    const errors = vi.spyOn(deps().logger, 'error');
    const { body } = await h.postSession(shop);
    h.payments.failNext(10_000);
    await pay(body.id);
    await firstAttemptDone(body.id);

    for (const [index, delay] of RETRY_DELAYS_MS.entries()) {
      const attempts = index + 1;
      // Not due a second early.
      gw.clock.advance(delay - 1_000);
      await h.connector.runDueWork();
      expect((await session(body.id)).attempts, `attempt ${attempts + 1} not before its time`).toBe(attempts);
      gw.clock.advance(1_000);
      await h.connector.runDueWork();
      const row = await session(body.id);
      expect(row.attempts, `attempt ${attempts + 1}`).toBe(attempts + 1);
      expect(row.state).toBe('resolve_due');
    }
    // Past the schedule: every 6 hours.
    for (let more = 0; more < 3; more += 1) {
      gw.clock.advance(6 * HOUR_MS);
      await h.connector.runDueWork();
    }
    expect(await session(body.id)).toMatchObject({ state: 'resolve_due', attempts: 9 });
    expect(errors).toHaveBeenCalledWith(
      expect.objectContaining({ shop, session: body.id, attempts: 3, err: expect.stringContaining('500') }),
      'Shopify has not taken the session decision; sent again later',
    );
    expect(h.payments.state(body.gid)?.state).toBe('initiated');

    // A week after the decision it is given up: failed, for a person to settle.
    const decidedAt = Date.parse((await session(body.id)).decided_at ?? '');
    while (gw.clock.nowMs() < decidedAt + FINALIZE_FOR_MS) {
      gw.clock.advance(6 * HOUR_MS);
      await h.connector.runDueWork();
    }
    const failed = await session(body.id);
    expect(failed).toMatchObject({ state: 'failed', next_attempt_at: null });
    expect(failed.last_error).toContain('500');
    const sent = callsFor(body.gid, 'paymentSessionResolve').length;
    // 6 calls in the first 8 h 36 min, then one every 6 hours until the week is over.
    expect(sent).toBe(
      6 + Math.floor((FINALIZE_FOR_MS - (MINUTE_MS + 5 * MINUTE_MS + 30 * MINUTE_MS + 8 * HOUR_MS)) / (6 * HOUR_MS)),
    );
    expect(errors).toHaveBeenCalledWith(
      expect.objectContaining({ shop, session: body.id, attempts: sent }),
      'Shopify session call failed for good',
    );

    // Given up: never sent again, even once Shopify answers.
    h.payments.failNext(0);
    gw.clock.advance(24 * HOUR_MS);
    await h.connector.runDueWork();
    expect(callsFor(body.gid, 'paymentSessionResolve')).toHaveLength(sent);
    expect((await session(body.id)).state).toBe('failed');
  });

  it('a resolve Shopify answers with a GraphQL error (no code, no data) is not final: sent again until it is taken', async () => {
    const { body } = await h.postSession(shop);
    h.payments.failNext(2, 'graphql_error');
    await pay(body.id);
    await firstAttemptDone(body.id);
    expect(await session(body.id)).toMatchObject({ state: 'resolve_due', attempts: 1 });
    expect((await session(body.id)).last_error).toContain('conflict');
    gw.clock.advance(MINUTE_MS);
    await h.connector.runDueWork();
    gw.clock.advance(5 * MINUTE_MS);
    await h.connector.runDueWork();
    expect(await session(body.id)).toMatchObject({ state: 'resolved', attempts: 3, last_error: null });
    expect(callsFor(body.gid, 'paymentSessionResolve').map((c) => c.errors ?? [])).toEqual([
      [expect.stringContaining('conflict')],
      [expect.stringContaining('conflict')],
      [],
    ]);
    expect(h.payments.state(body.gid)?.state).toBe('resolved');
  });
});

describe.each(DIALECTS)(
  "Shopify payments app: the buyer's return page and the merchant while Shopify does not take an outcome (%s)",
  (dialect) => {
    let gw: TestGateway;
    let h: PaymentsHarness;
    const shop = `final-page-${dialect}.myshopify.com`;

    beforeAll(async () => {
      gw = await startTestGateway(dialect, {
        env: { GATEWAY_ALLOW_PRIVATE_WEBHOOKS: '1', GATEWAY_CLOCK: 'manual', GATEWAY_RATE_LIMIT_PER_MINUTE: '100000' },
      });
      h = await startPaymentsHarness(dialect, gw);
      await h.connectShop(shop);
    }, 60_000);
    afterEach(() => {
      h.payments.failNext(0);
    });
    afterAll(async () => {
      await h?.close();
      await gw?.close();
    });

    const session = async (id: string) => {
      const row = await findPaymentSession(h.connector.current().deps.db, id);
      if (row === undefined) throw new Error(`no session ${id}`);
      return row;
    };
    const page = (path: string) =>
      h.connector.call<Json>('GET', `/shopify/api${path}`, {
        headers: { Authorization: `Bearer ${sessionToken(shop, gw.clock.nowMs())}` },
      });
    const back = (
      id: string,
      which: 'return' | 'cancel' = 'return',
      query = '',
      headers: Record<string, string> = {},
    ) => h.storefront.visit(`https://${shop}/apps/connector-pay/${which}/${id}${query}`, headers);

    it('a buyer who paid gets the final page in their language, with the way back to the shop; the merchant is told', async () => {
      const { body } = await h.postSession(shop, {
        customer: { ...fixture('payment-session').customer, locale: 'hy-AM' },
      });
      h.payments.failNext(10_000);
      const uuid = (await session(body.id)).gateway_payment_uuid;
      await gw.call('POST', `/api/v1/test_helpers/payments/${uuid}/pay`, {
        key: h.merchant.testKey,
        body: { card_number: APPROVED },
      });
      await eventually(async () => (await session(body.id)).attempts === 1, 'the first resolve call');

      for (const which of ['return', 'cancel'] as const) {
        const visit = await back(body.id, which);
        expect(visit.status, which).toBe(200);
        expect(visit.contentType).toContain('text/html');
        expect(visit.body).toContain('<html lang="hy">');
        expect(visit.body).toContain('Ձեր վճարումը ստացվել է');
        expect(visit.body).toContain(`<a href="https://${shop}/">Վերադառնալ խանութ</a>`);
        expect(visit.body).not.toContain('http-equiv="refresh"');
      }
      // The buyer paid once: the page never sends them back to the checkout to pay again.
      expect(h.payments.state(body.gid)?.state).toBe('initiated');

      // Not an alarm before the third call; then on the connection's health and the app's page.
      expect((await page('/settings')).body.connection.health.problems).toEqual([]);
      gw.clock.advance(MINUTE_MS);
      await h.connector.runDueWork();
      gw.clock.advance(5 * MINUTE_MS);
      await h.connector.runDueWork();
      expect((await session(body.id)).attempts).toBe(3);
      const health = (await page('/settings')).body.connection.health;
      expect(health.problems).toEqual([
        {
          code: 'shopify_payments_unconfirmed',
          message: expect.stringContaining('Shopify has not confirmed 1 payment yet'),
          count: 1,
          since: (await session(body.id)).decided_at,
        },
      ]);
      const listed = await page('/payment-sessions?flag=unconfirmed');
      expect(listed.body.data).toEqual([
        expect.objectContaining({ id: body.id, decision: 'resolve', state: 'resolve_due', attempts: 3 }),
      ]);
      expect(listed.body.data[0].last_error).toContain('500');

      // Shopify takes it at the next try: the problem is gone and the buyer goes on to Shopify.
      h.payments.failNext(0);
      gw.clock.advance(30 * MINUTE_MS);
      await h.connector.runDueWork();
      expect((await session(body.id)).state).toBe('resolved');
      expect((await page('/settings')).body.connection.health.problems).toEqual([]);
      expect((await page('/payment-sessions?flag=unconfirmed')).body.data).toEqual([]);
      const onward = await back(body.id);
      expect(onward.status).toBe(302);
      expect(onward.location).toBe(h.payments.nextActionUrl(body.gid));
    });

    it('nothing known: the page checks again every 3 s a bounded number of times, then gives a final page', async () => {
      const { body } = await h.postSession(shop);
      // The gateway payment is still open and Shopify does not take paymentSessionPending.
      h.payments.failNext(10_000);
      const first = await back(body.id, 'return', '', { 'Accept-Language': 'ru-RU,ru;q=0.9,en;q=0.5' });
      expect(first.status).toBe(200);
      expect(first.body).toContain('<meta http-equiv="refresh" content="3; url=?check=1">');
      expect(first.body).toContain('<html lang="ru">');
      expect(first.body).toContain('Подтверждаем оплату');
      const later = await back(body.id, 'return', `?check=${RETURN_CHECKS - 1}`);
      expect(later.body).toContain(`url=?check=${RETURN_CHECKS}`);
      expect(later.body).toContain('<html lang="en">');
      const last = await back(body.id, 'return', `?check=${RETURN_CHECKS}`);
      expect(last.status).toBe(200);
      expect(last.body).not.toContain('http-equiv="refresh"');
      expect(last.body).toContain('We are still confirming your payment');
      expect(last.body).toContain('Please do not pay again before you hear from the shop.');
      expect(last.body).toContain(`<a href="https://${shop}/">Back to the shop</a>`);
      expect((await session(body.id)).state).toBe('open');
    });
  },
);
