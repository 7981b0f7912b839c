/**
 * What the payment lifecycle needs: the card's last four digits and a reconciliation flag on the
 * payment, the merchant's customer records, and the outbox of events (written in the same
 * transaction as the status change that caused them, delivered by the webhooks dispatcher).
 */
import { type Kysely, sql } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('payments').addColumn('card_last4', 'text').execute();
  await db.schema.alterTable('payments').addColumn('reconciliation_flag', 'text').execute();

  await db.schema
    .createTable('customers')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('merchant_id', 'text', (c) => c.notNull().references('merchants.id'))
    .addColumn('environment', 'text', (c) => c.notNull())
    /** Lower-cased `customer_email` of the payments that created it; null for an anonymous buyer. */
    .addColumn('email', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('customers_email')
    .on('customers')
    .columns(['merchant_id', 'environment', 'email'])
    .unique()
    .where(sql.ref('email'), 'is not', null)
    .execute();

  await db.schema
    .createTable('outbox_events')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('merchant_id', 'text', (c) => c.notNull().references('merchants.id'))
    .addColumn('environment', 'text', (c) => c.notNull())
    .addColumn('domain_id', 'text', (c) => c.notNull().references('domains.id'))
    .addColumn('payment_id', 'text', (c) => c.notNull().references('payments.id'))
    .addColumn('event', 'text', (c) => c.notNull())
    .addColumn('livemode', 'integer', (c) => c.notNull())
    .addColumn('payload', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('outbox_events_payment')
    .on('outbox_events')
    .columns(['payment_id', 'created_at'])
    .execute();
  await db.schema.createIndex('outbox_events_created').on('outbox_events').column('created_at').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('outbox_events').execute();
  await db.schema.dropTable('customers').execute();
  await db.schema.alterTable('payments').dropColumn('reconciliation_flag').execute();
  await db.schema.alterTable('payments').dropColumn('card_last4').execute();
}
