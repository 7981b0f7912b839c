/**
 * Who may start a session: the shop must have the app installed and be linked to an active store
 * connection (its connect token pays), of the environment the session asks for (`test: true` needs a
 * test connection, whose payments are sandbox payments). Also the Payments Apps client for a shop,
 * with its offline token (refreshed when near expiry).
 */
import { abstractFetch } from '@shopify/shopify-api/runtime';
import { ConnectorError } from '../../../connector/errors.js';
import type { ConnectorDeps } from '../../../connector/runtime/deps.js';
import { findConnection, type StoreConnection } from '../../../connector/storage/connection.repository.js';
import { findShopifyShop } from '../../../connector/storage/shopify-shop.repository.js';
import type { ShopifyRuntime } from '../runtime.js';
import { createPaymentsAppsClient, type PaymentsAppsClient, PaymentsAppsError } from './client.js';

export async function connectionOfShop(
  deps: ConnectorDeps,
  shop: string,
  test: boolean | undefined,
): Promise<StoreConnection> {
  const row = await findShopifyShop(deps.db, shop);
  if (row === undefined || row.status !== 'installed') {
    throw new ConnectorError(401, 'shop_not_installed', `${shop} has not installed the app.`);
  }
  const connection = row.connection_id === null ? undefined : await findConnection(deps.db, row.connection_id);
  if (connection === undefined || connection.status !== 'active') {
    throw new ConnectorError(
      409,
      'shop_not_connected',
      `${shop} has no active gateway connection: the shop owner connects it in the app's page.`,
    );
  }
  if (test !== undefined && test !== (connection.environment === 'test')) {
    throw new ConnectorError(
      409,
      'environment_mismatch',
      test
        ? `A test payment needs a test connection; ${shop} is connected with a live connect token.`
        : `A live payment needs a live connection; ${shop} is connected with a test connect token.`,
    );
  }
  return connection;
}

/** The Payments Apps API of `shop`, called through the library's fetch (tests route it to a fake). */
export async function paymentsAppsOf(shopify: ShopifyRuntime, shop: string): Promise<PaymentsAppsClient> {
  const session = await shopify.offline.offlineSession(shop);
  if (session?.accessToken === undefined) {
    throw new PaymentsAppsError(`${shop} has no offline session (the app was uninstalled?)`, true);
  }
  return createPaymentsAppsClient({
    shop,
    apiVersion: shopify.app.config.apiVersion,
    accessToken: session.accessToken,
    fetch: (url, init) => abstractFetch(url, init),
  });
}
