/**
 * The store cancelled an order: its open payment is cancelled at the gateway.
 */
import { gatewayOf } from '../connections/connection-access.js';
import { ConnectorError } from '../errors.js';
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
  }
  if (link !== undefined) await applyPayment(deps, connection, link, payment, storeWork);
  return { order_id: storeOrderId, payment_uuid: payment.uuid, status: payment.status, cancelled };
}
