/**
 * The gateway's webhooks for payments made for Shopify payment sessions
 * (`POST /shopify/payments/webhooks/:connection_id`, the payments' `callback_url`). Verified with the
 * gateway client's {@link verifyWebhook} (the connection's webhook secrets, refreshed once on a
 * mismatch, five minutes of timestamp tolerance), de-duplicated on `delivery_id` in the connector's
 * receipts, then the payment is read back and applied to its session (./payment-sessions.ts). The
 * decision is durable before the answer; sending it to Shopify runs after the answer (and from the job).
 */
import {
  gatewayOf,
  refreshWebhookSecrets,
  webhookSecretsOf,
} from '../../../connector/connections/connection.service.js';
import { errorDetail } from '../../../connector/errors.js';
import {
  type VerificationResult,
  verifyWebhook,
  type WebhookHeaders,
} from '../../../connector/gateway-client/webhook-verification.js';
import type { ConnectorDeps } from '../../../connector/runtime/deps.js';
import { findConnection, updateConnection } from '../../../connector/storage/connection.repository.js';
import { connectionEnded } from '../../../connector/storage/database.js';
import { isDeliveryHandled, recordDelivery } from '../../../connector/storage/receipt.repository.js';
import { findPaymentSessionByPayment } from '../../../connector/storage/shopify-payment-session.repository.js';
import { WEBHOOK_TOLERANCE_SECONDS } from '../../../connector/webhooks/webhook.consumer.js';
import { toStoredInstant } from '../../../gateway/domain/clock.js';
import { applyGatewayPayment } from './payment-sessions.js';

export interface PaymentsWebhookAnswer {
  status: number;
  body: Record<string, unknown>;
  /** The session whose decision is to be sent after the answer. */
  sessionId?: string;
}

export async function receivePaymentsWebhook(
  deps: ConnectorDeps,
  connectionId: string,
  rawBody: Buffer,
  headers: WebhookHeaders,
): Promise<PaymentsWebhookAnswer> {
  const connection = await findConnection(deps.db, connectionId);
  if (connection === undefined || connectionEnded(connection.status)) {
    return { status: 404, body: { error: 'connection_not_found', message: 'No such store connection.' } };
  }
  const verify = (secrets: string[]): VerificationResult =>
    verifyWebhook({
      rawBody,
      headers,
      secrets,
      toleranceSeconds: WEBHOOK_TOLERANCE_SECONDS,
      nowSeconds: deps.clock.nowMs() / 1000,
    });
  let result = verify(webhookSecretsOf(deps, connection));
  if (!result.ok && result.reason === 'signature_mismatch') {
    const refreshed = await refreshWebhookSecrets(deps, connection);
    if (refreshed !== null) result = verify(refreshed);
  }
  if (!result.ok) {
    deps.logger.warn({ connection_id: connectionId, reason: result.reason }, 'payments app webhook refused');
    if (result.reason === 'unsupported_event') return { status: 200, body: { received: true, outcome: 'ignored' } };
    return { status: 400, body: { error: 'invalid_webhook', message: `The webhook was refused (${result.reason}).` } };
  }
  const event = result.event;
  if (event.livemode !== (connection.environment === 'live')) {
    return {
      status: 400,
      body: { error: 'invalid_webhook', message: 'The event is of the other environment than this connection.' },
    };
  }
  if (await isDeliveryHandled(deps.db, event.delivery_id)) {
    return { status: 200, body: { received: true, outcome: 'duplicate' } };
  }
  const now = toStoredInstant(deps.clock.nowMs());
  const receipt = {
    delivery_id: event.delivery_id,
    connection_id: connection.id,
    event: event.event,
    payment_uuid: event.transaction.uuid,
    received_at: now,
  };
  const session = await findPaymentSessionByPayment(deps.db, event.transaction.uuid);
  if (session === undefined || session.connection_id !== connection.id) {
    await recordDelivery(deps.db, receipt);
    return { status: 200, body: { received: true, outcome: 'not_a_session' } };
  }
  try {
    // Read back: the webhook body only says something happened.
    const payment = await gatewayOf(deps, connection).getPayment(event.transaction.uuid);
    await applyGatewayPayment(deps, session, payment);
  } catch (error) {
    deps.logger.warn(
      { connection_id: connection.id, delivery_id: event.delivery_id, err: errorDetail(error) },
      'payments app webhook not handled yet',
    );
    return {
      status: 503,
      body: { error: 'try_again', message: 'The webhook could not be handled now; deliver it again later.' },
    };
  }
  await recordDelivery(deps.db, receipt);
  await updateConnection(deps.db, connection.id, { last_webhook_at: now });
  return { status: 200, body: { received: true, outcome: 'applied' }, sessionId: session.id };
}
