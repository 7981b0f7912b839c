/**
 * Before the connector acts on an order it has not recorded paid (a refund from the store), the
 * gateway's word on its payment is applied first.
 */
import { gatewayOf, storeOf } from '../connections/connection-access.js';
import type { ConnectorDeps } from '../runtime/deps.js';
import type { StoreConnection } from '../storage/connection.repository.js';
import { findLink, findLinkById, type OrderLink } from '../storage/order-link.repository.js';
import { applyPayment } from './apply-payment.js';
import { gatewayCall, loadStoreOrder } from './calls.js';
import { gatewayOrderId, linkOrder } from './order-map.js';

/**
 * The order's link with the gateway's word on its payment applied first, when the connector has not
 * recorded it paid: a payment that completed while its news was late or lost (the webhook failed,
 * the connector was down) is claimed now, as a read-back would. Undefined when neither side knows
 * the order. Store calls run inline (a cancelled order paid anyway is flagged with its one note).
 */
export async function refreshUnpaidLink(
  deps: ConnectorDeps,
  connection: StoreConnection,
  storeOrderId: string,
): Promise<OrderLink | undefined> {
  const link = await findLink(deps.db, connection.id, storeOrderId);
  if (link?.paid_payment_uuid != null) return link;
  const payment = await gatewayCall(() =>
    gatewayOf(deps, connection).getOrderPayment(link?.gateway_order_id ?? gatewayOrderId(connection, storeOrderId)),
  );
  if (payment === null) return link;
  const known =
    link ?? (await linkOrder(deps, connection, await loadStoreOrder(storeOf(deps, connection), storeOrderId)));
  await applyPayment(deps, connection, known, payment);
  return findLinkById(deps.db, known.id);
}
