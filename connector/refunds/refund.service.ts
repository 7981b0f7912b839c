/**
 * Refunds in both directions, each recorded once.
 *
 * - Started in the store admin (the plugin's `process_refund`): the connector notes the refund
 *   before asking the gateway (idempotency key bound to that note, so a retried call refunds once),
 *   then keeps the gateway's refund uuid on it. The store already holds its own refund object.
 * - Made at the gateway (API, dashboard): the `payment.refunded` webhook is reflected in the store
 *   (gateway-refunds.ts).
 *
 * This module is the first: the refund the store asks for (its call to the gateway:
 * gateway-refund-call.ts; one whose outcome stays unknown is settled later: settle-unknown.ts).
 */
import { randomUUID } from 'node:crypto';
import { toStoredInstant } from '../../gateway/domain/clock.js';
import { requireStoreAccess } from '../connections/connection-access.js';
import { ConnectorError } from '../errors.js';
import { refreshUnpaidLink } from '../orders/unpaid-link.js';
import type { ConnectorDeps } from '../runtime/deps.js';
import type { StoreConnection } from '../storage/connection.repository.js';
import { OPEN_HOLD_STATES } from '../storage/order-hold.repository.js';
import type { HoldState } from '../storage/order-link.table.js';
import { deleteRefund, findStoreRefund, insertRefund, type RefundRecord } from '../storage/refund-record.repository.js';
import { askGateway } from './gateway-refund-call.js';

export interface StoreRefundInput {
  amount: number;
  reason?: string;
  store_refund_id?: string;
}

export interface StoreRefundResponse {
  /** Null while the gateway has not said which refund it made (no answer yet). */
  refund_uuid: string | null;
  payment_uuid: string;
  amount: number;
  /** `succeeded`, or `pending` while the outcome is not known yet (answered 202). */
  status: string;
  refunded_amount: number;
}

/**
 * `POST /v1/orders/{id}/refunds`: a refund the shop owner started in the store admin. Answers 201
 * when the gateway refunded, 202 (`status: pending`) when its outcome is not known: the gateway or
 * the processor behind it did not answer. Then the record, its idempotency key and the store's
 * refund all stay, so the refund is never sent twice (a retry of the same store refund asks about
 * the same one), and settle-unknown.ts settles it later: kept when it succeeded, taken
 * back from the store (its refund deleted, a note says why) when it did not.
 */
export async function refundFromStore(
  deps: ConnectorDeps,
  connection: StoreConnection,
  storeOrderId: string,
  input: StoreRefundInput,
): Promise<{ status: 201 | 202; body: StoreRefundResponse }> {
  requireStoreAccess(connection);
  // Asks the gateway before refusing: the payment's news may not have reached the connector yet.
  const link = await refreshUnpaidLink(deps, connection, storeOrderId);
  if (link !== undefined && link.paid_payment_uuid === null && isOpenHold(link.hold_state)) {
    throw new ConnectorError(
      409,
      'payment_not_captured',
      `The buyer's card is only held for order ${storeOrderId}: nothing was taken yet, so there is nothing to refund. Capture the payment first, or cancel the order to release the hold.`,
    );
  }
  if (
    link !== undefined &&
    link.hold_state === 'captured' &&
    link.capture_amount !== null &&
    input.amount > link.capture_amount
  ) {
    throw new ConnectorError(
      422,
      'refund_exceeds_captured',
      `Only ${link.capture_amount} ${link.currency} was captured for order ${storeOrderId}: refund at most that.`,
    );
  }
  if (link === undefined || link.paid_payment_uuid === null) {
    throw new ConnectorError(
      409,
      'order_not_paid',
      `Order ${storeOrderId} has no payment through the gateway to refund.`,
    );
  }
  const paymentUuid = link.paid_payment_uuid;
  const now = toStoredInstant(deps.clock.nowMs());
  const reason = input.reason ? input.reason.slice(0, 500) : null;
  const known =
    input.store_refund_id === undefined ? undefined : await findStoreRefund(deps.db, link.id, input.store_refund_id);
  if (known !== undefined && known.amount !== input.amount) {
    throw new ConnectorError(
      409,
      'refund_mismatch',
      `Store refund ${input.store_refund_id} was already sent for ${known.amount} AMD, not ${input.amount}.`,
    );
  }
  const record: RefundRecord = known ?? {
    id: randomUUID(),
    connection_id: connection.id,
    link_id: link.id,
    gateway_refund_uuid: null,
    store_refund_id: input.store_refund_id ?? null,
    amount: input.amount,
    origin: 'store',
    created_at: now,
    updated_at: now,
    status: 'pending',
    reason,
    next_check_at: null,
    checks: 0,
  };
  if (known === undefined) await insertRefund(deps.db, record);
  const outcome = await askGateway(deps, connection, paymentUuid, record);
  switch (outcome.kind) {
    case 'refused':
      // Refused by the gateway: nothing was refunded, and the store drops its refund object too.
      await deleteRefund(deps.db, record.id);
      throw outcome.error;
    case 'succeeded':
      return {
        status: 201,
        body: {
          refund_uuid: outcome.refund.uuid,
          payment_uuid: paymentUuid,
          amount: outcome.refund.amount,
          status: 'succeeded',
          refunded_amount: outcome.refund.refunded_amount,
        },
      };
    case 'unknown':
      return {
        status: 202,
        body: {
          refund_uuid: outcome.uuid,
          payment_uuid: paymentUuid,
          amount: record.amount,
          status: 'pending',
          refunded_amount: outcome.refundedAmount,
        },
      };
  }
}

function isOpenHold(state: HoldState | null): boolean {
  return state !== null && OPEN_HOLD_STATES.includes(state);
}
