/** Every kind of due work the gateway runs, each in a lane of its own. */
import type { Clock } from '../domain/clock.js';
import type { Mailer } from '../notifications/mailer.js';
import type { Deps } from '../runtime/deps.js';
import type { WebhookSender } from '../webhooks/sender.js';
import { checkHoldsWork } from './check-holds.js';
import { checkRefundsWork } from './check-refunds.js';
import { dispatchWebhooksWork } from './dispatch-webhooks.js';
import { expirePaymentsWork } from './expire-payments.js';
import { finishSecretRotationsWork } from './finish-secret-rotations.js';
import { issueReceiptsWork } from './issue-receipts.js';
import { pollProcessorsWork } from './poll-processors.js';
import { pruneIdempotencyKeysWork } from './prune-idempotency-keys.js';
import { releaseExpiredHoldsWork } from './release-expired-holds.js';
import type { DueWork } from './scheduler.js';
import { sendMerchantEmailsWork } from './send-merchant-emails.js';

export interface JobServices {
  readonly webhookSender: WebhookSender;
  readonly mailer: Mailer;
  /** Stamps webhook attempts with the time they are sent (default: the service clock). */
  readonly transportClock?: Clock;
}

/**
 * Each kind of work runs in its own lane (gateway/jobs/scheduler.ts): none waits for another. A
 * change is carried to the end by wake-ups (an event written wakes the dispatcher, a failure email
 * queued wakes the mailer) and, for `runDueNow`, by rounds until nothing is due.
 */
export function dueWorks(deps: Deps, services: JobServices): DueWork[] {
  const works = [
    expirePaymentsWork(deps),
    pollProcessorsWork(deps),
    checkRefundsWork(deps),
    checkHoldsWork(deps),
    releaseExpiredHoldsWork(deps),
    issueReceiptsWork(deps),
    finishSecretRotationsWork(deps),
    dispatchWebhooksWork(deps, services.webhookSender, 100, services.transportClock ?? deps.clock),
    sendMerchantEmailsWork(deps, services.mailer),
    pruneIdempotencyKeysWork(deps),
  ];
  const { clock } = deps;
  if (clock.sync === undefined) return works;
  const sync = () => clock.sync?.() ?? Promise.resolve();
  return works.map((work) => readingTheClockFirst(work, sync));
}

/**
 * Under the database's test clock (`GATEWAY_CLOCK=manual`), each batch first reads the clock's
 * latest time: another instance, or the CLI, may have moved it since.
 */
function readingTheClockFirst(work: DueWork, sync: () => Promise<void>): DueWork {
  return {
    ...work,
    async runBatch() {
      await sync();
      return work.runBatch();
    },
  };
}
