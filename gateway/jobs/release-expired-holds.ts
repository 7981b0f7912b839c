/**
 * Due work: authorizations not captured before their hold ran out (`capture_before`) are released
 * at their processor, once, and end `expired` with `failure_code: authorization_expired`
 * (gateway/holds/hold-checks.ts). The test clock moves them like any due work.
 *
 * A batch reserves the releases and starts their calls without waiting for them, bounded per
 * processor, so one slow bank delays only its own releases.
 */
import { claimRunOutHolds, releaseRunOutHold } from '../holds/hold-checks.js';
import { DEFAULT_COUNTERPART_LIMITS } from '../processors/counterparts.js';
import type { Deps } from '../runtime/deps.js';
import { InFlight } from './in-flight.js';
import type { DueWork } from './scheduler.js';

/** Releases in flight at once, over all processors. */
export const HOLD_RELEASES_IN_FLIGHT = 32;
/** Releases in flight to one processor. */
export const HOLD_RELEASES_PER_PROCESSOR = 2 * DEFAULT_COUNTERPART_LIMITS.background;

export function releaseExpiredHoldsWork(deps: Deps, batchSize = 20): DueWork {
  const inFlight = new InFlight({ capacity: HOLD_RELEASES_IN_FLIGHT, perKey: HOLD_RELEASES_PER_PROCESSOR });
  return {
    name: 'release-expired-holds',
    async runBatch() {
      const room = Math.min(batchSize, inFlight.free, HOLD_RELEASES_PER_PROCESSOR);
      if (room === 0) return 0;
      const claimed = await claimRunOutHolds(deps, room, inFlight.fullKeys());
      for (const { operation, payment } of claimed) {
        inFlight.start(
          operation.processor,
          () => releaseRunOutHold(deps, operation, payment),
          deps.logger,
          'release of a hold that ran out failed',
        );
      }
      return claimed.length;
    },
    settle: () => inFlight.settle(),
    bindWake: (wake) => inFlight.bindWake(wake),
  };
}
