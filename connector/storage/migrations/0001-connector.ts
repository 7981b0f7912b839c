/**
 * The connector's tables: store connections, the order map with every payment made for an order,
 * handled webhook deliveries, refunds from either side, reconciliation runs and their findings.
 */
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('connector_settings')
    .addColumn('key', 'text', (c) => c.primaryKey())
    .addColumn('value', 'text', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('store_connections')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('platform', 'text', (c) => c.notNull())
    .addColumn('store_url', 'text', (c) => c.notNull())
    .addColumn('domain', 'text', (c) => c.notNull())
    .addColumn('environment', 'text', (c) => c.notNull())
    .addColumn('token_id', 'text', (c) => c.notNull())
    .addColumn('token_hash', 'text', (c) => c.notNull().unique())
    .addColumn('token_ciphertext', 'text', (c) => c.notNull())
    .addColumn('credentials_ciphertext', 'text')
    .addColumn('webhook_secrets_ciphertext', 'text', (c) => c.notNull())
    .addColumn('secrets_refreshed_at', 'text', (c) => c.notNull())
    .addColumn('key_exchange_hash', 'text', (c) => c.unique())
    .addColumn('key_exchange_ciphertext', 'text')
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('last_webhook_at', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('order_links')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('connection_id', 'text', (c) => c.notNull().references('store_connections.id'))
    .addColumn('store_order_id', 'text', (c) => c.notNull())
    .addColumn('gateway_order_id', 'text', (c) => c.notNull().unique())
    .addColumn('amount', 'bigint', (c) => c.notNull())
    .addColumn('currency', 'text', (c) => c.notNull())
    .addColumn('gateway_status', 'text')
    .addColumn('paid_payment_uuid', 'text')
    .addColumn('store_sync', 'text', (c) => c.notNull())
    .addColumn('sync_attempts', 'integer', (c) => c.notNull())
    .addColumn('next_sync_at', 'text')
    .addColumn('last_sync_error', 'text')
    .addColumn('flag', 'text')
    .addColumn('next_poll_at', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addUniqueConstraint('order_links_store_order', ['connection_id', 'store_order_id'])
    .execute();
  await db.schema
    .createIndex('order_links_sync_due')
    .on('order_links')
    .columns(['store_sync', 'next_sync_at'])
    .execute();
  await db.schema.createIndex('order_links_poll_due').on('order_links').column('next_poll_at').execute();
  await db.schema
    .createIndex('order_links_created')
    .on('order_links')
    .columns(['connection_id', 'created_at'])
    .execute();

  await db.schema
    .createTable('order_payments')
    .addColumn('uuid', 'text', (c) => c.primaryKey())
    .addColumn('link_id', 'text', (c) => c.notNull().references('order_links.id'))
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('amount', 'bigint', (c) => c.notNull())
    .addColumn('currency', 'text', (c) => c.notNull())
    .addColumn('noted_status', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('order_payments_link').on('order_payments').column('link_id').execute();

  await db.schema
    .createTable('webhook_receipts')
    .addColumn('delivery_id', 'text', (c) => c.primaryKey())
    .addColumn('connection_id', 'text', (c) => c.notNull().references('store_connections.id'))
    .addColumn('event', 'text', (c) => c.notNull())
    .addColumn('payment_uuid', 'text', (c) => c.notNull())
    .addColumn('received_at', 'text', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('refund_records')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('connection_id', 'text', (c) => c.notNull().references('store_connections.id'))
    .addColumn('link_id', 'text', (c) => c.notNull().references('order_links.id'))
    .addColumn('gateway_refund_uuid', 'text', (c) => c.unique())
    .addColumn('store_refund_id', 'text')
    .addColumn('amount', 'bigint', (c) => c.notNull())
    .addColumn('origin', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('refund_records_link').on('refund_records').column('link_id').execute();

  await db.schema
    .createTable('reconciliation_runs')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('connection_id', 'text', (c) => c.notNull().references('store_connections.id'))
    .addColumn('range_from', 'text', (c) => c.notNull())
    .addColumn('range_to', 'text', (c) => c.notNull())
    .addColumn('repair', 'integer', (c) => c.notNull())
    .addColumn('orders_checked', 'integer', (c) => c.notNull())
    .addColumn('started_at', 'text', (c) => c.notNull())
    .addColumn('finished_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('reconciliation_findings')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('run_id', 'text', (c) => c.notNull().references('reconciliation_runs.id'))
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('store_order_id', 'text', (c) => c.notNull())
    .addColumn('payment_uuid', 'text')
    .addColumn('detail', 'text', (c) => c.notNull())
    .addColumn('action', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('reconciliation_findings_run').on('reconciliation_findings').column('run_id').execute();
}
