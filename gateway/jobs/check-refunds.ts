/**
 * Due work: refunds whose outcome is unknown (the processor did not answer), or still pending a
 * minute after they were sent (the request died before settling), are checked with the processor
 * and settled: succeeded (the payment is updated and `payment.refunded` is emitted) or failed (the
 * reservation is released). Still unknown: checked again after 1, 5 and 30 minutes, then every
 * 6 hours. A refund is never sent again.
 *
 * A batch claims due refunds and starts their checks without waiting for them: a processor that
 * does not answer holds only its own checks (see gateway/jobs/poll-processors.ts).
 */
import { checkRefund, claimRefundChecks } from '../refunds/refund.service.js';
import type { Deps } from '../runtime/deps.js';
import { InFlight } from './in-flight.js';
import type { DueWork } from './scheduler.js';

/** Refund status checks in flight at once, over all processors. */
export const REFUND_CHECKS_IN_FLIGHT = 32;

export function checkRefundsWork(deps: Deps, batchSize = 20): DueWork {
  const inFlight = new InFlight({ capacity: REFUND_CHECKS_IN_FLIGHT });
  return {
    name: 'check-refunds',
    async runBatch() {
      const room = Math.min(batchSize, inFlight.free);
      if (room === 0) return 0;
      const claimed = await claimRefundChecks(deps, room);
      for (const refund of claimed) {
        inFlight.start(refund.processor, () => checkRefund(deps, refund), deps.logger, 'refund check failed');
      }
      return claimed.length;
    },
    settle: () => inFlight.settle(),
    bindWake: (wake) => inFlight.bindWake(wake),
  };
}
