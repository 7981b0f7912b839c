import type { Selectable } from 'kysely';
import type { ConnectorExecutor } from './database.js';
import type { ShopifyDataRequestTable, ShopifyShopTable } from './shopify-shop.table.js';

export type ShopifyShop = Selectable<ShopifyShopTable>;
export type ShopifyDataRequest = Selectable<ShopifyDataRequestTable>;

export async function findShopifyShop(db: ConnectorExecutor, shop: string): Promise<ShopifyShop | undefined> {
  return db.selectFrom('shopify_shops').selectAll().where('shop', '=', shop).executeTakeFirst();
}

/** The shop a store connection is linked to (the embedded page's save links them), if any. */
export async function findShopOfConnection(
  db: ConnectorExecutor,
  connectionId: string,
): Promise<ShopifyShop | undefined> {
  return db.selectFrom('shopify_shops').selectAll().where('connection_id', '=', connectionId).executeTakeFirst();
}

/** An install (or a reinstall): installed again, whatever came before; the connection link stays. */
export async function recordInstall(db: ConnectorExecutor, shop: string, scopes: string, now: string): Promise<void> {
  await db
    .insertInto('shopify_shops')
    .values({
      shop,
      status: 'installed',
      installed_at: now,
      uninstalled_at: null,
      redacted_at: null,
      scopes,
      connection_id: null,
      gateway_verification: null,
      updated_at: now,
    })
    .onConflict((oc) =>
      oc.column('shop').doUpdateSet({
        status: 'installed',
        installed_at: now,
        uninstalled_at: null,
        redacted_at: null,
        scopes,
        updated_at: now,
      }),
    )
    .execute();
}

/** Installed -> uninstalled; answers false when it already was (a second delivery). */
export async function recordUninstall(db: ConnectorExecutor, shop: string, now: string): Promise<boolean> {
  const result = await db
    .updateTable('shopify_shops')
    .set({ status: 'uninstalled', uninstalled_at: now, updated_at: now })
    .where('shop', '=', shop)
    .where('status', '=', 'installed')
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** The shop's data is gone: keeps the domain and the dates, forgets scopes and the connection. */
export async function recordRedacted(db: ConnectorExecutor, shop: string, now: string): Promise<void> {
  await db
    .updateTable('shopify_shops')
    .set({ redacted_at: now, scopes: '', connection_id: null, gateway_verification: null, updated_at: now })
    .where('shop', '=', shop)
    .execute();
}

export async function linkShopConnection(db: ConnectorExecutor, shop: string, connectionId: string, now: string) {
  await db
    .updateTable('shopify_shops')
    .set({ connection_id: connectionId, updated_at: now })
    .where('shop', '=', shop)
    .execute();
}

/** Uninstalled shops whose data is still here although they left before `before`. */
export async function shopsToRedact(db: ConnectorExecutor, before: string, limit: number): Promise<ShopifyShop[]> {
  return db
    .selectFrom('shopify_shops')
    .selectAll()
    .where('status', '=', 'uninstalled')
    .where('redacted_at', 'is', null)
    .where('uninstalled_at', '<=', before)
    .orderBy('uninstalled_at')
    .limit(limit)
    .execute();
}

export async function isShopifyDeliveryHandled(db: ConnectorExecutor, webhookId: string): Promise<boolean> {
  const row = await db
    .selectFrom('shopify_webhook_deliveries')
    .select('webhook_id')
    .where('webhook_id', '=', webhookId)
    .executeTakeFirst();
  return row !== undefined;
}

export async function recordShopifyDelivery(
  db: ConnectorExecutor,
  row: { webhook_id: string; shop: string; topic: string; received_at: string },
): Promise<void> {
  await db
    .insertInto('shopify_webhook_deliveries')
    .values(row)
    .onConflict((oc) => oc.column('webhook_id').doNothing())
    .execute();
}

export async function insertDataRequest(db: ConnectorExecutor, row: ShopifyDataRequest): Promise<void> {
  await db
    .insertInto('shopify_data_requests')
    .values(row)
    .onConflict((oc) => oc.columns(['shop', 'data_request_id']).doNothing())
    .execute();
}

export async function listDataRequests(db: ConnectorExecutor, shop: string): Promise<ShopifyDataRequest[]> {
  return db
    .selectFrom('shopify_data_requests')
    .selectAll()
    .where('shop', '=', shop)
    .orderBy('requested_at', 'desc')
    .execute();
}

/** Everything keyed on the shop's domain in the Shopify tables (`shop/redact`). */
export async function deleteShopRecords(db: ConnectorExecutor, shop: string): Promise<void> {
  await db.deleteFrom('shopify_data_requests').where('shop', '=', shop).execute();
  await db.deleteFrom('shopify_sessions').where('shop', '=', shop).execute();
  await db.deleteFrom('shopify_webhook_deliveries').where('shop', '=', shop).execute();
  await db.deleteFrom('shopify_payments_configurations').where('shop', '=', shop).execute();
}

/** The gateway's domain verification value the shop serves through the app proxy (null: none). */
export async function saveGatewayVerification(
  db: ConnectorExecutor,
  shop: string,
  value: string | null,
  now: string,
): Promise<void> {
  await db
    .updateTable('shopify_shops')
    .set({ gateway_verification: value, updated_at: now })
    .where('shop', '=', shop)
    .execute();
}
