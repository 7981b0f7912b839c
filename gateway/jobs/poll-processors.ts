/**
 * Due work: payments left processing at a live processor are asked about (the status read back)
 * on a bounded schedule from the session's start: 1, 3, 6, 10, 15 and 21 minutes, then 30 minutes
 * and 1, 2, 4, 8, 16 and 24 hours (`POLL_AFTER_MS`), until the processor gives a final answer. A
 * lost callback or a buyer who never came back still ends in the right status, and a processor
 * that confirms after the gateway expired the payment completes it late.
 *
 * A batch claims due sessions and starts their reads without waiting for them (at most
 * `POLL_CALLS_IN_FLIGHT` at once): a bank that does not answer holds only its own reads, each for at
 * most its timeout, and its counterpart's bounded concurrency and breaker
 * (gateway/processors/counterparts.ts) refuse the rest at once, so that every other processor's
 * payments are asked about on time.
 */
import { claimPolls, pollSession } from '../payments/processor-polls.js';
import { DEFAULT_COUNTERPART_LIMITS } from '../processors/counterparts.js';
import type { Deps } from '../runtime/deps.js';
import { InFlight } from './in-flight.js';
import type { DueWork } from './scheduler.js';

/** Status reads the poll job has in flight at once, over all processors. */
export const POLL_CALLS_IN_FLIGHT = 64;
/**
 * Status reads in flight to one processor: twice a counterpart's background bound, so that two
 * addresses of one processor (two banks behind ArCa) are read at once, and a processor's rows are
 * claimed only when there is room for them (not claimed, then refused and put back).
 */
export const POLL_CALLS_PER_PROCESSOR = 2 * DEFAULT_COUNTERPART_LIMITS.background;

export function pollProcessorsWork(deps: Deps, batchSize = 20): DueWork {
  const inFlight = new InFlight({ capacity: POLL_CALLS_IN_FLIGHT, perKey: POLL_CALLS_PER_PROCESSOR });
  return {
    name: 'poll-processors',
    async runBatch() {
      // A claim takes no more than one processor may have in flight: rows of a processor with no
      // room are left unclaimed (a claim may overshoot by one batch; its counterpart refuses the excess).
      const room = Math.min(batchSize, inFlight.free, POLL_CALLS_PER_PROCESSOR);
      if (room === 0) return 0;
      const claimed = await claimPolls(deps, room, inFlight.fullKeys());
      for (const row of claimed) {
        inFlight.start(row.processor, () => pollSession(deps, row), deps.logger, 'processor poll failed');
      }
      return claimed.length;
    },
    settle: () => inFlight.settle(),
    bindWake: (wake) => inFlight.bindWake(wake),
  };
}
