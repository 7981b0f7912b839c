/**
 * Due work: webhook deliveries whose attempt is due (new events at once, retries on schedule).
 *
 * A batch claims due deliveries and starts their attempts without waiting for them, so an event is
 * sent the moment it is written (the scheduler wakes this lane on every event) whatever any other
 * attempt, or any other kind of work, is waiting for. At most `DELIVERIES_IN_FLIGHT` attempts run
 * at once, and at most `DELIVERIES_IN_FLIGHT_PER_DOMAIN` to one domain: a merchant's endpoint that
 * hangs holds its own attempts (each for at most the sender's 10 s), never the others'. The lane
 * is also woken when the next delivery falls due sooner than its next tick: an event held for its
 * receipt goes out 5 s after it was written, not at the next whole second after.
 */
import type { Clock } from '../domain/clock.js';
import type { Deps } from '../runtime/deps.js';
import { WebhookDispatcher } from '../webhooks/dispatcher.js';
import type { WebhookSender } from '../webhooks/sender.js';
import { InFlight } from './in-flight.js';
import type { DueWork } from './scheduler.js';

export const DELIVERIES_IN_FLIGHT = 200;
export const DELIVERIES_IN_FLIGHT_PER_DOMAIN = 16;

/** `transportClock` stamps the attempts (see WebhookDispatcher; default the service clock). */
export function dispatchWebhooksWork(
  deps: Deps,
  sender: WebhookSender,
  batchSize = 100,
  transportClock: Clock = deps.clock,
): DueWork {
  const dispatcher = new WebhookDispatcher(deps, sender, batchSize, transportClock);
  const inFlight = new InFlight({ capacity: DELIVERIES_IN_FLIGHT, perKey: DELIVERIES_IN_FLIGHT_PER_DOMAIN });
  return {
    name: 'dispatch-webhooks',
    async runBatch() {
      const room = Math.min(batchSize, inFlight.free);
      if (room === 0) return 0;
      const claimed = await dispatcher.claim(room, inFlight.fullKeys());
      let started = 0;
      for (const delivery of claimed) {
        // A claim may take a few more of one domain than it has room for: they go all the same
        // (their attempt is counted and leased), and the next claim leaves that domain out.
        inFlight.start(
          delivery.domain_id,
          () => dispatcher.attempt(delivery),
          deps.logger,
          'could not record a webhook attempt',
        );
        started += 1;
      }
      return started;
    },
    settle: () => inFlight.settle(),
    bindWake: (wake) => inFlight.bindWake(wake),
    nextDueInMs: () => dispatcher.nextDueInMs(),
  };
}
