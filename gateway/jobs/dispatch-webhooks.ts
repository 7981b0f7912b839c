/** Due work: webhook deliveries whose attempt is due (new events at once, retries on schedule). */
import type { Clock } from '../domain/clock.js';
import type { Deps } from '../runtime/deps.js';
import { WebhookDispatcher } from '../webhooks/dispatcher.js';
import type { WebhookSender } from '../webhooks/sender.js';
import type { DueWork } from './scheduler.js';

/** `transportClock` stamps the attempts (see WebhookDispatcher; default the service clock). */
export function dispatchWebhooksWork(
  deps: Deps,
  sender: WebhookSender,
  batchSize = 100,
  transportClock: Clock = deps.clock,
): DueWork {
  const dispatcher = new WebhookDispatcher(deps, sender, batchSize, transportClock);
  return { name: 'dispatch-webhooks', runBatch: () => dispatcher.dispatchDue() };
}
