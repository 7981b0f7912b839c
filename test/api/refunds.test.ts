/**
 * Refunds over HTTP on both databases (spec "Payments", "Errors", "Events"; DESIGN.md "Decisions"):
 * `POST /api/v1/payments/{uuid}/refund` for full, partial and omitted amounts, the payment it leaves
 * behind, every refund error code with its precise condition and the order the checks run in, the
 * sandbox refund cards (declined, unavailable, no answer, cannot refund), the status-check job that
 * settles refunds with an unknown outcome (and refunds left pending by a crash), `Idempotency-Key`
 * on refunds, the `payment.refunded` outbox row and webhook delivery each succeeded refund writes,
 * and `GET /api/v1/payments/{uuid}/refunds`.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HOUR_MS, MINUTE_MS, toApiInstant, toStoredInstant } from '../../gateway/domain/clock.js';
import { checkRefundsWork } from '../../gateway/jobs/check-refunds.js';
import { payWithTestCard } from '../../gateway/payments/test-card.service.js';
import { sandboxRefundReference } from '../../gateway/processors/sandbox/adapter.js';
import { canonicalJson, sha256Hex } from '../../gateway/runtime/hashing.js';
import { listPaymentEvents } from '../../storage/outbox-event.repository.js';
import { findPaymentRow, rowToPayment } from '../../storage/payment.repository.js';
import { insertRefund, listPaymentRefunds, reserveRefundAmount } from '../../storage/refund.repository.js';
import { listEventDeliveries } from '../../storage/webhook-delivery.repository.js';
import { DIALECTS } from '../support/databases.js';
import {
  type ApiResponse,
  type CallOptions,
  expectErrorBody,
  PUBLIC_URL,
  paymentBody,
  startTestGateway,
  type TestGateway,
  type TestMerchant,
  uniqueHost,
} from '../support/gateway.js';
import { ALL_PAYMENT_KEYS_SORTED, expectedTransaction } from '../support/payment-shape.js';

type Json = Record<string, unknown>;

const APPROVED = '4111 1111 1111 1111';
const DECLINED = '4000 0000 0000 0002';
const TIMEOUT = '4000 0000 0000 0119';
const REFUND_DECLINED = '4000 0000 0000 5126';
const REFUND_UNAVAILABLE = '4000 0000 0000 5134';
const REFUND_NO_ANSWER = '4000 0000 0000 5142';
const REFUND_NOT_SUPPORTED = '4000 0000 0000 5159';

const UUID_V7 = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const REFUND_RESPONSE_KEYS = [
  'amount',
  'completed_at',
  'created_at',
  'failure_code',
  'payment_status',
  'payment_uuid',
  'reason',
  'refunded_amount',
  'status',
  'uuid',
].sort();
const REFUND_OBJECT_KEYS = [
  'amount',
  'completed_at',
  'created_at',
  'failure_code',
  'payment_uuid',
  'reason',
  'status',
  'uuid',
].sort();

function expectError(res: ApiResponse, status: number, code: string, extraKeys: string[] = []): Json {
  expectErrorBody(res, status, code, extraKeys);
  expect(typeof res.body.message).toBe('string');
  expect(res.body.request_id).toBe(res.headers.get('x-request-id'));
  expect(res.body.docs_url).toBe(`${PUBLIC_URL}/docs/errors#${code}`);
  expect(res.headers.get('cache-control')).toBe('no-store');
  return res.body;
}

/** The `payment.refunded` body (as the outbox keeps it) for a sandbox payment read back after the refund. */
function expectedRefundEvent(payment: Json, refund: { uuid: unknown; amount: unknown; reason: unknown }): Json {
  return {
    event: 'payment.refunded',
    livemode: false,
    transaction: expectedTransaction(payment),
    refund: { uuid: refund.uuid, amount: refund.amount, reason: refund.reason },
    receipt: null,
  };
}

describe.each(DIALECTS)('refunds on %s', (dialect) => {
  let t: TestGateway;
  let m: TestMerchant;

  beforeAll(async () => {
    t = await startTestGateway(dialect, { env: { GATEWAY_RATE_LIMIT_PER_MINUTE: '100000' } });
    m = await t.merchant();
  });
  afterAll(async () => t?.close());

  const nowApi = () => toApiInstant(toStoredInstant(t.clock.nowMs()));

  async function create(overrides: Json = {}, key = m.testKey): Promise<Json> {
    const res = await t.call('POST', '/api/v1/payments', { key, body: paymentBody(overrides) });
    expect(res.status, res.text).toBe(201);
    return res.body;
  }

  async function pay(uuid: unknown, card: string, key = m.testKey): Promise<Json> {
    const res = await t.call('POST', `/api/v1/test_helpers/payments/${uuid}/pay`, { key, body: { card_number: card } });
    expect(res.status, res.text).toBe(200);
    return res.body;
  }

  /** A completed sandbox payment paid by `card`. */
  async function paid(overrides: Json = {}, card = APPROVED, key = m.testKey): Promise<Json> {
    const created = await create(overrides, key);
    const completed = await pay(created.uuid, card, key);
    expect(completed.status).toBe('completed');
    return completed;
  }

  function refund(uuid: unknown, body?: unknown, options: Omit<CallOptions, 'body'> = {}): Promise<ApiResponse> {
    return t.call('POST', `/api/v1/payments/${uuid}/refund`, {
      key: m.testKey,
      ...options,
      ...(body === undefined ? {} : { body }),
    });
  }

  function withKey(idempotencyKey: string): Omit<CallOptions, 'body'> {
    return { headers: { 'Idempotency-Key': idempotencyKey } };
  }

  async function read(uuid: unknown, key = m.testKey): Promise<Json> {
    const res = await t.call('GET', `/api/v1/payments/${uuid}`, { key });
    expect(res.status, res.text).toBe(200);
    return res.body;
  }

  async function list(uuid: unknown, key = m.testKey): Promise<Json[]> {
    const res = await t.call<{ data: Json[] }>('GET', `/api/v1/payments/${uuid}/refunds`, { key });
    expect(res.status, res.text).toBe(200);
    expect(Object.keys(res.body)).toEqual(['data']);
    return res.body.data;
  }

  async function row(uuid: unknown) {
    const found = await findPaymentRow(t.gateway.deps.db, String(uuid));
    if (found === undefined) throw new Error(`no payment ${uuid}`);
    return found;
  }

  const refundRows = (uuid: unknown) => listPaymentRefunds(t.gateway.deps.db, String(uuid));

  async function refundEvents(uuid: unknown) {
    const rows = await listPaymentEvents(t.gateway.deps.db, String(uuid));
    return rows.filter((r) => r.event === 'payment.refunded').map((r) => ({ ...r, payload: JSON.parse(r.payload) }));
  }

  /** Runs the refund status checks, waits for them (they are started, not awaited), then for the scheduler. */
  async function runRefundChecks(): Promise<void> {
    const work = checkRefundsWork(t.gateway.deps);
    await work.runBatch();
    await work.settle?.();
    await t.gateway.scheduler.runDueNow();
  }

  async function idempotencyRows(key: string) {
    return t.gateway.deps.db
      .selectFrom('idempotency_keys')
      .selectAll()
      .where('merchant_id', '=', m.merchantId)
      .where('idempotency_key', '=', key)
      .execute();
  }

  describe('full refund', () => {
    it('201 with the refund; the payment becomes refunded, keeps its order, and emits payment.refunded', async () => {
      const before = await paid({ amount: 5000 });
      t.clock.advance(3_000);
      const res = await refund(before.uuid, { reason: 'Customer returned the mug' });
      expect(res.status, res.text).toBe(201);
      expect(res.headers.get('cache-control')).toBe('no-store');
      expect(res.headers.get('idempotent-replayed')).toBeNull();
      expect(Object.keys(res.body).sort()).toEqual(REFUND_RESPONSE_KEYS);
      expect(res.body).toEqual({
        uuid: expect.stringMatching(UUID_V7),
        payment_uuid: before.uuid,
        amount: 5000,
        reason: 'Customer returned the mug',
        status: 'succeeded',
        failure_code: null,
        created_at: nowApi(),
        completed_at: nowApi(),
        refunded_amount: 5000,
        payment_status: 'refunded',
      });
      expect(res.body.created_at).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\+00:00$/);

      const after = await read(before.uuid);
      expect(Object.keys(after).sort()).toEqual(ALL_PAYMENT_KEYS_SORTED);
      expect(after).toEqual({ ...before, status: 'refunded', refunded_amount: 5000, refunded_at: nowApi() });

      const stored = await row(before.uuid);
      expect(stored.refund_reserved_amount).toBe(0);
      expect(stored.active_order_id).toBe(before.order_id);
      const retry = await t.call('POST', '/api/v1/payments', {
        key: m.testKey,
        body: paymentBody({ order_id: before.order_id }),
      });
      expectError(retry, 422, 'validation_failed', ['errors']);

      const [stored1, ...more] = await refundRows(before.uuid);
      expect(more).toEqual([]);
      expect(stored1).toMatchObject({
        id: res.body.uuid,
        merchant_id: m.merchantId,
        environment: 'test',
        processor: 'sandbox',
        amount: 5000,
        status: 'succeeded',
        failure_code: null,
        processor_reference: sandboxRefundReference(String(res.body.uuid)),
        checks: 0,
        next_check_at: null,
        completed_at: toStoredInstant(t.clock.nowMs()),
      });

      const events = await refundEvents(before.uuid);
      expect(events).toHaveLength(1);
      expect(events[0]?.payload).toEqual(
        expectedRefundEvent(after, { uuid: res.body.uuid, amount: 5000, reason: 'Customer returned the mug' }),
      );
      expect(events[0]).toMatchObject({
        merchant_id: m.merchantId,
        environment: 'test',
        livemode: 0,
        created_at: toStoredInstant(t.clock.nowMs()),
      });
    });

    it('a request without a body (no Content-Type) refunds the whole amount, reason null', async () => {
      const before = await paid({ amount: 2750 });
      const res = await t.call('POST', `/api/v1/payments/${before.uuid}/refund`, { key: m.testKey });
      expect(res.status, res.text).toBe(201);
      expect(res.body).toMatchObject({ amount: 2750, reason: null, refunded_amount: 2750, payment_status: 'refunded' });
      expect((await read(before.uuid)).status).toBe('refunded');
    });

    it('an empty JSON body or {} means the same; an empty reason is no reason', async () => {
      for (const options of [
        { rawBody: '', headers: { 'Content-Type': 'application/json' } },
        { body: {} },
        { body: { reason: '' } },
        { body: { reason: null } },
      ]) {
        const before = await paid({ amount: 1200 });
        const res = await t.call('POST', `/api/v1/payments/${before.uuid}/refund`, { key: m.testKey, ...options });
        expect(res.status, res.text).toBe(201);
        expect(res.body).toMatchObject({ amount: 1200, reason: null, payment_status: 'refunded' });
      }
    });

    it('a payment confirmed without a card (test helper confirm) refunds normally', async () => {
      const created = await create({ amount: 800 });
      const confirmed = await t.call('POST', `/api/v1/test_helpers/payments/${created.uuid}/confirm`, {
        key: m.testKey,
      });
      expect(confirmed.body.status).toBe('completed');
      const res = await refund(created.uuid, { amount: 800 });
      expect(res.status, res.text).toBe(201);
      expect(res.body.payment_status).toBe('refunded');
    });
  });

  describe('partial refunds', () => {
    it('stay completed while refunded_amount sums; an omitted amount then refunds the rest', async () => {
      const before = await paid({ amount: 5000 });
      const first = await refund(before.uuid, { amount: 1000, reason: 'broken handle' });
      expect(first.status, first.text).toBe(201);
      expect(first.body).toMatchObject({ amount: 1000, refunded_amount: 1000, payment_status: 'completed' });
      expect(await read(before.uuid)).toEqual({ ...before, refunded_amount: 1000 });

      t.clock.advance(1_000);
      const second = await refund(before.uuid, { amount: 1500 });
      expect(second.status, second.text).toBe(201);
      expect(second.body).toMatchObject({
        amount: 1500,
        reason: null,
        refunded_amount: 2500,
        payment_status: 'completed',
      });
      const middle = await read(before.uuid);
      expect(middle).toMatchObject({ status: 'completed', refunded_amount: 2500, refunded_at: null });

      t.clock.advance(1_000);
      const rest = await refund(before.uuid, { reason: 'the rest' });
      expect(rest.status, rest.text).toBe(201);
      expect(rest.body).toMatchObject({ amount: 2500, refunded_amount: 5000, payment_status: 'refunded' });
      const after = await read(before.uuid);
      expect(after).toMatchObject({ status: 'refunded', refunded_amount: 5000, refunded_at: nowApi() });

      const uuids = [first.body.uuid, second.body.uuid, rest.body.uuid];
      expect(new Set(uuids).size).toBe(3);
      const events = await refundEvents(before.uuid);
      expect(events.map((e) => e.payload.refund)).toEqual([
        { uuid: first.body.uuid, amount: 1000, reason: 'broken handle' },
        { uuid: second.body.uuid, amount: 1500, reason: null },
        { uuid: rest.body.uuid, amount: 2500, reason: 'the rest' },
      ]);
      expect(events.map((e) => [e.payload.transaction.status, e.payload.transaction.refunded_amount])).toEqual([
        ['completed', 1000],
        ['completed', 2500],
        ['refunded', 5000],
      ]);
      expect(events[2]?.payload).toEqual(expectedRefundEvent(after, rest.body as never));

      const rows = await refundRows(before.uuid);
      expect(rows.reduce((sum, r) => sum + Number(r.amount), 0)).toBe(5000);
      expect((await row(before.uuid)).refund_reserved_amount).toBe(0);
    });

    it('a refund of exactly what remains makes the payment refunded', async () => {
      const before = await paid({ amount: 900 });
      expect((await refund(before.uuid, { amount: 899 })).body.payment_status).toBe('completed');
      const last = await refund(before.uuid, { amount: 1 });
      expect(last.status, last.text).toBe(201);
      expect(last.body).toMatchObject({ amount: 1, refunded_amount: 900, payment_status: 'refunded' });
    });
  });

  describe('errors, each with its precise condition', () => {
    it('not_refundable for pending, processing, failed and expired payments; nothing is written', async () => {
      const pending = await create();
      const processing = await create();
      await pay(processing.uuid, TIMEOUT);
      const failed = await create();
      await pay(failed.uuid, DECLINED);
      for (const [payment, status] of [
        [pending, 'pending'],
        [processing, 'processing'],
        [failed, 'failed'],
      ] as const) {
        for (const body of [undefined, { amount: 100 }]) {
          const body409 = expectError(await refund(payment.uuid, body), 409, 'not_refundable', ['payment_status']);
          expect(body409.payment_status).toBe(status);
        }
        expect(await refundRows(payment.uuid)).toEqual([]);
      }

      const expiring = await create();
      t.clock.advance(21 * MINUTE_MS);
      await t.gateway.scheduler.runDueNow();
      expect((await read(expiring.uuid)).status).toBe('expired');
      const expired = expectError(await refund(expiring.uuid, { amount: 10 }), 409, 'not_refundable', [
        'payment_status',
      ]);
      expect(expired.payment_status).toBe('expired');
      expect(await refundRows(expiring.uuid)).toEqual([]);
    });

    it('already_refunded once the whole amount is refunded, with or without an amount', async () => {
      const before = await paid({ amount: 1000 });
      expect((await refund(before.uuid)).status).toBe(201);
      expectError(await refund(before.uuid), 409, 'already_refunded');
      expectError(await refund(before.uuid, { amount: 1 }), 409, 'already_refunded');
      expectError(await refund(before.uuid, { amount: 5000 }), 409, 'already_refunded');
      expect(await refundRows(before.uuid)).toHaveLength(1);
    });

    it('amount_exceeds_remaining when the amount is above amount - refunded_amount, with remaining_amount', async () => {
      const before = await paid({ amount: 5000 });
      const over = expectError(await refund(before.uuid, { amount: 5001 }), 422, 'amount_exceeds_remaining', [
        'remaining_amount',
      ]);
      expect(over.remaining_amount).toBe(5000);
      expect((await refund(before.uuid, { amount: 2000 })).status).toBe(201);
      const over2 = expectError(await refund(before.uuid, { amount: 3001 }), 422, 'amount_exceeds_remaining', [
        'remaining_amount',
      ]);
      expect(over2.remaining_amount).toBe(3000);
      expect(await read(before.uuid)).toMatchObject({ status: 'completed', refunded_amount: 2000 });
      expect(await refundRows(before.uuid)).toHaveLength(1);
      expect((await refund(before.uuid, { amount: 3000 })).body.payment_status).toBe('refunded');
    });

    it.each([
      ['0', 0],
      ['-5', -5],
      ['10.5', 10.5],
      ['"100"', '100'],
      ['null', null],
      ['true', true],
      ['an object', { value: 100 }],
      ['above 2^53 - 1', 2 ** 53],
    ])('invalid_amount for %s with errors.amount; the payment is untouched', async (_label, amount) => {
      const before = await paid({ amount: 5000 });
      const body = expectError(await refund(before.uuid, { amount }), 422, 'invalid_amount', ['errors']);
      expect(Object.keys(body.errors as Json)).toEqual(['amount']);
      expect((body.errors as Record<string, string[]>).amount).toHaveLength(1);
      expect(await read(before.uuid)).toEqual(before);
      expect(await refundRows(before.uuid)).toEqual([]);
    });

    it('invalid_amount comes before the status checks; not_found comes first of all', async () => {
      const pending = await create();
      expectError(await refund(pending.uuid, { amount: 0 }), 422, 'invalid_amount', ['errors']);
      const done = await paid({ amount: 100 });
      await refund(done.uuid);
      expectError(await refund(done.uuid, { amount: -1 }), 422, 'invalid_amount', ['errors']);
      const other = await t.merchant();
      expectError(await refund(done.uuid, { amount: 0 }, { key: other.testKey }), 404, 'not_found');
    });

    it('validation_failed for a bad reason (errors.reason) or a body that is not an object (errors.body)', async () => {
      const before = await paid({ amount: 5000 });
      for (const reason of ['x'.repeat(501), 'line one\nline two', 'bell\u0007', 42, ['a']]) {
        const body = expectError(await refund(before.uuid, { amount: 100, reason }), 422, 'validation_failed', [
          'errors',
        ]);
        expect(Object.keys(body.errors as Json)).toEqual(['reason']);
      }
      for (const raw of ['[]', '"refund"', '5', 'null']) {
        const res = await refund(before.uuid, undefined, {
          rawBody: raw,
          headers: { 'Content-Type': 'application/json' },
        });
        const body = expectError(res, 422, 'validation_failed', ['errors']);
        expect(Object.keys(body.errors as Json)).toEqual(['body']);
      }
      expectError(
        await refund(before.uuid, undefined, {
          rawBody: '{"amount":',
          headers: { 'Content-Type': 'application/json' },
        }),
        400,
        'invalid_json',
      );
      expectError(
        await refund(before.uuid, undefined, { rawBody: 'amount=100', headers: { 'Content-Type': 'text/plain' } }),
        415,
        'unsupported_media_type',
      );
      expect(await refundRows(before.uuid)).toEqual([]);

      const longest = await refund(before.uuid, { amount: 100, reason: 'ա'.repeat(500) });
      expect(longest.status, longest.text).toBe(201);
      expect(longest.body.reason).toBe('ա'.repeat(500));
    });

    it('refund_not_supported for a payment made with a method that cannot refund, checked before the amount', async () => {
      const before = await paid({ amount: 3000 }, REFUND_NOT_SUPPORTED);
      expectError(await refund(before.uuid, { amount: 100 }), 422, 'refund_not_supported');
      expectError(await refund(before.uuid), 422, 'refund_not_supported');
      expectError(await refund(before.uuid, { amount: 999_999 }), 422, 'refund_not_supported');
      expect(await refundRows(before.uuid)).toEqual([]);
      expect(await read(before.uuid)).toEqual(before);
    });

    it('refund_not_supported for a payment of a processor the gateway cannot refund through', async () => {
      const before = await paid({ amount: 3000 });
      await t.gateway.deps.db
        .updateTable('payments')
        .set({ processor: 'unknown-bank' })
        .where('id', '=', String(before.uuid))
        .execute();
      expectError(await refund(before.uuid, { amount: 100 }), 422, 'refund_not_supported');
      expect(await refundRows(before.uuid)).toEqual([]);
    });

    it('refund_declined: the refund failed, nothing refunded, its amount free again', async () => {
      const before = await paid({ amount: 4000 }, REFUND_DECLINED);
      const body = expectError(await refund(before.uuid, { amount: 1000, reason: 'r' }), 409, 'refund_declined', [
        'refund',
      ]);
      expect(body.refund).toEqual({
        uuid: expect.stringMatching(UUID_V7),
        payment_uuid: before.uuid,
        amount: 1000,
        reason: 'r',
        status: 'failed',
        failure_code: 'refund_declined',
        created_at: nowApi(),
        completed_at: nowApi(),
      });
      expect(await read(before.uuid)).toEqual(before);
      expect((await row(before.uuid)).refund_reserved_amount).toBe(0);
      expect(await refundEvents(before.uuid)).toEqual([]);
      // The whole amount is free again: a full refund is declined the same way, not refund_in_progress.
      expectError(await refund(before.uuid), 409, 'refund_declined', ['refund']);
      expect((await list(before.uuid)).map((r) => [r.status, r.failure_code, r.amount])).toEqual([
        ['failed', 'refund_declined', 1000],
        ['failed', 'refund_declined', 4000],
      ]);
    });

    it('processor_unavailable: nothing was sent, the refund failed and its amount is free again', async () => {
      const before = await paid({ amount: 4000 }, REFUND_UNAVAILABLE);
      const body = expectError(await refund(before.uuid, { amount: 4000 }), 409, 'processor_unavailable', ['refund']);
      expect(body.refund).toMatchObject({ amount: 4000, status: 'failed', failure_code: 'processor_unavailable' });
      expect(await read(before.uuid)).toEqual(before);
      expect((await row(before.uuid)).refund_reserved_amount).toBe(0);
      expect(await refundEvents(before.uuid)).toEqual([]);
    });

    it('refund_outcome_unknown holds the amount: refund_in_progress for what it holds, until the check job settles it', async () => {
      const before = await paid({ amount: 5000 }, REFUND_NO_ANSWER);
      const sentAt = t.clock.nowMs();
      const unknown = expectError(
        await refund(before.uuid, { amount: 2000, reason: 'late' }),
        409,
        'refund_outcome_unknown',
        ['refund'],
      );
      const pendingRefund = unknown.refund as Json;
      expect(pendingRefund).toEqual({
        uuid: expect.stringMatching(UUID_V7),
        payment_uuid: before.uuid,
        amount: 2000,
        reason: 'late',
        status: 'unknown',
        failure_code: null,
        created_at: nowApi(),
        completed_at: null,
      });
      const stored = await row(before.uuid);
      expect(stored.refund_reserved_amount).toBe(2000);
      expect(stored.refunded_amount).toBe(0);
      expect(await read(before.uuid)).toEqual(before);
      const [refundRow] = await refundRows(before.uuid);
      expect(refundRow).toMatchObject({
        status: 'unknown',
        checks: 0,
        next_check_at: toStoredInstant(sentAt + MINUTE_MS),
      });

      // What the unknown refund holds cannot be refunded again.
      const omitted = expectError(await refund(before.uuid), 409, 'refund_in_progress', [
        'remaining_amount',
        'in_progress_amount',
      ]);
      expect(omitted).toMatchObject({ remaining_amount: 5000, in_progress_amount: 2000 });
      expectError(await refund(before.uuid, { amount: 3001 }), 409, 'refund_in_progress', [
        'remaining_amount',
        'in_progress_amount',
      ]);
      expectError(await refund(before.uuid, { amount: 5001 }), 422, 'amount_exceeds_remaining', ['remaining_amount']);
      expect(await refundRows(before.uuid)).toHaveLength(1);

      // Not due yet: the job leaves it alone.
      t.clock.advance(MINUTE_MS - 1);
      expect(await checkRefundsWork(t.gateway.deps).runBatch()).toBe(0);
      expect((await refundRows(before.uuid))[0]).toMatchObject({ status: 'unknown', checks: 0 });

      t.clock.advance(1);
      await runRefundChecks();
      const [settled] = await refundRows(before.uuid);
      expect(settled).toMatchObject({
        status: 'succeeded',
        checks: 1,
        next_check_at: null,
        processor_reference: sandboxRefundReference(String(pendingRefund.uuid)),
        completed_at: toStoredInstant(t.clock.nowMs()),
      });
      const after = await read(before.uuid);
      expect(after).toEqual({ ...before, refunded_amount: 2000 });
      expect((await row(before.uuid)).refund_reserved_amount).toBe(0);
      const events = await refundEvents(before.uuid);
      expect(events).toHaveLength(1);
      expect(events[0]?.payload).toEqual(
        expectedRefundEvent(after, { uuid: pendingRefund.uuid, amount: 2000, reason: 'late' }),
      );
      expect(await list(before.uuid)).toEqual([{ ...pendingRefund, status: 'succeeded', completed_at: nowApi() }]);

      // Settled once: running the job again changes nothing.
      t.clock.advance(HOUR_MS);
      await runRefundChecks();
      expect(await refundEvents(before.uuid)).toHaveLength(1);
      expect((await read(before.uuid)).refunded_amount).toBe(2000);
    });

    it('the rest of a payment with an unknown refund can still be refunded (up to what it does not hold)', async () => {
      const before = await paid({ amount: 5000 }, REFUND_NO_ANSWER);
      expectError(await refund(before.uuid, { amount: 2000 }), 409, 'refund_outcome_unknown', ['refund']);
      expectError(await refund(before.uuid, { amount: 3000 }), 409, 'refund_outcome_unknown', ['refund']);
      expect((await row(before.uuid)).refund_reserved_amount).toBe(5000);
      expectError(await refund(before.uuid, { amount: 1 }), 409, 'refund_in_progress', [
        'remaining_amount',
        'in_progress_amount',
      ]);
      t.clock.advance(MINUTE_MS);
      await runRefundChecks();
      expect(await read(before.uuid)).toMatchObject({ status: 'refunded', refunded_amount: 5000 });
      expect(await refundEvents(before.uuid)).toHaveLength(2);
      expectError(await refund(before.uuid, { amount: 1 }), 409, 'already_refunded');
    });

    it('a payments-only key gets 403 insufficient_scope and refunds nothing; it may list refunds', async () => {
      const before = await paid({ amount: 1000 });
      const paymentsOnly = await t.key(m.merchantId, 'test', 'payments');
      expectError(await refund(before.uuid, { amount: 100 }, { key: paymentsOnly }), 403, 'insufficient_scope', [
        'required',
      ]);
      expect(await refundRows(before.uuid)).toEqual([]);
      expect(await list(before.uuid, paymentsOnly)).toEqual([]);
    });

    it("404 not_found for another merchant's payment, the other environment, an unknown or malformed uuid", async () => {
      const before = await paid({ amount: 1000 });
      const other = await t.merchant();
      expectError(await refund(before.uuid, { amount: 100 }, { key: other.testKey }), 404, 'not_found');
      const live = await t.liveMerchant(uniqueHost('refunds'));
      expectError(await refund(before.uuid, { amount: 100 }, { key: live.liveKey }), 404, 'not_found');
      // The live key of the merchant that owns a test payment does not see it either.
      const verified = await t.merchant({ verifyBusiness: true });
      const testPayment = await paid({ amount: 1000 }, APPROVED, verified.testKey);
      const liveKey = await t.key(verified.merchantId, 'live');
      expectError(await refund(testPayment.uuid, { amount: 100 }, { key: liveKey }), 404, 'not_found');
      expect(await refundRows(testPayment.uuid)).toEqual([]);
      expectError(await refund('0193aaaa-0000-7000-8000-000000000000', { amount: 100 }), 404, 'not_found');
      expectError(await refund('not-a-uuid', { amount: 100 }), 404, 'not_found');
      expectError(
        await t.call('GET', `/api/v1/payments/${before.uuid}/refunds`, { key: other.testKey }),
        404,
        'not_found',
      );
      expect(await refundRows(before.uuid)).toEqual([]);
    });

    it('other methods on the refund route answer 405 with Allow', async () => {
      const before = await paid({ amount: 1000 });
      const res = await t.call('GET', `/api/v1/payments/${before.uuid}/refund`, { key: m.testKey });
      expectError(res, 405, 'method_not_allowed');
      expect(res.headers.get('allow')).toContain('POST');
    });
  });

  describe('a live key', () => {
    it('refunds a live key’s sandbox payment, a test payment: the event says livemode false', async () => {
      const host = uniqueHost('refunds');
      const live = await t.liveMerchant(host);
      const created = await create(
        { amount: 6000, processor: 'sandbox', return_url: `https://${host}/done` },
        live.liveKey,
      );
      const payment = rowToPayment(await row(created.uuid));
      const result = await payWithTestCard(t.gateway.deps, payment, APPROVED);
      expect(result).toMatchObject({ ok: true, payment: { status: 'completed' } });

      const res = await refund(created.uuid, { amount: 2500 }, { key: live.liveKey });
      expect(res.status, res.text).toBe(201);
      expect(res.body).toMatchObject({ amount: 2500, refunded_amount: 2500, payment_status: 'completed' });
      expect((await read(created.uuid, live.liveKey)).refunded_amount).toBe(2500);
      const [event, ...more] = await refundEvents(created.uuid);
      expect(more).toEqual([]);
      expect(event).toMatchObject({ merchant_id: live.merchantId, environment: 'test', livemode: 0 });
      expect(event?.payload.livemode).toBe(false);
      const [stored] = await refundRows(created.uuid);
      expect(stored).toMatchObject({ environment: 'test', merchant_id: live.merchantId, status: 'succeeded' });
      // A test payment: the test key of the same merchant sees it and may refund it too.
      const byTestKey = await refund(created.uuid, { amount: 1 }, { key: live.testKey });
      expect(byTestKey.status, byTestKey.text).toBe(201);
      expect(byTestKey.body).toMatchObject({ refunded_amount: 2501 });
    });
  });

  describe('Idempotency-Key', () => {
    it('a retry answers the same refund (200, Idempotent-Replayed) and refunds nothing more', async () => {
      const before = await paid({ amount: 5000 });
      const first = await refund(before.uuid, { amount: 1000, reason: 'dup' }, withKey('rf-key-1'));
      expect(first.status, first.text).toBe(201);
      expect(first.headers.get('idempotent-replayed')).toBeNull();

      for (let i = 0; i < 2; i++) {
        const again = await refund(before.uuid, { reason: 'dup', amount: 1000 }, withKey('rf-key-1'));
        expect(again.status, again.text).toBe(200);
        expect(again.headers.get('idempotent-replayed')).toBe('true');
        expect(again.headers.get('cache-control')).toBe('no-store');
        expect(again.body).toEqual(first.body);
      }
      expect(await refundRows(before.uuid)).toHaveLength(1);
      expect(await refundEvents(before.uuid)).toHaveLength(1);
      expect((await read(before.uuid)).refunded_amount).toBe(1000);

      // The replay shows the refund as it is now, with the payment's current total.
      expect((await refund(before.uuid, { amount: 500 })).status).toBe(201);
      const later = await refund(before.uuid, { amount: 1000, reason: 'dup' }, withKey('rf-key-1'));
      expect(later.status).toBe(200);
      expect(later.body).toEqual({ ...first.body, refunded_amount: 1500 });
    });

    it('the same key with another body, or on another payment, is 422 and refunds nothing', async () => {
      const one = await paid({ amount: 5000 });
      const two = await paid({ amount: 5000 });
      expect((await refund(one.uuid, { amount: 1000 }, withKey('rf-key-2'))).status).toBe(201);
      for (const [uuid, body] of [
        [one.uuid, { amount: 2000 }],
        [one.uuid, { amount: 1000, reason: 'other' }],
        [one.uuid, undefined],
        [two.uuid, { amount: 1000 }],
      ] as const) {
        const res = await refund(uuid, body, withKey('rf-key-2'));
        const error = expectError(res, 422, 'validation_failed', ['errors']);
        expect(Object.keys(error.errors as Json)).toEqual(['Idempotency-Key']);
      }
      expect(await refundRows(one.uuid)).toHaveLength(1);
      expect(await refundRows(two.uuid)).toEqual([]);
    });

    it('a key used to create a payment is another key for a refund', async () => {
      const created = await t.call('POST', '/api/v1/payments', {
        key: m.testKey,
        body: paymentBody({ amount: 700 }),
        headers: { 'Idempotency-Key': 'shared-key-1' },
      });
      expect(created.status).toBe(201);
      await pay(created.body.uuid, APPROVED);
      const res = await refund(created.body.uuid, undefined, withKey('shared-key-1'));
      expect(res.status, res.text).toBe(201);
      expect(res.body.amount).toBe(700);
    });

    it('a failed request (nothing reserved) releases the key for a corrected retry', async () => {
      const before = await paid({ amount: 1000 });
      expectError(await refund(before.uuid, { amount: 0 }, withKey('rf-key-3')), 422, 'invalid_amount', ['errors']);
      expect(await idempotencyRows('rf-key-3')).toEqual([]);
      expectError(await refund(before.uuid, { amount: 2000 }, withKey('rf-key-4')), 422, 'amount_exceeds_remaining', [
        'remaining_amount',
      ]);
      expect(await idempotencyRows('rf-key-4')).toEqual([]);
      expect((await refund(before.uuid, { amount: 1000 }, withKey('rf-key-4'))).status).toBe(201);
    });

    it('a declined refund answers refund_declined again on retry, for the same refund', async () => {
      const before = await paid({ amount: 1000 }, REFUND_DECLINED);
      const first = expectError(await refund(before.uuid, undefined, withKey('rf-key-5')), 409, 'refund_declined', [
        'refund',
      ]);
      const again = await refund(before.uuid, undefined, withKey('rf-key-5'));
      const second = expectError(again, 409, 'refund_declined', ['refund']);
      expect(second.refund).toEqual(first.refund);
      expect(await refundRows(before.uuid)).toHaveLength(1);
    });

    it('an unknown refund answers refund_outcome_unknown on retry, then the refund once the check settled it', async () => {
      const before = await paid({ amount: 1000 }, REFUND_NO_ANSWER);
      const first = expectError(
        await refund(before.uuid, { amount: 400 }, withKey('rf-key-6')),
        409,
        'refund_outcome_unknown',
        ['refund'],
      );
      const retry = expectError(
        await refund(before.uuid, { amount: 400 }, withKey('rf-key-6')),
        409,
        'refund_outcome_unknown',
        ['refund'],
      );
      expect(retry.refund).toEqual(first.refund);
      expect(await refundRows(before.uuid)).toHaveLength(1);

      t.clock.advance(MINUTE_MS);
      await runRefundChecks();
      const settled = await refund(before.uuid, { amount: 400 }, withKey('rf-key-6'));
      expect(settled.status, settled.text).toBe(200);
      expect(settled.headers.get('idempotent-replayed')).toBe('true');
      expect(settled.body).toMatchObject({
        uuid: (first.refund as Json).uuid,
        amount: 400,
        status: 'succeeded',
        refunded_amount: 400,
        payment_status: 'completed',
      });
      expect(await refundRows(before.uuid)).toHaveLength(1);
      expect(await refundEvents(before.uuid)).toHaveLength(1);
    });

    it('after processor_unavailable the key is released: a retry with it is a new attempt that may succeed', async () => {
      const before = await paid({ amount: 1000 }, REFUND_UNAVAILABLE);
      const first = expectError(
        await refund(before.uuid, { amount: 600 }, withKey('rf-key-7')),
        409,
        'processor_unavailable',
        ['refund'],
      );
      expect(await idempotencyRows('rf-key-7')).toEqual([]);
      const second = await refund(before.uuid, { amount: 600 }, withKey('rf-key-7'));
      expect(second.headers.get('idempotent-replayed')).toBeNull();
      const secondBody = expectError(second, 409, 'processor_unavailable', ['refund']);
      expect((secondBody.refund as Json).uuid).not.toBe((first.refund as Json).uuid);

      // The processor is back (the sandbox now sees an ordinary card).
      await t.gateway.deps.db
        .updateTable('payments')
        .set({ card_last4: '1111' })
        .where('id', '=', String(before.uuid))
        .execute();
      const third = await refund(before.uuid, { amount: 600 }, withKey('rf-key-7'));
      expect(third.status, third.text).toBe(201);
      expect(third.body).toMatchObject({ amount: 600, status: 'succeeded', refunded_amount: 600 });
      const replay = await refund(before.uuid, { amount: 600 }, withKey('rf-key-7'));
      expect(replay.status).toBe(200);
      expect(replay.body).toEqual(third.body);
      expect((await refundRows(before.uuid)).map((r) => r.status)).toEqual(['failed', 'failed', 'succeeded']);
      expect((await read(before.uuid)).refunded_amount).toBe(600);
    });

    it('a refund left pending by a crash answers refund_in_progress to a retry, and is never sent twice', async () => {
      const before = await paid({ amount: 1000 });
      // Simulate a request that reserved (and bound its key) but died before asking the processor.
      const refundId = await crashAfterReserving(before.uuid, 300, 'rf-key-8');
      const retry = expectError(
        await refund(before.uuid, { amount: 300 }, withKey('rf-key-8')),
        409,
        'refund_in_progress',
        ['refund'],
      );
      expect(retry.refund).toMatchObject({ uuid: refundId, status: 'pending', amount: 300 });
      expect(await refundRows(before.uuid)).toHaveLength(1);

      t.clock.advance(MINUTE_MS);
      await runRefundChecks();
      const settled = await refund(before.uuid, { amount: 300 }, withKey('rf-key-8'));
      expect(settled.status, settled.text).toBe(200);
      expect(settled.body).toMatchObject({ uuid: refundId, status: 'succeeded', refunded_amount: 300 });
      expect(await refundRows(before.uuid)).toHaveLength(1);
      expect(await refundEvents(before.uuid)).toHaveLength(1);
    });
  });

  /** Writes what the reservation transaction of a request writes, then "crashes" (never settles). */
  async function crashAfterReserving(paymentUuid: unknown, amount: number, idempotencyKey?: string): Promise<string> {
    const deps = t.gateway.deps;
    const nowMs = t.clock.nowMs();
    const now = toStoredInstant(nowMs);
    const id = deps.ids.uuid(nowMs);
    await deps.transact(async (trx) => {
      const reserved = await reserveRefundAmount(trx, String(paymentUuid), amount, now);
      if (reserved === undefined) throw new Error('could not reserve');
      await insertRefund(trx, {
        id,
        payment_id: reserved.id,
        merchant_id: reserved.merchant_id,
        environment: reserved.environment,
        processor: 'sandbox',
        amount,
        reason: null,
        status: 'pending',
        failure_code: null,
        processor_reference: null,
        checks: 0,
        next_check_at: toStoredInstant(nowMs + MINUTE_MS),
        created_at: now,
        updated_at: now,
        completed_at: null,
      });
      if (idempotencyKey !== undefined) {
        await trx
          .insertInto('idempotency_keys')
          .values({
            id: deps.ids.uuid(nowMs),
            merchant_id: reserved.merchant_id,
            environment: reserved.environment,
            scope: 'refunds.create',
            idempotency_key: idempotencyKey,
            request_hash: sha256Hex(canonicalJson({ payment_uuid: paymentUuid, body: { amount } })),
            state: 'completed',
            response_status: 201,
            response_body: JSON.stringify({ refund_uuid: id }),
            locked_until: now,
            created_at: now,
            expires_at: toStoredInstant(nowMs + 24 * HOUR_MS),
          })
          .execute();
      }
    });
    return id;
  }

  describe('refunds the check job resolves', () => {
    it('a refund left pending by a crash is checked a minute later and settled like the request would have', async () => {
      const before = await paid({ amount: 2000, callback_url: 'https://hooks.shop.invalid/hooks' });
      const refundId = await crashAfterReserving(before.uuid, 700);
      expectError(await refund(before.uuid), 409, 'refund_in_progress', ['remaining_amount', 'in_progress_amount']);
      expect(await checkRefundsWork(t.gateway.deps).runBatch()).toBe(0);

      t.clock.advance(MINUTE_MS);
      await runRefundChecks();
      const [settled] = await refundRows(before.uuid);
      expect(settled).toMatchObject({ id: refundId, status: 'succeeded', checks: 1, next_check_at: null });
      const after = await read(before.uuid);
      expect(after).toMatchObject({ status: 'completed', refunded_amount: 700 });
      const events = await refundEvents(before.uuid);
      expect(events.map((e) => e.payload)).toEqual([
        expectedRefundEvent(after, { uuid: refundId, amount: 700, reason: null }),
      ]);
      const deliveries = await listEventDeliveries(t.gateway.deps.db, [events[0]?.id as string]);
      expect(deliveries).toHaveLength(1);
      expect(deliveries[0]?.url).toBe('https://hooks.shop.invalid/hooks');
    });

    it('a refund whose outcome stays unknown is checked after 1, 5 and 30 minutes, then every 6 hours, holding its amount', async () => {
      const before = await paid({ amount: 2000 }, REFUND_UNAVAILABLE);
      // Left pending by a crash on a processor that status checks cannot reach either.
      const refundId = await crashAfterReserving(before.uuid, 500);
      const start = t.clock.nowMs();
      const steps: Array<[advanceMs: number, checks: number, nextInMs: number]> = [
        [MINUTE_MS, 1, 5 * MINUTE_MS],
        [5 * MINUTE_MS, 2, 30 * MINUTE_MS],
        [30 * MINUTE_MS, 3, 6 * HOUR_MS],
        [6 * HOUR_MS, 4, 6 * HOUR_MS],
        [6 * HOUR_MS, 5, 6 * HOUR_MS],
      ];
      let elapsed = 0;
      for (const [advanceMs, checks, nextInMs] of steps) {
        t.clock.advance(advanceMs - 1);
        expect(await checkRefundsWork(t.gateway.deps).runBatch()).toBe(0);
        t.clock.advance(1);
        elapsed += advanceMs;
        await runRefundChecks();
        const [stored] = await refundRows(before.uuid);
        expect(stored).toMatchObject({
          id: refundId,
          status: 'unknown',
          checks,
          next_check_at: toStoredInstant(start + elapsed + nextInMs),
        });
        expect((await row(before.uuid)).refund_reserved_amount).toBe(500);
      }
      expect(await read(before.uuid)).toEqual(before);
      expect(await refundEvents(before.uuid)).toEqual([]);
      expect((await list(before.uuid)).map((r) => r.status)).toEqual(['unknown']);
    });

    it('a refund a status check finds declined fails and releases its amount', async () => {
      const before = await paid({ amount: 2000 }, REFUND_DECLINED);
      const refundId = await crashAfterReserving(before.uuid, 2000);
      t.clock.advance(MINUTE_MS);
      await runRefundChecks();
      const [stored] = await refundRows(before.uuid);
      expect(stored).toMatchObject({ id: refundId, status: 'failed', failure_code: 'refund_declined' });
      expect((await row(before.uuid)).refund_reserved_amount).toBe(0);
      expect(await refundEvents(before.uuid)).toEqual([]);
    });
  });

  describe('payment.refunded outbox rows and deliveries', () => {
    it('each succeeded refund writes exactly one event, with one delivery to the callback_url', async () => {
      const before = await paid({ amount: 3000, callback_url: 'https://hooks.shop.invalid/gateway/hook' });
      const stored = await row(before.uuid);
      const one = await refund(before.uuid, { amount: 1000, reason: 'first' });
      t.clock.advance(2_000);
      const two = await refund(before.uuid, { reason: 'second' });
      expect(two.body).toMatchObject({ amount: 2000, payment_status: 'refunded' });
      const after = await read(before.uuid);

      const events = await refundEvents(before.uuid);
      expect(events).toHaveLength(2);
      const [e1, e2] = events;
      expect(Object.keys(e1?.payload ?? {}).sort()).toEqual(['event', 'livemode', 'receipt', 'refund', 'transaction']);
      expect(e1?.payload.transaction).toMatchObject({ status: 'completed', refunded_amount: 1000 });
      expect(e1?.payload.refund).toEqual({ uuid: one.body.uuid, amount: 1000, reason: 'first' });
      expect(e2?.payload).toEqual(expectedRefundEvent(after, { uuid: two.body.uuid, amount: 2000, reason: 'second' }));
      expect(e2?.payload.transaction.completed_at).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\+00:00$/);

      const deliveries = await listEventDeliveries(
        t.gateway.deps.db,
        events.map((e) => e.id),
      );
      expect(deliveries).toHaveLength(2);
      expect(deliveries.map((d) => d.event_id).sort()).toEqual(events.map((e) => e.id).sort());
      for (const delivery of deliveries) {
        expect(delivery).toMatchObject({
          url: 'https://hooks.shop.invalid/gateway/hook',
          merchant_id: m.merchantId,
          domain_id: stored.domain_id,
        });
        expect(delivery.id).toMatch(UUID_V7);
      }
      const e2Delivery = deliveries.find((d) => d.event_id === e2?.id);
      expect(e2Delivery?.created_at).toBe(toStoredInstant(t.clock.nowMs()));
    });

    it('failed and unknown refunds write no event', async () => {
      const declined = await paid({ amount: 500 }, REFUND_DECLINED);
      await refund(declined.uuid);
      const unknown = await paid({ amount: 500 }, REFUND_NO_ANSWER);
      await refund(unknown.uuid);
      expect(await refundEvents(declined.uuid)).toEqual([]);
      expect(await refundEvents(unknown.uuid)).toEqual([]);
    });
  });

  describe('GET /api/v1/payments/{uuid}/refunds', () => {
    it('lists every refund of the payment, oldest first, with status and failure_code', async () => {
      const before = await paid({ amount: 5000 });
      expect(await list(before.uuid)).toEqual([]);
      const a = await refund(before.uuid, { amount: 100, reason: 'a' });
      t.clock.advance(1_000);
      const b = await refund(before.uuid, { amount: 200 });
      const res = await t.call<{ data: Json[] }>('GET', `/api/v1/payments/${before.uuid}/refunds`, { key: m.testKey });
      expect(res.headers.get('cache-control')).toBe('no-store');
      const listed = await list(before.uuid);
      expect(listed.map((r) => Object.keys(r).sort())).toEqual([REFUND_OBJECT_KEYS, REFUND_OBJECT_KEYS]);
      const strip = (body: Json) => {
        const { refunded_amount: _r, payment_status: _p, ...rest } = body;
        return rest;
      };
      expect(listed).toEqual([strip(a.body), strip(b.body)]);

      const other = await paid({ amount: 5000 });
      await refund(other.uuid, { amount: 1 });
      expect(await list(before.uuid)).toHaveLength(2);
    });
  });
});
