/**
 * The connector's background work, run every `CONNECTOR_JOB_INTERVAL_SECONDS` (and by tests on demand):
 *
 * - store sync: orders whose "mark paid" call to the store failed are retried with backoff;
 * - polling: unpaid orders are read back from the gateway now and then, so a webhook that never
 *   arrives still ends in a paid order;
 * - reconciliation: once an hour per connection, over the last day, repairing what is safe.
 *
 * Each item is independent: one failing does not stop the others. With several connector instances
 * on one database the same item may run twice; every step is a conditional update, so that is safe.
 */
import { DAY_MS, HOUR_MS, toStoredInstant } from '../../gateway/domain/clock.js';
import { gatewayOf } from '../connections/connection.service.js';
import { errorDetail } from '../errors.js';
import { GatewayError } from '../gateway-client/client.js';
import { applyPayment, POLL_FOR_MS, POLL_INTERVAL_MS, syncStorePaid } from '../orders/order.service.js';
import { reconcile } from '../reconciliation/reconcile.service.js';
import type { ConnectorDeps } from '../runtime/deps.js';
import { findConnection, listConnections, type StoreConnection } from '../storage/connection.repository.js';
import { linksDueForPoll, linksDueForSync, type OrderLink, updateLink } from '../storage/order-link.repository.js';
import { latestRunStart } from '../storage/reconciliation.repository.js';

export const RECONCILE_EVERY_MS = HOUR_MS;
export const RECONCILE_WINDOW_MS = DAY_MS;
const BATCH = 50;

export interface DueWorkResult {
  synced: number;
  polled: number;
  reconciled: number;
}

export async function runDueWork(deps: ConnectorDeps): Promise<DueWorkResult> {
  const now = toStoredInstant(deps.clock.nowMs());
  const connections = new Map<string, StoreConnection | undefined>();
  const connectionOf = async (id: string) => {
    if (!connections.has(id)) connections.set(id, await findConnection(deps.db, id));
    return connections.get(id);
  };
  const result: DueWorkResult = { synced: 0, polled: 0, reconciled: 0 };

  for (const link of await linksDueForSync(deps.db, now, BATCH)) {
    const connection = await connectionOf(link.connection_id);
    if (connection === undefined) continue;
    await guarded(deps, 'store sync', () => syncStorePaid(deps, connection, link.id));
    result.synced += 1;
  }

  for (const link of await linksDueForPoll(deps.db, now, BATCH)) {
    const connection = await connectionOf(link.connection_id);
    if (connection === undefined) continue;
    await guarded(deps, 'poll', () => pollLink(deps, connection, link));
    result.polled += 1;
  }

  for (const connection of await listConnections(deps.db)) {
    if (connection.status !== 'active') continue;
    const last = await latestRunStart(deps.db, connection.id);
    const nowMs = deps.clock.nowMs();
    if (last !== undefined && Date.parse(last) + RECONCILE_EVERY_MS > nowMs) continue;
    await guarded(deps, 'reconciliation', () =>
      reconcile(deps, connection, {
        from: toStoredInstant(nowMs - RECONCILE_WINDOW_MS),
        to: toStoredInstant(nowMs),
        repair: true,
      }),
    );
    result.reconciled += 1;
  }
  return result;
}

/** Reads an unpaid order's payment back and applies it; keeps polling while it may still be paid. */
async function pollLink(deps: ConnectorDeps, connection: StoreConnection, link: OrderLink): Promise<void> {
  const payment = await gatewayOf(deps, connection).getOrderPayment(link.gateway_order_id);
  if (payment !== null) {
    await applyPayment(deps, connection, link, payment);
    return;
  }
  const nowMs = deps.clock.nowMs();
  const expired = nowMs - Date.parse(link.created_at) > POLL_FOR_MS;
  await updateLink(deps.db, link.id, {
    next_poll_at: expired ? null : toStoredInstant(nowMs + POLL_INTERVAL_MS),
    updated_at: toStoredInstant(nowMs),
  });
}

async function guarded(deps: ConnectorDeps, what: string, work: () => Promise<unknown>): Promise<void> {
  try {
    await work();
  } catch (error) {
    const message = errorDetail(error);
    const level = error instanceof GatewayError && error.retryable ? 'info' : 'warn';
    deps.logger[level]({ err: message }, `${what} did not finish; it runs again later`);
  }
}
