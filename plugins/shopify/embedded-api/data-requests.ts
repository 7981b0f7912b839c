/**
 * The compliance exports of the shop's customers (`customers/data_request`, compliance.ts), for
 * the merchant to pass on: `GET /shopify/api/data-requests`.
 */
import type { ConnectorDeps } from '../../../connector/runtime/deps.js';
import { listDataRequests } from '../../../connector/storage/shopify-shop.repository.js';
import { installedShop } from './installed-shop.js';

/** `GET /shopify/api/data-requests`: the compliance exports for the merchant to pass on. */
export async function dataRequests(deps: ConnectorDeps, shop: string) {
  await installedShop(deps, shop);
  return (await listDataRequests(deps.db, shop)).map((row) => ({
    id: row.id,
    data_request_id: row.data_request_id,
    customer_id: row.customer_id,
    requested_at: row.requested_at,
    export: JSON.parse(row.export) as unknown,
  }));
}
