/**
 * Who calls the embedded API: every call carries App Bridge's session token
 * (`Authorization: Bearer <jwt>`): HS256 with the app's secret, `aud` the API key (checked by the
 * library's `decodeSessionToken`), `dest` the shop, `exp`/`nbf` checked again on the connector's
 * clock. A refused token answers 401 `invalid_session_token`; the token itself is never logged or
 * answered.
 */
import { ConnectorError } from '../../../connector/errors.js';
import type { ConnectorDeps } from '../../../connector/runtime/deps.js';
import { shopDomainOf } from '../graphql.js';
import type { ShopifyRuntime } from '../runtime.js';

function refused(message: string): ConnectorError {
  return new ConnectorError(401, 'invalid_session_token', message);
}

/**
 * The shop the session token was issued for, and the token; 401 for a missing, forged, expired or
 * foreign token.
 */
export async function authenticateShop(
  deps: ConnectorDeps,
  shopify: ShopifyRuntime,
  authorization: string,
): Promise<{ shop: string; sessionToken: string }> {
  const match = /^Bearer\s+(\S+)$/i.exec(authorization.trim());
  if (match === null) throw refused('Send the App Bridge session token as Authorization: Bearer <token>.');
  let payload: Awaited<ReturnType<ShopifyRuntime['app']['api']['session']['decodeSessionToken']>>;
  try {
    payload = await shopify.app.api.session.decodeSessionToken(match[1] ?? '');
  } catch {
    // The library's message quotes the token: it is not passed on.
    throw refused('The session token is not signed for this app, or it has expired.');
  }
  const nowS = deps.clock.nowMs() / 1000;
  if (
    typeof payload.exp !== 'number' ||
    payload.exp <= nowS ||
    (typeof payload.nbf === 'number' && payload.nbf > nowS + 10)
  ) {
    throw refused('The session token has expired; App Bridge fetches a new one.');
  }
  let host = '';
  try {
    host = new URL(String(payload.dest)).hostname;
  } catch {
    // refused below
  }
  const shop = shopDomainOf(host);
  if (shop === null) throw refused('The session token does not name a shop.');
  return { shop, sessionToken: match[1] ?? '' };
}
