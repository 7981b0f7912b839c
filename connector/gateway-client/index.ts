/**
 * The typed client of the gateway API, for the connector and for merchants' Node receivers.
 * Webhook verification: ./webhook-verification.ts.
 */

export {
  type ConnectTokenInfo,
  type CreatePaymentInput,
  createGatewayClient,
  type GatewayClient,
  type GatewayClientOptions,
  GatewayError,
  type GatewayPayment,
  type GatewayRefund,
  type PaymentStatus,
  type RefundResult,
} from './client.js';
export {
  MAX_SIGNATURES,
  type PaymentRefundedEvent,
  type SignatureHeader,
  type TransactionStatusUpdatedEvent,
  type VerificationFailure,
  type VerificationRejection,
  type VerificationResult,
  type VerificationSuccess,
  type VerifyStandardWebhookInput,
  type VerifyWebhookInput,
  verifyStandardWebhook,
  verifyWebhook,
  type WebhookEvent,
  type WebhookEventName,
  type WebhookHeaders,
  type WebhookReceipt,
  type WebhookRefund,
  type WebhookTransaction,
} from './webhook-verification.js';
