/**
 * The Shopify payments app's capture and void sessions (`POST /shopify/payments/captures` and
 * `/voids`): one row per Shopify session `id`, written once (insert ON CONFLICT DO NOTHING), and its
 * own durable queue entry, as refund sessions are: the gateway's capture or void is asked (again, with
 * the same idempotency key) from the row until its outcome is known, then the decision is written and
 * sent to Shopify from the row until Shopify takes it.
 */
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('shopify_hold_sessions')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('gid', 'text', (c) => c.notNull())
    .addColumn('shop', 'text', (c) => c.notNull())
    .addColumn('payment_id', 'text', (c) => c.notNull())
    .addColumn('amount', 'text')
    .addColumn('currency', 'text')
    .addColumn('test', 'integer', (c) => c.notNull())
    .addColumn('state', 'text', (c) => c.notNull())
    .addColumn('resolution', 'text')
    .addColumn('gateway_calls', 'integer', (c) => c.notNull())
    .addColumn('attempts', 'integer', (c) => c.notNull())
    .addColumn('next_attempt_at', 'text')
    .addColumn('last_error', 'text')
    .addColumn('api_version', 'text')
    .addColumn('decided_at', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('shopify_hold_sessions_due')
    .on('shopify_hold_sessions')
    .columns(['state', 'next_attempt_at'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('shopify_hold_sessions').execute();
}
