/**
 * Processor sessions and sequences (see processor-session.table.ts). Every write is conditional or
 * keyed, so two instances handling one payment's return and callback at once cannot undo each other.
 */
import { sql, type Updateable } from 'kysely';
import type { Executor } from './database.js';
import type { NewProcessorSessionRow, ProcessorSessionRow, ProcessorSessionTable } from './processor-session.table.js';

/** Creates the session unless the payment already has one at this processor; answers the stored row. */
export async function findOrCreateSession(db: Executor, row: NewProcessorSessionRow): Promise<ProcessorSessionRow> {
  await db
    .insertInto('processor_sessions')
    .values(row)
    .onConflict((oc) => oc.columns(['payment_id', 'processor']).doNothing())
    .execute();
  const stored = await findSession(db, row.payment_id, row.processor);
  if (stored === undefined) throw new Error(`processor session of ${row.payment_id} vanished`);
  return stored;
}

export async function findSession(
  db: Executor,
  paymentId: string,
  processor: string,
): Promise<ProcessorSessionRow | undefined> {
  return db
    .selectFrom('processor_sessions')
    .selectAll()
    .where('payment_id', '=', paymentId)
    .where('processor', '=', processor)
    .executeTakeFirst();
}

/**
 * Of `paymentIds`, the sessions that hold no processor's reference yet (no callback named the
 * processor's id of the order), as `payment_id` and `processor`. One query for a page of payments.
 */
export async function sessionsWithoutReference(
  db: Executor,
  paymentIds: readonly string[],
): Promise<Array<{ payment_id: string; processor: string }>> {
  if (paymentIds.length === 0) return [];
  return db
    .selectFrom('processor_sessions')
    .select(['payment_id', 'processor'])
    .where('payment_id', 'in', [...paymentIds])
    .where('reference', 'is', null)
    .execute();
}

/** The session a processor's callback names, by the order number we sent or the processor's reference. */
export async function findSessionByKey(
  db: Executor,
  processor: string,
  key: { orderNumber: string } | { reference: string },
): Promise<ProcessorSessionRow | undefined> {
  const query = db.selectFrom('processor_sessions').selectAll().where('processor', '=', processor);
  return 'orderNumber' in key
    ? query.where('order_number', '=', key.orderNumber).executeTakeFirst()
    : query.where('reference', '=', key.reference).executeTakeFirst();
}

export async function updateSession(
  db: Executor,
  paymentId: string,
  processor: string,
  changes: Updateable<ProcessorSessionTable>,
): Promise<void> {
  await db
    .updateTable('processor_sessions')
    .set(changes)
    .where('payment_id', '=', paymentId)
    .where('processor', '=', processor)
    .execute();
}

/**
 * Sessions whose status read is due, oldest first, none of `skipProcessors`. On PostgreSQL the rows are locked (SKIP LOCKED)
 * for the caller's transaction, which moves their `next_check_at` before reading any processor, so
 * instances polling together ask about different payments.
 */
export async function claimDueSessions(
  db: Executor,
  now: string,
  limit: number,
  lock: boolean,
  skipProcessors: readonly string[] = [],
): Promise<ProcessorSessionRow[]> {
  let query = db
    .selectFrom('processor_sessions')
    .selectAll()
    .where('next_check_at', 'is not', null)
    .where('next_check_at', '<=', now)
    .orderBy('next_check_at')
    .limit(limit);
  if (skipProcessors.length > 0) query = query.where('processor', 'not in', [...skipProcessors]);
  if (lock) query = query.forUpdate().skipLocked();
  return query.execute();
}

/**
 * The next value of the domain's counter for the processor within `range`: one more than the last
 * it gave, or `range.min` when that is higher (a new range above the old one). Undefined when that
 * is above `range.max`: the range is used up, and the counter does not move. Values only go up, so
 * none is given twice, whatever ranges come after.
 */
export async function nextSequenceValue(
  db: Executor,
  domainId: string,
  processor: string,
  range: { readonly min: number; readonly max: number },
): Promise<number | undefined> {
  if (range.min > range.max) return undefined;
  const next = sql<number>`case when processor_sequences.value < ${range.min} then ${range.min} else processor_sequences.value + 1 end`;
  const row = await db
    .insertInto('processor_sequences')
    .values({ domain_id: domainId, processor, value: range.min })
    .onConflict((oc) =>
      oc.columns(['domain_id', 'processor']).doUpdateSet({ value: next }).where(next, '<=', range.max),
    )
    .returning('value')
    .executeTakeFirst();
  return row === undefined ? undefined : Number(row.value);
}
