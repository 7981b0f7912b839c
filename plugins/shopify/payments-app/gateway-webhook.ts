/**
 * The gateway's webhooks for payments made for Shopify payment sessions
 * (`POST /shopify/payments/webhooks/:connection_id`, the payments' `callback_url`). Verified and
 * de-duplicated exactly as the store webhooks are (`acceptGatewayDelivery`), then the payment is
 * read back and applied to its session (./payment-sessions.ts). The decision is durable before the
 * answer; sending it to Shopify runs after the answer (and from the job).
 */
import { gatewayOf } from '../../../connector/connections/connection-access.js';
import { errorDetail } from '../../../connector/errors.js';
import type { WebhookHeaders } from '../../../connector/gateway-client/signatures.js';
import type { ConnectorDeps } from '../../../connector/runtime/deps.js';
import { updateConnection } from '../../../connector/storage/connection.repository.js';
import { recordDelivery } from '../../../connector/storage/receipt.repository.js';
import { findPaymentSessionByPayment } from '../../../connector/storage/shopify-payment-session.repository.js';
import { acceptGatewayDelivery } from '../../../connector/webhooks/webhook.consumer.js';
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
  const checked = await acceptGatewayDelivery(deps, connectionId, rawBody, headers);
  if ('answer' in checked) return checked.answer;
  const { connection, event, receipt } = checked.accepted;
  const now = receipt.received_at;
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
