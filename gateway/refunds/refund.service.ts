/**
 * Refunds (spec "Payments": `POST /api/v1/payments/{uuid}/refund`; DESIGN.md "Decisions"). A
 * refund runs in three steps, so that it is safe to race and never refunds twice:
 *
 * 1. Reserve, in one transaction: one conditional update takes the amount from what is still free
 *    on the payment (`amount - refunded_amount - refund_reserved_amount`), the refund row is
 *    written `pending`, and an `Idempotency-Key` is bound to that refund.
 * 2. Ask the processor, outside any transaction, exactly once.
 * 3. Settle, in a second transaction: succeeded (the payment's `refunded_amount` grows, maybe to
 *    `refunded`, and `payment.refunded` is written to the outbox), failed (the reservation is
 *    released), or unknown (the reservation stays until a status check settles it; see
 *    `checkRefund`, run by gateway/jobs/check-refunds.ts).
 */
import type { Executor } from '../../storage/database.js';
import { findPayment, findPaymentRow, type PaymentScope, rowToPayment } from '../../storage/payment.repository.js';
import type { PaymentRow } from '../../storage/payment.table.js';
import {
  applySucceededRefund,
  claimDueRefunds,
  findRefund,
  forgetRefundIdempotencyKey,
  insertRefund,
  listPaymentRefunds,
  markRefundUnknown,
  releaseRefundReservation,
  reserveRefundAmount,
  reserveRemainingAmount,
  settleRefund,
} from '../../storage/refund.repository.js';
import type { RefundRow } from '../../storage/refund.table.js';
import { parseRefundBody, type RefundBody } from '../api/schemas/refund.schema.js';
import type { Principal } from '../auth/principal.js';
import { HOUR_MS, MINUTE_MS, toApiInstant, toStoredInstant } from '../domain/clock.js';
import { ApiError } from '../domain/errors.js';
import { isUuid } from '../domain/ids.js';
import type { Payment, PaymentStatus } from '../domain/payment.js';
import type { RefundOutcome } from '../observability/gateway-metrics.js';
import { type CompleteKey, type IdempotencyScope, runIdempotent } from '../payments/idempotency.js';
import { idempotencyScopeOf, scopeOf } from '../payments/payment.service.js';
import type { CallPriority, GuardedHttp } from '../processors/counterparts.js';
import type { Processor, ProcessorCall, RefundAttempt } from '../processors/processor.js';
import { isKnownProcessor, processorFor } from '../processors/registry.js';
import { paymentSession } from '../processors/sessions.js';
import { ProcessorNotConfigured, processorCall } from '../processors/settings.js';
import { emitWithReceipt, receiptForRefund } from '../receipts/receipts.service.js';
import type { Deps } from '../runtime/deps.js';
import { refundedEvent } from '../webhooks/events.js';

/** The `Idempotency-Key` scope of refunds: a key used for a payment creation is another key here. */
export const REFUND_IDEMPOTENCY_SCOPE = 'refunds.create';

/**
 * Delay before the next status check of a refund in flight, after `checks` checks: 1 minute after
 * the refund was sent, then 5 and 30 minutes, then every 6 hours.
 */
export function refundCheckDelayMs(checks: number): number {
  if (checks <= 0) return MINUTE_MS;
  if (checks === 1) return 5 * MINUTE_MS;
  if (checks === 2) return 30 * MINUTE_MS;
  return 6 * HOUR_MS;
}

/** A refund as the API shows it (in the list, and in `details.refund` of the refund errors). */
export interface RefundObject {
  uuid: string;
  payment_uuid: string;
  amount: number;
  reason: string | null;
  /** `pending`, `succeeded`, `failed` or `unknown`. */
  status: RefundRow['status'];
  /** `refund_declined` or `processor_unavailable` for a failed refund; null otherwise. */
  failure_code: string | null;
  created_at: string;
  /** When it succeeded or failed; null while in flight. */
  completed_at: string | null;
}

/** The answer of `POST /api/v1/payments/{uuid}/refund`: the refund and the payment after it. */
export interface RefundResponse extends RefundObject {
  /** The payment's total refunded amount, this refund included. */
  refunded_amount: number;
  /** `completed` after a partial refund, `refunded` once the whole amount is refunded. */
  payment_status: PaymentStatus;
}

export function toRefundObject(row: RefundRow): RefundObject {
  return {
    uuid: row.id,
    payment_uuid: row.payment_id,
    amount: Number(row.amount),
    reason: row.reason,
    status: row.status,
    failure_code: row.failure_code,
    created_at: toApiInstant(row.created_at) as string,
    completed_at: toApiInstant(row.completed_at),
  };
}

export function toRefundResponse(refund: RefundRow, payment: PaymentRow): RefundResponse {
  return {
    ...toRefundObject(refund),
    refunded_amount: Number(payment.refunded_amount),
    payment_status: payment.status,
  };
}

/** What an `Idempotency-Key` of a refund stores: the refund it is bound to (answered in its current state). */
function boundKeyBody(refundId: string): { refund_uuid: string } {
  return { refund_uuid: refundId };
}

/**
 * The call a refund (or its status check) makes, with the domain's settings; undefined when they
 * are missing or no longer open (nothing is sent: the processor cannot be asked).
 */
async function refundCall(
  deps: Deps,
  processor: Processor,
  payment: Payment,
  priority: CallPriority = 'interactive',
): Promise<(ProcessorCall<unknown> & { readonly http: GuardedHttp }) | undefined> {
  try {
    return await processorCall(deps, processor, payment, 'refund', 'hy', priority);
  } catch (error) {
    if (!(error instanceof ProcessorNotConfigured)) throw error;
    deps.logger.error({ err: error.message, payment_uuid: payment.uuid }, 'refund: processor settings unusable');
    return undefined;
  }
}

/** The processor of a payment when it can refund this payment through its API. */
function refundingProcessor(row: PaymentRow): (Processor & Required<Pick<Processor, 'refund'>>) | undefined {
  if (row.processor === null || !isKnownProcessor(row.processor)) return undefined;
  const processor = processorFor(row.processor);
  if (processor.refund === undefined) return undefined;
  if (processor.canRefund !== undefined && !processor.canRefund(rowToPayment(row))) return undefined;
  return processor as Processor & Required<Pick<Processor, 'refund'>>;
}

/**
 * Why `requested` (undefined: the whole remaining amount) cannot be reserved on the payment now, in
 * the order the checks are documented; undefined when it can.
 */
function refusalFor(row: PaymentRow, requested: number | undefined): ApiError | undefined {
  if (row.status === 'refunded') {
    return new ApiError('already_refunded', `Payment ${row.id} is already fully refunded.`);
  }
  if (row.status !== 'completed') {
    return new ApiError(
      'not_refundable',
      `Payment ${row.id} is ${row.status}; only a completed payment can be refunded.`,
      {
        details: { payment_status: row.status },
      },
    );
  }
  if (refundingProcessor(row) === undefined) {
    return new ApiError(
      'refund_not_supported',
      `Payment ${row.id} cannot be refunded through the API (processor ${row.processor ?? 'none'}).`,
    );
  }
  const remaining = Number(row.amount) - Number(row.refunded_amount);
  const inFlight = Number(row.refund_reserved_amount);
  const whole = requested === undefined || requested === Number(row.amount);
  if (
    refundingProcessor(row)?.partialRefunds === false &&
    (!whole || Number(row.refunded_amount) > 0 || inFlight > 0)
  ) {
    return new ApiError(
      'refund_not_supported',
      `Processor ${row.processor ?? 'none'} refunds only a whole payment, once: refund ${Number(row.amount)} AMD or nothing.`,
      { details: { refundable_amount: Number(row.amount) - Number(row.refunded_amount) } },
    );
  }
  if (requested === undefined) {
    if (inFlight > 0) return refundInProgress(row, remaining, inFlight);
    return undefined;
  }
  if (requested > remaining) {
    return new ApiError(
      'amount_exceeds_remaining',
      `The refund amount ${requested} is larger than the ${remaining} AMD that remain refundable.`,
      { details: { remaining_amount: remaining } },
    );
  }
  if (requested > remaining - inFlight) return refundInProgress(row, remaining, inFlight);
  return undefined;
}

/**
 * What a refund of the payment may take now (AMD: what remains, less refunds in flight), or the
 * refusal a refund would get: for pages that offer a refund before asking for one.
 */
export function refundableNow(row: PaymentRow): { amount: number; partial: boolean } | ApiError {
  const one = refusalFor(row, 1);
  const whole = refusalFor(row, undefined);
  if (one !== undefined && whole !== undefined) return whole;
  const free = Number(row.amount) - Number(row.refunded_amount) - Number(row.refund_reserved_amount);
  return { amount: free, partial: one === undefined };
}

function refundInProgress(row: PaymentRow, remaining: number, inFlight: number): ApiError {
  return new ApiError(
    'refund_in_progress',
    `Refunds of ${inFlight} AMD of payment ${row.id} are still in flight; ${remaining - inFlight} AMD can be refunded until they finish.`,
    { details: { remaining_amount: remaining, in_progress_amount: inFlight } },
  );
}

interface Reservation {
  readonly refund: RefundRow;
  readonly payment: PaymentRow;
}

/** Steps before the processor: find, validate, check, then reserve in one conditional update. */
async function reserve(
  deps: Deps,
  scope: PaymentScope,
  paymentUuid: string,
  rawBody: unknown,
  complete: CompleteKey,
): Promise<Reservation> {
  const payment = isUuid(paymentUuid) ? await findPayment(deps.db, scope, paymentUuid) : undefined;
  if (payment === undefined) throw new ApiError('not_found', `No payment ${paymentUuid} for this key.`);
  const body: RefundBody = parseRefundBody(rawBody);

  // The conditional update is the guard; a failed one is explained from a fresh read. An in-flight
  // refund that ends between the two may leave nothing to explain: then try again (bounded).
  for (let attempt = 0; attempt < 3; attempt++) {
    const reservation = await deps.transact(async (trx): Promise<Reservation | undefined> => {
      const current = await findPaymentRow(trx, payment.uuid);
      if (current === undefined) throw new ApiError('not_found', `No payment ${paymentUuid} for this key.`);
      const refusal = refusalFor(current, body.amount);
      if (refusal !== undefined) throw refusal;

      const nowMs = deps.clock.nowMs();
      const now = toStoredInstant(nowMs);
      const reserved =
        body.amount === undefined
          ? await reserveRemainingAmount(trx, payment.uuid, now)
          : await reserveRefundAmount(trx, payment.uuid, body.amount, now);
      if (reserved === undefined) {
        const after = await findPaymentRow(trx, payment.uuid);
        const lost = after === undefined ? undefined : refusalFor(after, body.amount);
        if (lost !== undefined) throw lost;
        return undefined;
      }
      const amount = body.amount ?? Number(reserved.amount) - Number(reserved.refunded_amount);
      const refund: RefundRow = {
        id: deps.ids.uuid(nowMs),
        payment_id: reserved.id,
        merchant_id: reserved.merchant_id,
        environment: reserved.environment,
        processor: reserved.processor ?? '',
        amount,
        reason: body.reason,
        status: 'pending',
        failure_code: null,
        processor_reference: null,
        checks: 0,
        // Should this request die before settling, a status check resolves the refund.
        next_check_at: toStoredInstant(nowMs + refundCheckDelayMs(0)),
        created_at: now,
        updated_at: now,
        completed_at: null,
      };
      await insertRefund(trx, refund);
      await complete(trx, { status: 201, body: boundKeyBody(refund.id) });
      return { refund, payment: reserved };
    });
    if (reservation !== undefined) return reservation;
  }
  throw new ApiError(
    'refund_in_progress',
    `Other refunds of payment ${payment.uuid} are changing it right now. Read the payment back and retry.`,
  );
}

export interface CreateRefundRequest {
  readonly principal: Principal;
  readonly paymentUuid: string;
  /** The JSON body as sent (`{}` when absent). */
  readonly body: unknown;
  readonly idempotencyKey: string | undefined;
}

export interface RefundAnswer {
  readonly status: number;
  readonly body: RefundResponse;
  readonly replayed: boolean;
}

export async function createRefund(deps: Deps, request: CreateRefundRequest): Promise<RefundAnswer> {
  const { principal } = request;
  return refundPayment(deps, {
    scope: scopeOf(principal),
    keyScope: idempotencyScopeOf(principal, REFUND_IDEMPOTENCY_SCOPE),
    paymentUuid: request.paymentUuid,
    body: request.body,
    idempotencyKey: request.idempotencyKey,
  });
}

/** The `Idempotency-Key` scope of refunds asked for from the dashboard (its keys are the confirmation forms' own). */
export const DASHBOARD_REFUND_IDEMPOTENCY_SCOPE = 'refunds.create@dashboard';

/** A refund asked for by a caller other than an API key: the payments it may see and its keys' scope. */
export interface RefundPaymentRequest {
  readonly scope: PaymentScope;
  readonly keyScope: IdempotencyScope;
  readonly paymentUuid: string;
  readonly body: unknown;
  readonly idempotencyKey: string | undefined;
}

/**
 * The refund itself, for the API (`createRefund`) and the dashboard's payment page alike: the same
 * reservation, processor call, settlement and idempotency.
 */
export async function refundPayment(deps: Deps, request: RefundPaymentRequest): Promise<RefundAnswer> {
  const { keyScope } = request;
  let reservation: Reservation | undefined;
  const claimed = await runIdempotent(
    deps,
    keyScope,
    request.idempotencyKey,
    // The payment is part of what the key protects: the same key on another payment is another request.
    { payment_uuid: request.paymentUuid, body: request.body },
    async (complete) => {
      reservation = await reserve(deps, request.scope, request.paymentUuid, request.body, complete);
      return { status: 201, body: boundKeyBody(reservation.refund.id) };
    },
  );

  if (claimed.replayed || reservation === undefined) {
    // The key is bound to a refund made before: answer that refund as it is now; never refund again.
    const refundId = (claimed.body as { refund_uuid?: unknown } | null)?.refund_uuid;
    const refund = typeof refundId === 'string' ? await findRefund(deps.db, refundId) : undefined;
    const payment = refund === undefined ? undefined : await findPaymentRow(deps.db, refund.payment_id);
    if (refund === undefined || payment === undefined) {
      throw new Error(`idempotency key bound to a missing refund: ${String(refundId)}`);
    }
    return { status: 200, body: answerFor(refund, payment), replayed: true };
  }

  const { refund, payment } = reservation;
  const processor = refundingProcessor(payment);
  let attempt: RefundAttempt;
  if (processor === undefined) {
    // Checked before reserving; only a registry change in between could get here. Nothing was sent.
    attempt = { kind: 'unavailable' };
  } else {
    try {
      const paid = rowToPayment(payment);
      const call = await refundCall(deps, processor, paid);
      attempt =
        call === undefined
          ? { kind: 'unavailable' }
          : await processor.refund(call, {
              refundId: refund.id,
              payment: paid,
              session: await paymentSession(deps.db, paid),
              amount: Number(refund.amount),
              reason: refund.reason,
            });
    } catch (error) {
      // An adapter that throws may have sent the refund: the outcome is unknown, never retried here.
      deps.logger.error({ err: error, refund_id: refund.id }, 'processor refund call failed');
      attempt = { kind: 'unknown' };
    }
  }

  const settled = await settle(deps, refund, attempt, {
    source: 'refund',
    idempotencyKey:
      request.idempotencyKey === undefined
        ? undefined
        : {
            merchant_id: keyScope.merchantId,
            environment: keyScope.environment,
            scope: keyScope.scope,
            idempotency_key: request.idempotencyKey,
          },
  });
  return { status: 201, body: answerFor(settled.refund, settled.payment), replayed: false };
}

/**
 * The answer for a refund in its current state: the refund response when it succeeded, else the
 * error that says why there is none.
 */
function answerFor(refund: RefundRow, payment: PaymentRow): RefundResponse {
  const details = { refund: toRefundObject(refund) };
  switch (refund.status) {
    case 'succeeded':
      return toRefundResponse(refund, payment);
    case 'failed':
      if (refund.failure_code === 'processor_unavailable') {
        throw new ApiError(
          'processor_unavailable',
          'The processor could not be reached; nothing was refunded. Retry later (the same Idempotency-Key may be reused).',
          { details },
        );
      }
      throw new ApiError('refund_declined', 'The processor declined the refund; nothing was refunded.', { details });
    case 'unknown':
      throw new ApiError(
        'refund_outcome_unknown',
        `The processor did not answer. Refund ${refund.id} keeps its amount reserved until a status check settles it; it is never sent again. Read GET /api/v1/payments/${refund.payment_id}/refunds for its outcome.`,
        { details },
      );
    case 'pending':
      throw new ApiError(
        'refund_in_progress',
        `Refund ${refund.id} is still being processed. Read GET /api/v1/payments/${refund.payment_id}/refunds for its outcome.`,
        { details },
      );
  }
}

type KeyIdentity = Parameters<typeof forgetRefundIdempotencyKey>[1];

/**
 * Applies what the processor answered, once: the refund is settled only while still in flight, and
 * only the settlement that won moves the payment. `source` tells a refund call (where `unavailable`
 * means nothing was sent: the refund failed) from a status check (where it means the check could
 * not be made: the outcome stays unknown).
 */
async function settle(
  deps: Deps,
  refund: RefundRow,
  attempt: RefundAttempt,
  options: { source: 'refund' | 'status_check'; idempotencyKey?: KeyIdentity },
): Promise<{ refund: RefundRow; payment: PaymentRow }> {
  let emitted = false;
  /** What this settlement made of the refund, counted once it committed; undefined: nothing changed. */
  let outcome: RefundOutcome | undefined;
  const result = await deps.transact(async (trx) => {
    outcome = undefined;
    const nowMs = deps.clock.nowMs();
    const now = toStoredInstant(nowMs);
    const amount = Number(refund.amount);
    switch (attempt.kind) {
      case 'refunded': {
        const done = await settleRefund(
          trx,
          refund.id,
          { status: 'succeeded', processorReference: attempt.reference },
          now,
        );
        if (done === undefined) break;
        outcome = 'succeeded';
        const payment = await applySucceededRefund(trx, refund.payment_id, amount, now);
        if (payment === undefined) throw new Error(`refund ${refund.id} settled without its reservation`);
        // The return receipt joins the event: a sandbox one at once, a live one when issued in time.
        const receipt = await receiptForRefund(deps, trx, payment, { id: done.id, amount });
        await emitWithReceipt(
          deps,
          trx,
          payment,
          refundedEvent(rowToPayment(payment), { uuid: done.id, amount, reason: done.reason }),
          receipt,
        );
        emitted = true;
        return { refund: done, payment };
      }
      case 'declined': {
        const failed = await failRefund(trx, refund, 'refund_declined', now);
        if (failed.won) outcome = 'declined';
        return failed;
      }
      case 'unavailable': {
        if (options.source === 'status_check') {
          await markRefundUnknown(trx, refund.id, refund.next_check_at ?? now, now);
          break;
        }
        if (options.idempotencyKey !== undefined) {
          // Nothing reached the processor: the client may retry with the same key.
          await forgetRefundIdempotencyKey(trx, options.idempotencyKey, JSON.stringify(boundKeyBody(refund.id)));
        }
        const failed = await failRefund(trx, refund, 'processor_unavailable', now);
        if (failed.won) outcome = 'unavailable';
        return failed;
      }
      case 'unknown': {
        const nextCheckAt =
          options.source === 'refund'
            ? toStoredInstant(nowMs + refundCheckDelayMs(0))
            : // The claim already moved the next check along the back-off.
              (refund.next_check_at ?? toStoredInstant(nowMs + refundCheckDelayMs(Number(refund.checks))));
        // Counted when the refund call leaves it so; a status check that still finds nothing does not count again.
        const marked = await markRefundUnknown(trx, refund.id, nextCheckAt, now);
        if (marked !== undefined && options.source === 'refund') {
          outcome = 'unknown';
        }
        break;
      }
    }
    return current(trx, refund);
  });
  if (outcome !== undefined) deps.metrics.refund(outcome, refund);
  if (emitted) deps.dueSignal.notify();
  return result;
}

async function failRefund(
  trx: Executor,
  refund: RefundRow,
  failureCode: 'refund_declined' | 'processor_unavailable',
  now: string,
): Promise<{ refund: RefundRow; payment: PaymentRow; won: boolean }> {
  const done = await settleRefund(trx, refund.id, { status: 'failed', failureCode }, now);
  if (done === undefined) return { ...(await current(trx, refund)), won: false };
  const payment = await releaseRefundReservation(trx, refund.payment_id, Number(refund.amount), now);
  if (payment === undefined) throw new Error(`refund ${refund.id} failed without its reservation`);
  return { refund: done, payment, won: true };
}

async function current(trx: Executor, refund: RefundRow): Promise<{ refund: RefundRow; payment: PaymentRow }> {
  const row = await findRefund(trx, refund.id);
  const payment = await findPaymentRow(trx, refund.payment_id);
  if (row === undefined || payment === undefined) throw new Error(`refund ${refund.id} vanished`);
  return { refund: row, payment };
}

/** `GET /api/v1/payments/{uuid}/refunds`: every refund of the payment, any status, oldest first. */
export async function listRefunds(
  deps: Deps,
  principal: Principal,
  paymentUuid: string,
): Promise<{ data: RefundObject[] }> {
  const payment = isUuid(paymentUuid) ? await findPayment(deps.db, scopeOf(principal), paymentUuid) : undefined;
  if (payment === undefined) throw new ApiError('not_found', `No payment ${paymentUuid} for this key.`);
  const rows = await listPaymentRefunds(deps.db, payment.uuid);
  return { data: rows.map(toRefundObject) };
}

/**
 * Due work: claims refunds in flight whose check is due (outcome unknown, or pending past a
 * minute: the request that sent it died before settling). The claim counts the check and
 * schedules the next one (`refundCheckDelayMs`), so a check that dies is made again later.
 */
export async function claimRefundChecks(
  deps: Deps,
  limit: number,
  skipProcessors: readonly string[] = [],
): Promise<RefundRow[]> {
  const nowMs = deps.clock.nowMs();
  return deps.transact((trx) =>
    claimDueRefunds(trx, {
      now: toStoredInstant(nowMs),
      limit,
      skipProcessors,
      lock: deps.dialect === 'postgres',
      nextCheckAt: (checks) => toStoredInstant(nowMs + refundCheckDelayMs(checks)),
    }),
  );
}

/**
 * Asks the processor what became of one claimed refund, and settles it like the request would
 * have. Never sends a refund again. A check the processor's counterpart refused (its calls paused,
 * or no room) was not made: it does not count, and the refund is checked again when the
 * processor may be asked.
 */
export async function checkRefund(deps: Deps, refund: RefundRow): Promise<void> {
  try {
    const payment = await findPaymentRow(deps.db, refund.payment_id);
    if (payment === undefined) throw new Error(`refund ${refund.id} has no payment`);
    const processor = isKnownProcessor(refund.processor) ? processorFor(refund.processor) : undefined;
    let attempt: RefundAttempt = { kind: 'unknown' };
    if (processor?.refundStatus === undefined) {
      deps.logger.warn({ refund_id: refund.id, processor: refund.processor }, 'refund outcome cannot be checked');
    } else {
      try {
        const paid = rowToPayment(payment);
        const call = await refundCall(deps, processor, paid, 'background');
        attempt =
          call === undefined
            ? { kind: 'unavailable' }
            : await processor.refundStatus(call, {
                refundId: refund.id,
                payment: paid,
                session: await paymentSession(deps.db, paid),
                amount: Number(refund.amount),
                reason: refund.reason,
                processorReference: refund.processor_reference,
              });
        const refused = call?.http.refused;
        if (refused !== undefined) {
          const nowMs = deps.clock.nowMs();
          await deps.db
            .updateTable('refunds')
            .set({
              checks: Math.max(0, Number(refund.checks) - 1),
              next_check_at: toStoredInstant(nowMs + refused.retryInMs),
              updated_at: toStoredInstant(nowMs),
            })
            .where('id', '=', refund.id)
            .where('checks', '=', refund.checks)
            .where('next_check_at', '=', refund.next_check_at)
            .execute();
          return;
        }
      } catch (error) {
        deps.logger.error({ err: error, refund_id: refund.id }, 'refund status check failed');
      }
    }
    await settle(deps, refund, attempt, { source: 'status_check' });
  } catch (error) {
    // One refund must not stop the others; its next check is already scheduled.
    deps.logger.error({ err: error, refund_id: refund.id }, 'refund check failed');
  }
}
