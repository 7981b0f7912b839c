/**
 * Due work: emails to merchants waiting in the `merchant_emails` outbox are sent (or, without
 * `SMTP_URL`, logged). A batch that stopped at a failed send answers 0, so that the scheduler moves
 * on to other work instead of trying the next email against an SMTP server that is likely down;
 * the remaining emails are tried on the next tick.
 */
import type { Mailer } from '../notifications/mailer.js';
import { sendMerchantEmailBatch } from '../notifications/merchant-emails.js';
import type { Deps } from '../runtime/deps.js';
import type { DueWork } from './scheduler.js';

export function sendMerchantEmailsWork(deps: Deps, mailer: Mailer, batchSize = 20): DueWork {
  return {
    name: 'send-merchant-emails',
    async runBatch() {
      const { handled, stoppedOnFailure } = await sendMerchantEmailBatch(deps, mailer, batchSize);
      return stoppedOnFailure ? 0 : handled;
    },
  };
}
