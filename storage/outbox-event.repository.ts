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
