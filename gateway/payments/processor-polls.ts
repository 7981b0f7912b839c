/**
 * The poll job's side of a payment left processing: its session is read back on a bounded schedule
 * from the session's start (`POLL_AFTER_MS`) until the processor gives a final answer, so a lost
 * callback or a buyer who never came back still ends in the right status, a late confirmation
 * included.
 */
import { findPaymentRow, rowToPayment } from '../../storage/payment.repository.js';
import { claimDueSessions, updateSession } from '../../storage/processor-session.repository.js';
import type { ProcessorSessionRow } from '../../storage/processor-session.table.js';
import { HOUR_MS, MINUTE_MS, toStoredInstant } from '../domain/clock.js';
import type { Refusal } from '../processors/counterparts.js';
import type { Deps } from '../runtime/deps.js';
import { readBack } from './processor-read-back.js';

/**
 * When the poll job reads a processing payment's status, counted from the session's start: often
 * while the buyer is likely still paying, then rarer for a day (a processor may confirm late).
 */
export const POLL_AFTER_MS: readonly number[] = [
  1 * MINUTE_MS,
  3 * MINUTE_MS,
  6 * MINUTE_MS,
  10 * MINUTE_MS,
  15 * MINUTE_MS,
  21 * MINUTE_MS,
  30 * MINUTE_MS,
  HOUR_MS,
  2 * HOUR_MS,
  4 * HOUR_MS,
  8 * HOUR_MS,
  16 * HOUR_MS,
  24 * HOUR_MS,
];

/** How long a poll claim holds a session before another instance may take it (a crashed poller). */
const POLL_LEASE_MS = 2 * MINUTE_MS;

/** When the session is read back next, after `checks` scheduled reads; null: no more. */
export function pollAt(createdAtMs: number, checks: number): string | null {
  const after = POLL_AFTER_MS[checks];
  return after === undefined ? null : toStoredInstant(createdAtMs + after);
}

/**
 * Claims sessions due for a read-back (at most `limit`, none of `skipProcessors`): each is moved a lease ahead inside the
 * claiming transaction, so instances polling together ask about different payments, and one that
 * dies mid-way leaves them to the next run.
 */
export async function claimPolls(
  deps: Deps,
  limit: number,
  skipProcessors: readonly string[] = [],
): Promise<ProcessorSessionRow[]> {
  const nowMs = deps.clock.nowMs();
  const now = toStoredInstant(nowMs);
  return deps.transact(async (trx) => {
    const rows = await claimDueSessions(trx, now, limit, deps.dialect === 'postgres', skipProcessors);
    for (const row of rows) {
      await updateSession(trx, row.payment_id, row.processor, {
        next_check_at: toStoredInstant(nowMs + POLL_LEASE_MS),
        updated_at: now,
      });
    }
    return rows;
  });
}

/**
 * A spread of up to 10 s, the same for a payment every time: sessions put back while a processor's
 * calls are paused do not all fall due in the same second when it may be asked again.
 */
function spreadMs(paymentId: string): number {
  let hash = 0;
  for (const char of paymentId) hash = (hash * 31 + char.charCodeAt(0)) % 10_007;
  return hash;
}

/**
 * Reads back one claimed session's status and schedules its next read: the next step of
 * `POLL_AFTER_MS` from the session's start, or none after a final answer. A read the processor's
 * counterpart refused (its calls paused, or no room) was not made: the session is put back for when
 * it may be asked again, and the read does not count as one of its scheduled checks.
 */
export async function pollSession(deps: Deps, row: ProcessorSessionRow): Promise<void> {
  try {
    const found = await findPaymentRow(deps.db, row.payment_id);
    const payment = found === undefined ? undefined : rowToPayment(found);
    // A payment that went on at another processor, or that is already paid, needs no more asking.
    const done =
      payment === undefined ||
      payment.processor !== row.processor ||
      payment.status === 'authorized' ||
      payment.status === 'completed' ||
      payment.status === 'refunded';
    const result: { final: boolean; refused?: Refusal } = done
      ? { final: true }
      : await readBack(deps, payment, 'background');
    const nowMs = deps.clock.nowMs();
    if (result.refused !== undefined) {
      const retryMs = result.refused.retryInMs + spreadMs(row.payment_id);
      await deps.transact((trx) =>
        updateSession(trx, row.payment_id, row.processor, {
          next_check_at: toStoredInstant(nowMs + retryMs),
          updated_at: toStoredInstant(nowMs),
        }),
      );
      return;
    }
    const checks = row.checks + 1;
    await deps.transact((trx) =>
      updateSession(trx, row.payment_id, row.processor, {
        checks,
        next_check_at: result.final ? null : pollAt(Date.parse(row.created_at), checks),
        updated_at: toStoredInstant(nowMs),
      }),
    );
  } catch (error) {
    // One payment must not stop the others; its lease makes it due again shortly.
    deps.logger.error({ err: error, payment_uuid: row.payment_id }, 'processor poll failed');
  }
}
