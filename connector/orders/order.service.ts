/**
 * The order map and marking orders paid. A store order is paid at the gateway under a namespaced
 * order id (`<platform prefix>-<connection id>-<store order id>`), so two stores never collide and a
 * webhook names its store order even before the map row is saved.
 *
 * An order is marked paid exactly once: the first completed payment that matches the order's amount
 * and currency claims the map row with a conditional update, and only that claim makes the platform
 * call (retried with backoff by the store-sync job when the platform fails). A failed or expired
 * payment never touches a paid order; a late confirmation after a failure still marks it paid; a
 * second completed payment for a paid order is flagged for a refund, never applied.
 */
import { randomUUID } from 'node:crypto';
import { DAY_MS, HOUR_MS, MINUTE_MS, toStoredInstant } from '../../gateway/domain/clock.js';
import { driverOf } from '../connections/connection.service.js';
import { gatewayOf, paymentMethodOf, requireStoreAccess, storeOf } from '../connections/connection-access.js';
import { fromGatewayError } from '../connections/plugin-auth.js';
import { asConnectorError, ConnectorError, isCredentialRefusal } from '../errors.js';
import { GatewayError, type GatewayPayment } from '../gateway-client/client.js';
import {
  OrderNotPayable,
  type PaidWith,
  PlatformError,
  type StoreOrder,
  type StorePlatform,
} from '../platforms/platform.js';
import type { ConnectorDeps } from '../runtime/deps.js';
import type { StoreConnection } from '../storage/connection.repository.js';
import {
  claimNote,
  claimPaid,
  endStoreSyncLease,
  ensureLink,
  findLink,
  findLinkById,
  leaseStoreSync,
  type OrderLink,
  paymentsOfLink,
  raiseFlag,
  recordOrderPayment,
  releaseNote,
  updateLink,
} from '../storage/order-link.repository.js';
import { type OrderSnapshot, storeOrderFromSnapshot } from './order-snapshot.js';
import { unconfirmedExpiry } from './unconfirmed-payments.js';

/** First read-back of an unpaid order, in case its webhook never comes. */
export const FIRST_POLL_MS = 2 * MINUTE_MS;
export const POLL_INTERVAL_MS = 5 * MINUTE_MS;
/** An order still unpaid this long after its first payment is no longer polled (reconciliation still sees it). */
export const POLL_FOR_MS = 2 * DAY_MS;
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

/** After a failed poll the wait doubles from this, up to {@link POLL_BACKOFF_MAX_MS}; a success resets it. */
export const POLL_BACKOFF_FIRST_MS = 5 * MINUTE_MS;
export const POLL_BACKOFF_MAX_MS = 6 * HOUR_MS;

/** The wait after `failures` failed polls in a row (1 or more). */
export function pollRetryDelayMs(failures: number): number {
  return Math.min(POLL_BACKOFF_FIRST_MS * 2 ** Math.max(0, failures - 1), POLL_BACKOFF_MAX_MS);
}

/**
 * Where a store call goes: run now (the job, a webhook), or queued behind the plugin's answer (a
 * plugin-facing request never waits for the store: see {@link deferStoreWork}).
 */
export type StoreWork = (what: string, run: () => Promise<void>) => Promise<void>;
export const storeNow: StoreWork = (_what, run) => run();

/** Collects store calls to start once the answer is sent. */
export function deferStoreWork(): { work: StoreWork; queued: { what: string; run: () => Promise<void> }[] } {
  const queued: { what: string; run: () => Promise<void> }[] = [];
  return {
    queued,
    work: async (what, run) => {
      queued.push({ what, run });
    },
  };
}

const FINAL_UNPAID: ReadonlySet<string> = new Set(['failed', 'expired']);
const PAID: ReadonlySet<string> = new Set(['completed', 'refunded']);

export interface OrderPaymentResponse {
  order_id: string;
  gateway_order_id: string;
  payment_uuid: string;
  status: string;
  amount: number;
  currency: string;
  checkout_url: string;
}

export interface PanelRefund {
  uuid: string;
  amount: number;
  status: string;
  reason: string | null;
  created_at: string;
}

/** `GET /v1/orders/{id}/payment`: the read-back and the plugin's order panel. */
export interface ReadBackResponse {
  order_id: string;
  payment_uuid: string | null;
  status: string | null;
  paid: boolean;
  /** The payment's amount, else the order's as the connector knows it; null when it knows nothing. */
  amount: number | null;
  currency: string;
  rrn: string | null;
  processor: string | null;
  environment: 'test' | 'live';
  refunded_amount: number;
  refunds: PanelRefund[];
  store_sync: 'none' | 'pending' | 'done' | 'failed';
  flag: string | null;
  last_webhook_at: string | null;
  /** This call claimed the order (completed at the gateway, not yet marked paid by the connector). */
  repaired: boolean;
}

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
  });
}

/**
 * `POST /v1/orders/{id}/payment`: the payment the buyer should pay for a store order. The store's
 * order is the truth for the amount: the plugin's `order` snapshot when it sends one (then no store
 * call is made), else the order read from the store (older plugins). An order with a pending
 * payment gets that payment again. Store work it finds (a paid order to mark) goes to `storeWork`.
 */
export async function payForOrder(
  deps: ConnectorDeps,
  connection: StoreConnection,
  storeOrderId: string,
  input: { return_url: string; cancel_url: string; order?: OrderSnapshot | undefined },
  storeWork: StoreWork = storeNow,
): Promise<{ status: 200 | 201; body: OrderPaymentResponse }> {
  requireStoreAccess(connection);
  const order =
    input.order === undefined
      ? await loadStoreOrder(storeOf(deps, connection), storeOrderId)
      : storeOrderFromSnapshot(storeOrderId, input.order);
  if (order.paymentMethod !== paymentMethodOf(deps, connection)) {
    throw new ConnectorError(404, 'order_not_found', `Order ${storeOrderId} is not paid with this payment method.`);
  }
  if (order.amount === null || order.currency !== 'AMD') {
    throw new ConnectorError(
      422,
      'unsupported_amount',
      `The order total ${order.amountText} ${order.currency} cannot be paid: the gateway takes whole AMD.`,
    );
  }
  if (order.paid) throw new ConnectorError(409, 'order_already_paid', `Order ${storeOrderId} is already paid.`);

  const link = await linkOrder(deps, connection, order);
  if (link.amount !== order.amount || link.currency !== order.currency) {
    await updateLink(deps.db, link.id, {
      amount: order.amount,
      currency: order.currency,
      updated_at: toStoredInstant(deps.clock.nowMs()),
    });
  }
  const gateway = gatewayOf(deps, connection);
  const current = await gatewayCall(() => gateway.getOrderPayment(link.gateway_order_id));
  if (current !== null && PAID.has(current.status)) {
    await applyPayment(deps, connection, { ...link, amount: order.amount }, current, storeWork);
    throw new ConnectorError(409, 'order_already_paid', `Order ${storeOrderId} is already paid.`);
  }
  if (current !== null && (current.status === 'pending' || current.status === 'processing')) {
    if (current.amount === order.amount && current.currency === order.currency) {
      return { status: 200, body: paymentBody(order.id, current) };
    }
    throw new ConnectorError(
      409,
      'payment_in_progress',
      `Order ${storeOrderId} changed while a payment for it is open; try again after it expires.`,
    );
  }

  const attempt = (await paymentsOfLink(deps.db, link.id)).length + 1;
  const payment = await gatewayCall(() =>
    gateway.createPayment(
      {
        amount: order.amount as number,
        currency: 'AMD',
        order_id: link.gateway_order_id,
        return_url: input.return_url,
        cancel_url: input.cancel_url,
        callback_url: `${deps.config.publicUrl}/v1/webhooks/gateway/${connection.id}`,
        // The hosted page shows the buyer the shop's number, not the namespaced gateway order id.
        description: `Order #${order.number}`,
        ...(order.customerEmail ? { customer_email: order.customerEmail } : {}),
        ...(order.customerName ? { customer_name: order.customerName.slice(0, 255) } : {}),
      },
      { idempotencyKey: `${link.gateway_order_id}:${attempt}` },
    ),
  );
  await rememberPayment(deps, link, payment);
  const nowMs = deps.clock.nowMs();
  await updateLink(deps.db, link.id, {
    gateway_status: payment.status,
    next_poll_at: toStoredInstant(nowMs + FIRST_POLL_MS),
    poll_failures: 0,
    updated_at: toStoredInstant(nowMs),
  });
  return { status: 201, body: paymentBody(order.id, payment) };
}

/**
 * `GET /v1/orders/{id}/payment`: reads the order's payment back from the gateway, claims the order
 * when the payment completed, and answers at once; marking it paid in the store (and any note) goes
 * to `storeWork`, which the API runs after the answer. An order without a link is answered from the
 * gateway by its deterministic gateway order id and nothing is created; when the gateway has a
 * payment for it, reading the store order and applying the payment is queued too.
 */
export async function readBackOrder(
  deps: ConnectorDeps,
  connection: StoreConnection,
  storeOrderId: string,
  storeWork: StoreWork = storeNow,
): Promise<ReadBackResponse> {
  const link = await findLink(deps.db, connection.id, storeOrderId);
  const gateway = gatewayOf(deps, connection);
  const payment = await gatewayCall(() =>
    gateway.getOrderPayment(link?.gateway_order_id ?? gatewayOrderId(connection, storeOrderId)),
  );
  const base = {
    order_id: storeOrderId,
    environment: connection.environment,
    store_sync: link?.store_sync ?? 'none',
    flag: link?.flag ?? null,
    last_webhook_at: link?.last_webhook_at ?? null,
  };
  if (payment === null) {
    return {
      ...base,
      payment_uuid: null,
      status: null,
      paid: link?.paid_payment_uuid != null,
      amount: link?.amount ?? null,
      currency: link?.currency ?? 'AMD',
      rrn: null,
      processor: null,
      refunded_amount: 0,
      refunds: [],
      repaired: false,
    };
  }
  let outcome: ApplyOutcome = { paid: false, claimed: false };
  if (link !== undefined) {
    outcome = await applyPayment(deps, connection, link, payment, storeWork);
  } else {
    await storeWork('applying a payment to an order without a link', async () => {
      const order = await loadStoreOrder(storeOf(deps, connection), storeOrderId);
      await applyPayment(deps, connection, await linkOrder(deps, connection, order), payment);
    });
  }
  const refunds = await gatewayCall(() => gateway.listRefunds(payment.uuid));
  const current = link === undefined ? undefined : await findLinkById(deps.db, link.id);
  return {
    ...base,
    store_sync: current?.store_sync ?? base.store_sync,
    flag: current?.flag ?? null,
    payment_uuid: payment.uuid,
    status: payment.status,
    paid: outcome.paid,
    amount: payment.amount,
    currency: payment.currency,
    rrn: payment.rrn,
    processor: payment.processor,
    environment: payment.livemode ? 'live' : 'test',
    refunded_amount: payment.refunded_amount,
    refunds: refunds.map((r) => ({
      uuid: r.uuid,
      amount: r.amount,
      status: r.status,
      reason: r.reason,
      created_at: r.created_at,
    })),
    repaired: outcome.claimed,
  };
}

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

export interface ApplyOutcome {
  /** The order is paid (by this payment or an earlier one). */
  paid: boolean;
  /** This call claimed the order for the payment (it then owns marking it paid in the store). */
  claimed: boolean;
}

/**
 * Applies what the gateway says about one payment of an order. Safe to repeat and to run
 * concurrently: every change is a conditional update.
 */
export async function applyPayment(
  deps: ConnectorDeps,
  connection: StoreConnection,
  link: OrderLink,
  payment: GatewayPayment,
  storeWork: StoreWork = storeNow,
): Promise<ApplyOutcome> {
  await rememberPayment(deps, link, payment);
  const nowMs = deps.clock.nowMs();
  const now = toStoredInstant(nowMs);

  if (PAID.has(payment.status)) {
    if (payment.amount !== link.amount || payment.currency !== link.currency) {
      if (await raiseFlag(deps.db, link.id, 'amount_mismatch', now)) {
        await storeWork('an amount mismatch note', () =>
          noteQuietly(
            deps,
            connection,
            link,
            `Gateway payment ${payment.uuid} completed for ${payment.amount} ${payment.currency}, but the order is ${link.amount} ${link.currency}. The order was not marked paid; check it and refund the payment if needed.`,
          ),
        );
      }
      return { paid: link.paid_payment_uuid !== null, claimed: false };
    }
    if (await claimPaid(deps.db, link.id, payment.uuid, now)) {
      // Durable before the store call: the store-sync job retries it if this one never runs.
      await storeWork('marking the order paid', () => syncStorePaid(deps, connection, link.id, payment));
      return { paid: true, claimed: true };
    }
    const current = await findLinkById(deps.db, link.id);
    if (
      current !== undefined &&
      current.paid_payment_uuid === payment.uuid &&
      current.flag === PAID_AFTER_CANCEL &&
      current.store_sync === 'failed' &&
      payment.refunded_amount < payment.amount
    ) {
      // Paid after the order was cancelled: try again (the owner may have reopened the order), unless
      // the owner refunded it in full instead.
      await updateLink(deps.db, link.id, { store_sync: 'pending', updated_at: now });
      await storeWork('marking a reopened order paid', () => syncStorePaid(deps, connection, link.id, payment));
      return { paid: true, claimed: false };
    }
    if (current !== undefined && current.paid_payment_uuid !== payment.uuid) {
      if (await raiseFlag(deps.db, link.id, 'paid_twice', now)) {
        await storeWork('a paid-twice note', () =>
          noteQuietly(
            deps,
            connection,
            link,
            `Gateway payment ${payment.uuid} also completed for this order, which was already paid by ${current.paid_payment_uuid}. Refund one of them.`,
          ),
        );
      }
    }
    return { paid: true, claimed: false };
  }

  const paid = link.paid_payment_uuid !== null;
  if (!paid) {
    const ageMs = nowMs - Date.parse(link.created_at);
    // Only a link already being polled (a payment was created for it) keeps being polled.
    const keepPolling = link.next_poll_at !== null && !FINAL_UNPAID.has(payment.status) && ageMs <= POLL_FOR_MS;
    await updateLink(deps.db, link.id, {
      gateway_status: payment.status,
      next_poll_at: keepPolling ? toStoredInstant(nowMs + POLL_INTERVAL_MS) : null,
      poll_failures: 0,
      updated_at: now,
    });
  }
  if (FINAL_UNPAID.has(payment.status) && !paid && (await claimNote(deps.db, payment.uuid, payment.status))) {
    const why =
      payment.status === 'failed'
        ? `failed${payment.failure_code ? ` (${payment.failure_code})` : ''}. The buyer can try again from the order's payment page.`
        : payment.failure_code === 'cancelled'
          ? 'was cancelled with the order: its checkout can no longer be paid.'
          : payment.awaiting_processor_reference === true
            ? unconfirmedExpiry(payment)
            : "expired unpaid. The buyer can try again from the order's payment page.";
    await storeWork('a payment outcome note', async () => {
      try {
        await storeOf(deps, connection).addNote(link.store_order_id, `Gateway payment ${payment.uuid} ${why}`);
      } catch (error) {
        await releaseNote(deps.db, payment.uuid);
        throw error;
      }
    });
  }
  return { paid, claimed: false };
}

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
    };
    try {
      await storeOf(deps, connection).markPaid(link.store_order_id, paidWith);
    } catch (error) {
      if (!(error instanceof OrderNotPayable && error.orderStatus === 'cancelled')) throw error;
      await holdPaidCancelledOrder(deps, connection, link, paidWith);
      return;
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
 * (or "Check now") marks it paid.
 */
async function holdPaidCancelledOrder(
  deps: ConnectorDeps,
  connection: StoreConnection,
  link: OrderLink,
  payment: PaidWith,
): Promise<void> {
  const now = toStoredInstant(deps.clock.nowMs());
  await updateLink(deps.db, link.id, {
    store_sync: 'failed',
    next_sync_at: null,
    last_sync_error: 'The store order is cancelled.',
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

/** The flag of an order paid after it was cancelled in the store. */
export const PAID_AFTER_CANCEL = 'paid_after_cancel';

/**
 * `POST /v1/orders/{id}/cancel`: the store cancelled the order, so its open payment is cancelled at
 * the gateway and its checkout can no longer be paid. Answers the order's payment as it is then. A
 * payment already completed is not undone: it is the "paid after cancel" case, flagged for the shop
 * owner (see {@link holdPaidCancelledOrder}), whose store work runs after the answer.
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

/** Runs a gateway call; a refusal or no answer becomes the connector's error. */
export async function gatewayCall<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    throw fromGatewayError(error);
  }
}

async function rememberPayment(deps: ConnectorDeps, link: OrderLink, payment: GatewayPayment): Promise<void> {
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

/** A note that helps a person but must not fail the work around it. */
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

function paymentBody(storeOrderId: string, payment: GatewayPayment): OrderPaymentResponse {
  return {
    order_id: storeOrderId,
    gateway_order_id: payment.order_id,
    payment_uuid: payment.uuid,
    status: payment.status,
    amount: payment.amount,
    currency: payment.currency,
    checkout_url: payment.checkout_url,
  };
}
