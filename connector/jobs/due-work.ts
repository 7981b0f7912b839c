/**
 * The connector's background work, run every `CONNECTOR_JOB_INTERVAL_SECONDS` (and by tests on demand):
 *
 * - store sync: orders whose "mark paid" call to the store failed are retried with backoff;
 * - polling: unpaid orders with a payment this connection created are read back from the gateway
 *   now and then, so a webhook that never arrives still ends in a paid order. A failed poll waits
 *   5 minutes, then twice as long after each further failure (at most 6 hours; reset by a success).
 *   A gateway 401 marks the connection `token_revoked`: none of its orders is polled again, and its
 *   scheduled reconciliation stops;
 * - reconciliation: once an hour per connection, over the last day, repairing what is safe. A run
 *   that fails is recorded and the next one waits 5 minutes, then twice as long after each further
 *   failure, at most 6 hours (less than the day a run covers, so nothing is missed); a success
 *   returns to the hourly schedule.
 *
 * - store keys: every 15 minutes an active connection's REST key is checked with one read, so a key
 *   revoked in the store shows (`store_unauthorized`) before a buyer is affected;
 * - refund outcomes: store refunds the gateway left unknown are checked again, each wait longer
 *   (connector/refunds/settle-unknown.ts), until they are known to have succeeded or failed.
 * - capture outcomes: captures of card holds the gateway left unknown are asked about again with
 *   their idempotency key and amount (connector/orders/capture-hold.ts), after 1, 5 and 30 minutes,
 *   then every 6 hours: never a second capture.
 * - Shopify shops uninstalled more than 48 hours ago whose data is still here (`shop/redact` never
 *   came) have it deleted (plugins/shopify/compliance.ts).
 * - Shopify payments app: undecided payment sessions read back, resolve/reject calls and refund
 *   steps retried when due (plugins/shopify/payments-app/due-work.ts).
 *
 * Each item is independent: one failing does not stop the others. With several connector instances
 * on one database the same item may run twice; every step is a conditional update, so that is safe.
 */
import { DAY_MS, HOUR_MS, MINUTE_MS, toStoredInstant } from '../../gateway/domain/clock.js';
import { redactUninstalledShops } from '../../plugins/shopify/compliance.js';
import { runPaymentsAppWork } from '../../plugins/shopify/payments-app/due-work.js';
import { gatewayOf, storeOf } from '../connections/connection-access.js';
import { errorDetail } from '../errors.js';
import { GatewayError } from '../gateway-client/client.js';
import { applyPayment } from '../orders/apply-payment.js';
import { settleUnknownCaptures } from '../orders/capture-hold.js';
import { syncStorePaid } from '../orders/mark-paid.js';
import { POLL_FOR_MS, POLL_INTERVAL_MS, pollRetryDelayMs } from '../orders/polling.js';
import { reconcile } from '../reconciliation/reconcile.service.js';
import { settleUnknownRefunds } from '../refunds/settle-unknown.js';
import type { ConnectorDeps } from '../runtime/deps.js';
import {
  findConnection,
  listConnections,
  type StoreConnection,
  updateConnection,
} from '../storage/connection.repository.js';
import { linksDueForPoll, linksDueForSync, type OrderLink, updateLink } from '../storage/order-link.repository.js';
import { hasWebhookFor } from '../storage/receipt.repository.js';
import { latestRunStart } from '../storage/reconciliation.repository.js';
import {
  clearReconciliationBackoff,
  findReconciliationBackoff,
  saveReconciliationBackoff,
} from '../storage/reconciliation-backoff.repository.js';

export const RECONCILE_EVERY_MS = HOUR_MS;
export const RECONCILE_WINDOW_MS = DAY_MS;
/** The wait after a failed scheduled run; it doubles with each failure in a row, up to the cap. */
export const RECONCILE_RETRY_FIRST_MS = 5 * MINUTE_MS;
export const RECONCILE_RETRY_MAX_MS = 6 * HOUR_MS;

/** How long to wait after `failures` failed runs in a row (1 or more). */
export function reconcileRetryDelayMs(failures: number): number {
  return Math.min(RECONCILE_RETRY_FIRST_MS * 2 ** Math.max(0, failures - 1), RECONCILE_RETRY_MAX_MS);
}
const BATCH = 50;
/** A final status polling learns this long after it happened means the webhook went missing. */
export const MISSED_WEBHOOK_AFTER_MS = 10 * MINUTE_MS;
const POLLED: ReadonlySet<StoreConnection['status']> = new Set(['active', 'awaiting_keys', 'store_unauthorized']);
const FINAL: ReadonlySet<string> = new Set(['completed', 'failed', 'expired', 'refunded']);

export interface DueWorkResult {
  synced: number;
  polled: number;
  reconciled: number;
  /** Uninstalled Shopify shops whose data was deleted. */
  redacted: number;
  /** Store refunds whose unknown outcome was settled (succeeded or taken back). */
  refundsSettled: number;
  /** Active connections whose store key was checked. */
  keysChecked: number;
  /** Captures of card holds whose unknown outcome became known. */
  capturesSettled: number;
}

export async function runDueWork(deps: ConnectorDeps): Promise<DueWorkResult> {
  const now = toStoredInstant(deps.clock.nowMs());
  const connections = new Map<string, StoreConnection | undefined>();
  const connectionOf = async (id: string) => {
    if (!connections.has(id)) connections.set(id, await findConnection(deps.db, id));
    return connections.get(id);
  };
  const result: DueWorkResult = {
    synced: 0,
    polled: 0,
    reconciled: 0,
    redacted: 0,
    refundsSettled: 0,
    keysChecked: 0,
    capturesSettled: 0,
  };

  for (const link of await linksDueForSync(deps.db, now, BATCH)) {
    const connection = await connectionOf(link.connection_id);
    if (connection === undefined) continue;
    await guarded(deps, 'store sync', () => syncStorePaid(deps, connection, link.id));
    result.synced += 1;
  }

  for (const link of await linksDueForPoll(deps.db, now, BATCH)) {
    const connection = await connectionOf(link.connection_id);
    // A connection revoked during this batch (a poll's 401) is not polled further.
    if (connection === undefined || !POLLED.has(connection.status)) continue;
    const polled = await guardedPoll(deps, connection, link);
    if (!polled) connections.delete(link.connection_id);
    result.polled += 1;
  }

  for (const connection of await listConnections(deps.db)) {
    if (connection.status !== 'active') continue;
    if (storeKeyCheckDue(connection, deps.clock.nowMs())) {
      await guarded(deps, 'store key check', () => checkStoreKey(deps, connection));
      result.keysChecked += 1;
    }
    if (!(await reconciliationDue(deps, connection))) continue;
    await scheduledReconciliation(deps, connection);
    result.reconciled += 1;
  }

  await guarded(deps, 'Shopify shop redaction', async () => {
    result.redacted = await redactUninstalledShops(deps);
  });
  await guarded(deps, 'refund outcomes', async () => {
    result.refundsSettled = await settleUnknownRefunds(deps, BATCH);
  });
  await guarded(deps, 'capture outcomes', async () => {
    result.capturesSettled = await settleUnknownCaptures(deps, connectionOf, BATCH);
  });
  await guarded(deps, 'Shopify payments app', () => runPaymentsAppWork(deps));
  deps.shopify?.checkApiVersion();
  return result;
}

/** How often an active connection's store key is checked on its own (one read). */
export const STORE_KEY_CHECK_EVERY_MS = 15 * MINUTE_MS;

function storeKeyCheckDue(connection: StoreConnection, nowMs: number): boolean {
  if (connection.credentials_ciphertext === null) return false;
  const last = connection.store_checked_at;
  return last === null || Date.parse(last) + STORE_KEY_CHECK_EVERY_MS <= nowMs;
}

/**
 * One read with the store's key (the platform's `checkAccess`), through the connection's health
 * watch: a key the store refuses marks the connection `store_unauthorized` (the plugin's settings
 * page says so, and hides the method at checkout) before a buyer pays into an order that cannot be
 * marked paid. The time is written whatever the outcome, so a store that is down is not hammered.
 */
async function checkStoreKey(deps: ConnectorDeps, connection: StoreConnection): Promise<void> {
  await updateConnection(deps.db, connection.id, { store_checked_at: toStoredInstant(deps.clock.nowMs()) });
  await storeOf(deps, connection).checkAccess();
}

/** Hourly, or after a failure when its wait is over. */
async function reconciliationDue(deps: ConnectorDeps, connection: StoreConnection): Promise<boolean> {
  const nowMs = deps.clock.nowMs();
  const backoff = await findReconciliationBackoff(deps.db, connection.id);
  if (backoff !== undefined) return Date.parse(backoff.retry_at) <= nowMs;
  const last = await latestRunStart(deps.db, connection.id);
  return last === undefined || Date.parse(last) + RECONCILE_EVERY_MS <= nowMs;
}

/** A run over the last day with repair on; a failure is recorded and pushes the next run back. */
async function scheduledReconciliation(deps: ConnectorDeps, connection: StoreConnection): Promise<void> {
  const nowMs = deps.clock.nowMs();
  try {
    await reconcile(deps, connection, {
      from: toStoredInstant(nowMs - RECONCILE_WINDOW_MS),
      to: toStoredInstant(nowMs),
      repair: true,
      trigger: 'scheduled',
    });
    await clearReconciliationBackoff(deps.db, connection.id);
  } catch (error) {
    const failedAtMs = deps.clock.nowMs();
    const failures = ((await findReconciliationBackoff(deps.db, connection.id))?.failures ?? 0) + 1;
    const retryAt = toStoredInstant(failedAtMs + reconcileRetryDelayMs(failures));
    const message = errorDetail(error);
    await saveReconciliationBackoff(deps.db, {
      connection_id: connection.id,
      failures,
      last_failed_at: toStoredInstant(failedAtMs),
      last_error: message.slice(0, 500),
      retry_at: retryAt,
    });
    deps.logger.warn(
      { connection_id: connection.id, failures, retry_at: retryAt, err: message },
      'reconciliation did not finish; it runs again later',
    );
  }
}

/** Polls one link; a failure pushes its next poll back (per link). Answers false when it failed. */
async function guardedPoll(deps: ConnectorDeps, connection: StoreConnection, link: OrderLink): Promise<boolean> {
  try {
    await pollLink(deps, connection, link);
    return true;
  } catch (error) {
    const failures = link.poll_failures + 1;
    const nowMs = deps.clock.nowMs();
    await updateLink(deps.db, link.id, {
      poll_failures: failures,
      next_poll_at: toStoredInstant(nowMs + pollRetryDelayMs(failures)),
      updated_at: toStoredInstant(nowMs),
    });
    const level = error instanceof GatewayError && error.retryable ? 'info' : 'warn';
    deps.logger[level](
      { connection_id: connection.id, order: link.store_order_id, failures, err: errorDetail(error) },
      'poll did not finish; it runs again later',
    );
    return false;
  }
}

/** Reads an unpaid order's payment back and applies it; keeps polling while it may still be paid. */
async function pollLink(deps: ConnectorDeps, connection: StoreConnection, link: OrderLink): Promise<void> {
  const payment = await gatewayOf(deps, connection).getOrderPayment(link.gateway_order_id);
  if (payment !== null) {
    await noteMissedWebhook(deps, connection, payment);
    await applyPayment(deps, connection, link, payment);
    return;
  }
  const nowMs = deps.clock.nowMs();
  const expired = nowMs - Date.parse(link.created_at) > POLL_FOR_MS;
  await updateLink(deps.db, link.id, {
    next_poll_at: expired ? null : toStoredInstant(nowMs + POLL_INTERVAL_MS),
    poll_failures: 0,
    updated_at: toStoredInstant(nowMs),
  });
}

/**
 * Polling learned a final status: when it happened more than {@link MISSED_WEBHOOK_AFTER_MS} ago and
 * no webhook about the payment arrived, the connection's webhooks are missing (`health.webhooks`).
 */
async function noteMissedWebhook(
  deps: ConnectorDeps,
  connection: StoreConnection,
  payment: {
    uuid: string;
    status: string;
    created_at: string;
    completed_at: string | null;
    refunded_at: string | null;
  },
): Promise<void> {
  if (!FINAL.has(payment.status)) return;
  const nowMs = deps.clock.nowMs();
  const happenedAt = Date.parse(payment.refunded_at ?? payment.completed_at ?? payment.created_at);
  if (nowMs - happenedAt <= MISSED_WEBHOOK_AFTER_MS) return;
  if (await hasWebhookFor(deps.db, connection.id, payment.uuid)) return;
  await updateConnection(deps.db, connection.id, { last_missed_webhook_at: toStoredInstant(nowMs) });
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
