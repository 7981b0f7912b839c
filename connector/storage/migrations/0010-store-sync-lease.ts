/**
 * `order_links.sync_lease_until`: while set in the future, one runner is marking the paid order in
 * the store (the webhook, the read-back, the job or a reconciliation repair, on any connector
 * instance); the others leave it, so the order is marked and noted once. Apart from `next_sync_at`,
 * which says when a retry is due: a repair may mark an order before its retry is due, never while
 * another runner is marking it.
 */
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('order_links').addColumn('sync_lease_until', 'text').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('order_links').dropColumn('sync_lease_until').execute();
}
