/**
 * The Shopify app: its sessions (tokens sealed), the shops that installed it, the webhook deliveries
 * already handled, and the customer data exports asked for by `customers/data_request`.
 */
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('shopify_sessions')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('shop', 'text', (c) => c.notNull())
    .addColumn('state', 'text', (c) => c.notNull())
    .addColumn('is_online', 'integer', (c) => c.notNull())
    .addColumn('scope', 'text')
    .addColumn('expires_at', 'text')
    .addColumn('access_token_ciphertext', 'text')
    .addColumn('refresh_token_ciphertext', 'text')
    .addColumn('refresh_token_expires_at', 'text')
    .addColumn('online_access_info', 'text')
    .addColumn('generation', 'integer', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('shopify_sessions_shop').on('shopify_sessions').column('shop').execute();

  await db.schema
    .createTable('shopify_shops')
    .addColumn('shop', 'text', (c) => c.primaryKey())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('installed_at', 'text', (c) => c.notNull())
    .addColumn('uninstalled_at', 'text')
    .addColumn('redacted_at', 'text')
    .addColumn('scopes', 'text', (c) => c.notNull())
    .addColumn('connection_id', 'text', (c) => c.references('store_connections.id'))
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('shopify_shops_uninstalled')
    .on('shopify_shops')
    .columns(['status', 'uninstalled_at'])
    .execute();

  await db.schema
    .createTable('shopify_webhook_deliveries')
    .addColumn('webhook_id', 'text', (c) => c.primaryKey())
    .addColumn('shop', 'text', (c) => c.notNull())
    .addColumn('topic', 'text', (c) => c.notNull())
    .addColumn('received_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('shopify_webhook_deliveries_shop')
    .on('shopify_webhook_deliveries')
    .column('shop')
    .execute();

  await db.schema
    .createTable('shopify_data_requests')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('shop', 'text', (c) => c.notNull())
    .addColumn('data_request_id', 'text', (c) => c.notNull())
    .addColumn('customer_id', 'text', (c) => c.notNull())
    .addColumn('export', 'text', (c) => c.notNull())
    .addColumn('requested_at', 'text', (c) => c.notNull())
    .addUniqueConstraint('shopify_data_requests_request', ['shop', 'data_request_id'])
    .execute();
}
