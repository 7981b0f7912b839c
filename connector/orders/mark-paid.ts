/**
 * Marking a claimed order paid in the store, once, retried with backoff when the platform fails; a
 * cancelled store order paid anyway is held for the shop owner instead (`paid_after_cancel`).
 */
import { HOUR_MS, MINUTE_MS, toStoredInstant } from '../../gateway/domain/clock.js';
import { gatewayOf, storeOf } from '../connections/connection-access.js';
import { ConnectorError, isCredentialRefusal } from '../errors.js';
import { GatewayError, type GatewayPayment } from '../gateway-client/client.js';
import { OrderNotPayable, type PaidWith, PlatformError } from '../platforms/platform.js';
import type { ConnectorDeps } from '../runtime/deps.js';
import type { StoreConnection } from '../storage/connection.repository.js';
import {
  endStoreSyncLease,
  findLinkById,
  leaseStoreSync,
  type OrderLink,
  raiseFlag,
  updateLink,
} from '../storage/order-link.repository.js';
import { noteQuietly } from './calls.js';

/** Waits before each retry of marking an order paid in the store; after the last, the order is flagged. */
export const STORE_SYNC_BACKOFF_MS: readonly number[] = [
  MINUTE_MS,
  5 * MINUTE_MS,
  30 * MINUTE_MS,
  2 * HOUR_MS,
  6 * HOUR_MS,
];

/** How long one runner holds the marking of a paid order before another may try (a runner that died). */
export const STORE_SYNC_LEASE_MS = 2 * MINUTE_MS;

/** The flag of an order paid after it was cancelled in the store. */
export const PAID_AFTER_CANCEL = 'paid_after_cancel';

/**
 * Marks the order paid in the store for the payment that claimed it, once: the runner that takes the
 * lease ({@link leaseStoreSync}) does it, others arriving meanwhile leave it. A platform failure is kept on
 * the map row and retried later with backoff ({@link STORE_SYNC_BACKOFF_MS}); after the last retry
 * the order is flagged `store_sync_failed`, a flag lowered again once a later sync (a repair) succeeds.
 */
export async function syncStorePaid(
  deps: ConnectorDeps,
  connection: StoreConnection,
  linkId: string,
  knownPayment?: GatewayPayment,
): Promise<void> {
  const nowMs = deps.clock.nowMs();
  if (!(await leaseStoreSync(deps.db, linkId, toStoredInstant(nowMs), toStoredInstant(nowMs + STORE_SYNC_LEASE_MS)))) {
    return; // done already, or another runner is marking it now
  }
  try {
    await markPaidInStore(deps, connection, linkId, knownPayment);
  } finally {
    await endStoreSyncLease(deps.db, linkId);
  }
}

async function markPaidInStore(
  deps: ConnectorDeps,
  connection: StoreConnection,
  linkId: string,
  knownPayment: GatewayPayment | undefined,
): Promise<void> {
  const link = await findLinkById(deps.db, linkId);
  if (link === undefined || link.store_sync !== 'pending' || link.paid_payment_uuid === null) return;
  const uuid = link.paid_payment_uuid;
  try {
    const payment = knownPayment?.uuid === uuid ? knownPayment : await gatewayOf(deps, connection).getPayment(uuid);
    const paidWith: PaidWith = {
      uuid,
      rrn: payment.rrn,
      amount: payment.amount,
      currency: payment.currency,
      processor: payment.processor,
      sandbox: !payment.livemode,
      ...(payment.capture_method === 'manual' ? { captured: true } : {}),
    };
    try {
      await storeOf(deps, connection).markPaid(link.store_order_id, paidWith);
    } catch (error) {
      if (!(error instanceof OrderNotPayable)) throw error;
      if (error.orderStatus === 'cancelled' || link.flag === PAID_AFTER_CANCEL) {
        // Cancelled, or cancelled earlier and since set to another status that takes no payment
        // (Refunded by the owner's refund): still the shop owner's to decide, noted once.
        await holdPaidCancelledOrder(deps, connection, link, paidWith, error.orderStatus);
        return;
      }
      throw error;
    }
    await updateLink(deps.db, link.id, {
      store_sync: 'done',
      last_sync_error: null,
      next_sync_at: null,
      // The store now shows the order paid: a flag raised for the failed sync, or for a cancelled
      // order the owner reopened, is over (others stay).
      ...(link.flag === 'store_sync_failed' || link.flag === PAID_AFTER_CANCEL ? { flag: null } : {}),
      updated_at: toStoredInstant(deps.clock.nowMs()),
    });
    deps.logger.info(
      { connection_id: connection.id, order: link.store_order_id, payment_uuid: uuid },
      'order marked paid',
    );
  } catch (error) {
    if (isCredentialRefusal(error) || awaitingKeys(error)) {
      // The store refused the key, or has not granted one yet (connected again, keys not delivered):
      // parked (no attempt counted) until credentials are accepted, which makes it due again.
      await updateLink(deps.db, link.id, {
        next_sync_at: null,
        last_sync_error: error.message.slice(0, 500),
        updated_at: toStoredInstant(deps.clock.nowMs()),
      });
      deps.logger.warn(
        { connection_id: connection.id, order: link.store_order_id },
        'marking the order paid waits for the store to accept the connector again',
      );
      return;
    }
    const retryable =
      (error instanceof PlatformError && error.retryable) ||
      (error instanceof GatewayError && error.retryable) ||
      (error instanceof ConnectorError && error.status >= 500);
    const attempts = link.sync_attempts + 1;
    const nowMs = deps.clock.nowMs();
    const wait = STORE_SYNC_BACKOFF_MS[attempts - 1];
    const message = error instanceof Error ? error.message : String(error);
    const giveUp = !retryable || wait === undefined;
    await updateLink(deps.db, link.id, {
      store_sync: giveUp ? 'failed' : 'pending',
      sync_attempts: attempts,
      next_sync_at: giveUp ? null : toStoredInstant(nowMs + wait),
      last_sync_error: message.slice(0, 500),
      ...(giveUp ? { flag: 'store_sync_failed' } : {}),
      updated_at: toStoredInstant(nowMs),
    });
    deps.logger.warn(
      { connection_id: connection.id, order: link.store_order_id, attempts, retry: !giveUp, err: message },
      'marking the order paid in the store failed',
    );
  }
}

/** The connection has no store credentials yet (`connection_not_ready`): nothing to retry until it has. */
function awaitingKeys(error: unknown): error is ConnectorError {
  return error instanceof ConnectorError && error.code === 'connection_not_ready';
}

/**
 * A payment completed for an order the store had cancelled (the buyer was paying while the order was
 * cancelled, or paid a link opened before): the store takes no payment for a cancelled order, so it
 * is not marked paid and not retried. It is flagged `paid_after_cancel` with one note saying what
 * to do: refund the payment, or set the order back to pending payment, after which reconciliation
 * (or "Check now") marks it paid. An order flagged so and since moved to another status that takes
 * no payment (Refunded) stays held, without a second note: the store is never asked to mark it paid.
 */
async function holdPaidCancelledOrder(
  deps: ConnectorDeps,
  connection: StoreConnection,
  link: OrderLink,
  payment: PaidWith,
  orderStatus: string,
): Promise<void> {
  const now = toStoredInstant(deps.clock.nowMs());
  await updateLink(deps.db, link.id, {
    store_sync: 'failed',
    next_sync_at: null,
    last_sync_error: `The store order is ${orderStatus.slice(0, 60)}: it takes no payment.`,
    updated_at: now,
  });
  if (await raiseFlag(deps.db, link.id, PAID_AFTER_CANCEL, now)) {
    await noteQuietly(
      deps,
      connection,
      link,
      `This order was cancelled, but gateway payment ${payment.uuid} (${payment.amount} ${payment.currency}) completed for it: the buyer paid. Either refund the payment from this order, or set the order back to Pending payment to keep the sale: it is then marked paid.`,
    );
  }
  deps.logger.warn(
    { connection_id: connection.id, order: link.store_order_id, payment_uuid: payment.uuid },
    'a payment completed for a cancelled order: flagged for the shop owner',
  );
}
