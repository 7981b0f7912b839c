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
import { driverOf, fromGatewayError, gatewayOf, storeOf } from '../connections/connection.service.js';
import { asConnectorError, ConnectorError } from '../errors.js';
import { GatewayError, type GatewayPayment } from '../gateway-client/client.js';
import { type PaidWith, PlatformError, type StoreOrder, type StorePlatform } from '../platforms/platform.js';
import type { ConnectorDeps } from '../runtime/deps.js';
import type { StoreConnection } from '../storage/connection.repository.js';
import {
  claimNote,
  claimPaid,
  ensureLink,
  findLink,
  findLinkById,
  type OrderLink,
  paymentsOfLink,
  raiseFlag,
  recordOrderPayment,
  releaseNote,
  updateLink,
} from '../storage/order-link.repository.js';

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

export interface ReadBackResponse {
  order_id: string;
  payment_uuid: string | null;
  status: string | null;
  paid: boolean;
  amount: number;
  currency: string;
  rrn: string | null;
}

export function gatewayOrderId(connection: StoreConnection, storeOrderId: string): string {
  return `${driverOf(connection).orderPrefix}-${connection.id}-${storeOrderId}`;
}

/** The store order id inside a gateway order id of this connection; null when it is not one of ours. */
export function storeOrderIdOf(connection: StoreConnection, orderId: string): string | null {
  const prefix = `${driverOf(connection).orderPrefix}-${connection.id}-`;
  return orderId.startsWith(prefix) && orderId.length > prefix.length ? orderId.slice(prefix.length) : null;
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
    next_poll_at: toStoredInstant(nowMs + FIRST_POLL_MS),
    created_at: now,
    updated_at: now,
  });
}

/**
 * `POST /v1/orders/{id}/payment`: the payment the buyer should pay for a store order. The store's
 * order is the truth for the amount; an order with a pending payment gets that payment again.
 */
export async function payForOrder(
  deps: ConnectorDeps,
  connection: StoreConnection,
  storeOrderId: string,
  urls: { return_url: string; cancel_url: string },
): Promise<{ status: 200 | 201; body: OrderPaymentResponse }> {
  const store = storeOf(deps, connection);
  const order = await loadStoreOrder(store, storeOrderId);
  if (order.paymentMethod !== deps.config.paymentMethodId) {
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
    await applyPayment(deps, connection, { ...link, amount: order.amount }, current);
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
        return_url: urls.return_url,
        cancel_url: urls.cancel_url,
        callback_url: `${deps.config.publicUrl}/v1/webhooks/gateway/${connection.id}`,
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
    updated_at: toStoredInstant(nowMs),
  });
  return { status: 201, body: paymentBody(order.id, payment) };
}

/**
 * `GET /v1/orders/{id}/payment`: reads the order's payment back from the gateway and applies it
 * (a completed payment marks the order paid before this answers).
 */
export async function readBackOrder(
  deps: ConnectorDeps,
  connection: StoreConnection,
  storeOrderId: string,
): Promise<ReadBackResponse> {
  let link = await findLink(deps.db, connection.id, storeOrderId);
  if (link === undefined)
    link = await linkOrder(deps, connection, await loadStoreOrder(storeOf(deps, connection), storeOrderId));
  const payment = await gatewayCall(() => gatewayOf(deps, connection).getOrderPayment(link.gateway_order_id));
  if (payment === null) {
    return {
      order_id: storeOrderId,
      payment_uuid: null,
      status: null,
      paid: false,
      amount: link.amount,
      currency: link.currency,
      rrn: null,
    };
  }
  const outcome = await applyPayment(deps, connection, link, payment);
  return {
    order_id: storeOrderId,
    payment_uuid: payment.uuid,
    status: payment.status,
    paid: outcome.paid,
    amount: payment.amount,
    currency: payment.currency,
    rrn: payment.rrn,
  };
}

export interface ApplyOutcome {
  /** The order is paid (by this payment or an earlier one). */
  paid: boolean;
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
): Promise<ApplyOutcome> {
  await rememberPayment(deps, link, payment);
  const nowMs = deps.clock.nowMs();
  const now = toStoredInstant(nowMs);

  if (PAID.has(payment.status)) {
    if (payment.amount !== link.amount || payment.currency !== link.currency) {
      if (await raiseFlag(deps.db, link.id, 'amount_mismatch', now)) {
        await noteQuietly(
          deps,
          connection,
          link,
          `Gateway payment ${payment.uuid} completed for ${payment.amount} ${payment.currency}, but the order is ${link.amount} ${link.currency}. The order was not marked paid; check it and refund the payment if needed.`,
        );
      }
      return { paid: link.paid_payment_uuid !== null };
    }
    if (await claimPaid(deps.db, link.id, payment.uuid, now)) {
      await syncStorePaid(deps, connection, link.id, payment);
      return { paid: true };
    }
    const current = await findLinkById(deps.db, link.id);
    if (current !== undefined && current.paid_payment_uuid !== payment.uuid) {
      if (await raiseFlag(deps.db, link.id, 'paid_twice', now)) {
        await noteQuietly(
          deps,
          connection,
          link,
          `Gateway payment ${payment.uuid} also completed for this order, which was already paid by ${current.paid_payment_uuid}. Refund one of them.`,
        );
      }
    }
    return { paid: true };
  }

  const paid = link.paid_payment_uuid !== null;
  if (!paid) {
    const ageMs = nowMs - Date.parse(link.created_at);
    await updateLink(deps.db, link.id, {
      gateway_status: payment.status,
      next_poll_at:
        FINAL_UNPAID.has(payment.status) || ageMs > POLL_FOR_MS ? null : toStoredInstant(nowMs + POLL_INTERVAL_MS),
      updated_at: now,
    });
  }
  if (FINAL_UNPAID.has(payment.status) && !paid && (await claimNote(deps.db, payment.uuid, payment.status))) {
    const why =
      payment.status === 'failed'
        ? `failed${payment.failure_code ? ` (${payment.failure_code})` : ''}`
        : 'expired unpaid';
    try {
      await storeOf(deps, connection).addNote(
        link.store_order_id,
        `Gateway payment ${payment.uuid} ${why}. The buyer can try again from the order's payment page.`,
      );
    } catch (error) {
      await releaseNote(deps.db, payment.uuid);
      throw error;
    }
  }
  return { paid };
}

/**
 * Marks the order paid in the store for the payment that claimed it. A platform failure is kept on
 * the map row and retried later with backoff ({@link STORE_SYNC_BACKOFF_MS}); after the last retry
 * the order is flagged `store_sync_failed`.
 */
export async function syncStorePaid(
  deps: ConnectorDeps,
  connection: StoreConnection,
  linkId: string,
  knownPayment?: GatewayPayment,
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
    await storeOf(deps, connection).markPaid(link.store_order_id, paidWith);
    await updateLink(deps.db, link.id, {
      store_sync: 'done',
      last_sync_error: null,
      next_sync_at: null,
      updated_at: toStoredInstant(deps.clock.nowMs()),
    });
    deps.logger.info(
      { connection_id: connection.id, order: link.store_order_id, payment_uuid: uuid },
      'order marked paid',
    );
  } catch (error) {
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
