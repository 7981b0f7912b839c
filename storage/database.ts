/**
 * Every table of the gateway, as Kysely sees it. One file per table describes its columns
 * (`*.table.ts`); repositories (`*.repository.ts`) take `db` or a transaction as first argument so
 * services compose them inside one transaction. Timestamps are ISO 8601 UTC text with
 * milliseconds (they sort as text on both databases); booleans are integers 0/1.
 */
import type { Kysely, Transaction } from 'kysely';
import type { AccountVersionTable } from './account-version.table.js';
import type { ApiKeyTable } from './api-key.table.js';
import type {
  BillingAutoTopupTable,
  BillingBalanceTable,
  BillingLedgerTable,
  BillingPurchaseTable,
} from './billing.table.js';
import type { BusinessVerificationDocumentTable, BusinessVerificationTable } from './business-verification.table.js';
import type { ConnectTokenTable } from './connect-token.table.js';
import type { CustomerTable } from './customer.table.js';
import type { CustomerTotalTable } from './customer-total.table.js';
import type { DashboardAuditEventTable } from './dashboard-audit.table.js';
import type { DashboardInvitationTable } from './dashboard-invitation.table.js';
import type { DashboardMailSendTable } from './dashboard-mail-send.table.js';
import type { DashboardOnboardingKeyTable } from './dashboard-onboarding-key.table.js';
import type { DashboardSessionTable } from './dashboard-session.table.js';
import type { DashboardSignInFailureTable } from './dashboard-sign-in-failure.table.js';
import type { DashboardTokenTable } from './dashboard-token.table.js';
import type { DashboardPendingSignInTable, DashboardRecoveryCodeTable } from './dashboard-two-factor.table.js';
import type { DashboardUserAddressTable, DashboardUserTable } from './dashboard-user.table.js';
import type { DomainProcessorTable, DomainTable } from './domain.table.js';
import type { DomainVerificationTable } from './domain-verification.table.js';
import type { FxRateTable } from './fx-rate.table.js';
import type { HoldOperationTable } from './hold-operation.table.js';
import type { IdempotencyKeyTable } from './idempotency-key.table.js';
import type { MerchantTable } from './merchant.table.js';
import type { MerchantEmailTable } from './merchant-email.table.js';
import type { OutboxEventTable } from './outbox-event.table.js';
import type { PaymentTable } from './payment.table.js';
import type { PaymentCountTable } from './payment-count.table.js';
import type { PaymentLinkPaymentTable, PaymentLinkTable } from './payment-link.table.js';
import type { ProcessorSequenceTable, ProcessorSessionTable } from './processor-session.table.js';
import type { RateLimitCounterTable } from './rate-limit.table.js';
import type { DomainReceiptsTable, FiscalRegisterTable, ReceiptTable } from './receipt.table.js';
import type { RefundTable } from './refund.table.js';
import type { ServiceSettingTable } from './service-setting.table.js';
import type { TestClockTable } from './test-clock.table.js';
import type { WebhookDeliveryTable } from './webhook-delivery.table.js';
import type { WebhookDeliveryAttemptTable } from './webhook-delivery-attempt.table.js';

export interface Database {
  merchants: MerchantTable;
  api_keys: ApiKeyTable;
  domains: DomainTable;
  domain_processors: DomainProcessorTable;
  domain_verifications: DomainVerificationTable;
  payments: PaymentTable;
  processor_sessions: ProcessorSessionTable;
  processor_sequences: ProcessorSequenceTable;
  idempotency_keys: IdempotencyKeyTable;
  rate_limit_counters: RateLimitCounterTable;
  service_settings: ServiceSettingTable;
  customers: CustomerTable;
  outbox_events: OutboxEventTable;
  webhook_deliveries: WebhookDeliveryTable;
  refunds: RefundTable;
  hold_operations: HoldOperationTable;
  merchant_emails: MerchantEmailTable;
  billing_balances: BillingBalanceTable;
  billing_ledger: BillingLedgerTable;
  billing_purchases: BillingPurchaseTable;
  billing_auto_topups: BillingAutoTopupTable;
  domain_receipts: DomainReceiptsTable;
  receipts: ReceiptTable;
  fiscal_registers: FiscalRegisterTable;
  connect_tokens: ConnectTokenTable;
  account_version: AccountVersionTable;
  fx_rates: FxRateTable;
  dashboard_users: DashboardUserTable;
  dashboard_user_addresses: DashboardUserAddressTable;
  dashboard_sessions: DashboardSessionTable;
  dashboard_tokens: DashboardTokenTable;
  dashboard_sign_in_failures: DashboardSignInFailureTable;
  dashboard_mail_sends: DashboardMailSendTable;
  dashboard_onboarding_keys: DashboardOnboardingKeyTable;
  dashboard_audit_events: DashboardAuditEventTable;
  payment_counts: PaymentCountTable;
  customer_totals: CustomerTotalTable;
  dashboard_recovery_codes: DashboardRecoveryCodeTable;
  dashboard_pending_sign_ins: DashboardPendingSignInTable;
  dashboard_invitations: DashboardInvitationTable;
  business_verifications: BusinessVerificationTable;
  business_verification_documents: BusinessVerificationDocumentTable;
  payment_links: PaymentLinkTable;
  payment_link_payments: PaymentLinkPaymentTable;
  webhook_delivery_attempts: WebhookDeliveryAttemptTable;
  test_clock: TestClockTable;
}

export type Db = Kysely<Database>;
/** A connection or an open transaction: what every repository function takes first. */
export type Executor = Kysely<Database> | Transaction<Database>;

export type DialectName = 'sqlite' | 'postgres';
