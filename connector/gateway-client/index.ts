/**
 * The typed client of the gateway API, for the connector and for merchants' Node receivers.
 * Webhook verification: ./webhook-verification.ts (the event it answers: ./webhook-event.ts).
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
export type { SignatureHeader, WebhookHeaders } from './signatures.js';
export type {
  PaymentAuthorizedEvent,
  PaymentRefundedEvent,
  TransactionStatusUpdatedEvent,
  WebhookEvent,
  WebhookEventName,
  WebhookReceipt,
  WebhookRefund,
  WebhookTransaction,
} from './webhook-event.js';
export {
  MAX_SIGNATURES,
  type VerificationFailure,
  type VerificationRejection,
  type VerificationResult,
  type VerificationSuccess,
  type VerifyStandardWebhookInput,
  type VerifyWebhookInput,
  verifyStandardWebhook,
  verifyWebhook,
} from './webhook-verification.js';
