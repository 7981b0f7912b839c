/**
 * The outbox of emails to merchants (`merchant_emails`): an email is written in the transaction of
 * what it tells (a webhook delivery given up: delivery-failure-email.ts; an auto top-up; a business
 * decision; receipts not issued) and sent later by due work (`gateway/jobs/send-merchant-emails.ts`),
 * so a crash never loses it and a rolled-back transaction never sends it.
 *
 * Sending claims one email at a time in a short transaction, leasing it for `EMAIL_LEASE_MS`
 * (`next_attempt_at` moves to the end of the lease and the attempt is counted), sends it outside
 * the transaction, then records the outcome only if the claim still holds. So two instances never
 * send one email at the same time, and an email whose sender crashed is tried again when its lease
 * ends. A failed send is retried after `EMAIL_RETRY_MS`, `EMAIL_MAX_ATTEMPTS` attempts in all.
 */
import type { Executor } from '../../storage/database.js';
import {
  claimDueMerchantEmails,
  insertMerchantEmail,
  markMerchantEmailFailed,
  markMerchantEmailLogged,
  markMerchantEmailSent,
  scheduleMerchantEmailRetry,
} from '../../storage/merchant-email.repository.js';
import type { MerchantEmailRow } from '../../storage/merchant-email.table.js';
import { MINUTE_MS, toStoredInstant } from '../domain/clock.js';
import type { Deps } from '../runtime/deps.js';
import type { Mailer } from './mailer.js';

/** How long a claimed email is reserved for its sender (longer than one send can take). */
export const EMAIL_LEASE_MS = 2 * MINUTE_MS;
/** Wait after a failed send before the next attempt. */
export const EMAIL_RETRY_MS = 5 * MINUTE_MS;
/** Attempts before an email is given up (`failed`). */
export const EMAIL_MAX_ATTEMPTS = 5;

/**
 * Writes an email to the merchant into the outbox, in the caller's transaction; due work sends it
 * (or logs it) once the transaction committed. `recipient` null: the merchant has no address.
 */
export async function queueMerchantEmail(
  deps: Deps,
  trx: Executor,
  email: {
    merchantId: string;
    domainId: string | null;
    kind: string;
    recipient: string | null;
    subject: string;
    text: string;
  },
): Promise<void> {
  const nowMs = deps.clock.nowMs();
  const now = toStoredInstant(nowMs);
  await insertMerchantEmail(trx, {
    id: deps.ids.uuid(nowMs),
    merchant_id: email.merchantId,
    domain_id: email.domainId,
    kind: email.kind,
    recipient: email.recipient,
    subject: email.subject,
    body: email.text,
    status: 'pending',
    attempts: 0,
    next_attempt_at: now,
    last_error: null,
    created_at: now,
    sent_at: null,
  });
}

/** Merchant-supplied text on one line (no header or line injection), at most `max` characters. */
export function oneLine(value: string, max: number): string {
  const flat = value.replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max - 3)}...` : flat;
}

/**
 * Sends up to `limit` due emails (see the file comment). Answers how many it handled (sent, logged,
 * failed or set to retry). It stops at the first failed send (the SMTP server is likely down), so
 * a batch never waits on more than one failing send; the rest are tried on the next run.
 */
export async function sendMerchantEmails(deps: Deps, mailer: Mailer, limit: number): Promise<number> {
  return (await sendMerchantEmailBatch(deps, mailer, limit)).handled;
}

/** `sendMerchantEmails`, also telling whether the batch stopped at a failed send. */
export async function sendMerchantEmailBatch(
  deps: Deps,
  mailer: Mailer,
  limit: number,
): Promise<{ handled: number; stoppedOnFailure: boolean }> {
  let handled = 0;
  while (handled < limit) {
    const [email] = await claimNext(deps);
    if (email === undefined) break;
    handled += 1;
    if (!(await sendOne(deps, mailer, email))) return { handled, stoppedOnFailure: true };
  }
  return { handled, stoppedOnFailure: false };
}

/**
 * Sends the given queued emails now rather than at the next run of due work: a process without the
 * scheduler (the CLI) that just queued them. They are claimed like any other, so a running gateway
 * never sends one twice; one that fails stays in the outbox and is retried by due work. Answers how
 * many were handled.
 */
export async function sendMerchantEmailsNow(deps: Deps, mailer: Mailer, ids: readonly string[]): Promise<number> {
  let handled = 0;
  for (const id of ids) {
    const [email] = await claimNext(deps, [id]);
    if (email === undefined) continue;
    handled += 1;
    if (!(await sendOne(deps, mailer, email))) break;
  }
  return handled;
}

function claimNext(deps: Deps, ids?: readonly string[]): Promise<MerchantEmailRow[]> {
  const nowMs = deps.clock.nowMs();
  return deps.transact((trx) =>
    claimDueMerchantEmails(trx, {
      now: toStoredInstant(nowMs),
      leaseUntil: toStoredInstant(nowMs + EMAIL_LEASE_MS),
      limit: 1,
      lock: deps.dialect === 'postgres',
      ...(ids === undefined ? {} : { ids }),
    }),
  );
}

function describeError(error: unknown): string {
  if (!(error instanceof Error)) return oneLine(String(error), 500);
  const code = (error as { code?: unknown }).code;
  const message =
    typeof code === 'string' && !error.message.includes(code) ? `${code}: ${error.message}` : error.message;
  return oneLine(message, 500);
}

/** Sends (or logs) one claimed email and records the outcome; answers false when sending failed. */
async function sendOne(deps: Deps, mailer: Mailer, email: MerchantEmailRow): Promise<boolean> {
  const claimed = email.attempts;
  const about = { email_id: email.id, merchant_id: email.merchant_id, kind: email.kind, attempts: claimed };
  const record = async (finish: (trx: Executor) => Promise<boolean>, outcome: string): Promise<void> => {
    const recorded = await deps.transact(finish);
    if (!recorded) deps.logger.warn({ ...about, outcome }, 'merchant email outcome not recorded: its claim lapsed');
  };

  if (claimed > EMAIL_MAX_ATTEMPTS) {
    // Earlier claims ended without an outcome (the sender stopped while sending): give up.
    await record(
      (trx) => markMerchantEmailFailed(trx, email.id, claimed, 'sending was interrupted too often'),
      'failed',
    );
    deps.logger.error(about, 'merchant email given up: sending was interrupted too often');
    return true;
  }
  if (email.recipient === null) {
    deps.logger.warn(
      { ...about, subject: email.subject },
      'merchant has no email address: email kept in merchant_emails as logged, not sent',
    );
    await record(
      (trx) => markMerchantEmailLogged(trx, email.id, claimed, 'the merchant has no email address'),
      'logged',
    );
    return true;
  }

  try {
    await mailer.send({ to: email.recipient, subject: email.subject, text: email.body });
  } catch (error) {
    const reason = describeError(error);
    const nowMs = deps.clock.nowMs();
    if (claimed >= EMAIL_MAX_ATTEMPTS) {
      await record((trx) => markMerchantEmailFailed(trx, email.id, claimed, reason), 'failed');
      deps.logger.error({ ...about, error: reason }, 'merchant email failed for good');
    } else {
      const retryAt = toStoredInstant(nowMs + EMAIL_RETRY_MS);
      await record((trx) => scheduleMerchantEmailRetry(trx, email.id, claimed, retryAt, reason), 'retry');
      deps.logger.warn({ ...about, error: reason, next_attempt_at: retryAt }, 'merchant email not sent; will retry');
    }
    return false;
  }

  if (mailer.kind === 'log') {
    await record((trx) => markMerchantEmailLogged(trx, email.id, claimed, null), 'logged');
  } else {
    const now = toStoredInstant(deps.clock.nowMs());
    await record((trx) => markMerchantEmailSent(trx, email.id, claimed, now), 'sent');
    deps.logger.info(about, 'merchant email sent');
  }
  return true;
}
