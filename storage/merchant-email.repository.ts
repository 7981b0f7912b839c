/**
 * The outbox of emails to merchants. A row is written `pending` (due at once); a sender claims it
 * (counting the attempt and leasing it), sends it outside any transaction, then records the end of
 * that attempt: `sent`, `logged`, `failed`, or pending again with a later `next_attempt_at`.
 */
import type { Updateable } from 'kysely';
import type { Executor } from './database.js';
import type { MerchantEmailRow, MerchantEmailTable, NewMerchantEmailRow } from './merchant-email.table.js';

export async function insertMerchantEmail(db: Executor, row: NewMerchantEmailRow): Promise<void> {
  await db.insertInto('merchant_emails').values(row).execute();
}

/**
 * Claims up to `limit` emails due at `now`, oldest first: counts the attempt and moves
 * `next_attempt_at` to `leaseUntil`, so no one else sends them unless this claim lapses (a crash).
 * On PostgreSQL the due rows are locked with SKIP LOCKED, so instances claiming together never take
 * the same email. Run it in a transaction. The answered rows carry the attempt just counted.
 */
export async function claimDueMerchantEmails(
  trx: Executor,
  options: { now: string; leaseUntil: string; limit: number; lock: boolean; ids?: readonly string[] },
): Promise<MerchantEmailRow[]> {
  let due = trx
    .selectFrom('merchant_emails')
    .select('id')
    .where('status', '=', 'pending')
    .where('next_attempt_at', '<=', options.now)
    .orderBy('next_attempt_at')
    .orderBy('id')
    .limit(options.limit);
  // Only these emails (the ones a command just queued and sends itself at once).
  if (options.ids !== undefined) due = due.where('id', 'in', options.ids.length === 0 ? [''] : [...options.ids]);
  if (options.lock) due = due.forUpdate().skipLocked();
  const ids = (await due.execute()).map((r) => r.id);
  if (ids.length === 0) return [];
  await trx
    .updateTable('merchant_emails')
    .set((eb) => ({ attempts: eb('attempts', '+', 1), next_attempt_at: options.leaseUntil }))
    .where('id', 'in', ids)
    .where('status', '=', 'pending')
    .execute();
  return trx
    .selectFrom('merchant_emails')
    .selectAll()
    .where('id', 'in', ids)
    .where('status', '=', 'pending')
    .orderBy('created_at')
    .orderBy('id')
    .execute();
}

/**
 * Records the end of the attempt a claim made, only if that claim still holds (same attempt count,
 * still pending): a claim that lapsed and was taken again by another sender is left to that sender.
 */
async function finishAttempt(
  db: Executor,
  id: string,
  claimedAttempts: number,
  changes: Updateable<MerchantEmailTable>,
): Promise<boolean> {
  const result = await db
    .updateTable('merchant_emails')
    .set(changes)
    .where('id', '=', id)
    .where('attempts', '=', claimedAttempts)
    .where('status', '=', 'pending')
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

/** The SMTP server accepted the email. */
export function markMerchantEmailSent(
  db: Executor,
  id: string,
  claimedAttempts: number,
  now: string,
): Promise<boolean> {
  return finishAttempt(db, id, claimedAttempts, {
    status: 'sent',
    sent_at: now,
    next_attempt_at: null,
    last_error: null,
  });
}

/** The email was only written to the log (no `SMTP_URL`, or the merchant has no email address). */
export function markMerchantEmailLogged(
  db: Executor,
  id: string,
  claimedAttempts: number,
  reason: string | null,
): Promise<boolean> {
  return finishAttempt(db, id, claimedAttempts, { status: 'logged', next_attempt_at: null, last_error: reason });
}

/** Sending failed and will be tried again at `nextAttemptAt`. */
export function scheduleMerchantEmailRetry(
  db: Executor,
  id: string,
  claimedAttempts: number,
  nextAttemptAt: string,
  error: string,
): Promise<boolean> {
  return finishAttempt(db, id, claimedAttempts, { next_attempt_at: nextAttemptAt, last_error: error });
}

/** Sending failed for good: no more attempts. */
export function markMerchantEmailFailed(
  db: Executor,
  id: string,
  claimedAttempts: number,
  error: string,
): Promise<boolean> {
  return finishAttempt(db, id, claimedAttempts, { status: 'failed', next_attempt_at: null, last_error: error });
}

export async function findMerchantEmail(db: Executor, id: string): Promise<MerchantEmailRow | undefined> {
  return db.selectFrom('merchant_emails').selectAll().where('id', '=', id).executeTakeFirst();
}

/** The merchant's emails, newest first. */
export async function listMerchantEmails(
  db: Executor,
  merchantId: string,
  options: { limit?: number } = {},
): Promise<MerchantEmailRow[]> {
  return db
    .selectFrom('merchant_emails')
    .selectAll()
    .where('merchant_id', '=', merchantId)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(options.limit ?? 100)
    .execute();
}
