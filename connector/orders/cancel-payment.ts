/**
 * The store cancelled an order: its open payment is cancelled at the gateway, and a card held for
 * it is released (voided).
 */
import { gatewayOf } from '../connections/connection-access.js';
import { fromGatewayError } from '../connections/plugin-auth.js';
import { ConnectorError } from '../errors.js';
import { GatewayError } from '../gateway-client/client.js';
import type { ConnectorDeps } from '../runtime/deps.js';
import type { StoreConnection } from '../storage/connection.repository.js';
import { findLink } from '../storage/order-link.repository.js';
import { applyPayment } from './apply-payment.js';
import { gatewayCall } from './calls.js';
import { gatewayOrderId } from './order-map.js';
import { type StoreWork, storeNow } from './store-work.js';

/**
 * `POST /v1/orders/{id}/cancel`: the store cancelled the order, so its open payment is cancelled at
 * the gateway and its checkout can no longer be paid. Answers the order's payment as it is then. A
 * payment already completed is not undone: it is the "paid after cancel" case, flagged for the shop
 * owner (mark-paid.ts), whose store work runs after the answer.
 */
export async function cancelOrderPayment(
  deps: ConnectorDeps,
  connection: StoreConnection,
  storeOrderId: string,
  storeWork: StoreWork = storeNow,
): Promise<{ order_id: string; payment_uuid: string | null; status: string | null; cancelled: boolean }> {
  const link = await findLink(deps.db, connection.id, storeOrderId);
  const gateway = gatewayOf(deps, connection);
  const orderId = link?.gateway_order_id ?? gatewayOrderId(connection, storeOrderId);
  let payment = await gatewayCall(() => gateway.getOrderPayment(orderId));
  if (payment === null) return { order_id: storeOrderId, payment_uuid: null, status: null, cancelled: false };
  let cancelled = false;
  if (payment.status === 'pending' || payment.status === 'processing') {
    const open = payment;
    payment = await gatewayCall(() => gateway.cancelPayment(open.uuid)).catch((error: unknown) => {
      // Paid between the read and the cancel: read it again and go on as paid.
      if (error instanceof ConnectorError && error.code === 'payment_not_cancellable') {
        return gatewayCall(() => gateway.getPayment(open.uuid));
      }
      throw error;
    });
    cancelled = payment.failure_code === 'cancelled';
  } else if (payment.status === 'authorized' && link !== undefined) {
    // A card held for the order: released (voided) once, under the link's key; nothing was taken.
    const held = payment;
    payment = await gateway
      .voidPayment(held.uuid, { idempotencyKey: `store-void:${link.id}` })
      .catch((error: unknown) => {
        // Its outcome not known yet (or released or captured meanwhile): the gateway settles it and
        // its webhook brings the outcome; the order is answered as the gateway has it now.
        if (error instanceof GatewayError && (error.retryable || error.status === 409)) {
          deps.logger.warn(
            { connection_id: connection.id, order: storeOrderId, payment_uuid: held.uuid, err: error.code },
            'releasing the card hold of a cancelled order has no known outcome yet',
          );
          return gatewayCall(() => gateway.getPayment(held.uuid));
        }
        throw fromGatewayError(error);
      });
    cancelled = payment.status === 'expired';
  }
  if (link !== undefined) await applyPayment(deps, connection, link, payment, storeWork);
  return { order_id: storeOrderId, payment_uuid: payment.uuid, status: payment.status, cancelled };
}
