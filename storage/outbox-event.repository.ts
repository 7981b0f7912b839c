import type { Executor } from './database.js';
import type { NewOutboxEventRow, OutboxEventRow } from './outbox-event.table.js';

export async function insertOutboxEvent(db: Executor, row: NewOutboxEventRow): Promise<void> {
  await db.insertInto('outbox_events').values(row).execute();
}

export async function listPaymentEvents(db: Executor, paymentId: string): Promise<OutboxEventRow[]> {
  return db
    .selectFrom('outbox_events')
    .selectAll()
    .where('payment_id', '=', paymentId)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
}

export async function findOutboxEvent(db: Executor, id: string): Promise<OutboxEventRow | undefined> {
  return db.selectFrom('outbox_events').selectAll().where('id', '=', id).executeTakeFirst();
}

/** Which test events (`livemode` 0) of a merchant, or of one of its domains, `bin/gateway listen` follows. */
export interface TestEventFilter {
  readonly merchantId: string;
  /** One domain's events only; null: every domain of the merchant. */
  readonly domainId: string | null;
}

/** When the newest test event of the filter was written, or null: none yet. */
export async function newestTestEventAt(db: Executor, filter: TestEventFilter): Promise<string | null> {
  let query = db
    .selectFrom('outbox_events')
    .select((eb) => eb.fn.max('created_at').as('newest'))
    .where('merchant_id', '=', filter.merchantId)
    .where('livemode', '=', 0);
  if (filter.domainId !== null) query = query.where('domain_id', '=', filter.domainId);
  const row = await query.executeTakeFirst();
  return row?.newest ?? null;
}

/** The ids and times of the filter's test events written at `since` or later (all when null), oldest first. */
export async function listTestEventIdsSince(
  db: Executor,
  filter: TestEventFilter,
  since: string | null,
): Promise<Array<Pick<OutboxEventRow, 'id' | 'created_at'>>> {
  let query = db
    .selectFrom('outbox_events')
    .select(['id', 'created_at'])
    .where('merchant_id', '=', filter.merchantId)
    .where('livemode', '=', 0);
  if (filter.domainId !== null) query = query.where('domain_id', '=', filter.domainId);
  if (since !== null) query = query.where('created_at', '>=', since);
  return query.orderBy('created_at').orderBy('id').execute();
}

/** The events of these ids, oldest first. */
export async function findOutboxEvents(db: Executor, ids: readonly string[]): Promise<OutboxEventRow[]> {
  if (ids.length === 0) return [];
  return db
    .selectFrom('outbox_events')
    .selectAll()
    .where('id', 'in', [...ids])
    .orderBy('created_at')
    .orderBy('id')
    .execute();
}
