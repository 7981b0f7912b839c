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

import { DEFAULT_COUNTERPART_LIMITS } from '../processors/counterparts.js';
import { checkRefund, claimRefundChecks } from '../refunds/status-checks.js';
import type { Deps } from '../runtime/deps.js';
import { InFlight } from './in-flight.js';
import type { DueWork } from './scheduler.js';

/** Refund status checks in flight at once, over all processors. */
export const REFUND_CHECKS_IN_FLIGHT = 32;
/** Refund status checks in flight to one processor (see POLL_CALLS_PER_PROCESSOR). */
export const REFUND_CHECKS_PER_PROCESSOR = 2 * DEFAULT_COUNTERPART_LIMITS.background;

export function checkRefundsWork(deps: Deps, batchSize = 20): DueWork {
  const inFlight = new InFlight({ capacity: REFUND_CHECKS_IN_FLIGHT, perKey: REFUND_CHECKS_PER_PROCESSOR });
  return {
    name: 'check-refunds',
    async runBatch() {
      // A processor with its share of checks in flight has its refunds left unclaimed (see poll-processors.ts).
      const room = Math.min(batchSize, inFlight.free, REFUND_CHECKS_PER_PROCESSOR);
      if (room === 0) return 0;
      const claimed = await claimRefundChecks(deps, room, inFlight.fullKeys());
      for (const refund of claimed) {
        inFlight.start(refund.processor, () => checkRefund(deps, refund), deps.logger, 'refund check failed');
      }
      return claimed.length;
    },
    settle: () => inFlight.settle(),
    bindWake: (wake) => inFlight.bindWake(wake),
  };
}
