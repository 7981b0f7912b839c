/**
 * How a capture or release of a hold is settled, once (docs/decisions.md "Holds"): from the
 * processor's answer to the call, or from what a status check read back. Only the settlement that
 * wins (the operation still pending or unknown) moves the payment, and only while the payment still
 * names that operation, in one transaction with the event it emits:
 *
 * - captured: `authorized` → `completed` for the captured amount (`transaction.status.updated`
 *   with the sale receipt; billing counts it then);
 * - released: `authorized` → `expired`, `failure_code` `voided` (the merchant's void) or
 *   `authorization_expired` (the hold ran out); the order is free again;
 * - not done (declined, nothing sent, or found not made): the hold is free again and the payment
 *   stays `authorized`, except for the release of a hold that ran out, which ends `expired` whatever
 *   the processor says (the gateway never captures it any more; the issuer lets it go);
 * - unknown: the operation keeps the hold reserved until a status check settles it. It is never
 *   sent again.
 */
import type { Executor } from '../../storage/database.js';
import {
  captureHold,
  findHoldOperation,
  freeHold,
  markHoldOperationUnknown,
  releaseHold,
  settleHoldOperation,
} from '../../storage/hold-operation.repository.js';
import type { HoldOperationRow } from '../../storage/hold-operation.table.js';
import { findPaymentRow } from '../../storage/payment.repository.js';
import type { PaymentRow } from '../../storage/payment.table.js';
import { forgetRefundIdempotencyKey } from '../../storage/refund.repository.js';
import { HOUR_MS, MINUTE_MS, toStoredInstant } from '../domain/clock.js';
import { AUTHORIZATION_EXPIRED, VOIDED } from '../domain/holds.js';
import type { HoldOutcome } from '../observability/gateway-metrics.js';
import { afterCompleted, emitStatusEvent, noteReached, transactEmitting } from '../payments/lifecycle.service.js';
import type { HoldAttempt, HoldFinding } from '../processors/processor.js';
import type { Deps } from '../runtime/deps.js';

/**
 * Delay before the next status check of an operation in flight, after `checks` checks: 1 minute
 * after it was sent, then 5 and 30 minutes, then every 6 hours (as for refunds).
 */
export function holdCheckDelayMs(checks: number): number {
  if (checks <= 0) return MINUTE_MS;
  if (checks === 1) return 5 * MINUTE_MS;
  if (checks === 2) return 30 * MINUTE_MS;
  return 6 * HOUR_MS;
}

/** What an `Idempotency-Key` of a capture or void stores: the operation it is bound to (answered in its current state). */
export function boundKeyBody(operationId: string): { operation_uuid: string } {
  return { operation_uuid: operationId };
}

/** The identity of an `Idempotency-Key` row, to forget it when nothing reached the processor. */
export type KeyIdentity = Parameters<typeof forgetRefundIdempotencyKey>[1];

/** What settling found or did: the operation and the payment as they are after it. */
export interface Settled {
  readonly operation: HoldOperationRow;
  readonly payment: PaymentRow;
}

/** The processor's answer (`call`), or what a status check read back (`check`). */
export type HoldEvidence =
  | { readonly source: 'call'; readonly attempt: HoldAttempt; readonly idempotencyKey?: KeyIdentity }
  | { readonly source: 'check'; readonly finding: HoldFinding };

/** The `failure_code` the payment ends with when this release succeeds. */
function releaseCode(operation: HoldOperationRow): string {
  return operation.reason === 'expiry' ? AUTHORIZATION_EXPIRED : VOIDED;
}

/** Applies `evidence` to `operation`, once. */
export async function settleHold(deps: Deps, operation: HoldOperationRow, evidence: HoldEvidence): Promise<Settled> {
  let outcome: HoldOutcome | undefined;
  let ranOut: PaymentRow | undefined;
  const result = await transactEmitting(deps, async (trx): Promise<Settled> => {
    outcome = undefined;
    ranOut = undefined;
    const nowMs = deps.clock.nowMs();
    const now = toStoredInstant(nowMs);
    const step = stepOf(operation, evidence);
    switch (step.kind) {
      case 'captured': {
        const amount = step.amount ?? Number(operation.amount);
        const done = await settleHoldOperation(
          trx,
          operation.id,
          { status: 'succeeded', processorReference: step.reference, amount },
          now,
        );
        if (done === undefined) break;
        outcome = 'succeeded';
        const completed = await captureHold(trx, operation.payment_id, operation.id, amount, now);
        if (completed === undefined) throw new Error(`hold operation ${operation.id} settled without its hold`);
        noteReached(trx, completed);
        await afterCompleted(deps, trx, completed);
        return { operation: done, payment: completed };
      }
      case 'captured_instead': {
        // A release found the hold captured (outside the gateway): the money was taken.
        const done = await settleHoldOperation(
          trx,
          operation.id,
          { status: 'failed', failureCode: 'hold_captured' },
          now,
        );
        if (done === undefined) break;
        outcome = 'declined';
        const completed = await captureHold(trx, operation.payment_id, operation.id, step.amount, now);
        if (completed === undefined) throw new Error(`hold operation ${operation.id} settled without its hold`);
        noteReached(trx, completed);
        await afterCompleted(deps, trx, completed);
        return { operation: done, payment: completed };
      }
      case 'released': {
        const settlement =
          operation.kind === 'release'
            ? ({ status: 'succeeded', processorReference: step.reference } as const)
            : ({ status: 'failed', failureCode: 'hold_released' } as const);
        const done = await settleHoldOperation(trx, operation.id, settlement, now);
        if (done === undefined) break;
        outcome = operation.kind === 'release' ? 'succeeded' : 'declined';
        const code = operation.kind === 'release' ? releaseCode(operation) : AUTHORIZATION_EXPIRED;
        const released = await releaseHold(trx, operation.payment_id, operation.id, code, now);
        if (released === undefined) throw new Error(`hold operation ${operation.id} settled without its hold`);
        noteReached(trx, released);
        await emitStatusEvent(deps, trx, released);
        if (code === AUTHORIZATION_EXPIRED) ranOut = released;
        return { operation: done, payment: released };
      }
      case 'not_done': {
        const done = await settleHoldOperation(trx, operation.id, { status: 'failed', failureCode: step.code }, now);
        if (done === undefined) break;
        outcome = step.code === 'processor_unavailable' ? 'unavailable' : 'declined';
        if (step.forgetKey !== undefined) {
          // Nothing reached the processor: the client may retry with the same key.
          await forgetRefundIdempotencyKey(trx, step.forgetKey, JSON.stringify(boundKeyBody(operation.id)));
        }
        if (operation.reason === 'expiry') {
          // The hold ran out: the gateway never captures it now, whatever the processor said.
          const released = await releaseHold(trx, operation.payment_id, operation.id, AUTHORIZATION_EXPIRED, now);
          if (released === undefined) throw new Error(`hold operation ${operation.id} settled without its hold`);
          noteReached(trx, released);
          await emitStatusEvent(deps, trx, released);
          ranOut = released;
          return { operation: done, payment: released };
        }
        const free = await freeHold(trx, operation.payment_id, operation.id, now);
        if (free === undefined) throw new Error(`hold operation ${operation.id} failed without its hold`);
        return { operation: done, payment: free };
      }
      case 'unknown': {
        const nextCheckAt =
          evidence.source === 'call'
            ? toStoredInstant(nowMs + holdCheckDelayMs(0))
            : // The claim already moved the next check along the back-off.
              (operation.next_check_at ?? toStoredInstant(nowMs + holdCheckDelayMs(Number(operation.checks))));
        const marked = await markHoldOperationUnknown(trx, operation.id, nextCheckAt, now);
        // Counted when the call leaves it so; a check that still finds nothing does not count again.
        if (marked !== undefined && evidence.source === 'call') outcome = 'unknown';
        break;
      }
    }
    return current(trx, operation);
  });
  if (outcome !== undefined) deps.metrics.holdOperation(operation.kind, outcome, operation);
  if (ranOut !== undefined) {
    deps.metrics.holdRanOut(ranOut);
    deps.logger.warn(
      { payment_uuid: ranOut.id, processor: ranOut.processor, capture_before: ranOut.capture_before },
      'hold ran out uncaptured: released',
    );
  }
  return result;
}

type Step =
  | { readonly kind: 'captured'; readonly reference: string | null; readonly amount?: number }
  | { readonly kind: 'captured_instead'; readonly amount: number }
  | { readonly kind: 'released'; readonly reference: string | null }
  | { readonly kind: 'not_done'; readonly code: string; readonly forgetKey?: KeyIdentity }
  | { readonly kind: 'unknown' };

/** What the evidence means for this operation. */
function stepOf(operation: HoldOperationRow, evidence: HoldEvidence): Step {
  const capture = operation.kind === 'capture';
  if (evidence.source === 'call') {
    const { attempt } = evidence;
    switch (attempt.kind) {
      case 'done':
        return capture
          ? { kind: 'captured', reference: attempt.reference }
          : { kind: 'released', reference: attempt.reference };
      case 'declined':
        return { kind: 'not_done', code: capture ? 'capture_declined' : 'void_declined' };
      case 'unavailable':
        return { kind: 'not_done', code: 'processor_unavailable', forgetKey: evidence.idempotencyKey };
      case 'unknown':
        return { kind: 'unknown' };
    }
  }
  const { finding } = evidence;
  switch (finding.kind) {
    case 'captured': {
      const amount = Math.min(finding.amount, Number(operation.amount));
      if (capture)
        return { kind: 'captured', reference: finding.reference, amount: finding.amount > 0 ? amount : undefined };
      return { kind: 'captured_instead', amount: finding.amount };
    }
    case 'released':
      return { kind: 'released', reference: null };
    case 'held':
      return { kind: 'not_done', code: 'not_made' };
    case 'unavailable':
      return { kind: 'unknown' };
  }
}

async function current(trx: Executor, operation: HoldOperationRow): Promise<Settled> {
  const row = await findHoldOperation(trx, operation.id);
  const payment = await findPaymentRow(trx, operation.payment_id);
  if (row === undefined || payment === undefined) throw new Error(`hold operation ${operation.id} vanished`);
  return { operation: row, payment };
}
