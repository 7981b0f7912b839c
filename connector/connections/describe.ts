/**
 * `GET /v1/connection`: the connection as its plugin's settings page shows it, with its health (the
 * gateway, the store, the webhooks), what stands in the way of the key exchange, and the store key
 * the connector holds (so the plugin can revoke the ones it replaced).
 */
import { errorDetail } from '../errors.js';
import type { ConnectorDeps } from '../runtime/deps.js';
import { findConnection, type StoreConnection } from '../storage/connection.repository.js';
import { type ConnectionResponse, callbackUrl, responseOf } from './connection.service.js';
import { credentialsOf } from './connection-access.js';
import {
  type KeyExchangeProblem,
  keyExchangeProblems,
  type WebhookHealth,
  webhookHealth,
} from './connection-health.js';
import { authenticatePluginCall, type PluginCaller } from './plugin-auth.js';
import type { ConnectionProblem } from './problems.js';

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
