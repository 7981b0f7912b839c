/**
 * Refunds (spec "Payments": `POST /api/v1/payments/{uuid}/refund`; DESIGN.md "Decisions"). A
 * refund runs in three steps, so that it is safe to race and never refunds twice:
 *
 * 1. Reserve (reservation.ts), in one transaction: one conditional update takes the amount from
 *    what is still free on the payment (`amount - refunded_amount - refund_reserved_amount`), the
 *    refund row is written `pending`, and an `Idempotency-Key` is bound to that refund.
 * 2. Ask the processor (refund-processor.ts), outside any transaction, exactly once.
 * 3. Settle (settlement.ts), in a second transaction: succeeded (the payment's `refunded_amount`
 *    grows, maybe to `refunded`, and `payment.refunded` is written to the outbox), failed (the
 *    reservation is released), or unknown (the reservation stays until a status check settles it:
 *    status-checks.ts, run by gateway/jobs/check-refunds.ts).
 */
import { findPayment, findPaymentRow, type PaymentScope, rowToPayment } from '../../storage/payment.repository.js';
import type { PaymentRow } from '../../storage/payment.table.js';
import { findRefund, listPaymentRefunds } from '../../storage/refund.repository.js';
import type { RefundRow } from '../../storage/refund.table.js';
import type { Principal } from '../auth/principal.js';
import { toApiInstant } from '../domain/clock.js';
import { ApiError } from '../domain/errors.js';
import { isUuid } from '../domain/ids.js';
import type { PaymentStatus } from '../domain/payment.js';
import { type IdempotencyScope, runIdempotent } from '../payments/idempotency.js';
import { idempotencyScopeOf, scopeOf } from '../payments/payment-scope.js';
import type { RefundAttempt } from '../processors/processor.js';
import { paymentSession } from '../processors/sessions.js';
import type { Deps } from '../runtime/deps.js';
import { refundCall, refundingProcessor } from './refund-processor.js';
import { refusalFor } from './refusals.js';
import { boundKeyBody, type Reservation, reserve } from './reservation.js';
import { settle } from './settlement.js';

/** The `Idempotency-Key` scope of refunds: a key used for a payment creation is another key here. */
export const REFUND_IDEMPOTENCY_SCOPE = 'refunds.create';

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
