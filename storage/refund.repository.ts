/**
 * Refunds and the payment columns they move (`refunded_amount`, `refund_reserved_amount`, and the
 * status `refunded`). Every change is one conditional update, so concurrent refunds of one payment
 * (requests on several instances, the status-check job) can never refund more than was paid:
 *
 * - a refund first reserves its amount: the update only succeeds while the payment is completed
 *   and `amount - refunded_amount - refund_reserved_amount` covers it;
 * - a refund is settled once: the update only succeeds while it is still pending or unknown, and
 *   only the settler that won moves the payment's amounts.
 */
import { type SqlBool, sql } from 'kysely';
import type { Executor } from './database.js';
import type { PaymentRow } from './payment.table.js';
import type { NewRefundRow, RefundRow } from './refund.table.js';

/** Refund statuses that still hold their amount reserved on the payment. */
export const IN_FLIGHT_REFUND_STATUSES = ['pending', 'unknown'] as const;

export async function insertRefund(db: Executor, row: NewRefundRow): Promise<void> {
  await db.insertInto('refunds').values(row).execute();
}

export async function findRefund(db: Executor, id: string): Promise<RefundRow | undefined> {
  return db.selectFrom('refunds').selectAll().where('id', '=', id).executeTakeFirst();
}

/** A payment's refunds, every status, oldest first. */
export async function listPaymentRefunds(db: Executor, paymentId: string): Promise<RefundRow[]> {
  return db
    .selectFrom('refunds')
    .selectAll()
    .where('payment_id', '=', paymentId)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
}

/**
 * Reserves `amount` on a completed payment if that much is still free (not refunded and not held
 * by refunds in flight). Answers the updated payment, or undefined when the condition failed.
 */
export async function reserveRefundAmount(
  db: Executor,
  paymentId: string,
  amount: number,
  now: string,
): Promise<PaymentRow | undefined> {
  return db
    .updateTable('payments')
    .set({ refund_reserved_amount: sql<number>`refund_reserved_amount + ${amount}`, updated_at: now })
    .where('id', '=', paymentId)
    .where('status', '=', 'completed')
    .where(sql<SqlBool>`amount - refunded_amount - refund_reserved_amount >= ${amount}`)
    .returningAll()
    .executeTakeFirst();
}

/**
 * Reserves the whole remaining amount of a completed payment (a refund without `amount`), only
 * when no refund is in flight and something remains. The reserved amount is then
 * `amount - refunded_amount` of the answered row.
 */
export async function reserveRemainingAmount(
  db: Executor,
  paymentId: string,
  now: string,
): Promise<PaymentRow | undefined> {
  return db
    .updateTable('payments')
    .set({ refund_reserved_amount: sql<number>`amount - refunded_amount`, updated_at: now })
    .where('id', '=', paymentId)
    .where('status', '=', 'completed')
    .where('refund_reserved_amount', '=', 0)
    .where(sql<SqlBool>`amount > refunded_amount`)
    .returningAll()
    .executeTakeFirst();
}

/**
 * A refund of `amount` succeeded: moves it from reserved to refunded; when the whole amount is now
 * refunded the payment becomes `refunded` with `refunded_at`. Call only for the refund whose
 * settlement just won (see `settleRefund`).
 */
export async function applySucceededRefund(
  db: Executor,
  paymentId: string,
  amount: number,
  now: string,
): Promise<PaymentRow | undefined> {
  return db
    .updateTable('payments')
    .set({
      refunded_amount: sql<number>`refunded_amount + ${amount}`,
      refund_reserved_amount: sql<number>`refund_reserved_amount - ${amount}`,
      status: sql<
        'refunded' | 'completed'
      >`CASE WHEN refunded_amount + ${amount} >= amount THEN 'refunded' ELSE status END`,
      refunded_at: sql<string | null>`CASE WHEN refunded_amount + ${amount} >= amount THEN ${now} ELSE refunded_at END`,
      updated_at: now,
    })
    .where('id', '=', paymentId)
    .where('refund_reserved_amount', '>=', amount)
    .returningAll()
    .executeTakeFirst();
}

/** A refund of `amount` failed: its reservation is released, so the amount may be refunded again. */
export async function releaseRefundReservation(
  db: Executor,
  paymentId: string,
  amount: number,
  now: string,
): Promise<PaymentRow | undefined> {
  return db
    .updateTable('payments')
    .set({ refund_reserved_amount: sql<number>`refund_reserved_amount - ${amount}`, updated_at: now })
    .where('id', '=', paymentId)
    .where('refund_reserved_amount', '>=', amount)
    .returningAll()
    .executeTakeFirst();
}

export type RefundSettlement =
  | { readonly status: 'succeeded'; readonly processorReference: string }
  | { readonly status: 'failed'; readonly failureCode: 'refund_declined' | 'processor_unavailable' };

/** Settles a refund still pending or unknown; answers the settled row, or undefined when it was already settled. */
export async function settleRefund(
  db: Executor,
  id: string,
  settlement: RefundSettlement,
  now: string,
): Promise<RefundRow | undefined> {
  return db
    .updateTable('refunds')
    .set(
      settlement.status === 'succeeded'
        ? {
            status: 'succeeded',
            processor_reference: settlement.processorReference,
            next_check_at: null,
            completed_at: now,
            updated_at: now,
          }
        : {
            status: 'failed',
            failure_code: settlement.failureCode,
            next_check_at: null,
            completed_at: now,
            updated_at: now,
          },
    )
    .where('id', '=', id)
    .where('status', 'in', [...IN_FLIGHT_REFUND_STATUSES])
    .returningAll()
    .executeTakeFirst();
}

/** The processor did not answer: the refund stays in flight, its outcome unknown, checked at `nextCheckAt`. */
export async function markRefundUnknown(
  db: Executor,
  id: string,
  nextCheckAt: string,
  now: string,
): Promise<RefundRow | undefined> {
  return db
    .updateTable('refunds')
    .set({ status: 'unknown', next_check_at: nextCheckAt, updated_at: now })
    .where('id', '=', id)
    .where('status', 'in', [...IN_FLIGHT_REFUND_STATUSES])
    .returningAll()
    .executeTakeFirst();
}

/**
 * Claims up to `limit` refunds in flight whose status check is due, oldest check first: counts the
 * check and moves `next_check_at` to `nextCheckAt(checks after this one)`, so nobody else checks
 * them before then (and a crash mid-check only delays the next one). On PostgreSQL the due rows are
 * locked with SKIP LOCKED, so instances claiming together never take the same refund. Run it in a
 * transaction.
 */
export async function claimDueRefunds(
  trx: Executor,
  options: {
    now: string;
    limit: number;
    lock: boolean;
    nextCheckAt: (checks: number) => string;
    /** Processors whose checks are left for later (as many in flight as they may have). */
    skipProcessors?: readonly string[];
  },
): Promise<RefundRow[]> {
  let due = trx
    .selectFrom('refunds')
    .selectAll()
    .where('status', 'in', [...IN_FLIGHT_REFUND_STATUSES])
    .where('next_check_at', '<=', options.now)
    .orderBy('next_check_at')
    .orderBy('id')
    .limit(options.limit);
  const skip = options.skipProcessors ?? [];
  if (skip.length > 0) due = due.where('processor', 'not in', [...skip]);
  if (options.lock) due = due.forUpdate().skipLocked();
  const claimed: RefundRow[] = [];
  for (const row of await due.execute()) {
    const checks = Number(row.checks) + 1;
    const updated = await trx
      .updateTable('refunds')
      .set({ checks, next_check_at: options.nextCheckAt(checks), updated_at: options.now })
      .where('id', '=', row.id)
      .where('status', 'in', [...IN_FLIGHT_REFUND_STATUSES])
      .where('next_check_at', '=', row.next_check_at)
      .returningAll()
      .executeTakeFirst();
    if (updated !== undefined) claimed.push(updated);
  }
  return claimed;
}

/**
 * Forgets the `Idempotency-Key` bound to a refund (its stored body names the refund), so the client
 * may retry with the same key: used when nothing reached the processor.
 */
export async function forgetRefundIdempotencyKey(
  db: Executor,
  key: { merchant_id: string; environment: 'live' | 'test'; scope: string; idempotency_key: string },
  boundBody: string,
): Promise<number> {
  const result = await db
    .deleteFrom('idempotency_keys')
    .where('merchant_id', '=', key.merchant_id)
    .where('environment', '=', key.environment)
    .where('scope', '=', key.scope)
    .where('idempotency_key', '=', key.idempotency_key)
    .where('response_body', '=', boundBody)
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}
