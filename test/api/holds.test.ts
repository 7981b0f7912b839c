/**
 * Holds over HTTP on both databases (docs/decisions.md "Holds"): a payment created with
 * `capture_method: manual` is authorized by the sandbox's test helper, captured in whole or in part
 * (`POST /api/v1/payments/{uuid}/capture`) and refunded only of what was captured, or voided
 * (`POST /api/v1/payments/{uuid}/void`); a hold that runs out is released by the expiry job as the
 * test clock moves; a capture the processor does not answer is settled once by a status check and
 * never sent twice; the wallets refuse `manual` at creation. Events: `payment.authorized`, then
 * `transaction.status.updated` for the capture (`completed`) and the release (`expired`).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DAY_MS, MINUTE_MS, toApiInstant, toStoredInstant } from '../../gateway/domain/clock.js';
import { holdOperationsOf } from '../../gateway/holds/hold.service.js';
import { checkHoldsWork } from '../../gateway/jobs/check-holds.js';
import { releaseExpiredHoldsWork } from '../../gateway/jobs/release-expired-holds.js';
import { SANDBOX_HOLD_MS } from '../../gateway/processors/sandbox/adapter.js';
import { listPaymentHoldOperations } from '../../storage/hold-operation.repository.js';
import { listPaymentEvents } from '../../storage/outbox-event.repository.js';
import { DIALECTS } from '../support/databases.js';
import {
  type ApiResponse,
  type CallOptions,
  expectErrorBody,
  paymentBody,
  startTestGateway,
  type TestGateway,
  type TestMerchant,
  uniqueHost,
} from '../support/gateway.js';
import { ALL_PAYMENT_KEYS_SORTED, expectedStatusEvent, expectedTransaction } from '../support/payment-shape.js';

type Json = Record<string, unknown>;

const APPROVED = '4111 1111 1111 1111';
const DECLINED = '4000 0000 0000 0002';
const CAPTURE_DECLINED = '4000 0000 0000 6017';
const EXPIRED_HOLD = '4000 0000 0000 6025';
const NO_ANSWER = '4000 0000 0000 6033';

describe.each(DIALECTS)('holds on %s', (dialect) => {
  let t: TestGateway;
  let m: TestMerchant;

  beforeAll(async () => {
    t = await startTestGateway(dialect, {
      env: { GATEWAY_CLOCK: 'manual', GATEWAY_RATE_LIMIT_PER_MINUTE: '100000' },
    });
    m = await t.merchant();
  });
  afterAll(async () => t?.close());

  const nowApi = () => toApiInstant(toStoredInstant(t.clock.nowMs()));

  async function create(overrides: Json = {}, key = m.testKey): Promise<Json> {
    const res = await t.call('POST', '/api/v1/payments', {
      key,
      body: paymentBody({ capture_method: 'manual', amount: 10_000, ...overrides }),
    });
    expect(res.status, res.text).toBe(201);
    return res.body;
  }

  async function pay(uuid: unknown, card = APPROVED): Promise<Json> {
    const res = await t.call('POST', `/api/v1/test_helpers/payments/${uuid}/pay`, {
      key: m.testKey,
      body: { card_number: card },
    });
    expect(res.status, res.text).toBe(200);
    return res.body;
  }

  /** An authorized manual payment, held by `card`. */
  async function authorized(card = APPROVED, overrides: Json = {}): Promise<Json> {
    const payment = await pay((await create(overrides)).uuid, card);
    expect(payment.status).toBe('authorized');
    return payment;
  }

  function capture(uuid: unknown, body?: unknown, options: Omit<CallOptions, 'body'> = {}): Promise<ApiResponse> {
    return t.call('POST', `/api/v1/payments/${uuid}/capture`, {
      key: m.testKey,
      ...options,
      ...(body === undefined ? {} : { body }),
    });
  }

  function voidHold(uuid: unknown, options: Omit<CallOptions, 'body'> = {}): Promise<ApiResponse> {
    return t.call('POST', `/api/v1/payments/${uuid}/void`, { key: m.testKey, ...options });
  }

  async function read(uuid: unknown): Promise<Json> {
    const res = await t.call('GET', `/api/v1/payments/${uuid}`, { key: m.testKey });
    expect(res.status, res.text).toBe(200);
    return res.body;
  }

  async function events(uuid: unknown): Promise<Json[]> {
    const rows = await listPaymentEvents(t.gateway.deps.db, String(uuid));
    return rows.map((r) => JSON.parse(r.payload) as Json);
  }

  const operations = (uuid: unknown) => listPaymentHoldOperations(t.gateway.deps.db, String(uuid));

  async function runHoldChecks(): Promise<void> {
    const work = checkHoldsWork(t.gateway.deps);
    await work.runBatch();
    await work.settle?.();
    await t.gateway.scheduler.runDueNow();
  }

  describe('the authorization', () => {
    it('leaves a manual payment authorized with the held amount and its deadline, and sends payment.authorized', async () => {
      const created = await create();
      expect(created).toMatchObject({
        status: 'pending',
        capture_method: 'manual',
        authorized_amount: null,
        capture_before: null,
      });
      const held = await pay(created.uuid);
      expect(Object.keys(held).sort()).toEqual(ALL_PAYMENT_KEYS_SORTED);
      expect(held).toMatchObject({
        status: 'authorized',
        amount: 10_000,
        authorized_amount: 10_000,
        capture_method: 'manual',
        processor: 'sandbox',
        completed_at: null,
        refunded_amount: 0,
      });
      expect(held.capture_before).toBe(toApiInstant(toStoredInstant(t.clock.nowMs() + SANDBOX_HOLD_MS)));
      expect(held.customer_id).toEqual(expect.stringMatching(/^cus_/));
      expect(await events(held.uuid)).toEqual([
        {
          event: 'payment.authorized',
          livemode: false,
          transaction: expectedTransaction(held),
          refund: null,
          receipt: null,
        },
      ]);
      expect(await read(held.uuid)).toEqual(held);
    });

    it('changes nothing for a payment created as before: automatic, paid at once, no hold fields', async () => {
      const created = await create({ capture_method: undefined });
      expect(created).toMatchObject({ capture_method: 'automatic', authorized_amount: null, capture_before: null });
      const paid = await pay(created.uuid);
      expect(paid).toMatchObject({ status: 'completed', capture_method: 'automatic', authorized_amount: null });
      const res = await capture(paid.uuid);
      expectErrorBody(res, 409, 'payment_not_authorized', ['payment_status']);
      expect(res.body.payment_status).toBe('completed');
    });

    it('a declined card fails a manual payment as any other', async () => {
      const failed = await pay((await create()).uuid, DECLINED);
      expect(failed).toMatchObject({ status: 'failed', failure_code: 'declined', authorized_amount: null });
    });

    it('lists authorized payments by status', async () => {
      const other = await t.merchant();
      const res = await t.call('POST', '/api/v1/payments', {
        key: other.testKey,
        body: paymentBody({ capture_method: 'manual' }),
      });
      const held = await t.call('POST', `/api/v1/test_helpers/payments/${res.body.uuid}/pay`, {
        key: other.testKey,
        body: { card_number: APPROVED },
      });
      expect(held.body.status).toBe('authorized');
      const list = await t.call<{ data: Json[] }>('GET', '/api/v1/payments?status=authorized', { key: other.testKey });
      expect(list.body.data.map((p) => p.uuid)).toEqual([res.body.uuid]);
    });

    it('refuses to cancel a held payment: it is voided instead', async () => {
      const held = await authorized();
      const res = await t.call('POST', `/api/v1/payments/${held.uuid}/cancel`, { key: m.testKey });
      expectErrorBody(res, 409, 'payment_not_cancellable', ['payment_status']);
      expect(res.body.message).toContain('/void');
      expect((await read(held.uuid)).status).toBe('authorized');
    });
  });

  describe('capture', () => {
    it('captures part of the hold, completes the payment for it, and refunds only what was captured', async () => {
      const held = await authorized();
      const res = await capture(held.uuid, { amount: 6_000 });
      expect(res.status, res.text).toBe(200);
      expect(res.body).toMatchObject({
        status: 'completed',
        amount: 6_000,
        authorized_amount: 10_000,
        capture_method: 'manual',
        completed_at: nowApi(),
      });
      expect(await read(held.uuid)).toEqual(res.body);
      const [authorizedEvent, completedEvent] = await events(held.uuid);
      expect(authorizedEvent?.event).toBe('payment.authorized');
      expect(completedEvent).toEqual({ ...expectedStatusEvent(res.body), receipt: completedEvent?.receipt });
      expect((await operations(held.uuid)).map((o) => [o.kind, o.status, Number(o.amount)])).toEqual([
        ['capture', 'succeeded', 6_000],
      ]);
      // What the dashboard's payment page reads: the operations, in the scope that sees the payment only.
      const scope = { merchantId: m.merchantId, environment: 'test' as const };
      expect(await holdOperationsOf(t.gateway.deps, scope, String(held.uuid))).toEqual([
        expect.objectContaining({ kind: 'capture', reason: 'merchant', amount: 6_000, status: 'succeeded' }),
      ]);
      const other = await t.merchant();
      expect(
        await holdOperationsOf(
          t.gateway.deps,
          { merchantId: other.merchantId, environment: 'test' },
          String(held.uuid),
        ),
      ).toBeUndefined();

      const tooMuch = await t.call('POST', `/api/v1/payments/${held.uuid}/refund`, {
        key: m.testKey,
        body: { amount: 6_001 },
      });
      expectErrorBody(tooMuch, 422, 'amount_exceeds_remaining', ['remaining_amount']);
      expect(tooMuch.body.remaining_amount).toBe(6_000);
      const refund = await t.call('POST', `/api/v1/payments/${held.uuid}/refund`, {
        key: m.testKey,
        body: { amount: 2_500 },
      });
      expect(refund.status, refund.text).toBe(201);
      expect(refund.body).toMatchObject({ amount: 2_500, refunded_amount: 2_500, payment_status: 'completed' });
      const rest = await t.call('POST', `/api/v1/payments/${held.uuid}/refund`, { key: m.testKey });
      expect(rest.body).toMatchObject({ amount: 3_500, refunded_amount: 6_000, payment_status: 'refunded' });
    });

    it('captures the whole hold when amount is left out, once', async () => {
      const held = await authorized();
      const res = await capture(held.uuid);
      expect(res.status, res.text).toBe(200);
      expect(res.body).toMatchObject({ status: 'completed', amount: 10_000, authorized_amount: 10_000 });
      const again = await capture(held.uuid);
      expectErrorBody(again, 409, 'payment_not_authorized', ['payment_status']);
      expect(again.body.payment_status).toBe('completed');
      expect(await operations(held.uuid)).toHaveLength(1);
    });

    it('answers a retry with the same Idempotency-Key with the same capture, and refuses the key with another body', async () => {
      const held = await authorized();
      const key = { headers: { 'Idempotency-Key': `cap-${held.uuid}` } };
      const first = await capture(held.uuid, { amount: 4_000 }, key);
      expect(first.status, first.text).toBe(200);
      const second = await capture(held.uuid, { amount: 4_000 }, key);
      expect(second.status).toBe(200);
      expect(second.headers.get('idempotent-replayed')).toBe('true');
      expect(second.body).toEqual(first.body);
      const other = await capture(held.uuid, { amount: 3_000 }, key);
      expectErrorBody(other, 422, 'validation_failed', ['errors']);
      expect(await operations(held.uuid)).toHaveLength(1);
    });

    it('refuses an amount above the hold, an invalid amount and an unknown key, and takes nothing', async () => {
      const held = await authorized();
      const over = await capture(held.uuid, { amount: 10_001 });
      expectErrorBody(over, 422, 'amount_exceeds_authorized', ['authorized_amount']);
      expect(over.body.authorized_amount).toBe(10_000);
      expectErrorBody(await capture(held.uuid, { amount: 0 }), 422, 'invalid_amount', ['errors']);
      expectErrorBody(await capture(held.uuid, { amount: null }), 422, 'invalid_amount', ['errors']);
      const unknown = await capture(held.uuid, { amount: 10, note: 'x' });
      expectErrorBody(unknown, 422, 'validation_failed', ['errors']);
      expect(Object.keys(unknown.body.errors as Json)).toEqual(['note']);
      expect(await read(held.uuid)).toMatchObject({ status: 'authorized', amount: 10_000 });
      expect(await operations(held.uuid)).toEqual([]);
    });

    it('refuses a capture of a payment that holds nothing yet, and of another key environment', async () => {
      const pending = await create();
      const res = await capture(pending.uuid);
      expectErrorBody(res, 409, 'payment_not_authorized', ['payment_status']);
      expect(res.body.payment_status).toBe('pending');
      const other = await t.merchant();
      expectErrorBody(await capture(pending.uuid, undefined, { key: other.testKey }), 404, 'not_found');
    });

    it('keeps the hold when the processor declines the capture; the hold can then be voided', async () => {
      const held = await authorized(CAPTURE_DECLINED);
      const res = await capture(held.uuid, { amount: 1_000 });
      expectErrorBody(res, 409, 'capture_declined', ['operation']);
      expect(res.body.operation).toMatchObject({ kind: 'capture', status: 'failed', failure_code: 'capture_declined' });
      expect(await read(held.uuid)).toMatchObject({ status: 'authorized', amount: 10_000 });
      const voided = await voidHold(held.uuid);
      expect(voided.status, voided.text).toBe(200);
      expect(voided.body).toMatchObject({ status: 'expired', failure_code: 'voided' });
    });

    it('settles a capture the processor did not answer once, by a status check, and never sends it twice', async () => {
      const held = await authorized(NO_ANSWER);
      const res = await capture(held.uuid, { amount: 7_000 });
      expectErrorBody(res, 409, 'capture_outcome_unknown', ['operation']);
      expect(res.body.operation).toMatchObject({ kind: 'capture', status: 'unknown', amount: 7_000 });
      // Another capture, or a void, is refused while the first one's outcome is unknown: nothing is sent.
      expectErrorBody(await capture(held.uuid, { amount: 7_000 }), 409, 'capture_outcome_unknown', ['operation']);
      expectErrorBody(await voidHold(held.uuid), 409, 'capture_outcome_unknown', ['operation']);
      expect(await read(held.uuid)).toMatchObject({ status: 'authorized', amount: 10_000 });
      expect(await operations(held.uuid)).toHaveLength(1);

      t.clock.advance(MINUTE_MS - 1);
      expect(await checkHoldsWork(t.gateway.deps).runBatch()).toBe(0);
      t.clock.advance(1);
      await runHoldChecks();
      const settled = await read(held.uuid);
      expect(settled).toMatchObject({ status: 'completed', amount: 7_000, authorized_amount: 10_000 });
      const ops = await operations(held.uuid);
      expect(ops.map((o) => [o.kind, o.status, Number(o.checks)])).toEqual([['capture', 'succeeded', 1]]);
      const names = (await events(held.uuid)).map((e) => [e.event, (e.transaction as Json).status]);
      expect(names).toEqual([
        ['payment.authorized', 'authorized'],
        ['transaction.status.updated', 'completed'],
      ]);
      // Settled once: later checks find nothing to do.
      t.clock.advance(DAY_MS);
      expect(await checkHoldsWork(t.gateway.deps).runBatch()).toBe(0);
      expectErrorBody(await capture(held.uuid), 409, 'payment_not_authorized', ['payment_status']);
    });
  });

  describe('void', () => {
    it('releases the hold: the payment ends expired (voided), the event is sent and the order may be paid again', async () => {
      const orderId = `order-void-${Math.random().toString(36).slice(2)}`;
      const held = await authorized(APPROVED, { order_id: orderId });
      const again = await t.call('POST', '/api/v1/payments', {
        key: m.testKey,
        body: paymentBody({ order_id: orderId }),
      });
      expectErrorBody(again, 422, 'validation_failed', ['errors']);

      const res = await voidHold(held.uuid);
      expect(res.status, res.text).toBe(200);
      expect(res.body).toMatchObject({
        status: 'expired',
        failure_code: 'voided',
        amount: 10_000,
        authorized_amount: 10_000,
        completed_at: null,
      });
      const last = (await events(held.uuid)).at(-1);
      expect(last).toEqual(expectedStatusEvent(res.body));
      expectErrorBody(await capture(held.uuid), 409, 'payment_not_authorized', ['payment_status']);
      expectErrorBody(await voidHold(held.uuid), 409, 'payment_not_authorized', ['payment_status']);
      const refund = await t.call('POST', `/api/v1/payments/${held.uuid}/refund`, { key: m.testKey });
      expectErrorBody(refund, 409, 'not_refundable', ['payment_status']);

      const retry = await t.call('POST', '/api/v1/payments', {
        key: m.testKey,
        body: paymentBody({ order_id: orderId }),
      });
      expect(retry.status, retry.text).toBe(201);
    });

    it('settles a void the processor did not answer once, by a status check: voided', async () => {
      const held = await authorized(NO_ANSWER);
      const res = await voidHold(held.uuid);
      expectErrorBody(res, 409, 'void_outcome_unknown', ['operation']);
      expect(res.body.operation).toMatchObject({ kind: 'release', reason: 'merchant', status: 'unknown' });
      expectErrorBody(await capture(held.uuid), 409, 'void_outcome_unknown', ['operation']);
      t.clock.advance(MINUTE_MS);
      await runHoldChecks();
      expect(await read(held.uuid)).toMatchObject({ status: 'expired', failure_code: 'voided' });
      expect((await operations(held.uuid)).map((o) => [o.kind, o.status])).toEqual([['release', 'succeeded']]);
    });

    it('refuses a body with keys', async () => {
      const held = await authorized();
      const res = await t.call('POST', `/api/v1/payments/${held.uuid}/void`, { key: m.testKey, body: { amount: 5 } });
      expectErrorBody(res, 422, 'validation_failed', ['errors']);
      expect((await read(held.uuid)).status).toBe('authorized');
    });
  });

  describe('a hold that runs out', () => {
    it('is released by the expiry job once the test clock passes capture_before, and reported', async () => {
      const held = await authorized();
      const work = releaseExpiredHoldsWork(t.gateway.deps);
      t.clock.advance(SANDBOX_HOLD_MS - 1);
      // Holds placed earlier by other tests may run out now; this one not yet.
      await work.runBatch();
      await work.settle?.();
      expect((await read(held.uuid)).status).toBe('authorized');
      t.clock.advance(1);
      expectErrorBody(await capture(held.uuid), 409, 'authorization_expired', ['capture_before']);
      await t.gateway.scheduler.runDueNow();
      const released = await read(held.uuid);
      expect(released).toMatchObject({ status: 'expired', failure_code: 'authorization_expired' });
      expect((await events(held.uuid)).at(-1)).toEqual(expectedStatusEvent(released));
      expect((await operations(held.uuid)).map((o) => [o.kind, o.reason, o.status])).toEqual([
        ['release', 'expiry', 'succeeded'],
      ]);
      const metrics = await t.gateway.deps.metrics.registry.getSingleMetricAsString('gateway_holds_expired_total');
      expect(metrics).toMatch(/gateway_holds_expired_total\{processor="sandbox",environment="test"\} [1-9]/);
    });

    it('moves with the clock test helper: advancing past capture_before releases the hold before the answer', async () => {
      const held = await authorized();
      const advance = (seconds: number) =>
        t.call('POST', '/api/v1/test_helpers/clock/advance', { key: m.testKey, body: { seconds } });
      expect((await advance(SANDBOX_HOLD_MS / 1000 - 60)).status).toBe(200);
      expect((await read(held.uuid)).status).toBe('authorized');
      expect((await advance(60)).status).toBe(200);
      expect(await read(held.uuid)).toMatchObject({ status: 'expired', failure_code: 'authorization_expired' });
    });

    it('the expired-hold test card runs out at once: capture is refused and the job releases it', async () => {
      const held = await authorized(EXPIRED_HOLD);
      expect(held.capture_before).toBe(nowApi());
      const res = await capture(held.uuid);
      expectErrorBody(res, 409, 'authorization_expired', ['capture_before']);
      await t.gateway.scheduler.runDueNow();
      expect(await read(held.uuid)).toMatchObject({ status: 'expired', failure_code: 'authorization_expired' });
    });
  });

  describe('processors that cannot hold', () => {
    it('refuses manual capture with a wallet, at creation, naming the field', async () => {
      for (const processor of ['idram', 'telcell', 'fastshift']) {
        const res = await t.call('POST', '/api/v1/payments', {
          key: m.testKey,
          body: paymentBody({ capture_method: 'manual', processor }),
        });
        expectErrorBody(res, 422, 'validation_failed', ['errors']);
        expect(Object.keys(res.body.errors as Json)).toEqual(['capture_method']);
        expect(String((res.body.errors as Record<string, string[]>).capture_method?.[0])).toContain(processor);
      }
    });

    it('refuses manual capture on a live domain whose only method is a wallet; automatic still works there', async () => {
      const host = uniqueHost();
      const live = await t.liveMerchant(host);
      const body = { return_url: `https://${host}/done` };
      const res = await t.call('POST', '/api/v1/payments', {
        key: live.liveKey,
        body: paymentBody({ ...body, capture_method: 'manual' }),
      });
      expectErrorBody(res, 422, 'validation_failed', ['errors']);
      expect((res.body.errors as Record<string, string[]>).capture_method?.[0]).toContain(host);
      const named = await t.call('POST', '/api/v1/payments', {
        key: live.liveKey,
        body: paymentBody({ ...body, capture_method: 'manual', processor: 'idram' }),
      });
      expectErrorBody(named, 422, 'validation_failed', ['errors']);
      const automatic = await t.call('POST', '/api/v1/payments', { key: live.liveKey, body: paymentBody(body) });
      expect(automatic.status, automatic.text).toBe(201);
    });

    it('refuses an unknown capture method', async () => {
      const res = await t.call('POST', '/api/v1/payments', {
        key: m.testKey,
        body: paymentBody({ capture_method: 'later' }),
      });
      expectErrorBody(res, 422, 'validation_failed', ['errors']);
      expect((res.body.errors as Record<string, string[]>).capture_method).toEqual(['must be "automatic" or "manual"']);
    });
  });
});
