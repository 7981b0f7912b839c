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
import { RETRY_DELAYS_MS } from '../../../plugins/shopify/payments-app/queue.js';
import { DIALECTS } from '../../support/databases.js';
import { eventually } from '../../support/eventually.js';
import { startTestGateway, type TestGateway } from '../../support/gateway.js';
import { type PaymentsHarness, startPaymentsHarness } from './payments-support.js';

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

  it('a call failing on every attempt of the schedule (1 min, 5, 30, 2 h, 6 h) ends failed with an error logged', async () => {
    expect(RETRY_DELAYS_MS).toEqual([MINUTE_MS, 5 * MINUTE_MS, 30 * MINUTE_MS, 2 * HOUR_MS, 6 * HOUR_MS]);
    const errors = vi.spyOn(deps().logger, 'error');
    const { body } = await h.postSession(shop);
    h.payments.failNext(1_000);
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
      expect(row.state).toBe(attempts + 1 <= RETRY_DELAYS_MS.length ? 'resolve_due' : 'failed');
    }
    const failed = await session(body.id);
    expect(failed).toMatchObject({ state: 'failed', attempts: 6, next_attempt_at: null });
    expect(failed.last_error).toContain('500');
    expect(callsFor(body.gid, 'paymentSessionResolve').map((c) => c.status)).toEqual([500, 500, 500, 500, 500, 500]);
    expect(errors).toHaveBeenCalledWith(
      expect.objectContaining({ shop, session: body.id, attempts: 6, err: expect.stringContaining('500') }),
      'Shopify session call failed for good',
    );
    expect(h.payments.state(body.gid)?.state).toBe('initiated');

    // Given up: never sent again, even once Shopify answers.
    h.payments.failNext(0);
    gw.clock.advance(24 * HOUR_MS);
    await h.connector.runDueWork();
    expect(callsFor(body.gid, 'paymentSessionResolve')).toHaveLength(6);
    expect((await session(body.id)).state).toBe('failed');
  });
});
