/**
 * The core tables. Portable between SQLite and PostgreSQL: no database-side defaults for ids or
 * timestamps (the application supplies both), text timestamps, integer booleans.
 */
import { type Kysely, sql } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('merchants')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('email', 'text')
    .addColumn('business_verified', 'integer', (c) => c.notNull())
    .addColumn('unlimited', 'integer', (c) => c.notNull())
    .addColumn('rate_limit_per_minute', 'integer')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('api_keys')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('merchant_id', 'text', (c) => c.notNull().references('merchants.id'))
    .addColumn('environment', 'text', (c) => c.notNull())
    .addColumn('access', 'text', (c) => c.notNull())
    .addColumn('key_hash', 'text', (c) => c.notNull().unique())
    .addColumn('key_prefix', 'text', (c) => c.notNull())
    .addColumn('key_last4', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('revoked_at', 'text')
    .execute();
  await db.schema.createIndex('api_keys_merchant').on('api_keys').columns(['merchant_id', 'created_at']).execute();

  await db.schema
    .createTable('domains')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('merchant_id', 'text', (c) => c.notNull().references('merchants.id'))
    .addColumn('host', 'text', (c) => c.notNull())
    .addColumn('hosted', 'integer', (c) => c.notNull())
    .addColumn('verified', 'integer', (c) => c.notNull())
    .addColumn('webhook_url', 'text')
    .addColumn('webhook_secret', 'text', (c) => c.notNull())
    .addColumn('webhook_secret_next', 'text')
    .addColumn('webhook_secret_next_at', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addUniqueConstraint('domains_merchant_host', ['merchant_id', 'host'])
    .execute();
  // A host can be verified for one account only.
  await db.schema
    .createIndex('domains_verified_host')
    .on('domains')
    .column('host')
    .unique()
    .where(sql.ref('verified'), '=', sql.lit(1))
    .execute();

  await db.schema
    .createTable('domain_processors')
    .addColumn('domain_id', 'text', (c) => c.notNull().references('domains.id'))
    .addColumn('processor', 'text', (c) => c.notNull())
    .addColumn('enabled', 'integer', (c) => c.notNull())
    .addColumn('config', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('domain_processors_pk', ['domain_id', 'processor'])
    .execute();

  await db.schema
    .createTable('payments')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('merchant_id', 'text', (c) => c.notNull().references('merchants.id'))
    .addColumn('environment', 'text', (c) => c.notNull())
    .addColumn('sandbox', 'integer', (c) => c.notNull())
    .addColumn('domain_id', 'text', (c) => c.notNull().references('domains.id'))
    .addColumn('order_id', 'text', (c) => c.notNull())
    .addColumn('active_order_id', 'text')
    .addColumn('amount', 'bigint', (c) => c.notNull())
    .addColumn('refunded_amount', 'bigint', (c) => c.notNull())
    .addColumn('currency', 'text', (c) => c.notNull())
    .addColumn('charge', 'text')
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('processor', 'text')
    .addColumn('redirect_mode', 'text', (c) => c.notNull())
    .addColumn('payment_flow', 'text', (c) => c.notNull())
    .addColumn('qr_code', 'text')
    .addColumn('rrn', 'text')
    .addColumn('failure_code', 'text')
    .addColumn('customer_id', 'text')
    .addColumn('customer_email', 'text')
    .addColumn('customer_name', 'text')
    .addColumn('description', 'text')
    .addColumn('return_url', 'text', (c) => c.notNull())
    .addColumn('cancel_url', 'text')
    .addColumn('callback_url', 'text')
    .addColumn('checkout_token', 'text', (c) => c.notNull().unique())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .addColumn('completed_at', 'text')
    .addColumn('refunded_at', 'text')
    .execute();
  // The list endpoint: newest first within one merchant and environment, with each filter.
  await db.schema
    .createIndex('payments_list')
    .on('payments')
    .columns(['merchant_id', 'environment', 'created_at', 'id'])
    .execute();
  await db.schema
    .createIndex('payments_list_status')
    .on('payments')
    .columns(['merchant_id', 'environment', 'status', 'created_at'])
    .execute();
  await db.schema
    .createIndex('payments_list_processor')
    .on('payments')
    .columns(['merchant_id', 'environment', 'processor', 'created_at'])
    .execute();
  await db.schema
    .createIndex('payments_order')
    .on('payments')
    .columns(['merchant_id', 'environment', 'order_id', 'created_at'])
    .execute();
  await db.schema
    .createIndex('payments_active_order')
    .on('payments')
    .columns(['merchant_id', 'environment', 'active_order_id'])
    .unique()
    .execute();
  // Due work: payments still open past their expiry.
  await db.schema.createIndex('payments_due').on('payments').columns(['status', 'expires_at']).execute();

  await db.schema
    .createTable('idempotency_keys')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('merchant_id', 'text', (c) => c.notNull().references('merchants.id'))
    .addColumn('environment', 'text', (c) => c.notNull())
    .addColumn('scope', 'text', (c) => c.notNull())
    .addColumn('idempotency_key', 'text', (c) => c.notNull())
    .addColumn('request_hash', 'text', (c) => c.notNull())
    .addColumn('state', 'text', (c) => c.notNull())
    .addColumn('response_status', 'integer')
    .addColumn('response_body', 'text')
    .addColumn('locked_until', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .addUniqueConstraint('idempotency_keys_scope_key', ['merchant_id', 'environment', 'scope', 'idempotency_key'])
    .execute();
  await db.schema.createIndex('idempotency_keys_expiry').on('idempotency_keys').column('expires_at').execute();

  await db.schema
    .createTable('rate_limit_counters')
    .addColumn('bucket', 'text', (c) => c.notNull())
    .addColumn('window_minute', 'integer', (c) => c.notNull())
    .addColumn('hits', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('rate_limit_counters_pk', ['bucket', 'window_minute'])
    .execute();
  await db.schema.createIndex('rate_limit_counters_window').on('rate_limit_counters').column('window_minute').execute();

  await db.schema
    .createTable('service_settings')
    .addColumn('name', 'text', (c) => c.primaryKey())
    .addColumn('value', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of [
    'service_settings',
    'rate_limit_counters',
    'idempotency_keys',
    'payments',
    'domain_processors',
    'domains',
    'api_keys',
    'merchants',
  ]) {
    await db.schema.dropTable(table).execute();
  }
}
