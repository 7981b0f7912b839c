/**
 * Webhook delivery and refunds: one delivery row per event and target (retried on a schedule,
 * claimed by one instance at a time), the refunds of a payment with the amount reserved by refunds
 * still in flight, the merchant emails outbox, and the per-domain throttle of failure emails.
 */
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('payments')
    .addColumn('refund_reserved_amount', 'bigint', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema.alterTable('domains').addColumn('failure_email_at', 'text').execute();

  await db.schema
    .createTable('webhook_deliveries')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('event_id', 'text', (c) => c.notNull().references('outbox_events.id'))
    .addColumn('merchant_id', 'text', (c) => c.notNull().references('merchants.id'))
    .addColumn('domain_id', 'text', (c) => c.notNull().references('domains.id'))
    .addColumn('url', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('attempts', 'integer', (c) => c.notNull())
    .addColumn('next_attempt_at', 'text')
    .addColumn('last_attempt_at', 'text')
    .addColumn('last_status_code', 'integer')
    .addColumn('last_error', 'text')
    .addColumn('delivered_at', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('webhook_deliveries_due')
    .on('webhook_deliveries')
    .columns(['status', 'next_attempt_at'])
    .execute();
  await db.schema.createIndex('webhook_deliveries_event').on('webhook_deliveries').column('event_id').execute();

  await db.schema
    .createTable('refunds')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('payment_id', 'text', (c) => c.notNull().references('payments.id'))
    .addColumn('merchant_id', 'text', (c) => c.notNull().references('merchants.id'))
    .addColumn('environment', 'text', (c) => c.notNull())
    .addColumn('processor', 'text', (c) => c.notNull())
    .addColumn('amount', 'bigint', (c) => c.notNull())
    .addColumn('reason', 'text')
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('failure_code', 'text')
    .addColumn('processor_reference', 'text')
    .addColumn('checks', 'integer', (c) => c.notNull())
    .addColumn('next_check_at', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addColumn('completed_at', 'text')
    .execute();
  await db.schema.createIndex('refunds_payment').on('refunds').columns(['payment_id', 'created_at']).execute();
  await db.schema.createIndex('refunds_due').on('refunds').columns(['status', 'next_check_at']).execute();

  await db.schema
    .createTable('merchant_emails')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('merchant_id', 'text', (c) => c.notNull().references('merchants.id'))
    .addColumn('domain_id', 'text', (c) => c.references('domains.id'))
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('recipient', 'text')
    .addColumn('subject', 'text', (c) => c.notNull())
    .addColumn('body', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('attempts', 'integer', (c) => c.notNull())
    .addColumn('next_attempt_at', 'text')
    .addColumn('last_error', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('sent_at', 'text')
    .execute();
  await db.schema
    .createIndex('merchant_emails_due')
    .on('merchant_emails')
    .columns(['status', 'next_attempt_at'])
    .execute();
  await db.schema
    .createIndex('merchant_emails_merchant')
    .on('merchant_emails')
    .columns(['merchant_id', 'created_at'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('merchant_emails').execute();
  await db.schema.dropTable('refunds').execute();
  await db.schema.dropTable('webhook_deliveries').execute();
  await db.schema.alterTable('domains').dropColumn('failure_email_at').execute();
  await db.schema.alterTable('payments').dropColumn('refund_reserved_amount').execute();
}
