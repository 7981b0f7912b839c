/**
 * The gateway's domain verification value a shop owner saved in the app's page: the connector
 * answers it at `https://<shop>/apps/connector-pay/gateway-verification.txt` (Shopify's app proxy),
 * which is how a `<name>.myshopify.com` domain is verified at the gateway.
 */
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('shopify_shops').addColumn('gateway_verification', 'text').execute();
}
