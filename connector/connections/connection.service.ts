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
import {
  asConnectorError,
  ConnectorError,
  errorDetail,
  isCredentialRefusal,
  storeUnauthorized,
  validationFailed,
} from '../errors.js';
import { type ConnectTokenInfo, type GatewayClient, GatewayError } from '../gateway-client/client.js';
import type { PlatformDriver } from '../platforms/driver.js';
import type { StorePlatform } from '../platforms/platform.js';
import { platformDriver } from '../platforms/registry.js';
import type { ConnectorDeps } from '../runtime/deps.js';
import {
  findConnection,
  findConnectionByKeyExchange,
  findConnectionByTokenHash,
  findStoreConnection,
  insertConnection,
  type StoreConnection,
  updateConnection,
} from '../storage/connection.repository.js';
import { type ConnectionStatus, connectionEnded } from '../storage/database.js';
import { resumeLinksOfConnection, stopLinksOfConnection } from '../storage/order-link.repository.js';
import { clearReconciliationBackoff } from '../storage/reconciliation-backoff.repository.js';
import {
  isPrivateHost,
  type KeyExchangeProblem,
  keyExchangeProblems,
  statusWithToken,
  storeErrorMessage,
  type WebhookHealth,
  watchGateway,
  watchStore,
  webhookHealth,
} from './connection-health.js';
import type { ConnectionProblem } from './problems.js';

/** How a connection ends: removed by its plugin, or the app uninstalled from the store. */
type EndedStatus = 'removed' | 'uninstalled';

/** How often, at most, a connection's webhook secrets are fetched again after a signature mismatch. */
export const SECRETS_REFRESH_MS = 60_000;

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

/** `GET /v1/connection`: the connection, how its parts are doing, and whether the key exchange can work. */
export interface ConnectionDescription extends ConnectionResponse {
  last_webhook_at: string | null;
  health: {
    gateway: 'ok' | 'unreachable';
    store: 'ok' | 'unauthorized' | 'unreachable' | 'unknown';
    store_error: { at: string; message: string } | null;
    webhooks: WebhookHealth;
    last_missed_webhook_at: string | null;
    /** What the platform's plugin knows is wrong (e.g. payments Shopify has not confirmed). */
    problems: ConnectionProblem[];
  };
  key_exchange: { callback_url: string; problems: KeyExchangeProblem[] };
  /**
   * The WooCommerce REST key the connector holds, as WooCommerce lists it (its last 7 characters,
   * `truncated_key`), with the app name its key exchange gives the keys it makes: the plugin
   * revokes the older keys of that app it replaced. Null without a WooCommerce key.
   */
  store_key: { truncated_key: string; app_name: string } | null;
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

/** The sealing context of each encrypted column: a value only opens in its own row and column. */
const sealContext = (connectionId: string, column: string) => `store_connections:${connectionId}:${column}`;

export function driverOf(connection: Pick<StoreConnection, 'platform'>): PlatformDriver {
  const driver = platformDriver(connection.platform);
  if (driver === undefined) throw new Error(`no driver for platform ${connection.platform}`);
  return driver;
}

/** Asks the gateway what the token is bound to; a token it refuses is `invalid_connect_token`. */
export async function introspectToken(deps: ConnectorDeps, token: string): Promise<ConnectTokenInfo> {
  try {
    return await deps.gateway(token).connectToken();
  } catch (error) {
    throw fromGatewayError(error);
  }
}

/**
 * A gateway refusal as the connector passes it on; no answer becomes 502 `gateway_unavailable`, a
 * refused token the one 401 of {@link refusedToken}.
 */
export function fromGatewayError(error: unknown): unknown {
  if (!(error instanceof GatewayError)) return error;
  if (error.status === 401) return refusedToken();
  if (error.status === 0 || error.status >= 500) {
    return new ConnectorError(502, 'gateway_unavailable', 'The payment gateway did not answer; try again shortly.');
  }
  return new ConnectorError(error.status, error.code, error.message);
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

/**
 * `GET /v1/connection`, for a caller {@link authenticatePluginCall} let through (it asked the gateway
 * about the token): a gateway that did not answer still describes the connection, with
 * `health.gateway: unreachable`.
 */
export async function describeConnection(deps: ConnectorDeps, caller: PluginCaller): Promise<ConnectionDescription> {
  const { gateway } = caller;
  const current = (await findConnection(deps.db, caller.connection.id)) ?? caller.connection;
  return {
    ...responseOf(deps, current),
    last_webhook_at: current.last_webhook_at,
    health: {
      gateway,
      store: storeHealth(current),
      store_error:
        current.store_error_at !== null && current.store_state !== 'ok'
          ? { at: current.store_error_at, message: current.store_error_message ?? '' }
          : null,
      webhooks: webhookHealth(current),
      last_missed_webhook_at: current.last_missed_webhook_at,
      problems: await platformProblems(deps, current),
    },
    key_exchange: {
      callback_url: callbackUrl(deps, current.platform),
      problems: keyExchangeProblems(deps.config.publicUrl, current.store_url),
    },
    store_key: storeKeyOf(deps, current),
  };
}

/** The WooCommerce key the connection holds, as WooCommerce names it (never the key itself). */
function storeKeyOf(deps: ConnectorDeps, connection: StoreConnection): ConnectionDescription['store_key'] {
  const consumerKey = connection.platform === 'woocommerce' ? credentialsOf(deps, connection)?.consumer_key : undefined;
  if (consumerKey === undefined || consumerKey.length < 7) return null;
  return { truncated_key: consumerKey.slice(-7), app_name: deps.config.appName };
}

/** The plugin's problems of the connection; a plugin that cannot tell now says nothing (logged). */
async function platformProblems(deps: ConnectorDeps, connection: StoreConnection): Promise<ConnectionProblem[]> {
  try {
    return (await deps.connectionProblems?.(connection)) ?? [];
  } catch (error) {
    deps.logger.warn({ connection_id: connection.id, err: errorDetail(error) }, 'connection problems not read');
    return [];
  }
}

function storeHealth(connection: StoreConnection): ConnectionDescription['health']['store'] {
  if (connection.status === 'store_unauthorized' || connection.store_state === 'unauthorized') return 'unauthorized';
  return connection.store_state ?? 'unknown';
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

/**
 * Payments and refunds need the store's API afterwards (marking paid, recording refunds): refused
 * clearly before the keys arrived and while the store refuses them.
 */
export function requireStoreAccess(connection: StoreConnection): void {
  if (connection.status === 'store_unauthorized' || connection.store_state === 'unauthorized') {
    throw storeUnauthorized();
  }
  if (connection.credentials_ciphertext === null) throw connectionNotReady();
}

function connectionNotReady(): ConnectorError {
  return new ConnectorError(
    409,
    'connection_not_ready',
    'The store has not granted API access yet: open the authorize URL from the plugin settings and approve.',
  );
}

function callbackUrl(deps: ConnectorDeps, platform: string): string {
  return `${deps.config.publicUrl}/${platform}/auth/callback`;
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

/** A plugin's call whose connect token the gateway accepts, and the connection it belongs to. */
export interface PluginCaller {
  readonly connection: StoreConnection;
  /** `unreachable`: the gateway did not answer, and the connector's last word from it was not a refusal. */
  readonly gateway: 'ok' | 'unreachable';
}

/** The one refusal of a token the gateway does not accept: it tells nothing about any connection. */
export function refusedToken(): ConnectorError {
  return new ConnectorError(
    401,
    'invalid_connect_token',
    'The gateway refused this connect token: it is unknown, revoked or has expired.',
  );
}

/** The connect token of a plugin's call, or 401 when there is none. */
export function requireToken(token: string | undefined): string {
  const trimmed = token?.trim() ?? '';
  if (trimmed === '') {
    throw new ConnectorError(401, 'invalid_connect_token', 'Send the connect token in the X-Service-Connect header.');
  }
  return trimmed;
}

/**
 * Authenticates a plugin's call: the connect token is checked with the gateway
 * (`GET /api/v1/connect_token`) on every call, before anything about its connection is read or
 * answered, so a token the gateway refuses (unknown, revoked, expired) gets 401
 * `invalid_connect_token` on every route, whatever its connection's state.
 *
 * - Unknown here (or its connection ended): 401 when the gateway refuses it, else 404
 *   `connection_not_found` (a good token never registered).
 * - A registered token the gateway refuses: 401, and the connection is marked `token_revoked`.
 *   One it accepts again after a refusal gets its connection back to its earlier status.
 * - The gateway does not answer (or limits the connector, 429): the call goes on with the
 *   connection as known, unless its last word was a refusal (`token_revoked`): then 401.
 *
 * With `MAY_USE_RECENT_ANSWER`, an acceptance stands for a few seconds (accepted-tokens.ts): a
 * plugin's burst of order calls asks the gateway once, since each question counts in the merchant's
 * per-minute limit there. Any call the gateway refuses marks the connection `token_revoked`, which
 * is asked again at once.
 *
 * `beforeAskingGateway` runs before the gateway is asked about a token that is unknown here or was
 * refused last time (the caller limits how often one address may do that, so bad tokens cannot
 * spend the gateway's per-address limit on failed authentications for every store).
 */
export async function authenticatePluginCall(
  deps: ConnectorDeps,
  rawToken: string | undefined,
  beforeAskingGateway: () => void = () => {},
  check: TokenCheck = ASK_GATEWAY_NOW,
): Promise<PluginCaller> {
  const token = requireToken(rawToken);
  const connection = await findConnectionByTokenHash(deps.db, sha256Hex(token));
  if (connection === undefined || connectionEnded(connection.status)) {
    beforeAskingGateway();
    await introspectToken(deps, token);
    throw new ConnectorError(
      404,
      'connection_not_found',
      'This connect token has no store connection yet: register the store with POST /v1/connections.',
    );
  }
  if (connection.status === 'token_revoked') beforeAskingGateway();
  return checkConnectionToken(deps, connection, check);
}

/** Whether a plugin call may take the gateway's acceptance of its token of a few seconds ago. */
export type TokenCheck = { readonly recentAnswer: boolean };
export const ASK_GATEWAY_NOW: TokenCheck = { recentAnswer: false };
export const MAY_USE_RECENT_ANSWER: TokenCheck = { recentAnswer: true };

/**
 * Asks the gateway whether it still accepts the connection's connect token (see
 * {@link authenticatePluginCall}): 401 `invalid_connect_token` when it refuses it now, or did the
 * last time and does not answer now.
 */
export async function checkConnectionToken(
  deps: ConnectorDeps,
  connection: StoreConnection,
  check: TokenCheck = ASK_GATEWAY_NOW,
): Promise<PluginCaller> {
  // Accepted a moment ago (accepted-tokens.ts), and refused by no call since: not asked again.
  const nowMs = deps.clock.nowMs();
  const recent = check.recentAnswer && deps.acceptedTokens.accepted(connection.token_hash, nowMs);
  if (connection.status !== 'token_revoked' && recent) {
    return { connection, gateway: 'ok' };
  }
  try {
    // Through watchGateway: a 401 marks the connection `token_revoked`.
    await gatewayOf(deps, connection).connectToken();
  } catch (error) {
    deps.acceptedTokens.forget(connection.token_hash);
    if (!(error instanceof GatewayError)) throw error;
    if (error.status === 401) throw refusedToken();
    if (!error.retryable) throw fromGatewayError(error);
    if (connection.status === 'token_revoked') throw refusedToken();
    return { connection, gateway: 'unreachable' };
  }
  deps.acceptedTokens.remember(connection.token_hash, nowMs);
  if (connection.status !== 'token_revoked') return { connection, gateway: 'ok' };
  // The gateway accepts the token again (a refusal it no longer makes): the connection is back.
  await updateConnection(deps.db, connection.id, {
    status: statusWithToken(connection),
    updated_at: toStoredInstant(deps.clock.nowMs()),
  });
  return { connection: (await findConnection(deps.db, connection.id)) ?? connection, gateway: 'ok' };
}

export function connectTokenOf(deps: ConnectorDeps, connection: StoreConnection): string {
  return deps.sealer.open(connection.token_ciphertext, sealContext(connection.id, 'token'));
}

export function webhookSecretsOf(deps: ConnectorDeps, connection: StoreConnection): string[] {
  return JSON.parse(
    deps.sealer.open(connection.webhook_secrets_ciphertext, sealContext(connection.id, 'webhook_secrets')),
  );
}

/**
 * Fetches the domain's webhook secrets again (after a rotation at the gateway), at most once per
 * {@link SECRETS_REFRESH_MS}; answers the secrets to use, or null when no refresh was due.
 */
export async function refreshWebhookSecrets(
  deps: ConnectorDeps,
  connection: StoreConnection,
): Promise<string[] | null> {
  const nowMs = deps.clock.nowMs();
  if (Date.parse(connection.secrets_refreshed_at) + SECRETS_REFRESH_MS > nowMs) return null;
  const info = await gatewayOf(deps, connection).connectToken();
  await updateConnection(deps.db, connection.id, {
    webhook_secrets_ciphertext: deps.sealer.seal(
      JSON.stringify(info.webhook_secrets),
      sealContext(connection.id, 'webhook_secrets'),
    ),
    secrets_refreshed_at: toStoredInstant(nowMs),
  });
  return info.webhook_secrets;
}

/** The store's API, opened with the connection's credentials; 409 until the key exchange is done. */
export function storeOf(deps: ConnectorDeps, connection: StoreConnection): StorePlatform {
  const sealed = connection.credentials_ciphertext;
  if (sealed === null) throw connectionNotReady();
  return opened(deps, 'store', connection.id, `${connection.store_url} ${sealed}`, () =>
    watchStore(
      deps,
      connection,
      deps.openPlatform(
        connection.platform,
        connection.store_url,
        JSON.parse(deps.sealer.open(sealed, sealContext(connection.id, 'credentials'))) as Record<string, string>,
      ),
    ),
  );
}

/** The connection's platform credentials, opened; null before the store granted access. */
export function credentialsOf(deps: ConnectorDeps, connection: StoreConnection): Record<string, string> | null {
  const sealed = connection.credentials_ciphertext;
  if (sealed === null) return null;
  return JSON.parse(deps.sealer.open(sealed, sealContext(connection.id, 'credentials'))) as Record<string, string>;
}

/** The payment method of the connection's orders: the store's own setting (Shopify), else the connector's. */
export function paymentMethodOf(deps: ConnectorDeps, connection: StoreConnection): string {
  return storeOf(deps, connection).paymentMethod ?? deps.config.paymentMethodId;
}

/** The gateway client acting for this connection, with its connect token. */
export function gatewayOf(deps: ConnectorDeps, connection: StoreConnection): GatewayClient {
  if (connectionEnded(connection.status))
    throw new ConnectorError(404, 'connection_not_found', 'The connection was removed.');
  return opened(deps, 'gateway', connection.id, connection.token_ciphertext, () =>
    watchGateway(deps, connection.id, deps.gateway(connectTokenOf(deps, connection))),
  );
}

/**
 * Clients opened from a connection's sealed credentials, kept per connection so that handling one
 * webhook (which reads the order, marks it paid and writes a note) decrypts and builds them once.
 * An entry is used only while the sealed value it was opened from is still the row's.
 */
const openedClients = new WeakMap<ConnectorDeps, Map<string, { source: string; client: unknown }>>();
const MAX_OPENED = 1_000;

function opened<T>(deps: ConnectorDeps, kind: string, connectionId: string, source: string, open: () => T): T {
  let clients = openedClients.get(deps);
  if (clients === undefined) {
    clients = new Map();
    openedClients.set(deps, clients);
  }
  const key = `${kind}:${connectionId}`;
  const entry = clients.get(key);
  if (entry !== undefined && entry.source === source) return entry.client as T;
  if (clients.size >= MAX_OPENED) clients.clear();
  const client = open();
  clients.set(key, { source, client });
  return client;
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
