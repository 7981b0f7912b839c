/**
 * Shopify's mandatory compliance webhooks, for the data the connector holds about a shop's orders
 * (connector/storage/customer-data.repository.ts: the order map, the gateway payments made for each
 * order, refunds, reconciliation findings and notes, gateway webhook receipts; no names, emails,
 * addresses or card data). Orders are matched by Shopify's numeric id and by its GraphQL gid.
 *
 * - `customers/data_request`: an export of what is held for the listed `orders_requested` is stored
 *   (`shopify_data_requests`) for the merchant to read in the app; only Shopify's customer id is kept.
 * - `customers/redact`: that data for the listed `orders_to_redact` is deleted, with the customer's
 *   earlier exports.
 * - `shop/redact` (sent 48 h after uninstall), and the connector's own job 48 h after uninstall when
 *   it never came: the shop's connection and everything under it, its sessions, exports and webhook
 *   records are deleted; the shop row keeps only its domain and dates (`redacted_at`).
 */
import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import { ConnectorError } from '../../connector/errors.js';
import type { ConnectorDeps } from '../../connector/runtime/deps.js';
import { deleteConnectionData, deleteOrderData, heldOrders } from '../../connector/storage/customer-data.repository.js';
import {
  deleteShopRecords,
  findShopifyShop,
  insertDataRequest,
  recordRedacted,
  shopsToRedact,
} from '../../connector/storage/shopify-shop.repository.js';
import { HOUR_MS, toStoredInstant } from '../../gateway/domain/clock.js';
import type { ShopifyDelivery } from './delivery.js';
import type { ShopifyRuntime } from './runtime.js';

/** How long after uninstall the shop's data is deleted if `shop/redact` never came. */
export const REDACT_AFTER_UNINSTALL_MS = 48 * HOUR_MS;

const shopifyId = z.union([z.number().int().positive(), z.string().regex(/^\d{1,20}$/)]).transform(String);
const customer = z.object({ id: shopifyId.nullable().optional() }).passthrough();
const payloads = {
  dataRequest: z.object({
    shop_domain: z.string(),
    customer,
    orders_requested: z.array(shopifyId).default([]),
    data_request: z.object({ id: shopifyId }),
  }),
  customerRedact: z.object({
    shop_domain: z.string(),
    customer,
    orders_to_redact: z.array(shopifyId).default([]),
  }),
};

/** The forms an order id may take in the order map: Shopify's numeric id and its GraphQL gid. */
export function storeOrderKeys(orderIds: readonly string[]): string[] {
  return orderIds.flatMap((id) => [id, `gid://shopify/Order/${id}`]);
}

export async function customersDataRequest(deps: ConnectorDeps, _shopify: ShopifyRuntime, delivery: ShopifyDelivery) {
  const body = parsePayload(payloads.dataRequest, delivery);
  const row = await findShopifyShop(deps.db, delivery.shop);
  const orders =
    row?.connection_id == null
      ? []
      : await heldOrders(deps.db, row.connection_id, storeOrderKeys(body.orders_requested));
  const now = toStoredInstant(deps.clock.nowMs());
  await insertDataRequest(deps.db, {
    id: randomUUID(),
    shop: delivery.shop,
    data_request_id: body.data_request.id,
    customer_id: body.customer.id ?? '',
    export: JSON.stringify({
      orders_requested: body.orders_requested,
      orders,
      note: 'The connector keeps, per order, the gateway payments and refunds made for it and reconciliation findings; no names, emails, addresses or card data.',
    }),
    requested_at: now,
  });
  deps.logger.info(
    { shop: delivery.shop, data_request: body.data_request.id, orders_held: orders.length },
    'Shopify customer data request stored for the merchant',
  );
}

export async function customersRedact(deps: ConnectorDeps, _shopify: ShopifyRuntime, delivery: ShopifyDelivery) {
  const body = parsePayload(payloads.customerRedact, delivery);
  const row = await findShopifyShop(deps.db, delivery.shop);
  const deleted = await deps.db.transaction().execute(async (trx) => {
    const count =
      row?.connection_id == null
        ? 0
        : await deleteOrderData(trx, row.connection_id, storeOrderKeys(body.orders_to_redact));
    if (body.customer.id != null) {
      await trx
        .deleteFrom('shopify_data_requests')
        .where('shop', '=', delivery.shop)
        .where('customer_id', '=', body.customer.id)
        .execute();
    }
    return count;
  });
  deps.logger.info({ shop: delivery.shop, orders_deleted: deleted }, 'Shopify customer data redacted');
}

export async function shopRedact(deps: ConnectorDeps, _shopify: ShopifyRuntime, delivery: ShopifyDelivery) {
  await redactShop(deps, delivery.shop, 'shop/redact');
}

/**
 * Deletes everything the connector holds for the shop. A shop that installed the app again since is
 * left alone (the request is about a past install; the merchant is using the app again).
 */
export async function redactShop(deps: ConnectorDeps, shop: string, why: string): Promise<boolean> {
  const row = await findShopifyShop(deps.db, shop);
  if (row?.status === 'installed') {
    deps.logger.warn({ shop, why }, 'Shopify shop redaction skipped: the app is installed again');
    return false;
  }
  const now = toStoredInstant(deps.clock.nowMs());
  await deps.db.transaction().execute(async (trx) => {
    await recordRedacted(trx, shop, now);
    if (row?.connection_id) await deleteConnectionData(trx, row.connection_id);
    await deleteShopRecords(trx, shop);
  });
  deps.logger.info({ shop, why }, 'Shopify shop data deleted');
  return true;
}

/** The job step: shops uninstalled more than 48 h ago whose data is still here. */
export async function redactUninstalledShops(deps: ConnectorDeps, limit = 20): Promise<number> {
  const before = toStoredInstant(deps.clock.nowMs() - REDACT_AFTER_UNINSTALL_MS);
  let count = 0;
  for (const row of await shopsToRedact(deps.db, before, limit)) {
    if (await redactShop(deps, row.shop, '48 h after uninstall')) count += 1;
  }
  return count;
}

function parsePayload<T>(schema: z.ZodType<T>, delivery: ShopifyDelivery): T {
  const result = schema.safeParse(delivery.payload);
  if (!result.success) {
    throw new ConnectorError(
      400,
      'invalid_payload',
      `The ${delivery.topic} payload is not shaped as Shopify documents it.`,
    );
  }
  return result.data;
}
