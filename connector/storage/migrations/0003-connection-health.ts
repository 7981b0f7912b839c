/**
 * Connection health and the plugin's admin pages: what the last store call said, missed webhooks,
 * per-order webhook times and poll backoff, reconciliation run status/trigger, the shop's order
 * number on findings, and the findings already written as order notes. Defaults are constants (no
 * database clock); links that never had a payment stop being polled.
 */
import { type Kysely, sql } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const column of ['store_state', 'store_error_at', 'store_error_message', 'last_missed_webhook_at']) {
    await db.schema.alterTable('store_connections').addColumn(column, 'text').execute();
  }
  await db.schema
    .alterTable('order_links')
    .addColumn('poll_failures', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema.alterTable('order_links').addColumn('last_webhook_at', 'text').execute();
  await db.schema
    .alterTable('reconciliation_runs')
    .addColumn('status', 'text', (c) => c.notNull().defaultTo('finished'))
    .execute();
  await db.schema.alterTable('reconciliation_runs').addColumn('error', 'text').execute();
  await db.schema
    .alterTable('reconciliation_runs')
    .addColumn('trigger', 'text', (c) => c.notNull().defaultTo('plugin'))
    .execute();
  await db.schema
    .createIndex('reconciliation_runs_connection')
    .on('reconciliation_runs')
    .columns(['connection_id', 'started_at'])
    .execute();
  await db.schema.alterTable('reconciliation_findings').addColumn('order_number', 'text').execute();
  await db.schema
    .createTable('reconciliation_notes')
    .addColumn('connection_id', 'text', (c) => c.notNull().references('store_connections.id'))
    .addColumn('store_order_id', 'text', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('payment_key', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('reconciliation_notes_pk', ['connection_id', 'store_order_id', 'kind', 'payment_key'])
    .execute();
  // Reconciliation used to schedule polls for every order it linked: only orders with a payment are polled.
  await sql`update order_links set next_poll_at = null
    where next_poll_at is not null
      and not exists (select 1 from order_payments where order_payments.link_id = order_links.id)`.execute(db);
}
