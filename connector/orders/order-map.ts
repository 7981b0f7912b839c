/**
 * The order map: a store order is paid at the gateway under a namespaced order id
 * (`<platform prefix>-<connection id>-<store order id>`), so two stores never collide and a webhook
 * names its store order even before the map row is saved. Each row remembers the gateway payments
 * made for its order.
 */
import { randomUUID } from 'node:crypto';
import { toStoredInstant } from '../../gateway/domain/clock.js';
import { driverOf } from '../connections/connection.service.js';
import type { GatewayPayment } from '../gateway-client/client.js';
import type { StoreOrder } from '../platforms/platform.js';
import type { ConnectorDeps } from '../runtime/deps.js';
import type { StoreConnection } from '../storage/connection.repository.js';
import { ensureLink, type OrderLink, recordOrderPayment } from '../storage/order-link.repository.js';

export function gatewayOrderId(connection: StoreConnection, storeOrderId: string): string {
  return `${driverOf(connection).orderPrefix}-${connection.id}-${storeOrderId}`;
}

/**
 * The store order id inside a gateway order id of this connection (or of `mergedId`, a connection
 * merged into it); null when it is not one of ours.
 */
export function storeOrderIdOf(connection: StoreConnection, orderId: string, mergedId?: string): string | null {
  for (const id of new Set([connection.id, mergedId ?? connection.id])) {
    const prefix = `${driverOf(connection).orderPrefix}-${id}-`;
    if (orderId.startsWith(prefix) && orderId.length > prefix.length) return orderId.slice(prefix.length);
  }
  return null;
}

/** The map row of a store order, created from the order when it has none yet. */
export async function linkOrder(
  deps: ConnectorDeps,
  connection: StoreConnection,
  order: StoreOrder,
): Promise<OrderLink> {
  const nowMs = deps.clock.nowMs();
  const now = toStoredInstant(nowMs);
  return ensureLink(deps.db, {
    id: randomUUID(),
    connection_id: connection.id,
    store_order_id: order.id,
    gateway_order_id: gatewayOrderId(connection, order.id),
    amount: order.amount ?? 0,
    currency: order.currency,
    gateway_status: null,
    paid_payment_uuid: null,
    store_sync: 'none',
    sync_attempts: 0,
    next_sync_at: null,
    last_sync_error: null,
    flag: null,
    // Polled only once a payment is created for it (payForOrder); linking alone never polls.
    next_poll_at: null,
    created_at: now,
    updated_at: now,
    poll_failures: 0,
    last_webhook_at: null,
    sync_lease_until: null,
    hold_payment_uuid: null,
    authorized_amount: null,
    capture_before: null,
    hold_state: null,
    capture_amount: null,
    capture_attempt: 1,
    hold_check_at: null,
    hold_checks: 0,
    hold_noted_at: null,
  });
}

/** Records a gateway payment of the order (its status as last seen). */
export async function rememberPayment(deps: ConnectorDeps, link: OrderLink, payment: GatewayPayment): Promise<void> {
  const now = toStoredInstant(deps.clock.nowMs());
  await recordOrderPayment(deps.db, {
    uuid: payment.uuid,
    link_id: link.id,
    status: payment.status,
    amount: payment.amount,
    currency: payment.currency,
    noted_status: null,
    created_at: now,
    updated_at: now,
  });
}
