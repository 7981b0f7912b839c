/**
 * `store_connections.store_checked_at`: when the connector last checked the store's REST key on its
 * own (a read every 15 minutes per active connection, connector/jobs/due-work.ts), so a key revoked
 * in WordPress shows on the plugin's settings page, and hides the payment method, before a buyer
 * pays into an order that cannot be marked paid.
 */
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('store_connections').addColumn('store_checked_at', 'text').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('store_connections').dropColumn('store_checked_at').execute();
}
