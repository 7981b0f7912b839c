/**
 * Due work: fiscal receipts waiting to be issued, tries whose outcome is unknown (the register is
 * searched), and tries whose process died (their lease lapsed). See gateway/receipts/issuer.ts.
 *
 * A batch claims due receipts and starts each register's tries without waiting for them: a fiscal
 * system that answers slowly holds its registers' tries, never the next batch, and never any other
 * kind of work (a payment's webhook held for its receipt goes out after 5 s whatever the print is
 * doing). At most `fiscalLimit` registers of one fiscal system's address are called at once (its
 * counterpart's bound for background work), and at most `REGISTERS_IN_FLIGHT` in all.
 */
import { DEFAULT_COUNTERPART_LIMITS } from '../processors/counterparts.js';
import { claimReceipts, runRegisterWork } from '../receipts/issuer.js';
import type { Deps } from '../runtime/deps.js';
import { InFlight } from './in-flight.js';
import type { DueWork } from './scheduler.js';

/** Registers whose tries run at once, over all fiscal systems. */
export const REGISTERS_IN_FLIGHT = 32;

export function issueReceiptsWork(
  deps: Deps,
  batchSize = 20,
  fiscalLimit: number = DEFAULT_COUNTERPART_LIMITS.background,
): DueWork {
  const inFlight = new InFlight({ capacity: REGISTERS_IN_FLIGHT, perKey: fiscalLimit });
  /** Domains whose register is being called by this instance, by register. */
  const busyDomains = new Map<string, readonly string[]>();
  return {
    name: 'issue-receipts',
    async runBatch() {
      if (inFlight.free === 0) return 0;
      const { handled, work } = await claimReceipts(deps, batchSize, {
        skipDomains: [...busyDomains.values()].flat(),
        roomFor: (counterpart) => inFlight.roomFor(counterpart),
      });
      for (const one of work) {
        const domains = [
          ...new Set(one.tasks.flatMap((task) => (task.row.domain_id === null ? [] : [task.row.domain_id]))),
        ];
        busyDomains.set(one.register, domains);
        inFlight.start(
          one.counterpart,
          async () => {
            try {
              await runRegisterWork(deps, one);
            } finally {
              busyDomains.delete(one.register);
            }
          },
          deps.logger,
          'could not finish a register’s receipt tries',
        );
      }
      return handled;
    },
    settle: () => inFlight.settle(),
    bindWake: (wake) => inFlight.bindWake(wake),
  };
}
