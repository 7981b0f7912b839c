/** Due work: webhook deliveries whose attempt is due (new events at once, retries on schedule). */
import type { Deps } from '../runtime/deps.js';
import { WebhookDispatcher } from '../webhooks/dispatcher.js';
import type { WebhookSender } from '../webhooks/sender.js';
import type { DueWork } from './scheduler.js';

export function dispatchWebhooksWork(deps: Deps, sender: WebhookSender, batchSize = 100): DueWork {
  const dispatcher = new WebhookDispatcher(deps, sender, batchSize);
  return { name: 'dispatch-webhooks', runBatch: () => dispatcher.dispatchDue() };
}
