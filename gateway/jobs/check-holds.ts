/**
 * Due work: captures and releases of holds whose outcome is unknown (the processor did not answer),
 * or still pending a minute after they were sent, are read back from the processor and settled
 * (gateway/holds/hold-checks.ts). Still unknown: checked again after 1, 5 and 30 minutes, then
 * every 6 hours. Nothing is ever sent again.
 *
 * A batch claims due operations and starts their checks without waiting for them: a processor that
 * does not answer holds only its own checks (see check-refunds.ts).
 */
import { checkHoldOperation, claimHoldChecks } from '../holds/hold-checks.js';
import { DEFAULT_COUNTERPART_LIMITS } from '../processors/counterparts.js';
import type { Deps } from '../runtime/deps.js';
import { InFlight } from './in-flight.js';
import type { DueWork } from './scheduler.js';

/** Hold checks in flight at once, over all processors. */
export const HOLD_CHECKS_IN_FLIGHT = 32;
/** Hold checks in flight to one processor. */
export const HOLD_CHECKS_PER_PROCESSOR = 2 * DEFAULT_COUNTERPART_LIMITS.background;

export function checkHoldsWork(deps: Deps, batchSize = 20): DueWork {
  const inFlight = new InFlight({ capacity: HOLD_CHECKS_IN_FLIGHT, perKey: HOLD_CHECKS_PER_PROCESSOR });
  return {
    name: 'check-holds',
    async runBatch() {
      const room = Math.min(batchSize, inFlight.free, HOLD_CHECKS_PER_PROCESSOR);
      if (room === 0) return 0;
      const claimed = await claimHoldChecks(deps, room, inFlight.fullKeys());
      for (const operation of claimed) {
        inFlight.start(
          operation.processor,
          () => checkHoldOperation(deps, operation),
          deps.logger,
          'hold check failed',
        );
      }
      return claimed.length;
    },
    settle: () => inFlight.settle(),
    bindWake: (wake) => inFlight.bindWake(wake),
  };
}
