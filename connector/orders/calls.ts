/**
 * How the order paths call out: a gateway refusal or a platform failure becomes the connector's
 * error (without the platform's detail), and a note to the store never fails the work around it.
 */

import { storeOf } from '../connections/connection-access.js';
import { fromGatewayError } from '../connections/plugin-auth.js';
import { asConnectorError, ConnectorError } from '../errors.js';
import type { StoreOrder, StorePlatform } from '../platforms/platform.js';
import type { ConnectorDeps } from '../runtime/deps.js';
import type { StoreConnection } from '../storage/connection.repository.js';
import type { OrderLink } from '../storage/order-link.repository.js';

/** Runs a gateway call; a refusal or no answer becomes the connector's error. */
export async function gatewayCall<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    throw fromGatewayError(error);
  }
}

/** The store order; 404 when the store has none, 502 when the store does not answer. */
export async function loadStoreOrder(store: StorePlatform, storeOrderId: string): Promise<StoreOrder> {
  const order = await platformCall(() => store.getOrder(storeOrderId));
  if (order === null) throw new ConnectorError(404, 'order_not_found', `The store has no order ${storeOrderId}.`);
  return order;
}

/** Runs a platform call; a platform failure becomes 502 `platform_unavailable`, without its detail. */
export async function platformCall<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    throw asConnectorError(error);
  }
}

export /** A note that helps a person but must not fail the work around it. */
async function noteQuietly(
  deps: ConnectorDeps,
  connection: StoreConnection,
  link: OrderLink,
  note: string,
): Promise<void> {
  try {
    await storeOf(deps, connection).addNote(link.store_order_id, note);
  } catch (error) {
    deps.logger.warn(
      { connection_id: connection.id, order: link.store_order_id, err: String(error) },
      'order note not written',
    );
  }
}
