/**
 * The connector's own tables (it never reads the gateway's). Timestamps are ISO 8601 UTC text with
 * milliseconds, as in the gateway's storage; booleans are integers 0/1. Table names carry no prefix
 * clash with the gateway's, so both may share one PostgreSQL database if an operator wants that.
 * One file per table (or group of tables) describes its columns (`*.table.ts`).
 */
import type { Kysely, Transaction } from 'kysely';
import type { ConnectionAliasTable, StoreConnectionTable } from './connection.table.js';
import type { ConnectorSettingTable } from './connector-setting.table.js';
import type { OrderLinkTable, OrderPaymentTable } from './order-link.table.js';
import type {
  ReconciliationBackoffTable,
  ReconciliationFindingTable,
  ReconciliationNoteTable,
  ReconciliationRunTable,
} from './reconciliation.table.js';
import type { RefundRecordTable } from './refund-record.table.js';
import type { ShopifyHoldSessionTable } from './shopify-hold-session.table.js';
import type {
  ShopifyPaymentGroupTable,
  ShopifyPaymentSessionTable,
  ShopifyRefundSessionTable,
} from './shopify-payment-session.table.js';
import type { ShopifyPaymentsConfigurationTable } from './shopify-payments-configuration.table.js';
import type { ShopifySessionTable } from './shopify-session.table.js';
import type { ShopifyDataRequestTable, ShopifyShopTable, ShopifyWebhookDeliveryTable } from './shopify-shop.table.js';
import type { WebhookReceiptTable } from './webhook-receipt.table.js';

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
  shopify_hold_sessions: ShopifyHoldSessionTable;
  shopify_payments_configurations: ShopifyPaymentsConfigurationTable;
}

export type ConnectorDb = Kysely<ConnectorDatabase>;
export type ConnectorExecutor = Kysely<ConnectorDatabase> | Transaction<ConnectorDatabase>;
