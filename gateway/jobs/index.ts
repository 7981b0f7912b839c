/** Every kind of due work the gateway runs, in the order a scheduler run visits them. */
import type { Deps } from '../runtime/deps.js';
import type { WebhookSender } from '../webhooks/sender.js';
import { dispatchWebhooksWork } from './dispatch-webhooks.js';
import { expirePaymentsWork } from './expire-payments.js';
import { finishSecretRotationsWork } from './finish-secret-rotations.js';
import { pruneIdempotencyKeysWork } from './prune-idempotency-keys.js';
import type { DueWork } from './scheduler.js';

export interface JobServices {
  readonly webhookSender: WebhookSender;
}

/**
 * Work that writes events (expiry, refund checks) runs before the dispatcher, and the dispatcher
 * (which queues failure emails) before the email sender, so one run carries a change to the end.
 */
export function dueWorks(deps: Deps, services: JobServices): DueWork[] {
  return [
    expirePaymentsWork(deps),
    finishSecretRotationsWork(deps),
    dispatchWebhooksWork(deps, services.webhookSender),
    pruneIdempotencyKeysWork(deps),
  ];
}
