/**
 * Store connections: a shop's plugin registers its connect token with the connector, the shop owner
 * grants the connector access to the store's API through the platform's key exchange, and from then
 * on the connector acts for that store. The connect token and the platform credentials are kept
 * encrypted; a plugin's call finds its connection by the token's SHA-256.
 */
import { randomUUID } from 'node:crypto';
import { toStoredInstant } from '../../gateway/domain/clock.js';
import { hostLiesOn, normalizeHost } from '../../gateway/domain/hosts.js';
import { sha256Hex } from '../../gateway/runtime/hashing.js';
import { randomToken } from '../../gateway/runtime/sealing.js';
import { isUniqueViolation } from '../../storage/errors.js';
import { ConnectorError, errorDetail, validationFailed } from '../errors.js';
import type { ConnectTokenInfo } from '../gateway-client/client.js';
import type { PlatformDriver } from '../platforms/driver.js';
import { platformDriver } from '../platforms/registry.js';
import type { ConnectorDeps } from '../runtime/deps.js';
import {
  findConnectionByTokenHash,
  findStoreConnection,
  insertConnection,
  type StoreConnection,
  updateConnection,
} from '../storage/connection.repository.js';
import { type ConnectionStatus, connectionEnded } from '../storage/connection.table.js';
import { resumeLinksOfConnection, stopLinksOfConnection } from '../storage/order-link.repository.js';
import { clearReconciliationBackoff } from '../storage/reconciliation-backoff.repository.js';
import { sealContext } from './connection-access.js';
import { isPrivateHost } from './connection-health.js';
import { introspectToken } from './plugin-auth.js';

/** How a connection ends: removed by its plugin, or the app uninstalled from the store. */
type EndedStatus = 'removed' | 'uninstalled';

export interface ConnectionResponse {
  connection_id: string;
  platform: string;
  store_url: string;
  domain: string;
  environment: 'test' | 'live';
  status: StoreConnection['status'];
  authorize_url?: string;
  last_webhook_at?: string | null;
}

/**
 * Access a platform app install granted already (Shopify's OAuth), given when the connection is
 * registered: the connection is `active` at once with these credentials, and no key exchange starts.
 */
export interface AppGrant {
  /** The platform the connect token must have been issued for. */
  readonly platform: string;
  readonly credentials: Readonly<Record<string, string>>;
  /** Refuses a token bound to the wrong store (throws a ConnectorError). */
  check(info: ConnectTokenInfo): void;
}

export function driverOf(connection: Pick<StoreConnection, 'platform'>): PlatformDriver {
  const driver = platformDriver(connection.platform);
  if (driver === undefined) throw new Error(`no driver for platform ${connection.platform}`);
  return driver;
}

/**
 * `POST /v1/connections`: registers the store for this token, or answers the connection already
 * registered with it. The store URL may change only while the key exchange has not happened.
 */
export async function registerConnection(
  deps: ConnectorDeps,
  token: string,
  body: { store_url: string; return_url?: string },
  granted?: AppGrant,
  introspected?: ConnectTokenInfo,
  retried = false,
): Promise<{ created: boolean; connection: ConnectionResponse }> {
  const info = introspected ?? (await introspectToken(deps, token));
  const driver = platformDriver(info.platform);
  if (driver === undefined) {
    throw new ConnectorError(422, 'unsupported_platform', `The connector does not serve ${info.platform} stores yet.`);
  }
  if (granted !== undefined && info.platform !== granted.platform) {
    throw new ConnectorError(
      422,
      'unsupported_platform',
      `This connect token was issued for ${info.platform}; create a ${granted.platform} token for this shop.`,
    );
  }
  if (granted !== undefined) granted.check(info);
  const storeUrl = checkStoreUrl(body.store_url, info, deps.config.allowPrivateStores);
  const returnUrl = body.return_url ?? driver.defaultReturnUrl(storeUrl);
  const now = toStoredInstant(deps.clock.nowMs());
  const hash = sha256Hex(token);
  const existing = await findConnectionByTokenHash(deps.db, hash);
  const secrets = JSON.stringify(info.webhook_secrets);

  if (existing !== undefined) {
    // Once the store delivered keys, they belong to its URL: they are never sent to another one.
    if (existing.store_url !== storeUrl && existing.credentials_ciphertext !== null) {
      throw new ConnectorError(
        409,
        'connection_exists',
        `This connect token is already connected to ${existing.store_url}. Create a new token for another store.`,
      );
    }
    const grant =
      granted === undefined
        ? {}
        : {
            credentials_ciphertext: deps.sealer.seal(
              JSON.stringify(granted.credentials),
              sealContext(existing.id, 'credentials'),
            ),
            key_exchange_hash: null,
            key_exchange_ciphertext: null,
            status: existing.status === 'token_revoked' ? ('token_revoked' as const) : ('active' as const),
          };
    await updateConnection(deps.db, existing.id, {
      store_url: storeUrl,
      webhook_secrets_ciphertext: deps.sealer.seal(secrets, sealContext(existing.id, 'webhook_secrets')),
      secrets_refreshed_at: now,
      updated_at: now,
      ...grant,
    });
    const updated: StoreConnection = { ...existing, store_url: storeUrl, ...grant };
    const nonce = updated.status === 'awaiting_keys' ? keyExchangeNonce(deps, updated) : null;
    return { created: false, connection: toResponse(deps, updated, nonce, returnUrl) };
  }

  // A new token for a store already known (its token replaced, or the store connected again after
  // a removal): the store keeps its connection, so every earlier order stays its own.
  const known = await findStoreConnection(deps.db, {
    platform: info.platform,
    store_url: storeUrl,
    domain: info.domain,
    environment: info.environment,
  });
  if (known !== undefined) {
    return { created: false, connection: await replaceToken(deps, known, token, info, returnUrl, granted) };
  }

  const id = randomUUID();
  // An app install already granted access (Shopify's OAuth): active at once, no key exchange.
  const nonce = granted === undefined ? randomToken() : null;
  const row: StoreConnection = {
    id,
    platform: info.platform,
    store_url: storeUrl,
    domain: info.domain,
    environment: info.environment,
    token_id: info.id,
    token_hash: hash,
    token_ciphertext: deps.sealer.seal(token, sealContext(id, 'token')),
    credentials_ciphertext:
      granted === undefined
        ? null
        : deps.sealer.seal(JSON.stringify(granted.credentials), sealContext(id, 'credentials')),
    webhook_secrets_ciphertext: deps.sealer.seal(secrets, sealContext(id, 'webhook_secrets')),
    secrets_refreshed_at: now,
    key_exchange_hash: nonce === null ? null : sha256Hex(nonce),
    key_exchange_ciphertext: nonce === null ? null : deps.sealer.seal(nonce, sealContext(id, 'key_exchange')),
    status: nonce === null ? 'active' : 'awaiting_keys',
    last_webhook_at: null,
    created_at: now,
    updated_at: now,
    store_state: null,
    store_error_at: null,
    store_error_message: null,
    last_missed_webhook_at: null,
    store_checked_at: null,
  };
  try {
    await insertConnection(deps.db, row);
  } catch (error) {
    // Registered at the same moment by another call (this token, or another token of this store):
    // that connection is the store's, and this call answers (or takes over) it.
    if (!isUniqueViolation(error) || retried) throw error;
    return registerConnection(deps, token, body, granted, info, true);
  }
  deps.logger.info({ connection_id: id, platform: row.platform, store_url: storeUrl }, 'store connection registered');
  return { created: true, connection: toResponse(deps, row, nonce, returnUrl) };
}

/**
 * A store is one store for ever: the connection of a platform, store URL, gateway domain and
 * environment keeps its id (the gateway order ids and webhook addresses of its orders name it)
 * whatever token it is reached with. A new connect token for a known store takes the connection
 * over: the token is replaced, the store's keys stay (a store connected again after a removal, whose
 * keys were erased, goes through the key exchange again), and polling of its unpaid orders resumes
 * once it has keys. The old token no longer reaches the connection.
 */
async function replaceToken(
  deps: ConnectorDeps,
  store: StoreConnection,
  token: string,
  info: ConnectTokenInfo,
  returnUrl: string,
  granted: AppGrant | undefined,
): Promise<ConnectionResponse> {
  const now = toStoredInstant(deps.clock.nowMs());
  const context = (column: string) => sealContext(store.id, column);
  const ended = connectionEnded(store.status);
  const keys =
    granted !== undefined
      ? deps.sealer.seal(JSON.stringify(granted.credentials), context('credentials'))
      : ended
        ? null
        : store.credentials_ciphertext;
  let status: ConnectionStatus;
  let exchange: { hash: string | null; ciphertext: string | null } = {
    hash: store.key_exchange_hash,
    ciphertext: store.key_exchange_ciphertext,
  };
  if (keys === null || (store.status === 'awaiting_keys' && granted === undefined)) {
    status = 'awaiting_keys';
    if (ended || exchange.ciphertext === null) {
      const nonce = randomToken();
      exchange = { hash: sha256Hex(nonce), ciphertext: deps.sealer.seal(nonce, context('key_exchange')) };
    }
  } else {
    status = store.status === 'store_unauthorized' && granted === undefined ? 'store_unauthorized' : 'active';
    if (granted !== undefined) exchange = { hash: null, ciphertext: null };
  }
  const changes = {
    token_id: info.id,
    token_hash: sha256Hex(token),
    token_ciphertext: deps.sealer.seal(token, context('token')),
    credentials_ciphertext: keys,
    webhook_secrets_ciphertext: deps.sealer.seal(JSON.stringify(info.webhook_secrets), context('webhook_secrets')),
    secrets_refreshed_at: now,
    key_exchange_hash: exchange.hash,
    key_exchange_ciphertext: exchange.ciphertext,
    status,
    updated_at: now,
  };
  await updateConnection(deps.db, store.id, changes);
  deps.acceptedTokens.forget(store.token_hash);
  if (keys !== null) await resumeLinksOfConnection(deps.db, store.id, now);
  deps.logger.info(
    { connection_id: store.id, token_id: info.id, previous_token_id: store.token_id, previous_status: store.status },
    'connect token replaced: the store keeps its connection',
  );
  const updated: StoreConnection = { ...store, ...changes };
  return toResponse(deps, updated, status === 'awaiting_keys' ? keyExchangeNonce(deps, updated) : null, returnUrl);
}

/** The connection object as answered (with the authorize URL while keys are awaited). */
export function responseOf(deps: ConnectorDeps, connection: StoreConnection): ConnectionResponse {
  const nonce = connection.status === 'awaiting_keys' ? keyExchangeNonce(deps, connection) : null;
  return {
    ...toResponse(deps, connection, nonce, driverOf(connection).defaultReturnUrl(connection.store_url)),
    last_webhook_at: connection.last_webhook_at,
  };
}

/**
 * `DELETE /v1/connection`: no more polling, reconciliation or store calls for it; the token, the
 * store credentials and the webhook secrets are erased. Its order rows stay, for history. The row
 * keeps its id (orders refer to it) under a token hash no token has, so the same token may register
 * again as a new connection.
 */
export async function removeConnection<S extends EndedStatus = 'removed'>(
  deps: ConnectorDeps,
  connection: StoreConnection,
  status: S = 'removed' as S,
): Promise<{ connection_id: string; status: S }> {
  const now = toStoredInstant(deps.clock.nowMs());
  await updateConnection(deps.db, connection.id, {
    status,
    token_hash: `removed:${connection.id}`,
    token_ciphertext: '',
    credentials_ciphertext: null,
    webhook_secrets_ciphertext: '',
    key_exchange_hash: null,
    key_exchange_ciphertext: null,
    updated_at: now,
  });
  await stopLinksOfConnection(deps.db, connection.id, now);
  await clearReconciliationBackoff(deps.db, connection.id);
  deps.logger.info({ connection_id: connection.id, status }, 'store connection ended');
  try {
    await deps.connectionEnded?.(connection, status);
  } catch (error) {
    // The connection has ended either way; what follows is retried by its own owner.
    deps.logger.warn({ connection_id: connection.id, err: errorDetail(error) }, 'after the connection ended');
  }
  return { connection_id: connection.id, status };
}

export function callbackUrl(deps: ConnectorDeps, platform: string): string {
  return `${deps.config.publicUrl}/${platform}/auth/callback`;
}

function keyExchangeNonce(deps: ConnectorDeps, connection: StoreConnection): string | null {
  if (connection.key_exchange_ciphertext === null) return null;
  return deps.sealer.open(connection.key_exchange_ciphertext, sealContext(connection.id, 'key_exchange'));
}

function toResponse(
  deps: ConnectorDeps,
  connection: StoreConnection,
  nonce: string | null,
  returnUrl: string,
): ConnectionResponse {
  const response: ConnectionResponse = {
    connection_id: connection.id,
    platform: connection.platform,
    store_url: connection.store_url,
    domain: connection.domain,
    environment: connection.environment,
    status: connection.status,
  };
  const authorizeUrl =
    nonce === null
      ? null
      : driverOf(connection).authorizeUrl({
          storeUrl: connection.store_url,
          appName: deps.config.appName,
          userId: nonce,
          returnUrl,
          callbackUrl: callbackUrl(deps, connection.platform),
        });
  if (authorizeUrl !== null) response.authorize_url = authorizeUrl;
  return response;
}

/**
 * The store URL as kept: scheme and host (and path, for a shop below a folder), no trailing slash.
 * A live store must be served over https on the token's domain; a test store may be anywhere on
 * the internet. An address the connector may not call (a private IP literal, localhost) is refused
 * here at once; a name is checked on every call, where it resolves (gateway/outbound).
 */
function checkStoreUrl(raw: string, info: ConnectTokenInfo, allowPrivate: boolean): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw validationFailed({ store_url: ['must be the http(s) address of the store'] });
  }
  if ((url.protocol !== 'http:' && url.protocol !== 'https:') || url.username || url.password) {
    throw validationFailed({ store_url: ['must be the http(s) address of the store'] });
  }
  if (!allowPrivate && isPrivateHost(url.hostname)) {
    throw validationFailed({
      store_url: ['must be a public address of the store: loopback, private and link-local addresses are refused'],
    });
  }
  if (info.environment === 'live') {
    const host = normalizeHost(url.hostname);
    if (url.protocol !== 'https:' || host === null || !hostLiesOn(host, info.domain)) {
      throw validationFailed({
        store_url: [`a live store must be served over https on ${info.domain}, the domain of the connect token`],
      });
    }
  }
  return `${url.origin}${url.pathname.replace(/\/+$/, '')}`;
}
