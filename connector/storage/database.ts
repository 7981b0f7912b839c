/**
 * The connector's own tables (it never reads the gateway's). Timestamps are ISO 8601 UTC text with
 * milliseconds, as in the gateway's storage; booleans are integers 0/1. Table names carry no prefix
 * clash with the gateway's, so both may share one PostgreSQL database if an operator wants that.
 */
import type { Kysely, Transaction } from 'kysely';

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
  /** Polls in a row that failed; each one doubles the wait before the next (0003). */
  poll_failures: number;
  /** When the last gateway webhook about this order was handled (0003). */
  last_webhook_at: string | null;
  /** While in the future, one runner is marking the paid order in the store (0010). */
  sync_lease_until: string | null;
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
  /** Where it stands at the gateway (0009): `pending`, `succeeded`, `unknown` until settled, `failed`. */
  status: RefundRecordStatus;
  /** The reason sent with a store refund, to ask again with the very same request. */
  reason: string | null;
  /** When an `unknown` refund is next checked; null otherwise. */
  next_check_at: string | null;
  /** Checks of an `unknown` refund so far: each waits longer. */
  checks: number;
}

export type RefundRecordStatus = 'pending' | 'succeeded' | 'unknown' | 'failed';

export interface ReconciliationRunTable {
  id: string;
  connection_id: string;
  range_from: string;
  range_to: string;
  repair: number;
  orders_checked: number;
  started_at: string;
  /** While `status` is `running` this holds `started_at` (the column is not null); answered as null. */
  finished_at: string;
  /** `running`, `finished` or `failed` (0003). */
  status: string;
  /** Why a failed run failed: what could not be reached (no secrets). */
  error: string | null;
  /** `scheduled`, `plugin` or `cli` (0003). */
  trigger: string;
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
  /** The number the shop owner sees (0003; null in runs made before). */
  order_number: string | null;
}

/** Findings already written as an order note: once per (order, kind, payment) across runs. */
export interface ReconciliationNoteTable {
  connection_id: string;
  store_order_id: string;
  kind: string;
  /** The finding's payment uuid, or `-` when it names none. */
  payment_key: string;
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

/** The id of a connection merged into another (0008): its webhook address and order ids still lead there. */
export interface ConnectionAliasTable {
  alias_id: string;
  connection_id: string;
}

export interface ConnectorSettingTable {
  key: string;
  value: string;
}

/**
 * Shopify sessions (the library's `Session`, stored for `SessionStorage`, 0004). The access and
 * refresh tokens are sealed, bound to the row id and the column.
 */
export interface ShopifySessionTable {
  id: string;
  shop: string;
  state: string;
  is_online: number;
  scope: string | null;
  expires_at: string | null;
  access_token_ciphertext: string | null;
  refresh_token_ciphertext: string | null;
  refresh_token_expires_at: string | null;
  /** Online sessions only: the library's `onlineAccessInfo` (JSON). */
  online_access_info: string | null;
  /** Bumped by every write: a token refresh replaces the tokens only if nobody did since it read them. */
  generation: number;
  updated_at: string;
}

export type ShopifyShopStatus = 'installed' | 'uninstalled';

/** A shop that installed the Shopify app (0004). */
export interface ShopifyShopTable {
  /** The permanent `<name>.myshopify.com` domain. */
  shop: string;
  status: ShopifyShopStatus;
  installed_at: string;
  uninstalled_at: string | null;
  /** When the shop's data was deleted (`shop/redact`, or 48 h after uninstall). */
  redacted_at: string | null;
  scopes: string;
  /** The store connection made from the app's embedded page; null until then. */
  connection_id: string | null;
  /** The gateway's domain verification value the owner saved (`gateway-verification=<token>`), public. */
  gateway_verification: string | null;
  updated_at: string;
}

/** Shopify webhook deliveries already handled (de-duplication on `X-Shopify-Webhook-Id`). */
export interface ShopifyWebhookDeliveryTable {
  webhook_id: string;
  shop: string;
  topic: string;
  received_at: string;
}

/** `customers/data_request`: what the connector holds for the customer, for the merchant to read. */
export interface ShopifyDataRequestTable {
  id: string;
  shop: string;
  /** Shopify's `data_request.id`. */
  data_request_id: string;
  /** Shopify's customer id (no email or phone is kept). */
  customer_id: string;
  /** The export (JSON): the orders asked about and what the connector holds for each. */
  export: string;
  requested_at: string;
}

/**
 * Where a Shopify payment session stands (0005). `open`: the gateway payment exists, nothing decided;
 * `pending`: Shopify was told the payment is still processing (`paymentSessionPending`);
 * `resolve_due` / `reject_due`: decided, the mutation is on its way (retried from this row);
 * `resolved` / `rejected`: Shopify took it; `failed`: Shopify kept refusing or failing (a person looks).
 */
export type ShopifyPaymentSessionState =
  | 'open'
  | 'pending'
  | 'resolve_due'
  | 'reject_due'
  | 'resolved'
  | 'rejected'
  | 'failed';

/** A payment session Shopify started (`POST /shopify/payments/sessions`), idempotent on `id`. */
export interface ShopifyPaymentSessionTable {
  /** Shopify's session `id`: the idempotency key. */
  id: string;
  /** `gid://shopify/PaymentSession/<id>`: what the mutations take. */
  gid: string;
  /** Shopify's `group`: attempts to pay one checkout; at most one of them is resolved. */
  payment_group: string;
  shop: string;
  connection_id: string;
  /** The decimal string as Shopify sent it. */
  amount: string;
  /** The same amount in whole AMD (what the gateway payment is for). */
  amount_amd: number;
  currency: string;
  test: number;
  /** `sale` (`authorization` is refused before a row is written). */
  kind: string;
  cancel_url: string;
  gateway_payment_uuid: string | null;
  /** The gateway checkout the buyer is sent to (the answer's `redirect_url`). */
  checkout_url: string | null;
  state: ShopifyPaymentSessionState;
  /** The decision as JSON: `{"action":"resolve"}` or `{"action":"reject","code":...,"message":...}`. */
  resolution: string | null;
  /** Shopify's `nextAction.context.redirectUrl` after resolve, reject or pending. */
  next_action_url: string | null;
  /** `refund_needed`: a second paid session of an already resolved group (money taken twice). */
  flag: string | null;
  /** Calls to the Payments Apps API for the current decision. */
  attempts: number;
  next_attempt_at: string | null;
  /** When the gateway payment is next read back (a lost webhook); null once decided. */
  next_poll_at: string | null;
  last_error: string | null;
  created_at: string;
  updated_at: string;
  /** The `Shopify-Api-Version` Shopify sent the session with (0007); null on rows from before. */
  api_version: string | null;
  /** The buyer's locale from the session's `customer.locale` (0007), for the return page. */
  locale: string | null;
  /** When the decision (resolve or reject) was taken (0007): its finalization is retried from then. */
  decided_at: string | null;
}

/** The one session of a checkout group that was paid first: the only one resolved (0005). */
export interface ShopifyPaymentGroupTable {
  payment_group: string;
  session_id: string;
  claimed_at: string;
}

/**
 * `refund_due`: the gateway refund is to be made (retried); `resolve_due` / `reject_due`, `resolved`,
 * `rejected`, `failed` as for payment sessions.
 */
export type ShopifyRefundSessionState =
  | 'refund_due'
  | 'resolve_due'
  | 'reject_due'
  | 'resolved'
  | 'rejected'
  | 'failed';

/** A refund session (`POST /shopify/payments/refunds`), idempotent on `id` (0005). */
export interface ShopifyRefundSessionTable {
  id: string;
  gid: string;
  shop: string;
  /** The payment session refunded (Shopify's `payment_id`, a session id). */
  payment_id: string;
  amount: string;
  currency: string;
  gateway_refund_uuid: string | null;
  state: ShopifyRefundSessionState;
  resolution: string | null;
  attempts: number;
  next_attempt_at: string | null;
  last_error: string | null;
  created_at: string;
  updated_at: string;
  /** The `Shopify-Api-Version` Shopify sent the refund session with (0007). */
  api_version: string | null;
}

/**
 * `due`: the call is to be made (retried from the row); `sent`: Shopify took it; `failed`: Shopify
 * refused it (`userErrors`), a person looks.
 */
export type ShopifyPaymentsConfigurationState = 'due' | 'sent' | 'failed';

/**
 * A shop's `paymentsAppConfigure` (0007): `ready` 1 once the merchant saved the payments app's
 * settings, 0 when the connection was removed or the shop moved to the manual bridge.
 */
export interface ShopifyPaymentsConfigurationTable {
  shop: string;
  ready: number;
  /** What Shopify shows the merchant in Settings > Payments to name the gateway account. */
  external_handle: string | null;
  state: ShopifyPaymentsConfigurationState;
  attempts: number;
  next_attempt_at: string | null;
  last_error: string | null;
  /** When Shopify last took a configuration of this shop. */
  configured_at: string | null;
  updated_at: string;
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
  reconciliation_notes: ReconciliationNoteTable;
  connector_settings: ConnectorSettingTable;
  connection_aliases: ConnectionAliasTable;
  shopify_sessions: ShopifySessionTable;
  shopify_shops: ShopifyShopTable;
  shopify_webhook_deliveries: ShopifyWebhookDeliveryTable;
  shopify_data_requests: ShopifyDataRequestTable;
  shopify_payment_sessions: ShopifyPaymentSessionTable;
  shopify_payment_groups: ShopifyPaymentGroupTable;
  shopify_refund_sessions: ShopifyRefundSessionTable;
  shopify_payments_configurations: ShopifyPaymentsConfigurationTable;
}

export type ConnectorDb = Kysely<ConnectorDatabase>;
export type ConnectorExecutor = Kysely<ConnectorDatabase> | Transaction<ConnectorDatabase>;
