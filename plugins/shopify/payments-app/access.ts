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
import { isSupportedApiVersion } from '../api-versions.js';
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

/**
 * The API version of a session's own calls (resolve, reject, pending): the version Shopify sent the
 * session with (`Shopify-Api-Version`), as Shopify asks partners to call back with, when the app
 * supports it; otherwise the connector's `SHOPIFY_API_VERSION`.
 */
export function sessionApiVersion(shopify: ShopifyRuntime, sent: string | null): string {
  return sent !== null && isSupportedApiVersion(sent) ? sent : shopify.app.config.apiVersion;
}

/**
 * Logs a session whose `Shopify-Api-Version` is not the connector's: the extension's `api_version`
 * and `SHOPIFY_API_VERSION` should be the same (docs/shopify.md "API version").
 */
export function noteSessionVersion(
  deps: ConnectorDeps,
  shopify: ShopifyRuntime,
  session: { shop: string; id: string; kind: 'payment' | 'refund' | 'capture' | 'void'; sent: string },
): void {
  const configured = shopify.app.config.apiVersion;
  if (session.sent === configured) return;
  const supported = isSupportedApiVersion(session.sent);
  deps.logger.warn(
    {
      shop: session.shop,
      session: session.id,
      session_api_version: session.sent,
      configured_api_version: configured,
      calls_use: supported ? session.sent : configured,
    },
    supported
      ? `Shopify sent a ${session.kind} session with API version ${session.sent}, not SHOPIFY_API_VERSION ${configured}: its calls use ${session.sent}; set the extension's api_version and SHOPIFY_API_VERSION alike`
      : `Shopify sent a ${session.kind} session with API version ${session.sent}, which the app does not support: its calls use ${configured}`,
  );
}

/** The Payments Apps API of `shop` at `apiVersion`, called through the library's fetch (tests route it to a fake). */
export async function paymentsAppsOf(
  shopify: ShopifyRuntime,
  shop: string,
  apiVersion: string = shopify.app.config.apiVersion,
): Promise<PaymentsAppsClient> {
  const session = await shopify.offline.offlineSession(shop);
  if (session?.accessToken === undefined) {
    throw new PaymentsAppsError(`${shop} has no offline session (the app was uninstalled?)`, true);
  }
  return createPaymentsAppsClient({
    shop,
    apiVersion,
    accessToken: session.accessToken,
    fetch: (url, init) => abstractFetch(url, init),
  });
}
