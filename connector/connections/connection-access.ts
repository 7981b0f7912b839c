/**
 * What a connection opens, each from its sealed columns: its connect token, its webhook secrets
 * (fetched again after a rotation), its gateway client and its store platform. Opened clients are
 * kept per connection while their sealed source is unchanged. A store call before the keys arrived,
 * or while the store refuses them, is refused clearly.
 */
import { toStoredInstant } from '../../gateway/domain/clock.js';
import { ConnectorError, storeUnauthorized } from '../errors.js';
import type { GatewayClient } from '../gateway-client/client.js';
import type { StorePlatform } from '../platforms/platform.js';
import type { ConnectorDeps } from '../runtime/deps.js';
import { type StoreConnection, updateConnection } from '../storage/connection.repository.js';
import { connectionEnded } from '../storage/connection.table.js';
import { watchGateway, watchStore } from './connection-health.js';

/** How often, at most, a connection's webhook secrets are fetched again after a signature mismatch. */
export const SECRETS_REFRESH_MS = 60_000;

/** The sealing context of each encrypted column: a value only opens in its own row and column. */
export const sealContext = (connectionId: string, column: string) => `store_connections:${connectionId}:${column}`;

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
