/**
 * The gateway's webhooks for a store connection (`POST /v1/webhooks/gateway/{connection_id}`).
 *
 * 1. Verify `X-Service-Signature` / `X-Service-Signature-Next` over the raw bytes with the domain's
 *    secrets (fetched again once when nothing matches, in case the secret was rotated), and refuse a
 *    body whose signed timestamp is more than five minutes from now: a replayed capture is refused.
 * 2. De-duplicate on `delivery_id`: a delivery already handled is acknowledged and nothing runs again.
 * 3. Read the truth back: `GET /api/v1/orders/{order_id}/payment` (and the event's own payment when
 *    the order's answer is another one), then apply it to the store order (orders/apply-payment.ts).
 *    A refund event is then reflected in the store (refunds/refund-sync.service.ts).
 * 4. Record the delivery as handled only after all that succeeded; a failure answers 503 so the
 *    gateway retries the delivery later.
 */
import { toStoredInstant } from '../../gateway/domain/clock.js';
import { gatewayOf, refreshWebhookSecrets, storeOf, webhookSecretsOf } from '../connections/connection-access.js';
import { errorDetail } from '../errors.js';
import type { WebhookHeaders } from '../gateway-client/signatures.js';
import type { WebhookEvent } from '../gateway-client/webhook-event.js';
import { type VerificationResult, verifyWebhook } from '../gateway-client/webhook-verification.js';
import { applyPayment } from '../orders/apply-payment.js';
import { loadStoreOrder } from '../orders/calls.js';
import { linkOrder, storeOrderIdOf } from '../orders/order-map.js';
import { reflectGatewayRefund } from '../refunds/gateway-refunds.js';
import type { ConnectorDeps } from '../runtime/deps.js';
import type { StoreConnection } from '../storage/connection.repository.js';
import { findConnectionOrAlias, updateConnection } from '../storage/connection.repository.js';
import { connectionEnded } from '../storage/connection.table.js';
import { findLink, updateLink } from '../storage/order-link.repository.js';
import { type DeliveryRecord, isDeliveryHandled, recordDelivery } from '../storage/receipt.repository.js';

/** How far the signed timestamp may be from the connector's clock. */
export const WEBHOOK_TOLERANCE_SECONDS = 300;

export interface WebhookAnswer {
  status: number;
  body: { received: boolean; outcome: string } | { error: string; message: string };
}

/** A delivery that passed every check and was not handled before: what the caller applies. */
export interface AcceptedDelivery {
  connection: StoreConnection;
  event: WebhookEvent;
  /** The receipt to record once the delivery was handled (its `received_at` is now). */
  receipt: DeliveryRecord;
}

/**
 * Steps 1 and 2 for any gateway webhook target of a connection: the connection exists and is not
 * ended, the signature and timestamp hold (secrets fetched again once on a mismatch), the event is of
 * the connection's environment, and the delivery was not handled before. Answers either the
 * delivery to apply, or the answer to give at once.
 */
export async function acceptGatewayDelivery(
  deps: ConnectorDeps,
  connectionId: string,
  rawBody: Buffer,
  headers: WebhookHeaders,
): Promise<{ accepted: AcceptedDelivery } | { answer: WebhookAnswer }> {
  const connection = await findConnectionOrAlias(deps.db, connectionId);
  if (connection === undefined || connectionEnded(connection.status)) {
    return { answer: { status: 404, body: { error: 'connection_not_found', message: 'No such store connection.' } } };
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
    deps.logger.warn({ connection_id: connectionId, reason: result.reason }, 'webhook refused');
    // An authentic event of a kind the connector does not know is acknowledged, so it is not retried.
    if (result.reason === 'unsupported_event') {
      return { answer: { status: 200, body: { received: true, outcome: 'ignored' } } };
    }
    return {
      answer: {
        status: 400,
        body: { error: 'invalid_webhook', message: `The webhook was refused (${result.reason}).` },
      },
    };
  }
  const event = result.event;
  if (event.livemode !== (connection.environment === 'live')) {
    return {
      answer: {
        status: 400,
        body: { error: 'invalid_webhook', message: 'The event is of the other environment than this connection.' },
      },
    };
  }
  if (await isDeliveryHandled(deps.db, event.delivery_id)) {
    return { answer: { status: 200, body: { received: true, outcome: 'duplicate' } } };
  }
  const receipt: DeliveryRecord = {
    delivery_id: event.delivery_id,
    connection_id: connection.id,
    event: event.event,
    payment_uuid: event.transaction.uuid,
    received_at: toStoredInstant(deps.clock.nowMs()),
  };
  return { accepted: { connection, event, receipt } };
}

export async function handleGatewayWebhook(
  deps: ConnectorDeps,
  connectionId: string,
  rawBody: Buffer,
  headers: WebhookHeaders,
): Promise<WebhookAnswer> {
  const checked = await acceptGatewayDelivery(deps, connectionId, rawBody, headers);
  if ('answer' in checked) return checked.answer;
  const { connection, event, receipt } = checked.accepted;
  const now = receipt.received_at;
  // An order id under the connection's own id, or the id of a connection merged into it (the URL's).
  const storeOrderId = storeOrderIdOf(connection, event.transaction.order_id, connectionId);
  if (storeOrderId === null) {
    await recordDelivery(deps.db, receipt);
    return { status: 200, body: { received: true, outcome: 'not_a_store_order' } };
  }

  try {
    const gateway = gatewayOf(deps, connection);
    // The webhook may arrive before the payment's map row was saved: the order id names the store order.
    const link =
      (await findLink(deps.db, connection.id, storeOrderId)) ??
      (await linkOrder(deps, connection, await loadStoreOrder(storeOf(deps, connection), storeOrderId)));
    const orderPayment = await gateway.getOrderPayment(event.transaction.order_id);
    if (orderPayment !== null) await applyPayment(deps, connection, link, orderPayment);
    const ownPayment =
      orderPayment?.uuid === event.transaction.uuid ? orderPayment : await gateway.getPayment(event.transaction.uuid);
    if (ownPayment !== orderPayment) {
      await applyPayment(deps, connection, (await findLink(deps.db, connection.id, storeOrderId)) ?? link, ownPayment);
    }
    if (event.event === 'payment.refunded') {
      await reflectGatewayRefund(deps, connection, link, ownPayment, event.refund);
    }
  } catch (error) {
    deps.logger.warn(
      {
        connection_id: connection.id,
        delivery_id: event.delivery_id,
        err: errorDetail(error),
      },
      'webhook not handled yet; the gateway will deliver it again',
    );
    return {
      status: 503,
      body: { error: 'try_again', message: 'The webhook could not be handled now; deliver it again later.' },
    };
  }
  await recordDelivery(deps.db, receipt);
  await updateConnection(deps.db, connection.id, { last_webhook_at: now });
  const handled = await findLink(deps.db, connection.id, storeOrderId);
  if (handled !== undefined) await updateLink(deps.db, handled.id, { last_webhook_at: now });
  return { status: 200, body: { received: true, outcome: 'applied' } };
}
