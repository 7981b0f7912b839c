/**
 * The buyer's way back from the gateway, through the shop's own storefront (Shopify's app proxy).
 *
 * A live connect token lets a payment's `return_url` and `cancel_url` lie only on the token's domain,
 * the shop's `<name>.myshopify.com` (docs/decisions.md "Connect tokens"). So the payments app gives
 * the gateway storefront URLs, `https://<shop><SHOPIFY_APP_PROXY_PATH>/return/<session id>` and
 * `.../cancel/<session id>`; Shopify forwards them to `<CONNECTOR_PUBLIC_URL>/shopify/proxy/...`
 * with the query it signs (`shop`, `logged_in_customer_id`, `path_prefix`, `timestamp`,
 * `signature`), and the connector answers with a redirect the storefront passes on to the buyer.
 *
 * The signature (shopify.dev, "Authenticate app proxies"): HMAC-SHA256 with the app secret, hex, over
 * every query parameter but `signature`, sorted by name, each written `name=value` (several values of
 * one name joined with `,`), concatenated without separators. The timestamp must be within 90 s of the
 * connector's clock, as for Shopify's other signed queries.
 */

import { createHmac, timingSafeEqual } from 'node:crypto';
import { ConnectorError } from '../../../connector/errors.js';
import type { Clock } from '../../../gateway/domain/clock.js';
import { shopDomainOf } from '../graphql.js';
import type { ShopifyRuntime } from '../runtime.js';

/** Where Shopify's app proxy forwards to on the connector (`[app_proxy] url`). */
export const PROXY_PATH = '/shopify/proxy';
/** How far a proxied request's `timestamp` may be from the connector's clock. */
export const PROXY_TOLERANCE_S = 90;

export type ProxyQuery = Readonly<Record<string, string | readonly string[] | undefined>>;

/** The storefront URL of one of the buyer's pages (`return` or `cancel`) for a payment session. */
export function storefrontUrl(shopify: ShopifyRuntime, shop: string, page: 'return' | 'cancel', id: string): string {
  return `https://${shop}${shopify.app.config.appProxyPath}/${page}/${encodeURIComponent(id)}`;
}

/** The signature Shopify puts on a proxied request's query. */
export function proxySignature(secret: string, query: ProxyQuery): string {
  const message = Object.entries(query)
    .filter(([name, value]) => name !== 'signature' && value !== undefined)
    .map(([name, value]) => `${name}=${Array.isArray(value) ? value.join(',') : value}`)
    .sort()
    .join('');
  return createHmac('sha256', secret).update(message).digest('hex');
}

/**
 * The shop a proxied request was signed for; 401 `invalid_proxy_signature` when the signature is
 * missing or wrong or the timestamp is stale (the request did not come through Shopify).
 */
export function proxiedShop(shopify: ShopifyRuntime, clock: Clock, query: ProxyQuery): string {
  const refuse = () =>
    new ConnectorError(
      401,
      'invalid_proxy_signature',
      "This page is reached through the shop's storefront: go back to the shop and try again.",
    );
  const given = query.signature;
  if (typeof given !== 'string' || !/^[0-9a-f]{64}$/.test(given)) throw refuse();
  const expected = proxySignature(shopify.app.config.apiSecret, query);
  if (!timingSafeEqual(Buffer.from(given, 'hex'), Buffer.from(expected, 'hex'))) throw refuse();
  const timestamp = Number(query.timestamp);
  if (!Number.isInteger(timestamp) || Math.abs(clock.nowMs() / 1000 - timestamp) > PROXY_TOLERANCE_S) throw refuse();
  const shop = shopDomainOf(query.shop);
  if (shop === null) throw refuse();
  return shop;
}
