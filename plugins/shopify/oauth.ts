/**
 * Installing the app: `GET /shopify/auth?shop=` starts Shopify's OAuth (offline access, a signed
 * state cookie bound to the callback path); `GET /shopify/auth/callback` checks the state cookie and
 * Shopify's HMAC over the query (the library does both), exchanges the code for an expiring offline
 * token, stores the session (tokens sealed), records the shop as installed, and sends the merchant to
 * the app inside the Shopify admin.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import {
  BotActivityDetected,
  CookieNotFound,
  HttpResponseError,
  InvalidHmacError,
  InvalidOAuthError,
  InvalidShopError,
} from '@shopify/shopify-api';
import { ConnectorError } from '../../connector/errors.js';
import type { ConnectorDeps } from '../../connector/runtime/deps.js';
import { recordInstall } from '../../connector/storage/shopify-shop.repository.js';
import { toStoredInstant } from '../../gateway/domain/clock.js';
import { CALLBACK_PATH } from './app.js';
import { shopDomainOf } from './graphql.js';
import type { ShopifyRuntime } from './runtime.js';

export interface RawExchange {
  req: IncomingMessage;
  res: ServerResponse;
  query: Record<string, string | string[] | undefined>;
}

/**
 * A shop parameter as Shopify sends it, exactly `<name>.myshopify.com`, or a 400 `invalid_shop`
 * (nothing else is sent on to an authorize page).
 */
export function requireShop(value: unknown): string {
  const shop = shopDomainOf(value);
  if (shop === null) {
    throw new ConnectorError(400, 'invalid_shop', 'Send the shop as its myshopify.com domain (name.myshopify.com).');
  }
  return shop;
}

/** Writes the redirect to Shopify's authorize page (and the state cookie) on the raw response. */
export async function beginInstall(shopify: ShopifyRuntime, exchange: RawExchange): Promise<void> {
  const shop = requireShop(exchange.query.shop);
  await shopify.app.api.auth.begin({
    shop,
    callbackPath: CALLBACK_PATH,
    isOnline: false,
    rawRequest: exchange.req,
    rawResponse: exchange.res,
  });
}

/**
 * Completes the install; answers where to send the merchant (the state cookie's deletion is already
 * set on the raw response).
 */
export async function completeInstall(
  deps: ConnectorDeps,
  shopify: ShopifyRuntime,
  exchange: RawExchange,
): Promise<{ shop: string; redirectTo: string }> {
  requireShop(exchange.query.shop);
  let session: Awaited<ReturnType<typeof shopify.app.api.auth.callback>>['session'];
  try {
    ({ session } = await shopify.app.api.auth.callback({
      rawRequest: exchange.req,
      rawResponse: exchange.res,
      expiring: true,
    }));
  } catch (error) {
    throw callbackRefusal(error);
  }
  shopify.app.stampExpiry(session);
  await shopify.sessions.storeSession(session);
  await recordInstall(deps.db, session.shop, session.scope ?? '', toStoredInstant(deps.clock.nowMs()));
  deps.logger.info({ shop: session.shop, scopes: session.scope }, 'Shopify app installed');
  return { shop: session.shop, redirectTo: embeddedAppUrl(shopify, session.shop, exchange.query.host) };
}

/** The app inside the Shopify admin, from the callback's `host`; the shop's apps page without one. */
function embeddedAppUrl(shopify: ShopifyRuntime, shop: string, host: unknown): string {
  const { api, config } = shopify.app;
  if (typeof host === 'string' && api.utils.sanitizeHost(host) !== null) return api.auth.buildEmbeddedAppUrl(host);
  return `https://${shop}/admin/apps/${encodeURIComponent(config.apiKey)}`;
}

function callbackRefusal(error: unknown): unknown {
  if (error instanceof CookieNotFound) {
    return new ConnectorError(
      400,
      'oauth_state_missing',
      'The install was not started from this browser or took too long: start it again from the Shopify admin.',
    );
  }
  if (error instanceof InvalidOAuthError || error instanceof InvalidHmacError || error instanceof InvalidShopError) {
    return new ConnectorError(
      400,
      'invalid_oauth_callback',
      'The OAuth callback is not signed by Shopify for this install (HMAC, timestamp or state do not match).',
    );
  }
  if (error instanceof BotActivityDetected) {
    return new ConnectorError(410, 'bot_request', 'The install must be completed in a browser.');
  }
  if (error instanceof HttpResponseError) {
    return new ConnectorError(
      502,
      'shopify_refused',
      `Shopify refused the authorization code (HTTP ${error.response.code}): start the install again.`,
    );
  }
  return error;
}
