/**
 * Store connections: a shop's plugin registers its connect token with the connector, the shop owner
 * grants the connector access to the store's API through the platform's key exchange, and from then
 * on the connector acts for that store. The connect token and the platform credentials are kept
 * encrypted; a plugin's call finds its connection by the token's SHA-256.
 */
import { randomUUID } from 'node:crypto';
import { isIP } from 'node:net';
import { toStoredInstant } from '../../gateway/domain/clock.js';
import { hostLiesOn, normalizeHost } from '../../gateway/domain/hosts.js';
import { isForbiddenAddress } from '../../gateway/outbound/private-addresses.js';
import { sha256Hex } from '../../gateway/runtime/hashing.js';
import { randomToken } from '../../gateway/runtime/sealing.js';
import { ConnectorError, validationFailed } from '../errors.js';
import { type ConnectTokenInfo, type GatewayClient, GatewayError } from '../gateway-client/client.js';
import type { StorePlatform } from '../platforms/platform.js';
import { type PlatformDriver, platformDriver } from '../platforms/registry.js';
import type { ConnectorDeps } from '../runtime/deps.js';
import {
  findConnectionByKeyExchange,
  findConnectionByTokenHash,
  insertConnection,
  type StoreConnection,
  updateConnection,
} from '../storage/connection.repository.js';

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

/** A gateway refusal as the connector passes it on; no answer becomes 502 `gateway_unavailable`. */
export function fromGatewayError(error: unknown): unknown {
  if (!(error instanceof GatewayError)) return error;
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
): Promise<{ created: boolean; connection: ConnectionResponse }> {
  const info = await introspectToken(deps, token);
  const driver = platformDriver(info.platform);
  if (driver === undefined) {
    throw new ConnectorError(422, 'unsupported_platform', `The connector does not serve ${info.platform} stores yet.`);
  }
  const storeUrl = checkStoreUrl(body.store_url, info, deps.config.allowPrivateStores);
  const returnUrl = body.return_url ?? driver.defaultReturnUrl(storeUrl);
  const now = toStoredInstant(deps.clock.nowMs());
  const hash = sha256Hex(token);
  const existing = await findConnectionByTokenHash(deps.db, hash);
  const secrets = JSON.stringify(info.webhook_secrets);

  if (existing !== undefined) {
    if (existing.store_url !== storeUrl && existing.status === 'active') {
      throw new ConnectorError(
        409,
        'connection_exists',
        `This connect token is already connected to ${existing.store_url}. Create a new token for another store.`,
      );
    }
    const nonce = existing.status === 'awaiting_keys' ? keyExchangeNonce(deps, existing) : null;
    await updateConnection(deps.db, existing.id, {
      store_url: storeUrl,
      webhook_secrets_ciphertext: deps.sealer.seal(secrets, sealContext(existing.id, 'webhook_secrets')),
      secrets_refreshed_at: now,
      updated_at: now,
    });
    const updated: StoreConnection = { ...existing, store_url: storeUrl };
    return { created: false, connection: toResponse(deps, updated, nonce, returnUrl) };
  }

  const id = randomUUID();
  const nonce = randomToken();
  const row: StoreConnection = {
    id,
    platform: info.platform,
    store_url: storeUrl,
    domain: info.domain,
    environment: info.environment,
    token_id: info.id,
    token_hash: hash,
    token_ciphertext: deps.sealer.seal(token, sealContext(id, 'token')),
    credentials_ciphertext: null,
    webhook_secrets_ciphertext: deps.sealer.seal(secrets, sealContext(id, 'webhook_secrets')),
    secrets_refreshed_at: now,
    key_exchange_hash: sha256Hex(nonce),
    key_exchange_ciphertext: deps.sealer.seal(nonce, sealContext(id, 'key_exchange')),
    status: 'awaiting_keys',
    last_webhook_at: null,
    created_at: now,
    updated_at: now,
  };
  await insertConnection(deps.db, row);
  deps.logger.info({ connection_id: id, platform: row.platform, store_url: storeUrl }, 'store connection registered');
  return { created: true, connection: toResponse(deps, row, nonce, returnUrl) };
}

/** `GET /v1/connection`. */
export function describeConnection(deps: ConnectorDeps, connection: StoreConnection): ConnectionResponse {
  const nonce = connection.status === 'awaiting_keys' ? keyExchangeNonce(deps, connection) : null;
  return {
    ...toResponse(deps, connection, nonce, driverOf(connection).defaultReturnUrl(connection.store_url)),
    last_webhook_at: connection.last_webhook_at,
  };
}

/**
 * The platform posted the store's API credentials to the key exchange callback. The one-time value
 * names the connection; it is cleared so the same delivery cannot be replayed onto it.
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
  const now = toStoredInstant(deps.clock.nowMs());
  await updateConnection(deps.db, connection.id, {
    credentials_ciphertext: deps.sealer.seal(
      JSON.stringify(delivery.credentials),
      sealContext(connection.id, 'credentials'),
    ),
    key_exchange_hash: null,
    key_exchange_ciphertext: null,
    status: 'active',
    updated_at: now,
  });
  deps.logger.info({ connection_id: connection.id }, 'store credentials received');
}

/**
 * The connection a plugin's call belongs to, found by its connect token. `beforeAskingGateway` runs
 * before an unknown token is checked with the gateway (the caller limits how often that happens).
 */
export async function connectionForToken(
  deps: ConnectorDeps,
  token: string | undefined,
  beforeAskingGateway: () => void = () => {},
): Promise<StoreConnection> {
  if (token === undefined || token.trim() === '') {
    throw new ConnectorError(401, 'invalid_connect_token', 'Send the connect token in the X-Service-Connect header.');
  }
  const connection = await findConnectionByTokenHash(deps.db, sha256Hex(token.trim()));
  if (connection !== undefined) return connection;
  // Unknown here: tell a token the gateway refuses apart from a good one that was never registered.
  beforeAskingGateway();
  await introspectToken(deps, token.trim());
  throw new ConnectorError(
    404,
    'connection_not_found',
    'This connect token has no store connection yet: register the store with POST /v1/connections.',
  );
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
  if (sealed === null) {
    throw new ConnectorError(
      409,
      'connection_not_ready',
      'The store has not granted API access yet: open the authorize URL from the plugin settings and approve.',
    );
  }
  return opened(deps, 'store', connection.id, `${connection.store_url} ${sealed}`, () =>
    deps.openPlatform(
      connection.platform,
      connection.store_url,
      JSON.parse(deps.sealer.open(sealed, sealContext(connection.id, 'credentials'))) as Record<string, string>,
    ),
  );
}

/** The gateway client acting for this connection, with its connect token. */
export function gatewayOf(deps: ConnectorDeps, connection: StoreConnection): GatewayClient {
  return opened(deps, 'gateway', connection.id, connection.token_ciphertext, () =>
    deps.gateway(connectTokenOf(deps, connection)),
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
  if (nonce !== null) {
    response.authorize_url = driverOf(connection).authorizeUrl({
      storeUrl: connection.store_url,
      appName: deps.config.appName,
      userId: nonce,
      returnUrl,
      callbackUrl: `${deps.config.publicUrl}/${connection.platform}/auth/callback`,
    });
  }
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

/** A URL host that can only be a private address: an IP literal in a private range, or localhost. */
function isPrivateHost(hostname: string): boolean {
  const host = hostname
    .replace(/^\[|\]$/g, '')
    .replace(/\.$/, '')
    .toLowerCase();
  if (host === 'localhost' || host.endsWith('.localhost')) return true;
  return isIP(host) !== 0 && isForbiddenAddress(host);
}
