/**
 * The Shopify payments app held to Shopify's contracts:
 *
 * - each payment and refund session keeps the API version Shopify sent it with (`Shopify-Api-Version`),
 *   which its resolve/reject calls use; a payment session keeps the buyer's locale (for the return
 *   page) and when its decision was taken (its finalization is retried for a while from then);
 * - `shopify_payments_configurations`: per shop, the `paymentsAppConfigure` call to make (`ready` and
 *   the external handle) and what Shopify last took, retried from the row like the sessions.
 */
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('shopify_payment_sessions').addColumn('api_version', 'text').execute();
  await db.schema.alterTable('shopify_payment_sessions').addColumn('locale', 'text').execute();
  await db.schema.alterTable('shopify_payment_sessions').addColumn('decided_at', 'text').execute();
  await db.schema.alterTable('shopify_refund_sessions').addColumn('api_version', 'text').execute();

  await db.schema
    .createTable('shopify_payments_configurations')
    .addColumn('shop', 'text', (c) => c.primaryKey())
    .addColumn('ready', 'integer', (c) => c.notNull())
    .addColumn('external_handle', 'text')
    .addColumn('state', 'text', (c) => c.notNull())
    .addColumn('attempts', 'integer', (c) => c.notNull())
    .addColumn('next_attempt_at', 'text')
    .addColumn('last_error', 'text')
    .addColumn('configured_at', 'text')
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('shopify_payments_configurations_due')
    .on('shopify_payments_configurations')
    .columns(['state', 'next_attempt_at'])
    .execute();
}
