/** Every kind of due work the gateway runs, in the order a scheduler run visits them. */
import type { Clock } from '../domain/clock.js';
import type { Mailer } from '../notifications/mailer.js';
import type { Deps } from '../runtime/deps.js';
import type { WebhookSender } from '../webhooks/sender.js';
import { checkRefundsWork } from './check-refunds.js';
import { dispatchWebhooksWork } from './dispatch-webhooks.js';
import { expirePaymentsWork } from './expire-payments.js';
import { finishSecretRotationsWork } from './finish-secret-rotations.js';
import { issueReceiptsWork } from './issue-receipts.js';
import { pollProcessorsWork } from './poll-processors.js';
import { pruneIdempotencyKeysWork } from './prune-idempotency-keys.js';
import type { DueWork } from './scheduler.js';
import { sendMerchantEmailsWork } from './send-merchant-emails.js';

export interface JobServices {
  readonly webhookSender: WebhookSender;
  readonly mailer: Mailer;
  /** Stamps webhook attempts with the time they are sent (default: the service clock). */
  readonly transportClock?: Clock;
}

/**
 * Work that writes events (expiry, processor polls, refund checks, receipts) runs before the dispatcher, and the dispatcher
 * (which queues failure emails) before the email sender, so one run carries a change to the end.
 */
export function dueWorks(deps: Deps, services: JobServices): DueWork[] {
  return [
    expirePaymentsWork(deps),
    pollProcessorsWork(deps),
    checkRefundsWork(deps),
    issueReceiptsWork(deps),
    finishSecretRotationsWork(deps),
    dispatchWebhooksWork(deps, services.webhookSender, 100, services.transportClock ?? deps.clock),
    sendMerchantEmailsWork(deps, services.mailer),
    pruneIdempotencyKeysWork(deps),
  ];
}
