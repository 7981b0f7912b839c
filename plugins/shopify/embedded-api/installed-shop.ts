/**
 * The shop an embedded API call acts on: installed (else 409 `shop_not_installed`), and the store
 * connection its settings registered, when it has one that has not ended.
 */
import { ConnectorError } from '../../../connector/errors.js';
import type { ConnectorDeps } from '../../../connector/runtime/deps.js';
import { findConnection, type StoreConnection } from '../../../connector/storage/connection.repository.js';
import { connectionEnded } from '../../../connector/storage/connection.table.js';
import { findShopifyShop, type ShopifyShop } from '../../../connector/storage/shopify-shop.repository.js';

export async function installedShop(deps: ConnectorDeps, shop: string): Promise<ShopifyShop> {
  const row = await findShopifyShop(deps.db, shop);
  if (row === undefined || row.status !== 'installed') {
    throw new ConnectorError(409, 'shop_not_installed', `The app is not installed on ${shop}: install it again.`);
  }
  return row;
}

export async function connectionOfShop(deps: ConnectorDeps, row: ShopifyShop): Promise<StoreConnection | null> {
  if (!row.connection_id) return null;
  const connection = await findConnection(deps.db, row.connection_id);
  return connection === undefined || connectionEnded(connection.status) ? null : connection;
}

/** The connection of an installed shop; 404 `connection_not_found` before its settings are saved. */
export async function shopConnection(deps: ConnectorDeps, shop: string): Promise<StoreConnection> {
  const connection = await connectionOfShop(deps, await installedShop(deps, shop));
  if (connection === null) {
    throw new ConnectorError(
      404,
      'connection_not_found',
      'Connect the shop first: save the settings with a connect token.',
    );
  }
  return connection;
}
