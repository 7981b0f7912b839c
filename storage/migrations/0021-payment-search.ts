/**
 * The dashboard's payment search (docs/decisions.md "Dashboard payments list"): one box matching a
 * payment's uuid, order id or RRN exactly, or its customer's email ignoring case. The uuid is the
 * primary key and the order id has `payments_order`; these two indexes find the RRN and the
 * lowered email within one merchant and environment, whatever the number of payments.
 */
import { type Kysely, sql } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createIndex('payments_search_rrn')
    .on('payments')
    .columns(['merchant_id', 'environment', 'rrn'])
    .execute();
  // An expression index: both SQLite and PostgreSQL use it for `lower(customer_email) = ?`.
  await sql`create index payments_search_email on payments (merchant_id, environment, lower(customer_email))`.execute(
    db,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('payments_search_email').execute();
  await db.schema.dropIndex('payments_search_rrn').execute();
}
