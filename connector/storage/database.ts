/**
 * The connector's own tables (it never reads the gateway's). Timestamps are ISO 8601 UTC text with
 * milliseconds, as in the gateway's storage; booleans are integers 0/1. Table names carry no prefix
 * clash with the gateway's, so both may share one PostgreSQL database if an operator wants that.
 */
import type { Kysely, Transaction } from 'kysely';

export type ConnectionStatus = 'awaiting_keys' | 'active';

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
}

export type StoreSync = 'none' | 'pending' | 'done' | 'failed';

/** The order map: one store order and the gateway order id it is paid under. */
export interface OrderLinkTable {
  id: string;
  connection_id: string;
  store_order_id: string;
  /** The gateway `order_id`: namespaced by the connection so two stores never collide. */
  gateway_order_id: string;
  /** The store order's total and currency when the payment was asked for. */
  amount: number;
  currency: string;
  /** The newest payment status the connector saw at the gateway. */
  gateway_status: string | null;
  /** The payment that paid the order; set once, by a conditional update. */
  paid_payment_uuid: string | null;
  /** Where marking the order paid in the store stands. */
  store_sync: StoreSync;
  sync_attempts: number;
  next_sync_at: string | null;
  last_sync_error: string | null;
  /** A problem that needs a person: `paid_twice`, `amount_mismatch`, `store_sync_failed`. */
  flag: string | null;
  /** When an unpaid order is next read back (the safety net for a lost webhook); null once final. */
  next_poll_at: string | null;
  created_at: string;
  updated_at: string;
}

/** Every gateway payment the connector created for an order (an order may need several tries). */
export interface OrderPaymentTable {
  uuid: string;
  link_id: string;
  status: string;
  amount: number;
  currency: string;
  /** The final status already written as a note on the store order, so it is noted once. */
  noted_status: string | null;
  created_at: string;
  updated_at: string;
}

/** Webhook deliveries already handled (de-duplication on the gateway's `delivery_id`). */
export interface WebhookReceiptTable {
  delivery_id: string;
  connection_id: string;
  event: string;
  payment_uuid: string;
  received_at: string;
}

/** Refunds the connector knows of, from either side, so none is recorded twice. */
export interface RefundRecordTable {
  id: string;
  connection_id: string;
  link_id: string;
  /** Null while a refund started in the store is on its way to the gateway. */
  gateway_refund_uuid: string | null;
  store_refund_id: string | null;
  amount: number;
  /** `store`: started in the store admin; `gateway`: made at the gateway and recorded in the store. */
  origin: 'store' | 'gateway';
  created_at: string;
  updated_at: string;
}

export interface ReconciliationRunTable {
  id: string;
  connection_id: string;
  range_from: string;
  range_to: string;
  repair: number;
  orders_checked: number;
  started_at: string;
  finished_at: string;
}

export interface ReconciliationFindingTable {
  id: string;
  run_id: string;
  kind: string;
  store_order_id: string;
  payment_uuid: string | null;
  detail: string;
  /** `repaired` or `flagged`. */
  action: string;
  created_at: string;
}

/** A connection whose scheduled reconciliation runs keep failing; deleted by the next success. */
export interface ReconciliationBackoffTable {
  connection_id: string;
  /** Failed runs in a row. */
  failures: number;
  last_failed_at: string;
  /** Why the last run failed, for the operator (never answered to a caller). */
  last_error: string;
  /** No scheduled run starts before this. */
  retry_at: string;
}

export interface ConnectorSettingTable {
  key: string;
  value: string;
}

export interface ConnectorDatabase {
  store_connections: StoreConnectionTable;
  order_links: OrderLinkTable;
  order_payments: OrderPaymentTable;
  webhook_receipts: WebhookReceiptTable;
  refund_records: RefundRecordTable;
  reconciliation_runs: ReconciliationRunTable;
  reconciliation_findings: ReconciliationFindingTable;
  reconciliation_backoff: ReconciliationBackoffTable;
  connector_settings: ConnectorSettingTable;
}

export type ConnectorDb = Kysely<ConnectorDatabase>;
export type ConnectorExecutor = Kysely<ConnectorDatabase> | Transaction<ConnectorDatabase>;
