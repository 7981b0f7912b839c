/**
 * Shopify authorizations, capture sessions and void sessions end to end: Shopify (a fake, over mTLS,
 * validating every document against its published Payments Apps schema) starts a `kind:
 * authorization` payment session, the buyer's card is held by the sandbox (a real gateway), the
 * session is resolved with `authorizationExpiresAt`; then capture sessions (whole, partial, with an
 * outcome the processor leaves unknown, of a hold that ran out, declined) and void sessions, each
 * made once at the gateway and decided once at Shopify, whatever Shopify repeats.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findHoldSession } from '../../../connector/storage/shopify-hold-session.repository.js';
import { findPaymentSession } from '../../../connector/storage/shopify-payment-session.repository.js';
import { MINUTE_MS } from '../../../gateway/domain/clock.js';
import { checkHoldsWork } from '../../../gateway/jobs/check-holds.js';
import { SANDBOX_HOLD_MS } from '../../../gateway/processors/sandbox/adapter.js';
import { listPaymentHoldOperations } from '../../../storage/hold-operation.repository.js';
import { DIALECTS } from '../../support/databases.js';
import { eventually } from '../../support/eventually.js';
import { shopifyPost } from '../../support/fake-shopify-payments.js';
import { startTestGateway, type TestGateway } from '../../support/gateway.js';
import { type PaymentsHarness, startPaymentsHarness } from './payments-support.js';

// biome-ignore lint/suspicious/noExplicitAny: JSON answers
type Json = Record<string, any>;

const APPROVED = '4111 1111 1111 1111';
const CAPTURE_DECLINED = '4000 0000 0000 6017';
const RUNS_OUT_AT_ONCE = '4000 0000 0000 6025';
const NO_ANSWER = '4000 0000 0000 6033';

describe.each(DIALECTS)('Shopify payments app: authorizations, captures and voids (%s)', (dialect) => {
  let gw: TestGateway;
  let h: PaymentsHarness;
  let shop: string;

  beforeAll(async () => {
    gw = await startTestGateway(dialect, {
      env: { GATEWAY_ALLOW_PRIVATE_WEBHOOKS: '1', GATEWAY_CLOCK: 'manual', GATEWAY_RATE_LIMIT_PER_MINUTE: '100000' },
    });
    h = await startPaymentsHarness(dialect, gw);
    shop = `hold-shop-${dialect}.myshopify.com`;
    await h.connectShop(shop);
  }, 60_000);
  afterAll(async () => {
    await h?.close();
    await gw?.close();
  });

  const db = () => h.connector.current().deps.db;
  const idle = () => h.connector.current().deps.background.idle();
  const session = async (id: string) => {
    const row = await findPaymentSession(db(), id);
    if (row === undefined) throw new Error(`no session ${id}`);
    return row;
  };
  const holdSession = async (id: string) => {
    const row = await findHoldSession(db(), id);
    if (row === undefined) throw new Error(`no hold session ${id}`);
    return row;
  };
  const payment = async (uuid: string): Promise<Json> =>
    (await gw.call<Json>('GET', `/api/v1/payments/${uuid}`, { key: h.merchant.testKey })).body;
  const callsFor = (gid: string, mutation?: string) =>
    h.payments.calls.filter((c) => c.variables.id === gid && (mutation === undefined || c.mutation === mutation));
  const operations = (uuid: string) => listPaymentHoldOperations(gw.gateway.deps.db, uuid);
  const mtls = () => ({ ca: h.pki.ca, client: { cert: h.pki.clientCert, key: h.pki.clientKey } });

  /** An authorization session paid with `card` and resolved: its id, gid and gateway payment uuid. */
  async function authorized(card = APPROVED, amount = '1500.00') {
    const { response, body } = await h.postSession(shop, { kind: 'authorization', amount });
    expect(response.status, response.text).toBe(200);
    const uuid = (await session(body.id)).gateway_payment_uuid as string;
    const paid = await gw.call<Json>('POST', `/api/v1/test_helpers/payments/${uuid}/pay`, {
      key: h.merchant.testKey,
      body: { card_number: card },
    });
    expect(paid.body.status).toBe('authorized');
    await eventually(async () => (await session(body.id)).state === 'resolved', 'the authorization resolved');
    return { id: body.id as string, gid: body.gid as string, uuid };
  }

  it('authorization: a manual gateway payment, held, then paymentSessionResolve with authorizationExpiresAt = capture_before', async () => {
    const { response, body } = await h.postSession(shop, { kind: 'authorization' });
    expect(response.status, response.text).toBe(200);
    expect(Object.keys(response.body)).toEqual(['redirect_url']);
    const row = await session(body.id);
    expect(row.kind).toBe('authorization');
    const uuid = row.gateway_payment_uuid as string;
    expect(await payment(uuid)).toMatchObject({ status: 'pending', capture_method: 'manual', amount: 1500 });

    await gw.call('POST', `/api/v1/test_helpers/payments/${uuid}/pay`, {
      key: h.merchant.testKey,
      body: { card_number: APPROVED },
    });
    await eventually(async () => (await session(body.id)).state === 'resolved', 'the authorization resolved');
    await idle();
    const held = await payment(uuid);
    expect(held).toMatchObject({ status: 'authorized', authorized_amount: 1500 });
    expect(typeof held.capture_before).toBe('string');
    const resolves = callsFor(body.gid, 'paymentSessionResolve');
    expect(resolves).toHaveLength(1);
    expect(resolves[0]?.variables).toEqual({ id: body.gid, authorizationExpiresAt: held.capture_before });
    expect(resolves[0]?.errors).toBeUndefined();
    expect(h.payments.state(body.gid)).toMatchObject({
      state: 'resolved',
      authorizationExpiresAt: held.capture_before,
    });
    expect(JSON.parse((await session(body.id)).resolution ?? '{}')).toEqual({
      action: 'resolve',
      authorizationExpiresAt: held.capture_before,
    });
  });

  it('a sale session is still resolved without authorizationExpiresAt', async () => {
    const { body } = await h.postSession(shop);
    const uuid = (await session(body.id)).gateway_payment_uuid as string;
    expect((await payment(uuid)).capture_method).toBe('automatic');
    await gw.call('POST', `/api/v1/test_helpers/payments/${uuid}/pay`, {
      key: h.merchant.testKey,
      body: { card_number: APPROVED },
    });
    await eventually(async () => (await session(body.id)).state === 'resolved', 'the sale resolved');
    expect(callsFor(body.gid, 'paymentSessionResolve')[0]?.variables).toEqual({ id: body.gid });
  });

  it('capture session: 201 empty, one capture at the gateway (completed), captureSessionResolve; repeats send nothing', async () => {
    const auth = await authorized();
    const capture = await h.postCapture(shop, { payment_id: auth.id, amount: '1500.00' });
    expect(capture.response.status, capture.response.text).toBe(201);
    expect(capture.response.text).toBe('');
    await eventually(() => h.payments.state(capture.body.gid)?.state === 'resolved', 'the capture resolved');

    // Shopify repeats the POST (same id): answered alike, nothing made or sent again.
    for (let i = 0; i < 2; i++) {
      const again = await shopifyPost(`${h.mtlsUrl}/shopify/payments/captures`, shop, capture.body, mtls());
      expect(again.status).toBe(201);
      expect(again.text).toBe('');
    }
    await idle();
    await h.connector.runDueWork();
    expect(await payment(auth.uuid)).toMatchObject({ status: 'completed', amount: 1500, authorized_amount: 1500 });
    expect((await operations(auth.uuid)).map((o) => [o.kind, o.status, Number(o.amount)])).toEqual([
      ['capture', 'succeeded', 1500],
    ]);
    expect(callsFor(capture.body.gid).map((c) => c.mutation)).toEqual(['captureSessionResolve']);
    expect(await holdSession(capture.body.id)).toMatchObject({
      kind: 'capture',
      state: 'resolved',
      gateway_calls: 1,
      attempts: 1,
      amount: '1500.00',
    });
  });

  it('partial capture: the gateway payment completes for the captured amount; a refund gives back at most that', async () => {
    const auth = await authorized(APPROVED, '2000.00');
    const capture = await h.postCapture(shop, { payment_id: auth.id, amount: '1200.00' });
    expect(capture.response.status).toBe(201);
    await eventually(() => h.payments.state(capture.body.gid)?.state === 'resolved', 'the partial capture resolved');
    expect(await payment(auth.uuid)).toMatchObject({ status: 'completed', amount: 1200, authorized_amount: 2000 });

    // More than was captured: the gateway refuses it and the merchant reads why.
    const tooMuch = await h.postRefund(shop, { payment_id: auth.id, amount: '2000.00' });
    expect(tooMuch.response.status).toBe(201);
    await eventually(
      () => h.payments.state(tooMuch.body.gid)?.state === 'rejected',
      'the refund over the capture rejected',
    );
    expect(callsFor(tooMuch.body.gid, 'refundSessionReject')[0]?.variables.reason).toEqual({
      code: 'PROCESSING_ERROR',
      merchantMessage:
        'The gateway refunds at most what was taken and not refunded yet: 1200 AMD (amount_exceeds_remaining).',
    });
    const refund = await h.postRefund(shop, { payment_id: auth.id, amount: '1200.00' });
    await eventually(
      () => h.payments.state(refund.body.gid)?.state === 'resolved',
      'the refund of the capture resolved',
    );
    expect(await payment(auth.uuid)).toMatchObject({ status: 'refunded', refunded_amount: 1200 });
  });

  it('a capture whose outcome the processor leaves unknown is asked again with the same key and settled once', async () => {
    const auth = await authorized(NO_ANSWER);
    const capture = await h.postCapture(shop, { payment_id: auth.id, amount: '1500.00' });
    expect(capture.response.status).toBe(201);
    await eventually(async () => (await holdSession(capture.body.id)).gateway_calls === 1, 'the first capture call');
    await idle();
    const waiting = await holdSession(capture.body.id);
    expect(waiting.state).toBe('call_due');
    expect(waiting.last_error).toContain('capture_outcome_unknown');
    expect(callsFor(capture.body.gid)).toEqual([]);
    expect((await payment(auth.uuid)).status).toBe('authorized');

    // Shopify repeats the POST meanwhile: nothing is sent (the row's next call is not due).
    const again = await shopifyPost(`${h.mtlsUrl}/shopify/payments/captures`, shop, capture.body, mtls());
    expect(again.status).toBe(201);
    await idle();
    expect((await holdSession(capture.body.id)).gateway_calls).toBe(1);

    // A minute later the gateway's status check finds the capture done; the connector asks again.
    gw.clock.advance(MINUTE_MS);
    const checks = checkHoldsWork(gw.gateway.deps);
    await checks.runBatch();
    await checks.settle?.();
    await h.connector.runDueWork();
    await idle();
    expect(await holdSession(capture.body.id)).toMatchObject({ state: 'resolved', gateway_calls: 2 });
    expect(h.payments.state(capture.body.gid)?.state).toBe('resolved');
    expect(callsFor(capture.body.gid).map((c) => c.mutation)).toEqual(['captureSessionResolve']);
    // Exactly one capture was ever made at the gateway.
    expect((await operations(auth.uuid)).map((o) => [o.kind, o.status])).toEqual([['capture', 'succeeded']]);
    expect(await payment(auth.uuid)).toMatchObject({ status: 'completed', amount: 1500 });
  });

  it('an authorization whose hold ran out before it was reported is rejected; a declined capture is PROCESSING_ERROR', async () => {
    const { body } = await h.postSession(shop, { kind: 'authorization' });
    const uuid = (await session(body.id)).gateway_payment_uuid as string;
    await gw.call('POST', `/api/v1/test_helpers/payments/${uuid}/pay`, {
      key: h.merchant.testKey,
      body: { card_number: RUNS_OUT_AT_ONCE },
    });
    await eventually(async () => (await session(body.id)).state === 'rejected', 'the authorization rejected');
    expect(await payment(uuid)).toMatchObject({ status: 'expired', failure_code: 'authorization_expired' });
    expect(callsFor(body.gid, 'paymentSessionResolve')).toEqual([]);
    expect(callsFor(body.gid, 'paymentSessionReject')[0]?.variables.reason).toEqual({
      code: 'PROCESSING_ERROR',
      merchantMessage:
        'The hold on the card ran out before it was confirmed; nothing was taken (authorization_expired).',
    });

    const declined = await authorized(CAPTURE_DECLINED);
    const refused = await h.postCapture(shop, { payment_id: declined.id, amount: '1500.00' });
    await eventually(() => h.payments.state(refused.body.gid)?.state === 'rejected', 'the declined capture rejected');
    expect(callsFor(refused.body.gid, 'captureSessionReject')[0]?.variables.reason).toEqual({
      code: 'PROCESSING_ERROR',
      merchantMessage: 'The processor declined the capture; nothing was taken and the hold stands. (capture_declined)',
    });
    expect((await payment(declined.uuid)).status).toBe('authorized');
  });

  it('capture of a sale payment session, or of an unknown one: rejected, nothing sent to the gateway', async () => {
    const sale = await h.postSession(shop);
    const uuid = (await session(sale.body.id)).gateway_payment_uuid as string;
    await gw.call('POST', `/api/v1/test_helpers/payments/${uuid}/pay`, {
      key: h.merchant.testKey,
      body: { card_number: APPROVED },
    });
    await eventually(async () => (await session(sale.body.id)).state === 'resolved', 'the sale resolved');
    for (const paymentId of [sale.body.id, 'no-such-session']) {
      const capture = await h.postCapture(shop, { payment_id: paymentId });
      await eventually(() => h.payments.state(capture.body.gid)?.state === 'rejected', 'the capture rejected');
      expect((await holdSession(capture.body.id)).gateway_calls).toBe(0);
    }
    expect(await operations(uuid)).toEqual([]);
  });

  it('void session: the hold is released once (expired, voided), voidSessionResolve; a repeat sends nothing', async () => {
    const auth = await authorized();
    const voided = await h.postVoid(shop, { payment_id: `gid://shopify/PaymentSession/${auth.id}` });
    expect(voided.response.status, voided.response.text).toBe(201);
    expect(voided.response.text).toBe('');
    await eventually(() => h.payments.state(voided.body.gid)?.state === 'resolved', 'the void resolved');
    const again = await shopifyPost(`${h.mtlsUrl}/shopify/payments/voids`, shop, voided.body, mtls());
    expect(again.status).toBe(201);
    await idle();
    await h.connector.runDueWork();
    expect(await payment(auth.uuid)).toMatchObject({ status: 'expired', failure_code: 'voided' });
    expect((await operations(auth.uuid)).map((o) => [o.kind, o.status])).toEqual([['release', 'succeeded']]);
    expect(callsFor(voided.body.gid).map((c) => c.mutation)).toEqual(['voidSessionResolve']);

    // A capture after the void: nothing is held any more.
    const capture = await h.postCapture(shop, { payment_id: auth.id });
    await eventually(() => h.payments.state(capture.body.gid)?.state === 'rejected', 'the capture after the void');
    expect(callsFor(capture.body.gid, 'captureSessionReject')[0]?.variables.reason.code).toBe('PROCESSING_ERROR');
    expect((await operations(auth.uuid)).map((o) => o.kind)).toEqual(['release']);
  });

  it('refuses capture and void bodies not shaped as Shopify sends them with 400, storing nothing', async () => {
    const bad = [
      [
        'captures',
        {
          id: 'c-bad-1',
          gid: 'gid://shopify/PaymentSession/x',
          payment_id: 'p',
          amount: '1.00',
          currency: 'AMD',
          test: true,
          proposed_at: 'x',
        },
        'gid',
      ],
      [
        'captures',
        {
          id: 'c-bad-2',
          gid: 'gid://shopify/CaptureSession/c-bad-2',
          payment_id: 'p',
          currency: 'AMD',
          test: true,
          proposed_at: 'x',
        },
        'amount',
      ],
      ['voids', { id: 'v-bad-1', gid: 'gid://shopify/VoidSession/v-bad-1', proposed_at: 'x' }, 'payment_id'],
    ] as const;
    for (const [path, body, field] of bad) {
      const answer = await shopifyPost(`${h.mtlsUrl}/shopify/payments/${path}`, shop, body, mtls());
      expect(answer.status, answer.text).toBe(400);
      expect(answer.body.error).toBe('invalid_request');
      expect(Object.keys(answer.body.errors)).toContain(field);
      expect(await findHoldSession(db(), body.id)).toBeUndefined();
    }
  });

  it("the fake Payments Apps API refuses what Shopify's schema refuses: a void reason outside its enum, an unknown argument", async () => {
    const auth = await authorized();
    const voided = await h.postVoid(shop, { payment_id: auth.id });
    await eventually(() => h.payments.state(voided.body.gid)?.state === 'resolved', 'the void resolved');
    const offline = await h.connector.current().deps.shopify?.offline.offlineSession(shop);
    const token = offline?.accessToken ?? '';
    expect(h.oauth.isAccessToken(shop, token)).toBe(true);
    const send = async (query: string, variables: Json) => {
      const answer = await fetch(`${h.payments.url}/shops/${shop}/payments_apps/api/2026-07/graphql.json`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', 'X-Shopify-Access-Token': token },
        body: JSON.stringify({ query, variables }),
      });
      return (await answer.json()) as Json;
    };
    const wrongEnum = await send(
      'mutation V($id: ID!, $reason: VoidSessionRejectionReasonInput!) { voidSessionReject(id: $id, reason: $reason) { userErrors { message } } }',
      { id: voided.body.gid, reason: { code: 'AUTHORIZATION_EXPIRED' } },
    );
    expect(wrongEnum.data).toBeUndefined();
    expect(String(wrongEnum.errors?.[0]?.message)).toContain('AUTHORIZATION_EXPIRED');
    const unknownArgument = await send(
      'mutation C($id: ID!) { captureSessionResolve(id: $id, amount: "1.00") { userErrors { message } } }',
      { id: voided.body.gid },
    );
    expect(unknownArgument.data).toBeUndefined();
    expect(String(unknownArgument.errors?.[0]?.message)).toContain('Unknown argument "amount"');
    expect(h.payments.state(voided.body.gid)?.state).toBe('resolved');
  });

  it('an authorization on a domain whose live methods cannot hold (wallets only): 422 authorization_not_supported', async () => {
    const liveShop = `live-hold-shop-${dialect}.myshopify.com`;
    const owner = await gw.liveMerchant(liveShop);
    await h.connectShop(liveShop, 'live', { merchantId: owner.merchantId, domain: liveShop });
    const hold = await h.postSession(liveShop, { test: false, kind: 'authorization' });
    expect(hold.response.status, hold.response.text).toBe(422);
    expect(hold.response.body.error).toBe('authorization_not_supported');
    expect(hold.response.body.message).toContain('wallets cannot');
    expect((await session(hold.body.id)).gateway_payment_uuid).toBeNull();
    // The same shop's sale sessions still pay (through Idram).
    const sale = await h.postSession(liveShop, { test: false });
    expect(sale.response.status, sale.response.text).toBe(200);
  });

  // Last: it moves the clock past every hold made so far.
  it('capture of a hold past capture_before: rejected with AUTHORIZATION_EXPIRED, nothing captured', async () => {
    const auth = await authorized();
    gw.clock.advance(SANDBOX_HOLD_MS + MINUTE_MS);
    const late = await h.postCapture(shop, { payment_id: auth.id, amount: '1500.00' });
    expect(late.response.status).toBe(201);
    await eventually(() => h.payments.state(late.body.gid)?.state === 'rejected', 'the late capture rejected');
    const [rejected] = callsFor(late.body.gid, 'captureSessionReject');
    expect(rejected?.errors).toBeUndefined();
    expect(rejected?.variables.reason.code).toBe('AUTHORIZATION_EXPIRED');
    expect(rejected?.variables.reason.merchantMessage).toContain('nothing was taken');
    expect(h.payments.state(late.body.gid)?.reason).toMatchObject({ code: 'AUTHORIZATION_EXPIRED' });
    expect((await operations(auth.uuid)).filter((o) => o.kind === 'capture')).toEqual([]);
    expect((await payment(auth.uuid)).amount).toBe(1500);
  });
});
