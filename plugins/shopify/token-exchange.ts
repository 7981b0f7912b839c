/**
 * Token exchange for the embedded page: Shopify's recommended way for an embedded app to get an
 * access token from the session token App Bridge gives the page (shopify.dev, "Exchange a session
 * token for an access token",
 * https://shopify.dev/docs/apps/build/authentication-authorization/access-tokens/token-exchange:
 * "If your app doesn't have a valid access token, then it can exchange its session token for an
 * access token"; an expired or invalid session token is answered 400).
 *
 * The first install keeps the authorization-code grant (`/shopify/auth`, ./oauth.ts): a shop the
 * connector has not recorded as installed is sent there. For an installed shop, every call of the
 * embedded API carries a verified session token; when the shop's offline token is missing, or
 * expired beyond its refresh (Shopify refused the refresh token, or it expired too), the page's
 * session token is exchanged for a new expiring offline token, stored like the install's. So the
 * merchant only has to open the app to restore the connector's access, instead of installing again.
 * Concurrent calls for one shop share one exchange. A refused exchange is logged and the call goes
 * on: what needs Shopify then answers 409 `shopify_reauthorization_needed` as before.
 */
import { RequestedTokenType } from '@shopify/shopify-api';
import { ConnectorError, errorDetail } from '../../connector/errors.js';
import type { ConnectorDeps } from '../../connector/runtime/deps.js';
import { findShopifyShop } from '../../connector/storage/shopify-shop.repository.js';
import type { ShopifyRuntime } from './runtime.js';

export type OfflineAccess =
  /** The shop has not installed the app (or uninstalled it): the authorization-code grant installs it. */
  | 'not_installed'
  /** The stored offline token is usable (refreshed if it was due). */
  | 'present'
  /** A new offline token was obtained with the page's session token. */
  | 'exchanged'
  /** Shopify refused the exchange (logged). */
  | 'refused';

const exchanging = new WeakMap<ShopifyRuntime, Map<string, Promise<OfflineAccess>>>();
/** Exchanges finished, per shop: a call that read the token before one finished reads it again. */
const finished = new WeakMap<ShopifyRuntime, Map<string, number>>();

function finishedFor(shopify: ShopifyRuntime): Map<string, number> {
  let counts = finished.get(shopify);
  if (counts === undefined) {
    counts = new Map();
    finished.set(shopify, counts);
  }
  return counts;
}

/** Makes sure the connector holds a usable offline token for `shop`, exchanging `sessionToken` if not. */
export async function ensureOfflineAccess(
  deps: ConnectorDeps,
  shopify: ShopifyRuntime,
  shop: string,
  sessionToken: string,
): Promise<OfflineAccess> {
  const row = await findShopifyShop(deps.db, shop);
  if (row?.status !== 'installed') return 'not_installed';
  const counts = finishedFor(shopify);
  const finishedBefore = counts.get(shop) ?? 0;
  try {
    const session = await shopify.offline.offlineSession(shop);
    if (session?.accessToken !== undefined) return 'present';
  } catch (error) {
    if (!(error instanceof ConnectorError && error.code === 'shopify_reauthorization_needed')) throw error;
  }
  // An exchange for the shop ended while the token was being read: what was read may be from
  // before it stored its token, so read again rather than exchange a second time.
  if ((counts.get(shop) ?? 0) !== finishedBefore) return ensureOfflineAccess(deps, shopify, shop, sessionToken);
  let pending = exchanging.get(shopify);
  if (pending === undefined) {
    pending = new Map();
    exchanging.set(shopify, pending);
  }
  const shared = pending.get(shop);
  if (shared !== undefined) return shared;
  const running = exchange(deps, shopify, shop, sessionToken).finally(() => {
    pending.delete(shop);
    counts.set(shop, (counts.get(shop) ?? 0) + 1);
  });
  pending.set(shop, running);
  return running;
}

async function exchange(
  deps: ConnectorDeps,
  shopify: ShopifyRuntime,
  shop: string,
  sessionToken: string,
): Promise<OfflineAccess> {
  try {
    const { session } = await shopify.app.api.auth.tokenExchange({
      shop,
      sessionToken,
      requestedTokenType: RequestedTokenType.OfflineAccessToken,
      expiring: true,
    });
    shopify.app.stampExpiry(session);
    await shopify.sessions.storeSession(session);
    deps.logger.info({ shop, scopes: session.scope }, 'Shopify offline token obtained by token exchange');
    return 'exchanged';
  } catch (error) {
    // The library's messages may quote the session token: only the error's name and Shopify's code.
    const detail = errorDetail(error).replaceAll(sessionToken, '[session token]');
    deps.logger.warn({ shop, err: detail.slice(0, 300) }, 'Shopify refused the token exchange');
    return 'refused';
  }
}
