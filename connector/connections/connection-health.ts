/**
 * What the connector learns about a connection from its own calls, kept on the connection row:
 *
 * - every store call through {@link watchStore}: success -> `store_state: ok`; a temporary failure
 *   -> `unreachable`; a refused key (401/403) -> `unauthorized` and status `store_unauthorized`;
 * - every gateway call through {@link watchGateway}: a 401 for the connect token -> status
 *   `token_revoked` (polling and scheduled reconciliation stop for it).
 *
 * Rows are written only when the state changes (the wrapper remembers what it last wrote), so a
 * busy store costs no extra writes. Messages say what happened without secrets or network detail.
 */
import { isIP } from 'node:net';
import { toStoredInstant } from '../../gateway/domain/clock.js';
import { isForbiddenAddress } from '../../gateway/outbound/private-addresses.js';
import { isCredentialRefusal } from '../errors.js';
import { type GatewayClient, GatewayError } from '../gateway-client/client.js';
import { PlatformError, type StorePlatform } from '../platforms/platform.js';
import type { ConnectorDeps } from '../runtime/deps.js';
import type { StoreConnection } from '../storage/connection.repository.js';
import { ENDED_STATUSES, type StoreState } from '../storage/connection.table.js';

/** What the store's answer means, for the shop owner (no key, no address). */
export function storeErrorMessage(error: PlatformError): string {
  if (error.status === 401) return 'The store answered 401: the REST key is wrong or was deleted.';
  if (error.status === 403) return 'The store answered 403: the REST key is read-only or lacks permission.';
  if (error.status !== null) return `The store answered HTTP ${error.status}.`;
  return 'The store did not answer (network error or timeout).';
}

/** The store's API, recording the outcome of each call on the connection row. */
export function watchStore(deps: ConnectorDeps, connection: StoreConnection, store: StorePlatform): StorePlatform {
  let known: StoreState | null = connection.store_state;
  async function observe<T>(call: () => Promise<T>): Promise<T> {
    try {
      const result = await call();
      if (known !== 'ok' && known !== 'unauthorized') {
        known = 'ok';
        await recordStoreState(deps, connection.id, 'ok', null);
      }
      return result;
    } catch (error) {
      if (isCredentialRefusal(error)) {
        if (known !== 'unauthorized') {
          known = 'unauthorized';
          await recordStoreRefusal(deps, connection.id, error);
        }
      } else if (error instanceof PlatformError && error.retryable && known !== 'unauthorized') {
        known = 'unreachable';
        await recordStoreState(deps, connection.id, 'unreachable', storeErrorMessage(error));
      }
      throw error;
    }
  }
  return {
    platform: store.platform,
    ...(store.paymentMethod === undefined ? {} : { paymentMethod: store.paymentMethod }),
    getOrder: (orderId) => observe(() => store.getOrder(orderId)),
    listOrders: (range, method) => observe(() => store.listOrders(range, method)),
    markPaid: (orderId, payment) => observe(() => store.markPaid(orderId, payment)),
    ...(store.placeOnHold === undefined
      ? {}
      : {
          placeOnHold: (orderId: string) =>
            observe(() => (store.placeOnHold as NonNullable<StorePlatform['placeOnHold']>)(orderId)),
        }),
    addNote: (orderId, note) => observe(() => store.addNote(orderId, note)),
    recordRefund: (orderId, refund) => observe(() => store.recordRefund(orderId, refund)),
    ...(store.deleteRefund === undefined
      ? {}
      : {
          deleteRefund: (orderId: string, refundId: string) =>
            observe(() => (store.deleteRefund as NonNullable<StorePlatform['deleteRefund']>)(orderId, refundId)),
        }),
    checkAccess: () => observe(() => store.checkAccess()),
  };
}

async function recordStoreState(
  deps: ConnectorDeps,
  connectionId: string,
  state: 'ok' | 'unreachable',
  message: string | null,
): Promise<void> {
  const now = toStoredInstant(deps.clock.nowMs());
  await deps.db
    .updateTable('store_connections')
    .set({
      store_state: state,
      ...(message === null ? {} : { store_error_at: now, store_error_message: message }),
    })
    .where('id', '=', connectionId)
    .where((eb) => eb.or([eb('store_state', 'is', null), eb('store_state', '!=', 'unauthorized')]))
    .execute();
}

async function recordStoreRefusal(deps: ConnectorDeps, connectionId: string, error: PlatformError): Promise<void> {
  const now = toStoredInstant(deps.clock.nowMs());
  await deps.db
    .updateTable('store_connections')
    .set({ store_state: 'unauthorized', store_error_at: now, store_error_message: storeErrorMessage(error) })
    .where('id', '=', connectionId)
    .execute();
  const changed = await deps.db
    .updateTable('store_connections')
    .set({ status: 'store_unauthorized', updated_at: now })
    .where('id', '=', connectionId)
    .where('status', '=', 'active')
    .executeTakeFirst();
  if (Number(changed.numUpdatedRows) === 1) {
    deps.logger.warn(
      { connection_id: connectionId, status: error.status },
      'the store refused the connector REST key; the shop owner must reconnect',
    );
  }
}

/** The gateway client of a connection, marking the connection `token_revoked` on a 401. */
export function watchGateway(deps: ConnectorDeps, connectionId: string, client: GatewayClient): GatewayClient {
  async function observe<T>(call: () => Promise<T>): Promise<T> {
    try {
      return await call();
    } catch (error) {
      if (error instanceof GatewayError && error.status === 401) await markTokenRevoked(deps, connectionId);
      throw error;
    }
  }
  return {
    createPayment: (input, options) => observe(() => client.createPayment(input, options)),
    getPayment: (uuid) => observe(() => client.getPayment(uuid)),
    cancelPayment: (uuid) => observe(() => client.cancelPayment(uuid)),
    getOrderPayment: (orderId) => observe(() => client.getOrderPayment(orderId)),
    refundPayment: (uuid, input, options) => observe(() => client.refundPayment(uuid, input, options)),
    listRefunds: (uuid) => observe(() => client.listRefunds(uuid)),
    capturePayment: (uuid, input, options) => observe(() => client.capturePayment(uuid, input, options)),
    voidPayment: (uuid, options) => observe(() => client.voidPayment(uuid, options)),
    connectToken: () => observe(() => client.connectToken()),
  };
}

export async function markTokenRevoked(deps: ConnectorDeps, connectionId: string): Promise<void> {
  const changed = await deps.db
    .updateTable('store_connections')
    .set({ status: 'token_revoked', updated_at: toStoredInstant(deps.clock.nowMs()) })
    .where('id', '=', connectionId)
    .where('status', 'not in', ['token_revoked', ...ENDED_STATUSES])
    .executeTakeFirst();
  if (Number(changed.numUpdatedRows) === 1) {
    deps.logger.warn(
      { connection_id: connectionId },
      'the gateway refused the connect token; polling and reconciliation stop for this connection',
    );
  }
}

/** The status a connection returns to when the gateway accepts its token again. */
export function statusWithToken(connection: StoreConnection): StoreConnection['status'] {
  if (connection.key_exchange_hash !== null || connection.credentials_ciphertext === null) return 'awaiting_keys';
  return connection.store_state === 'unauthorized' ? 'store_unauthorized' : 'active';
}

export type KeyExchangeProblem = 'callback_not_https' | 'callback_port_not_allowed' | 'callback_host_not_public';

/**
 * Why WooCommerce cannot deliver keys to the connector's callback: it posts only to https, on port
 * 80, 443 or 8080, on a host that resolves publicly, unless the callback is on the store's own host
 * (`storeUrl`). A name is not resolved here.
 */
export function keyExchangeProblems(publicUrl: string, storeUrl?: string): KeyExchangeProblem[] {
  const url = new URL(publicUrl);
  const store = storeUrl === undefined ? null : new URL(storeUrl);
  // wp_http_validate_url(): a callback on the store's own host may be private, and may use the
  // store's own port (a local test store with the connector beside it).
  const sameHost = store !== null && store.hostname.toLowerCase() === url.hostname.toLowerCase();
  const problems: KeyExchangeProblem[] = [];
  if (url.protocol !== 'https:') problems.push('callback_not_https');
  const portAllowed =
    url.port === '' || ['80', '443', '8080'].includes(url.port) || (sameHost && store?.port === url.port);
  if (!portAllowed) problems.push('callback_port_not_allowed');
  if (!sameHost && isPrivateHost(url.hostname)) problems.push('callback_host_not_public');
  return problems;
}

/** A URL host that can only be a private address: an IP literal in a private range, or localhost. */
export function isPrivateHost(hostname: string): boolean {
  const host = hostname
    .replace(/^\[|\]$/g, '')
    .replace(/\.$/, '')
    .toLowerCase();
  if (host === 'localhost' || host.endsWith('.localhost')) return true;
  return isIP(host) !== 0 && isForbiddenAddress(host);
}

export type WebhookHealth = 'ok' | 'none_yet' | 'stale';

export function webhookHealth(
  connection: Pick<StoreConnection, 'last_webhook_at' | 'last_missed_webhook_at'>,
): WebhookHealth {
  const missed = connection.last_missed_webhook_at;
  const last = connection.last_webhook_at;
  if (missed !== null && (last === null || Date.parse(missed) > Date.parse(last))) return 'stale';
  return last === null ? 'none_yet' : 'ok';
}
