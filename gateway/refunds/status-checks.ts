/**
 * Status checks of refunds in flight (run by gateway/jobs/check-refunds.ts): a refund whose outcome
 * is unknown, or still pending after its request died, is asked about at its processor and settled
 * as the request would have settled it. A refund is never sent again.
 */
import { findPaymentRow, rowToPayment } from '../../storage/payment.repository.js';
import { claimDueRefunds } from '../../storage/refund.repository.js';
import type { RefundRow } from '../../storage/refund.table.js';
import { toStoredInstant } from '../domain/clock.js';
import type { RefundAttempt } from '../processors/processor.js';
import { isKnownProcessor, processorFor } from '../processors/registry.js';
import { paymentSession } from '../processors/sessions.js';
import type { Deps } from '../runtime/deps.js';
import { refundCheckDelayMs } from './check-schedule.js';
import { refundCall } from './refund-processor.js';
import { settle } from './settlement.js';

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
