/**
 * Shopify as a platform of the connector: the Admin GraphQL StorePlatform (./admin-platform.ts) for
 * one shop, with the shop's offline access token from the app's sessions, and `sh-` as the
 * namespace of the shop's orders at the gateway.
 *
 * A connection's credentials are not secrets here: `{shop, manual_method_name, api_version, way,
 * test_mode}` (the settings the shop owner chose in the embedded page). The token is read from
 * `shopify_sessions` at every call, refreshed when less than 5 minutes are left.
 *
 * Why plain `fetch` and not the connector's GuardedAgents: the driver calls only
 * `https://<name>.myshopify.com/admin/api/<version>/graphql.json`, with `<name>.myshopify.com`
 * checked exactly (`isShopDomain`) here and again by the GraphQL client. Nobody
 * chooses that host but Shopify: it is not an address from a connect token or a plugin, so it cannot
 * be pointed at a private network (the guard exists for WooCommerce store URLs, which anyone with a
 * token can choose). Node's `fetch` (undici) does not take `http.Agent`s, so the guard could not be
 * applied to it anyway.
 *
 * No key exchange: access comes from the OAuth install (plugins/shopify/oauth.ts), so
 * `authorizeUrl` answers null and `parseKeyDelivery` refuses every body.
 */
import type { Logger } from 'pino';
import { ConnectorError } from '../../connector/errors.js';
import type { PlatformAccess, PlatformDriver } from '../../connector/platforms/driver.js';
import { createShopifyAdminPlatform, type ShopifyAdminPlatform } from './admin-platform.js';
import { isApiVersion, isShopDomain } from './graphql.js';
import type { ShopifyRuntime } from './runtime.js';

/** The two ways a shop takes payments through the gateway (docs/shopify.md). */
export type ShopifyWay = 'manual_bridge' | 'payments_app';

/** What a Shopify connection keeps as its credentials (sealed like any connection's). */
export interface ShopifyCredentials {
  readonly shop: string;
  readonly manual_method_name: string;
  readonly api_version: string;
  readonly way: ShopifyWay;
  /** `"1"` or `"0"`: credentials are strings. */
  readonly test_mode: string;
}

export function shopifyCredentialsOf(credentials: Readonly<Record<string, string>>): ShopifyCredentials {
  const shop = credentials.shop ?? '';
  if (!isShopDomain(shop)) throw new Error('Shopify credentials need shop as <name>.myshopify.com');
  const apiVersion = credentials.api_version ?? '';
  if (!isApiVersion(apiVersion)) throw new Error('Shopify credentials need api_version as YYYY-MM');
  return {
    shop,
    manual_method_name: credentials.manual_method_name ?? '',
    api_version: apiVersion,
    way: credentials.way === 'payments_app' ? 'payments_app' : 'manual_bridge',
    test_mode: credentials.test_mode === '1' ? '1' : '0',
  };
}

/** The token, fetch and API version the driver opens shops with, from the app's offline sessions. */
export function shopifyPlatformAccess(
  shopify: ShopifyRuntime,
  fetch: (url: string, init: RequestInit) => Promise<Response>,
  logger?: Logger,
): PlatformAccess {
  return {
    apiVersion: shopify.app.config.apiVersion,
    onVersionServed(shop, requested, served) {
      // Shopify's migration guide: a different X-Shopify-API-Version means the version asked for is
      // no longer supported and Shopify served another one.
      logger?.warn(
        { shop, requested_version: requested, served_version: served },
        'Shopify answered with another Admin API version than the one asked for: move SHOPIFY_API_VERSION',
      );
    },
    async accessToken(shop) {
      const session = await shopify.offline.offlineSession(shop);
      if (session?.accessToken === undefined) {
        throw new ConnectorError(
          409,
          'shopify_reauthorization_needed',
          `The app has no access to ${shop}: open the app from the Shopify admin to install it again.`,
        );
      }
      return session.accessToken;
    },
    fetch: (url, init) => fetch(url, init),
  };
}

/** The Admin platform of a Shopify connection opened by the driver (with the bridge's extras). */
export function asShopifyPlatform(store: unknown): ShopifyAdminPlatform | null {
  const candidate = store as Partial<ShopifyAdminPlatform> | null;
  return candidate !== null && typeof candidate?.setCheckoutUrl === 'function'
    ? (candidate as ShopifyAdminPlatform)
    : null;
}

export const shopifyDriver: PlatformDriver = {
  slug: 'shopify',
  orderPrefix: 'sh',
  open(_storeUrl, credentials, _agents, access) {
    const settings = shopifyCredentialsOf(credentials);
    const { accessToken, fetch, onVersionServed } = access;
    if (accessToken === undefined || fetch === undefined) {
      throw new Error('the Shopify app is not configured (SHOPIFY_API_KEY, SHOPIFY_API_SECRET)');
    }
    return createShopifyAdminPlatform({
      shop: settings.shop,
      // The app's version, not the one the settings were saved with: that one may be past its support.
      apiVersion: access.apiVersion ?? settings.api_version,
      ...(onVersionServed === undefined
        ? {}
        : { onVersionServed: (requested, served) => onVersionServed(settings.shop, requested, served) }),
      accessToken: () => accessToken(settings.shop),
      fetch,
      // A payments-app shop has no manual method; its orders are matched by the app's name there.
      gatewayName: settings.manual_method_name.trim() === '' ? 'Gateway' : settings.manual_method_name,
    });
  },
  authorizeUrl: () => null,
  defaultReturnUrl: (storeUrl) => `${storeUrl}/admin/apps`,
  parseKeyDelivery: () => null,
};
