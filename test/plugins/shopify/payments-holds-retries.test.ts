/**
 * Capture and void sessions when things go wrong: Shopify POSTs the same capture session several
 * times at once, Shopify's Payments Apps API fails the decision, the processor leaves a void's
 * outcome unknown, a void comes after the hold ran out. Whatever happens, one operation at the
 * gateway and one decision at Shopify.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findConnection } from '../../../connector/storage/connection.repository.js';
import { findHoldSession } from '../../../connector/storage/shopify-hold-session.repository.js';
import { findPaymentSession } from '../../../connector/storage/shopify-payment-session.repository.js';
import { MINUTE_MS } from '../../../gateway/domain/clock.js';
import { checkHoldsWork } from '../../../gateway/jobs/check-holds.js';
import { SANDBOX_HOLD_MS } from '../../../gateway/processors/sandbox/adapter.js';
import { paymentsAppProblems } from '../../../plugins/shopify/payments-app/health.js';
import { listPaymentHoldOperations } from '../../../storage/hold-operation.repository.js';
import { DIALECTS } from '../../support/databases.js';
import { eventually } from '../../support/eventually.js';
import { shopifyPost } from '../../support/fake-shopify-payments.js';
import { startTestGateway, type TestGateway } from '../../support/gateway.js';
import { type PaymentsHarness, startPaymentsHarness } from './payments-support.js';

// biome-ignore lint/suspicious/noExplicitAny: JSON answers
type Json = Record<string, any>;

const APPROVED = '4111 1111 1111 1111';
const NO_ANSWER = '4000 0000 0000 6033';

describe.each(DIALECTS)('Shopify capture and void sessions, retried (%s)', (dialect) => {
  let gw: TestGateway;
  let h: PaymentsHarness;
  let shop: string;
  let connectionId: string;

  beforeAll(async () => {
    gw = await startTestGateway(dialect, {
      env: { GATEWAY_ALLOW_PRIVATE_WEBHOOKS: '1', GATEWAY_CLOCK: 'manual', GATEWAY_RATE_LIMIT_PER_MINUTE: '100000' },
    });
    h = await startPaymentsHarness(dialect, gw);
    shop = `hold-retry-shop-${dialect}.myshopify.com`;
    connectionId = await h.connectShop(shop);
  }, 60_000);
  afterAll(async () => {
    await h?.close();
    await gw?.close();
  });

  const db = () => h.connector.current().deps.db;
  const idle = () => h.connector.current().deps.background.idle();
  const holdSession = async (id: string) => {
    const row = await findHoldSession(db(), id);
    if (row === undefined) throw new Error(`no hold session ${id}`);
    return row;
  };
  const payment = async (uuid: string): Promise<Json> =>
    (await gw.call<Json>('GET', `/api/v1/payments/${uuid}`, { key: h.merchant.testKey })).body;
  const callsFor = (gid: string) => h.payments.calls.filter((c) => c.variables.id === gid);
  const operations = (uuid: string) => listPaymentHoldOperations(gw.gateway.deps.db, uuid);
  const mtls = () => ({ ca: h.pki.ca, client: { cert: h.pki.clientCert, key: h.pki.clientKey } });

  async function authorized(card = APPROVED) {
    const { body } = await h.postSession(shop, { kind: 'authorization' });
    const uuid = (await findPaymentSession(db(), body.id))?.gateway_payment_uuid as string;
    await gw.call('POST', `/api/v1/test_helpers/payments/${uuid}/pay`, {
      key: h.merchant.testKey,
      body: { card_number: card },
    });
    await eventually(
      async () => (await findPaymentSession(db(), body.id))?.state === 'resolved',
      'the authorization resolved',
    );
    return { id: body.id as string, uuid };
  }

  it('the same capture session POSTed three times at once: one capture at the gateway, one resolve', async () => {
    const auth = await authorized();
    const id = `cs-race-${dialect}`;
    const body = {
      id,
      gid: `gid://shopify/CaptureSession/${id}`,
      payment_id: auth.id,
      amount: '1500.00',
      currency: 'AMD',
      test: true,
      merchant_locale: 'en',
      proposed_at: '2026-11-21T10:00:00Z',
    };
    h.payments.openSession(shop, body.gid);
    const answers = await Promise.all(
      [1, 2, 3].map(() => shopifyPost(`${h.mtlsUrl}/shopify/payments/captures`, shop, body, mtls())),
    );
    expect(answers.map((a) => a.status)).toEqual([201, 201, 201]);
    await eventually(() => h.payments.state(body.gid)?.state === 'resolved', 'the capture resolved');
    await idle();
    expect((await operations(auth.uuid)).map((o) => [o.kind, o.status])).toEqual([['capture', 'succeeded']]);
    expect(callsFor(body.gid).map((c) => c.mutation)).toEqual(['captureSessionResolve']);
    expect((await holdSession(id)).gateway_calls).toBe(1);
  });

  it("Shopify fails the capture's resolve twice: sent again after 1 and 5 minutes, never captured again", async () => {
    const auth = await authorized();
    h.payments.failNext(2);
    const capture = await h.postCapture(shop, { payment_id: auth.id });
    await eventually(async () => (await holdSession(capture.body.id)).attempts === 1, 'the first resolve');
    await idle();
    expect((await holdSession(capture.body.id)).state).toBe('resolve_due');
    gw.clock.advance(MINUTE_MS);
    await h.connector.runDueWork();
    expect((await holdSession(capture.body.id)).attempts).toBe(2);
    gw.clock.advance(5 * MINUTE_MS);
    await h.connector.runDueWork();
    expect(await holdSession(capture.body.id)).toMatchObject({
      state: 'resolved',
      attempts: 3,
      gateway_calls: 1,
      last_error: null,
    });
    expect(callsFor(capture.body.gid).map((c) => [c.mutation, c.status])).toEqual([
      ['captureSessionResolve', 500],
      ['captureSessionResolve', 500],
      ['captureSessionResolve', 200],
    ]);
    expect((await operations(auth.uuid)).map((o) => o.kind)).toEqual(['capture']);
  });

  it("a capture Shopify has not taken after 3 calls is on the connection's health until it is", async () => {
    const problems = async () => {
      const connection = await findConnection(db(), connectionId);
      if (connection === undefined) throw new Error('no connection');
      return (await paymentsAppProblems(h.connector.current().deps, connection)).filter(
        (p) => p.code === 'shopify_holds_unsettled',
      );
    };
    const auth = await authorized();
    h.payments.failNext(3);
    const capture = await h.postCapture(shop, { payment_id: auth.id });
    await eventually(async () => (await holdSession(capture.body.id)).attempts === 1, 'the first resolve');
    await idle();
    gw.clock.advance(MINUTE_MS);
    await h.connector.runDueWork();
    expect(await problems()).toEqual([]);
    gw.clock.advance(5 * MINUTE_MS);
    await h.connector.runDueWork();
    expect((await holdSession(capture.body.id)).attempts).toBe(3);
    expect(await problems()).toEqual([
      expect.objectContaining({ code: 'shopify_holds_unsettled', count: 1, since: expect.any(String) }),
    ]);
    gw.clock.advance(30 * MINUTE_MS);
    await h.connector.runDueWork();
    expect((await holdSession(capture.body.id)).state).toBe('resolved');
    expect(await problems()).toEqual([]);
  });

  it('a void whose outcome the processor leaves unknown: asked again with the same key, resolved once', async () => {
    const auth = await authorized(NO_ANSWER);
    const voided = await h.postVoid(shop, { payment_id: auth.id });
    await eventually(async () => (await holdSession(voided.body.id)).gateway_calls === 1, 'the first void call');
    await idle();
    expect(await holdSession(voided.body.id)).toMatchObject({ state: 'call_due' });
    expect((await holdSession(voided.body.id)).last_error).toContain('void_outcome_unknown');
    gw.clock.advance(MINUTE_MS);
    const checks = checkHoldsWork(gw.gateway.deps);
    await checks.runBatch();
    await checks.settle?.();
    await h.connector.runDueWork();
    await idle();
    expect(await holdSession(voided.body.id)).toMatchObject({ state: 'resolved', gateway_calls: 2 });
    expect(callsFor(voided.body.gid).map((c) => c.mutation)).toEqual(['voidSessionResolve']);
    expect((await operations(auth.uuid)).map((o) => [o.kind, o.status])).toEqual([['release', 'succeeded']]);
    expect(await payment(auth.uuid)).toMatchObject({ status: 'expired', failure_code: 'voided' });
  });

  it('two held sessions of one checkout: the first resolved, the second rejected and its hold released at once', async () => {
    const group = `hold-group-${dialect}=`;
    const first = await h.postSession(shop, { kind: 'authorization', group });
    const second = await h.postSession(shop, { kind: 'authorization', group });
    const uuidOf = async (id: string) => (await findPaymentSession(db(), id))?.gateway_payment_uuid as string;
    const [a, b] = [await uuidOf(first.body.id), await uuidOf(second.body.id)];
    for (const uuid of [a, b]) {
      await gw.call('POST', `/api/v1/test_helpers/payments/${uuid}/pay`, {
        key: h.merchant.testKey,
        body: { card_number: APPROVED },
      });
    }
    await eventually(async () => (await findPaymentSession(db(), second.body.id))?.state === 'rejected', 'rejected');
    await idle();
    expect((await findPaymentSession(db(), first.body.id))?.state).toBe('resolved');
    expect((await findPaymentSession(db(), second.body.id))?.flag).toBeNull();
    expect(await payment(a)).toMatchObject({ status: 'authorized' });
    expect(await payment(b)).toMatchObject({ status: 'expired', failure_code: 'voided' });
    expect((await operations(b)).map((o) => [o.kind, o.status])).toEqual([['release', 'succeeded']]);
    expect(callsFor(second.body.gid).map((c) => c.mutation)).toEqual(['paymentSessionReject']);
  });

  // Last: it moves the clock past every hold made so far.
  it('a void after the hold ran out: resolved (nothing is held any more), no capture ever made', async () => {
    const auth = await authorized();
    gw.clock.advance(SANDBOX_HOLD_MS + MINUTE_MS);
    const voided = await h.postVoid(shop, { payment_id: auth.id });
    await eventually(() => h.payments.state(voided.body.gid)?.state === 'resolved', 'the void resolved');
    expect(callsFor(voided.body.gid).map((c) => c.mutation)).toEqual(['voidSessionResolve']);
    expect((await operations(auth.uuid)).filter((o) => o.kind === 'capture')).toEqual([]);
    expect((await payment(auth.uuid)).status).not.toBe('completed');
  });
});
