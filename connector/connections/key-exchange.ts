/**
 * How a store's API keys reach the connector: WooCommerce's key exchange posting them to the
 * callback (the one-time value names the connection), a key the shop owner made and pasted, or
 * Reconnect after the store refused the old one. A key is tested against the store before it is
 * accepted; once accepted, what the store's orders were waiting for is due at once.
 */
import { toStoredInstant } from '../../gateway/domain/clock.js';
import { sha256Hex } from '../../gateway/runtime/hashing.js';
import { randomToken } from '../../gateway/runtime/sealing.js';
import { asConnectorError, ConnectorError, isCredentialRefusal } from '../errors.js';
import { platformDriver } from '../platforms/registry.js';
import type { ConnectorDeps } from '../runtime/deps.js';
import {
  findConnection,
  findConnectionByKeyExchange,
  type StoreConnection,
  updateConnection,
} from '../storage/connection.repository.js';
import { resumeLinksOfConnection } from '../storage/order-link.repository.js';
import { type ConnectionResponse, responseOf } from './connection.service.js';
import { sealContext } from './connection-access.js';
import { storeErrorMessage } from './connection-health.js';

/**
 * The key exchange and a hand-made REST key are how a WooCommerce store grants the connector access.
 * A Shopify shop grants it by installing the app (OAuth, plugins/shopify/oauth.ts): starting a key
 * exchange would park its connection in `awaiting_keys` with no way out, so both are refused with
 * 422 `unsupported_platform`, naming the way that works.
 */
export function requireKeyExchangePlatform(connection: Pick<StoreConnection, 'platform'>, route: string): void {
  if (connection.platform === 'woocommerce') return;
  throw new ConnectorError(
    422,
    'unsupported_platform',
    connection.platform === 'shopify'
      ? `${route} is for WooCommerce stores only. A Shopify shop is connected by the app: open the app in the Shopify admin (it asks to authorize again when needed) and save the settings on its page.`
      : `${route} is for WooCommerce stores only; this connection's platform is ${connection.platform}.`,
  );
}

/**
 * `POST /v1/connection/reconnect`: a new key exchange for this connection (a new one-time value).
 * The old credentials stay until new ones arrive; refused ones are not used meanwhile. WooCommerce
 * only ({@link requireKeyExchangePlatform}).
 */
export async function reconnect(deps: ConnectorDeps, connection: StoreConnection): Promise<ConnectionResponse> {
  requireKeyExchangePlatform(connection, 'POST /v1/connection/reconnect');
  const nonce = randomToken();
  await updateConnection(deps.db, connection.id, {
    key_exchange_hash: sha256Hex(nonce),
    key_exchange_ciphertext: deps.sealer.seal(nonce, sealContext(connection.id, 'key_exchange')),
    status: 'awaiting_keys',
    updated_at: toStoredInstant(deps.clock.nowMs()),
  });
  deps.logger.info({ connection_id: connection.id }, 'key exchange started again');
  const updated = await findConnection(deps.db, connection.id);
  if (updated === undefined) throw new ConnectorError(404, 'connection_not_found', 'The connection was removed.');
  return responseOf(deps, updated);
}

/**
 * `POST /v1/connection/credentials`: a REST key the shop owner made by hand. It is tested against
 * the store (one read) before it is kept; a refused key answers 422 `store_credentials_refused`.
 */
export async function acceptManualCredentials(
  deps: ConnectorDeps,
  connection: StoreConnection,
  credentials: Readonly<Record<string, string>>,
): Promise<ConnectionResponse> {
  requireKeyExchangePlatform(connection, 'POST /v1/connection/credentials');
  await acceptCredentials(deps, connection, credentials, 422);
  const updated = await findConnection(deps.db, connection.id);
  if (updated === undefined) throw new ConnectorError(404, 'connection_not_found', 'The connection was removed.');
  return responseOf(deps, updated);
}

/**
 * Tests the credentials with one read (the store refusing them answers `refusedStatus`
 * `store_credentials_refused`, saying what the store answered), then keeps them: the connection
 * is `active`, and orders waiting to be marked paid while the old key was refused are due now.
 */
async function acceptCredentials(
  deps: ConnectorDeps,
  connection: StoreConnection,
  credentials: Readonly<Record<string, string>>,
  refusedStatus: number,
): Promise<void> {
  try {
    await deps.openPlatform(connection.platform, connection.store_url, credentials).checkAccess();
  } catch (error) {
    if (isCredentialRefusal(error)) {
      deps.logger.warn({ connection_id: connection.id, status: error.status }, 'the store refused the delivered key');
      throw new ConnectorError(
        refusedStatus,
        'store_credentials_refused',
        `The store refused the key: ${storeErrorMessage(error)}`,
      );
    }
    throw asConnectorError(error);
  }
  const now = toStoredInstant(deps.clock.nowMs());
  await updateConnection(deps.db, connection.id, {
    credentials_ciphertext: deps.sealer.seal(JSON.stringify(credentials), sealContext(connection.id, 'credentials')),
    key_exchange_hash: null,
    key_exchange_ciphertext: null,
    status: connection.status === 'token_revoked' ? 'token_revoked' : 'active',
    store_state: 'ok',
    store_error_at: null,
    store_error_message: null,
    updated_at: now,
  });
  await resumeLinksOfConnection(deps.db, connection.id, now);
  deps.logger.info({ connection_id: connection.id }, 'store credentials received');
}

/**
 * The platform posted the store's API credentials to the key exchange callback. The one-time value
 * names the connection; it is cleared so the same delivery cannot be replayed onto it. The key is
 * tested against the store first: a refused key answers 400 `store_credentials_refused` (WooCommerce
 * then deletes it and shows the owner an error).
 */
export async function completeKeyExchange(deps: ConnectorDeps, platform: string, body: unknown): Promise<void> {
  const driver = platformDriver(platform);
  const delivery = driver?.parseKeyDelivery(body) ?? null;
  if (delivery === null) {
    throw new ConnectorError(400, 'invalid_key_delivery', 'The body is not a key delivery with read and write access.');
  }
  const connection = await findConnectionByKeyExchange(deps.db, sha256Hex(delivery.userId));
  if (connection === undefined || connection.platform !== platform) {
    throw new ConnectorError(404, 'connection_not_found', 'No connection is waiting for these keys.');
  }
  // The store waits for this answer in one PHP worker; the test read needs a second (docs/connector.md).
  await acceptCredentials(deps, connection, delivery.credentials, 400);
}
