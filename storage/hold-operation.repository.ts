/**
 * Captures and releases of holds (hold-operation.table.ts) and the payment columns they move. Every
 * change is one conditional update, so requests on several instances, the status-check job and the
 * expiry job can never send two operations for one hold, nor settle one twice:
 *
 * - an operation first reserves the hold: the update only succeeds while the payment is
 *   `authorized` and no other operation holds it (`hold_operation_id` is null);
 * - an operation is settled once: the update only succeeds while it is still pending or unknown,
 *   and only the settler that won moves the payment (which still names that operation).
 */
import type { Executor } from './database.js';
import type { HoldOperationRow, NewHoldOperationRow } from './hold-operation.table.js';
import type { PaymentRow } from './payment.table.js';

/** Operation statuses that still hold the payment's hold reserved. */
export const IN_FLIGHT_HOLD_STATUSES = ['pending', 'unknown'] as const;

export async function insertHoldOperation(db: Executor, row: NewHoldOperationRow): Promise<void> {
  await db.insertInto('hold_operations').values(row).execute();
}

export async function findHoldOperation(db: Executor, id: string): Promise<HoldOperationRow | undefined> {
  return db.selectFrom('hold_operations').selectAll().where('id', '=', id).executeTakeFirst();
}

/** A payment's captures and releases, every status, oldest first. */
export async function listPaymentHoldOperations(db: Executor, paymentId: string): Promise<HoldOperationRow[]> {
  return db
    .selectFrom('hold_operations')
    .selectAll()
    .where('payment_id', '=', paymentId)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
}

/** Reserves the payment's hold for operation `operationId`; answers the payment, or undefined when it is not free. */
export async function reserveHold(
  db: Executor,
  paymentId: string,
  operationId: string,
  now: string,
): Promise<PaymentRow | undefined> {
  return db
    .updateTable('payments')
    .set({ hold_operation_id: operationId, updated_at: now })
    .where('id', '=', paymentId)
    .where('status', '=', 'authorized')
    .where('hold_operation_id', 'is', null)
    .returningAll()
    .executeTakeFirst();
}

/** The operation failed and nothing was taken or released: the hold is free for another capture or void. */
export async function freeHold(
  db: Executor,
  paymentId: string,
  operationId: string,
  now: string,
): Promise<PaymentRow | undefined> {
  return db
    .updateTable('payments')
    .set({ hold_operation_id: null, updated_at: now })
    .where('id', '=', paymentId)
    .where('hold_operation_id', '=', operationId)
    .returningAll()
    .executeTakeFirst();
}

/** The capture `operationId` took `amount`: authorized → completed for that amount. */
export async function captureHold(
  db: Executor,
  paymentId: string,
  operationId: string,
  amount: number,
  now: string,
): Promise<PaymentRow | undefined> {
  return db
    .updateTable('payments')
    .set({ status: 'completed', amount, failure_code: null, completed_at: now, updated_at: now })
    .where('id', '=', paymentId)
    .where('status', '=', 'authorized')
    .where('hold_operation_id', '=', operationId)
    .returningAll()
    .executeTakeFirst();
}

/** The hold ended uncaptured: authorized → expired with `failureCode`; the order is free again. */
export async function releaseHold(
  db: Executor,
  paymentId: string,
  operationId: string,
  failureCode: string,
  now: string,
): Promise<PaymentRow | undefined> {
  return db
    .updateTable('payments')
    .set({ status: 'expired', failure_code: failureCode, active_order_id: null, updated_at: now })
    .where('id', '=', paymentId)
    .where('status', '=', 'authorized')
    .where('hold_operation_id', '=', operationId)
    .returningAll()
    .executeTakeFirst();
}

export type HoldSettlement =
  | { readonly status: 'succeeded'; readonly processorReference: string | null; readonly amount?: number }
  | { readonly status: 'failed'; readonly failureCode: string };

/** Settles an operation still pending or unknown; answers the settled row, or undefined when it was already settled. */
export async function settleHoldOperation(
  db: Executor,
  id: string,
  settlement: HoldSettlement,
  now: string,
): Promise<HoldOperationRow | undefined> {
  return db
    .updateTable('hold_operations')
    .set(
      settlement.status === 'succeeded'
        ? {
            status: 'succeeded',
            processor_reference: settlement.processorReference,
            ...(settlement.amount === undefined ? {} : { amount: settlement.amount }),
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
    .where('status', 'in', [...IN_FLIGHT_HOLD_STATUSES])
    .returningAll()
    .executeTakeFirst();
}

/** The processor did not answer: the operation stays in flight, its outcome unknown, checked at `nextCheckAt`. */
export async function markHoldOperationUnknown(
  db: Executor,
  id: string,
  nextCheckAt: string,
  now: string,
): Promise<HoldOperationRow | undefined> {
  return db
    .updateTable('hold_operations')
    .set({ status: 'unknown', next_check_at: nextCheckAt, updated_at: now })
    .where('id', '=', id)
    .where('status', 'in', [...IN_FLIGHT_HOLD_STATUSES])
    .returningAll()
    .executeTakeFirst();
}

/**
 * Claims up to `limit` operations in flight whose status check is due, oldest first: counts the
 * check and moves `next_check_at` along the back-off, so nobody else checks them before then. On
 * PostgreSQL the due rows are locked with SKIP LOCKED. Run it in a transaction.
 */
export async function claimDueHoldOperations(
  trx: Executor,
  options: {
    now: string;
    limit: number;
    lock: boolean;
    nextCheckAt: (checks: number) => string;
    skipProcessors?: readonly string[];
  },
): Promise<HoldOperationRow[]> {
  let due = trx
    .selectFrom('hold_operations')
    .selectAll()
    .where('status', 'in', [...IN_FLIGHT_HOLD_STATUSES])
    .where('next_check_at', '<=', options.now)
    .orderBy('next_check_at')
    .orderBy('id')
    .limit(options.limit);
  const skip = options.skipProcessors ?? [];
  if (skip.length > 0) due = due.where('processor', 'not in', [...skip]);
  if (options.lock) due = due.forUpdate().skipLocked();
  const claimed: HoldOperationRow[] = [];
  for (const row of await due.execute()) {
    const checks = Number(row.checks) + 1;
    const updated = await trx
      .updateTable('hold_operations')
      .set({ checks, next_check_at: options.nextCheckAt(checks), updated_at: options.now })
      .where('id', '=', row.id)
      .where('status', 'in', [...IN_FLIGHT_HOLD_STATUSES])
      .where('next_check_at', '=', row.next_check_at)
      .returningAll()
      .executeTakeFirst();
    if (updated !== undefined) claimed.push(updated);
  }
  return claimed;
}

/** Ids of authorized payments whose hold ran out (`capture_before` at or before `now`) and is free, earliest first. */
export async function listRunOutHolds(
  db: Executor,
  now: string,
  limit: number,
  skipProcessors: readonly string[] = [],
): Promise<string[]> {
  let query = db
    .selectFrom('payments')
    .select('id')
    .where('status', '=', 'authorized')
    .where('capture_before', '<=', now)
    .where('hold_operation_id', 'is', null)
    .orderBy('capture_before')
    .limit(limit);
  if (skipProcessors.length > 0) query = query.where('processor', 'not in', [...skipProcessors]);
  return (await query.execute()).map((r) => r.id);
}
