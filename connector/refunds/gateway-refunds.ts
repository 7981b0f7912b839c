/**
 * Refunds made at the gateway (API, dashboard), reflected in the store as a refund that moves no
 * money (`api_refund: false` on WooCommerce), unless it is a refund the store started: recognised
 * by its uuid, by a store refund of that amount still waiting for its uuid, or because the store's
 * refunded total already covers the gateway's.
 */
import { randomUUID } from 'node:crypto';
import { toStoredInstant } from '../../gateway/domain/clock.js';
import { gatewayOf, storeOf } from '../connections/connection-access.js';
import type { GatewayPayment } from '../gateway-client/client.js';
import type { WebhookRefund } from '../gateway-client/webhook-event.js';
import type { ConnectorDeps } from '../runtime/deps.js';
import type { StoreConnection } from '../storage/connection.repository.js';
import type { OrderLink } from '../storage/order-link.repository.js';
import {
  claimWaitingStoreRefund,
  deleteRefund,
  findRefundByGatewayUuid,
  insertRefund,
  refundsOfLink,
  updateRefund,
} from '../storage/refund-record.repository.js';

/**
 * The amount of the link's store refunds whose outcome is still in doubt (pending, unknown) that the
 * gateway has not made, as far as its list of the payment's refunds says: one whose refund uuid is
 * known counts unless that refund succeeded; one sent without an answer (no uuid yet) counts unless a
 * succeeded refund of its amount that no record knows (other than `reflecting`) is there.
 */
async function storeRefundsNotMade(
  deps: ConnectorDeps,
  connection: StoreConnection,
  link: OrderLink,
  paymentUuid: string,
  reflecting: string,
): Promise<number> {
  const records = await refundsOfLink(deps.db, link.id);
  const inDoubt = records.filter((r) => r.origin === 'store' && (r.status === 'pending' || r.status === 'unknown'));
  if (inDoubt.length === 0) return 0;
  const made = (await gatewayOf(deps, connection).listRefunds(paymentUuid)).filter((r) => r.status === 'succeeded');
  const known = new Set<string>([reflecting]);
  for (const record of records) if (record.gateway_refund_uuid !== null) known.add(record.gateway_refund_uuid);
  const unclaimed = made.filter((r) => !known.has(r.uuid));
  let notMade = 0;
  for (const record of inDoubt) {
    if (record.gateway_refund_uuid !== null) {
      if (!made.some((r) => r.uuid === record.gateway_refund_uuid)) notMade += record.amount;
      continue;
    }
    const match = unclaimed.findIndex((r) => r.amount === record.amount);
    if (match === -1) notMade += record.amount;
    else unclaimed.splice(match, 1);
  }
  return notMade;
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
  const now = toStoredInstant(deps.clock.nowMs());
  const known = await findRefundByGatewayUuid(deps.db, refund.uuid);
  if (known !== undefined) {
    // The gateway made it: a store refund whose outcome was unknown is settled by this news.
    if (known.status !== 'succeeded') {
      await updateRefund(deps.db, known.id, { status: 'succeeded', next_check_at: null, updated_at: now });
    }
    return 'known';
  }
  if (await claimWaitingStoreRefund(deps.db, link.id, refund.amount, refund.uuid, now)) return 'store_refund';

  const store = storeOf(deps, connection);
  const order = await store.getOrder(link.store_order_id);
  if (order === null) throw new Error(`the store no longer has order ${link.store_order_id}`);
  // The store's total holds its refunds still in doubt; those the gateway has not made are no cover
  // for this refund (one that then fails is taken back out of the store).
  const notMade = await storeRefundsNotMade(deps, connection, link, payment.uuid, refund.uuid);
  const missing = payment.refunded_amount - (order.refundedAmount - notMade);
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
    status: 'succeeded' as const,
    reason: refund.reason,
    next_check_at: null,
    checks: 0,
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
