/** The store connections: a shop connected to the gateway, and the ids of connections merged into another. */

/**
 * `awaiting_keys` until the platform delivered credentials (and again after a reconnect);
 * `store_unauthorized` once the store refused the credentials (401/403); `token_revoked` once the
 * gateway refused the connect token (401); `removed` after `DELETE /v1/connection` (secrets erased);
 * `uninstalled` once the platform said the app was uninstalled (Shopify's `app/uninstalled`; secrets
 * erased the same way).
 */
export type ConnectionStatus =
  | 'awaiting_keys'
  | 'active'
  | 'store_unauthorized'
  | 'token_revoked'
  | 'removed'
  | 'uninstalled';

/** The statuses of a connection that ended: its secrets are erased and it acts for nobody. */
export const ENDED_STATUSES: readonly ConnectionStatus[] = ['removed', 'uninstalled'];

export function connectionEnded(status: ConnectionStatus): boolean {
  return ENDED_STATUSES.includes(status);
}

/** What the last store call said: null before any. */
export type StoreState = 'ok' | 'unreachable' | 'unauthorized';

/** A shop connected to the gateway: one per connect token. */
export interface StoreConnectionTable {
  id: string;
  platform: string;
  store_url: string;
  /** The gateway domain the connect token is bound to. */
  domain: string;
  environment: 'test' | 'live';
  /** The connect token's id at the gateway. */
  token_id: string;
  /** SHA-256 (hex) of the connect token: how a plugin's call finds its connection. */
  token_hash: string;
  /** The connect token itself, encrypted: the connector calls the gateway with it. */
  token_ciphertext: string;
  /** The platform's API credentials (JSON), encrypted; null until the key exchange delivered them. */
  credentials_ciphertext: string | null;
  /** The domain's webhook secrets (JSON array), encrypted; refreshed from the gateway on a mismatch. */
  webhook_secrets_ciphertext: string;
  secrets_refreshed_at: string;
  /** SHA-256 (hex) of the one-time value in the platform's authorize URL; null once used. */
  key_exchange_hash: string | null;
  /** That one-time value, encrypted, so the same authorize URL can be shown again until it is used. */
  key_exchange_ciphertext: string | null;
  status: ConnectionStatus;
  last_webhook_at: string | null;
  created_at: string;
  updated_at: string;
  /** The outcome of the latest store call (0003); `unauthorized` stays until new credentials are accepted. */
  store_state: StoreState | null;
  /** When and why the latest failed store call failed (no secrets, no network detail). */
  store_error_at: string | null;
  store_error_message: string | null;
  /** The latest time polling learned a final status a webhook should have brought (0003). */
  last_missed_webhook_at: string | null;
  /** When the connector last checked the store's key on its own schedule (0011); null before. */
  store_checked_at: string | null;
}

/** The id of a connection merged into another (0008): its webhook address and order ids still lead there. */
export interface ConnectionAliasTable {
  alias_id: string;
  connection_id: string;
}
