/**
 * The plugin-facing order paths (docs/connector.md, "Plugin-facing HTTP API"): the payment the buyer
 * should pay for a store order, and the order's payment read back from the gateway (the plugin's
 * order panel). What the gateway says is applied to the order by apply-payment.ts.
 */
import { toStoredInstant } from '../../gateway/domain/clock.js';
import { gatewayOf, paymentMethodOf, requireStoreAccess, storeOf } from '../connections/connection-access.js';
import { ConnectorError } from '../errors.js';
import { GatewayError, type GatewayPayment } from '../gateway-client/client.js';
import type { ConnectorDeps } from '../runtime/deps.js';
import type { StoreConnection } from '../storage/connection.repository.js';
import {
  findLink,
  findLinkById,
  type OrderLink,
  paymentsOfLink,
  updateLink,
} from '../storage/order-link.repository.js';
import { type ApplyOutcome, applyPayment, PAID } from './apply-payment.js';
import { gatewayCall, loadStoreOrder } from './calls.js';
import { gatewayOrderId, linkOrder, rememberPayment } from './order-map.js';
import { type OrderSnapshot, storeOrderFromSnapshot } from './order-snapshot.js';
import { FIRST_POLL_MS } from './polling.js';
import { type StoreWork, storeNow } from './store-work.js';

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
  /** The card held for the order (a payment to capture later), as the connector last knew it; else null. */
  hold: PanelHold | null;
}

/** A card hold in the order panel. */
export interface PanelHold {
  /** `authorized`, `capturing`, `capture_unknown`, `captured`, `voided` or `expired` (ran out uncaptured). */
  state: string;
  payment_uuid: string;
  authorized_amount: number | null;
  /** Until when it may be captured, ISO 8601 UTC. */
  capture_before: string | null;
  /** What was captured, or is being captured; null before a capture. */
  capture_amount: number | null;
}

function panelHold(link: OrderLink | undefined): PanelHold | null {
  if (link === undefined || link.hold_payment_uuid === null || link.hold_state === null) return null;
  return {
    state: link.hold_state,
    payment_uuid: link.hold_payment_uuid,
    authorized_amount: link.authorized_amount,
    capture_before: link.capture_before,
    capture_amount: link.capture_amount,
  };
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
  input: {
    return_url: string;
    cancel_url: string;
    order?: OrderSnapshot | undefined;
    capture_method?: 'automatic' | 'manual' | undefined;
  },
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
  if (current !== null && current.status === 'authorized') {
    // The buyer's card is held for the order already: captured or released from the order, not paid again.
    await applyPayment(deps, connection, { ...link, amount: order.amount }, current, storeWork);
    throw new ConnectorError(409, 'order_on_hold', `The buyer's card is already held for order ${storeOrderId}.`);
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
  const payment = await holdAware(() =>
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
        ...(input.capture_method === 'manual' ? { capture_method: 'manual' as const } : {}),
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
      hold: panelHold(link),
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
    hold: panelHold(current),
  };
}

/**
 * Creates the payment; the gateway's refusal of a card hold (`capture_method: manual` on a domain
 * whose methods cannot hold a payment: wallets only) becomes `hold_not_supported`, for the buyer's
 * message. Nothing was created at the gateway then.
 */
async function holdAware(create: () => Promise<GatewayPayment>): Promise<GatewayPayment> {
  try {
    return await create();
  } catch (error) {
    const errors =
      error instanceof GatewayError ? (error.body.errors as Record<string, unknown> | undefined) : undefined;
    if (error instanceof GatewayError && error.code === 'validation_failed' && errors?.capture_method !== undefined) {
      throw new ConnectorError(
        422,
        'hold_not_supported',
        'This store takes payments to capture later, but none of its payment methods can hold a card payment (wallets cannot). Turn off "Authorize only, capture later", or enable a card processor.',
        { errors: { capture_method: errors.capture_method } },
      );
    }
    return gatewayCall(() => Promise.reject(error));
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
