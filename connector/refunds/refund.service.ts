/**
 * Refunds in both directions, each recorded once.
 *
 * - Started in the store admin (the plugin's `process_refund`): the connector notes the refund
 *   before asking the gateway (idempotency key bound to that note, so a retried call refunds once),
 *   then keeps the gateway's refund uuid on it. The store already holds its own refund object.
 * - Made at the gateway (API, dashboard): the `payment.refunded` webhook is reflected in the store
 *   as a refund that moves no money (`api_refund: false` on WooCommerce), unless it is a refund the
 *   store started: recognised by its uuid, by a store refund of that amount still waiting for its
 *   uuid, or because the store's refunded total already covers the gateway's.
 */
import { randomUUID } from 'node:crypto';
import { toStoredInstant } from '../../gateway/domain/clock.js';
import { gatewayOf, requireStoreAccess, storeOf } from '../connections/connection.service.js';
import { ConnectorError } from '../errors.js';
import type { GatewayPayment } from '../gateway-client/client.js';
import type { WebhookRefund } from '../gateway-client/webhook-verification.js';
import { gatewayCall } from '../orders/order.service.js';
import type { ConnectorDeps } from '../runtime/deps.js';
import type { StoreConnection } from '../storage/connection.repository.js';
import { findLink, type OrderLink } from '../storage/order-link.repository.js';
import {
  claimWaitingStoreRefund,
  deleteRefund,
  findRefundByGatewayUuid,
  findStoreRefund,
  insertRefund,
  updateRefund,
} from '../storage/refund-record.repository.js';

export interface StoreRefundInput {
  amount: number;
  reason?: string;
  store_refund_id?: string;
}

export interface StoreRefundResponse {
  refund_uuid: string;
  payment_uuid: string;
  amount: number;
  status: string;
  refunded_amount: number;
}

/** `POST /v1/orders/{id}/refunds`: a refund the shop owner started in the store admin. */
export async function refundFromStore(
  deps: ConnectorDeps,
  connection: StoreConnection,
  storeOrderId: string,
  input: StoreRefundInput,
): Promise<StoreRefundResponse> {
  requireStoreAccess(connection);
  const link = await findLink(deps.db, connection.id, storeOrderId);
  if (link === undefined || link.paid_payment_uuid === null) {
    throw new ConnectorError(
      409,
      'order_not_paid',
      `Order ${storeOrderId} has no payment through the gateway to refund.`,
    );
  }
  const paymentUuid = link.paid_payment_uuid;
  const now = toStoredInstant(deps.clock.nowMs());
  let record =
    input.store_refund_id === undefined ? undefined : await findStoreRefund(deps.db, link.id, input.store_refund_id);
  if (record !== undefined && record.amount !== input.amount) {
    throw new ConnectorError(
      409,
      'refund_mismatch',
      `Store refund ${input.store_refund_id} was already sent for ${record.amount} AMD, not ${input.amount}.`,
    );
  }
  if (record === undefined) {
    record = {
      id: randomUUID(),
      connection_id: connection.id,
      link_id: link.id,
      gateway_refund_uuid: null,
      store_refund_id: input.store_refund_id ?? null,
      amount: input.amount,
      origin: 'store',
      created_at: now,
      updated_at: now,
    };
    await insertRefund(deps.db, record);
  }
  let result: Awaited<ReturnType<ReturnType<typeof gatewayOf>['refundPayment']>>;
  try {
    result = await gatewayCall(() =>
      gatewayOf(deps, connection).refundPayment(
        paymentUuid,
        { amount: input.amount, ...(input.reason ? { reason: input.reason.slice(0, 500) } : {}) },
        { idempotencyKey: `store-refund:${record.id}` },
      ),
    );
  } catch (error) {
    // Refused by the gateway: nothing was refunded, and the store drops its refund object too.
    if (error instanceof ConnectorError && error.status < 500) await deleteRefund(deps.db, record.id);
    throw error;
  }
  if (result.status === 'failed') {
    await deleteRefund(deps.db, record.id);
    throw new ConnectorError(
      422,
      result.failure_code ?? 'refund_failed',
      `The gateway could not refund the payment (${result.failure_code ?? 'failed'}); nothing was refunded.`,
    );
  }
  await updateRefund(deps.db, record.id, { gateway_refund_uuid: result.uuid, updated_at: now });
  return {
    refund_uuid: result.uuid,
    payment_uuid: paymentUuid,
    amount: result.amount,
    status: result.status,
    refunded_amount: result.refunded_amount,
  };
}

/**
 * Reflects a gateway refund in the store (from a `payment.refunded` webhook or reconciliation).
 * `payment` is the payment as read back after the refund.
 */
export async function reflectGatewayRefund(
  deps: ConnectorDeps,
  connection: StoreConnection,
  link: OrderLink,
  payment: GatewayPayment,
  refund: WebhookRefund,
): Promise<'known' | 'store_refund' | 'recorded'> {
  if ((await findRefundByGatewayUuid(deps.db, refund.uuid)) !== undefined) return 'known';
  const now = toStoredInstant(deps.clock.nowMs());
  if (await claimWaitingStoreRefund(deps.db, link.id, refund.amount, refund.uuid, now)) return 'store_refund';

  const store = storeOf(deps, connection);
  const order = await store.getOrder(link.store_order_id);
  if (order === null) throw new Error(`the store no longer has order ${link.store_order_id}`);
  const missing = payment.refunded_amount - order.refundedAmount;
  const record = {
    id: randomUUID(),
    connection_id: connection.id,
    link_id: link.id,
    gateway_refund_uuid: refund.uuid,
    store_refund_id: null,
    amount: refund.amount,
    origin: missing > 0 ? ('gateway' as const) : ('store' as const),
    created_at: now,
    updated_at: now,
  };
  if (!(await insertRefund(deps.db, record))) return 'known';
  if (missing <= 0) return 'store_refund';
  try {
    const recorded = await store.recordRefund(link.store_order_id, {
      uuid: refund.uuid,
      amount: Math.min(refund.amount, missing),
      reason: refund.reason,
    });
    await updateRefund(deps.db, record.id, { store_refund_id: recorded.id, updated_at: now });
  } catch (error) {
    await deleteRefund(deps.db, record.id);
    throw error;
  }
  deps.logger.info(
    { connection_id: connection.id, order: link.store_order_id, refund_uuid: refund.uuid },
    'gateway refund recorded in the store',
  );
  return 'recorded';
}
