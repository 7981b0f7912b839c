/**
 * The last step of a refund: what the processor answered (to the refund call or to a status check)
 * is applied once, in one transaction. Succeeded: the payment's `refunded_amount` grows, maybe to
 * `refunded`, and `payment.refunded` goes to the outbox with its return receipt; failed: the
 * reservation is released; unknown: the reservation stays until a status check settles it.
 */
import type { Executor } from '../../storage/database.js';
import { findPaymentRow, rowToPayment } from '../../storage/payment.repository.js';
import type { PaymentRow } from '../../storage/payment.table.js';
import {
  applySucceededRefund,
  findRefund,
  forgetRefundIdempotencyKey,
  markRefundUnknown,
  releaseRefundReservation,
  settleRefund,
} from '../../storage/refund.repository.js';
import type { RefundRow } from '../../storage/refund.table.js';
import { toStoredInstant } from '../domain/clock.js';
import type { RefundOutcome } from '../observability/gateway-metrics.js';
import type { RefundAttempt } from '../processors/processor.js';
import { emitWithReceipt, receiptForRefund } from '../receipts/receipts.service.js';
import type { Deps } from '../runtime/deps.js';
import { refundedEvent } from '../webhooks/events.js';
import { refundCheckDelayMs } from './check-schedule.js';
import { boundKeyBody } from './reservation.js';

type KeyIdentity = Parameters<typeof forgetRefundIdempotencyKey>[1];

/**
 * Applies what the processor answered, once: the refund is settled only while still in flight, and
 * only the settlement that won moves the payment. `source` tells a refund call (where `unavailable`
 * means nothing was sent: the refund failed) from a status check (where it means the check could
 * not be made: the outcome stays unknown).
 */
export async function settle(
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
