/**
 * The Shopify payments app (offsite payments extension): the payment sessions Shopify started, the
 * one session per checkout group that may be resolved, and the refund sessions. Each session row is
 * also its own durable queue entry: the decision (resolve, reject) is written first and the call to
 * Shopify's Payments Apps API is retried from the row until Shopify took it.
 */
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('shopify_payment_sessions')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('gid', 'text', (c) => c.notNull())
    .addColumn('payment_group', 'text', (c) => c.notNull())
    .addColumn('shop', 'text', (c) => c.notNull())
    .addColumn('connection_id', 'text', (c) => c.notNull().references('store_connections.id'))
    .addColumn('amount', 'text', (c) => c.notNull())
    .addColumn('amount_amd', 'integer', (c) => c.notNull())
    .addColumn('currency', 'text', (c) => c.notNull())
    .addColumn('test', 'integer', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('cancel_url', 'text', (c) => c.notNull())
    .addColumn('gateway_payment_uuid', 'text')
    .addColumn('checkout_url', 'text')
    .addColumn('state', 'text', (c) => c.notNull())
    .addColumn('resolution', 'text')
    .addColumn('next_action_url', 'text')
    .addColumn('flag', 'text')
    .addColumn('attempts', 'integer', (c) => c.notNull())
    .addColumn('next_attempt_at', 'text')
    .addColumn('next_poll_at', 'text')
    .addColumn('last_error', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('shopify_payment_sessions_payment')
    .on('shopify_payment_sessions')
    .column('gateway_payment_uuid')
    .execute();
  await db.schema
    .createIndex('shopify_payment_sessions_due')
    .on('shopify_payment_sessions')
    .columns(['state', 'next_attempt_at'])
    .execute();
  await db.schema
    .createIndex('shopify_payment_sessions_group')
    .on('shopify_payment_sessions')
    .column('payment_group')
    .execute();

  await db.schema
    .createTable('shopify_payment_groups')
    .addColumn('payment_group', 'text', (c) => c.primaryKey())
    .addColumn('session_id', 'text', (c) => c.notNull())
    .addColumn('claimed_at', 'text', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('shopify_refund_sessions')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('gid', 'text', (c) => c.notNull())
    .addColumn('shop', 'text', (c) => c.notNull())
    .addColumn('payment_id', 'text', (c) => c.notNull())
    .addColumn('amount', 'text', (c) => c.notNull())
    .addColumn('currency', 'text', (c) => c.notNull())
    .addColumn('gateway_refund_uuid', 'text')
    .addColumn('state', 'text', (c) => c.notNull())
    .addColumn('resolution', 'text')
    .addColumn('attempts', 'integer', (c) => c.notNull())
    .addColumn('next_attempt_at', 'text')
    .addColumn('last_error', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('shopify_refund_sessions_due')
    .on('shopify_refund_sessions')
    .columns(['state', 'next_attempt_at'])
    .execute();
}
