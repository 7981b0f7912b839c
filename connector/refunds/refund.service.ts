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
import { HOUR_MS, MINUTE_MS, toStoredInstant } from '../../gateway/domain/clock.js';
import { gatewayOf, requireStoreAccess, storeOf } from '../connections/connection-access.js';
import { fromGatewayError } from '../connections/plugin-auth.js';
import { ConnectorError } from '../errors.js';
import { GatewayError, type GatewayPayment, type RefundResult } from '../gateway-client/client.js';
import type { WebhookRefund } from '../gateway-client/webhook-event.js';
import { refreshUnpaidLink } from '../orders/unpaid-link.js';
import type { ConnectorDeps } from '../runtime/deps.js';
import { findConnection, type StoreConnection } from '../storage/connection.repository.js';
import { findLinkById, type OrderLink, raiseFlag } from '../storage/order-link.repository.js';
import {
  claimWaitingStoreRefund,
  deleteRefund,
  findRefundByGatewayUuid,
  findStoreRefund,
  insertRefund,
  type RefundRecord,
  refundsDueForCheck,
  refundsOfLink,
  settleRefundRecord,
  updateRefund,
} from '../storage/refund-record.repository.js';

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

/** Waits before each check of a refund whose outcome is unknown; the last repeats. */
export const REFUND_CHECK_BACKOFF_MS: readonly number[] = [
  MINUTE_MS,
  5 * MINUTE_MS,
  30 * MINUTE_MS,
  2 * HOUR_MS,
  6 * HOUR_MS,
];

export function refundCheckDelayMs(checks: number): number {
  return REFUND_CHECK_BACKOFF_MS[Math.min(checks, REFUND_CHECK_BACKOFF_MS.length - 1)] as number;
}

/**
 * `POST /v1/orders/{id}/refunds`: a refund the shop owner started in the store admin. Answers 201
 * when the gateway refunded, 202 (`status: pending`) when its outcome is not known: the gateway or
 * the processor behind it did not answer. Then the record, its idempotency key and the store's
 * refund all stay, so the refund is never sent twice (a retry of the same store refund asks about
 * the same one), and {@link settleUnknownRefunds} settles it later: kept when it succeeded, taken
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

type GatewayOutcome =
  | { readonly kind: 'succeeded'; readonly refund: RefundResult }
  | { readonly kind: 'refused'; readonly error: unknown }
  | { readonly kind: 'unknown'; readonly uuid: string | null; readonly refundedAmount: number };

/**
 * Sends a store refund to the gateway (the same request under the same idempotency key every time,
 * so asking again never refunds twice) and records what became of it.
 */
async function askGateway(
  deps: ConnectorDeps,
  connection: StoreConnection,
  paymentUuid: string,
  record: RefundRecord,
): Promise<GatewayOutcome> {
  const nowMs = deps.clock.nowMs();
  const now = toStoredInstant(nowMs);
  let result: RefundResult;
  try {
    result = await gatewayOf(deps, connection).refundPayment(
      paymentUuid,
      { amount: record.amount, ...(record.reason ? { reason: record.reason } : {}) },
      { idempotencyKey: `store-refund:${record.id}` },
    );
  } catch (error) {
    const unknownRefund = error instanceof GatewayError ? unknownOutcome(error) : null;
    if (unknownRefund === null) {
      // A refusal (declined, processor unavailable, nothing left...): known to have refunded nothing.
      return { kind: 'refused', error: fromGatewayError(error) };
    }
    await markUnknown(deps, record, unknownRefund.uuid, nowMs);
    return {
      kind: 'unknown',
      uuid: unknownRefund.uuid ?? record.gateway_refund_uuid,
      refundedAmount: unknownRefund.refundedAmount,
    };
  }
  if (result.status === 'failed') {
    return {
      kind: 'refused',
      error: new ConnectorError(
        422,
        result.failure_code ?? 'refund_failed',
        `The gateway could not refund the payment (${result.failure_code ?? 'failed'}); nothing was refunded.`,
      ),
    };
  }
  if (result.status !== 'succeeded') {
    await markUnknown(deps, record, result.uuid, nowMs);
    return { kind: 'unknown', uuid: result.uuid, refundedAmount: result.refunded_amount };
  }
  await updateRefund(deps.db, record.id, {
    gateway_refund_uuid: result.uuid,
    status: 'succeeded',
    next_check_at: null,
    updated_at: now,
  });
  return { kind: 'succeeded', refund: result };
}

/**
 * Whether a failed refund call leaves its outcome unknown: the gateway did not answer (or failed
 * itself), or it answered `refund_outcome_unknown` (the processor did not). Answers the refund's
 * uuid when the gateway named it.
 */
function unknownOutcome(error: GatewayError): { uuid: string | null; refundedAmount: number } | null {
  if (error.retryable && error.status !== 429) return { uuid: null, refundedAmount: 0 };
  if (error.code !== 'refund_outcome_unknown') return null;
  const refund = error.body.refund as { uuid?: unknown } | undefined;
  const payment = error.body as { refunded_amount?: unknown };
  return {
    uuid: typeof refund?.uuid === 'string' ? refund.uuid : null,
    refundedAmount: typeof payment.refunded_amount === 'number' ? payment.refunded_amount : 0,
  };
}

async function markUnknown(
  deps: ConnectorDeps,
  record: RefundRecord,
  uuid: string | null,
  nowMs: number,
): Promise<void> {
  const checks = record.status === 'unknown' ? record.checks : 0;
  await updateRefund(deps.db, record.id, {
    ...(uuid !== null ? { gateway_refund_uuid: uuid } : {}),
    status: 'unknown',
    checks,
    next_check_at: toStoredInstant(nowMs + refundCheckDelayMs(checks)),
    updated_at: toStoredInstant(nowMs),
  });
  deps.logger.warn(
    { link_id: record.link_id, refund_record: record.id, refund_uuid: uuid },
    'store refund outcome unknown: kept, to be settled with the gateway',
  );
}

/**
 * Settles store refunds whose outcome was unknown and whose check is due: asks the gateway about the
 * refund it named (its list of the payment's refunds), or sends the very same request again under
 * the same idempotency key when it named none. Succeeded: kept. Failed: taken back from the store
 * (its refund object deleted, so the store's refunded total is the gateway's again) with a note; a
 * store that cannot delete it gets the note and the order is flagged `refund_failed`. Still unknown:
 * checked again later, each wait longer. Answers how many were settled.
 */
export async function settleUnknownRefunds(deps: ConnectorDeps, limit: number): Promise<number> {
  const now = toStoredInstant(deps.clock.nowMs());
  let settled = 0;
  for (const record of await refundsDueForCheck(deps.db, now, limit)) {
    const connection = await findConnection(deps.db, record.connection_id);
    const link = await findLinkById(deps.db, record.link_id);
    if (connection === undefined || link === undefined || link.paid_payment_uuid === null) continue;
    if (connection.status !== 'active') continue;
    if (await settleRefund(deps, connection, link, record)) settled += 1;
  }
  return settled;
}

async function settleRefund(
  deps: ConnectorDeps,
  connection: StoreConnection,
  link: OrderLink,
  record: RefundRecord,
): Promise<boolean> {
  const paymentUuid = link.paid_payment_uuid as string;
  const nowMs = deps.clock.nowMs();
  let status: string;
  if (record.gateway_refund_uuid === null) {
    const outcome = await askGateway(deps, connection, paymentUuid, record);
    status = outcome.kind === 'succeeded' ? 'succeeded' : outcome.kind === 'refused' ? 'failed' : 'unknown';
  } else {
    const refunds = await gatewayOf(deps, connection).listRefunds(paymentUuid);
    status = refunds.find((r) => r.uuid === record.gateway_refund_uuid)?.status ?? 'unknown';
  }
  if (status === 'succeeded') return settleRefundRecord(deps.db, record.id, 'succeeded', toStoredInstant(nowMs));
  if (status !== 'failed') {
    const checks = record.checks + 1;
    await updateRefund(deps.db, record.id, {
      checks,
      next_check_at: toStoredInstant(nowMs + refundCheckDelayMs(checks)),
      updated_at: toStoredInstant(nowMs),
    });
    return false;
  }
  await takeBackStoreRefund(deps, connection, link, record);
  return true;
}

/** A store refund the gateway did not make: out of the store again, and the owner told. */
async function takeBackStoreRefund(
  deps: ConnectorDeps,
  connection: StoreConnection,
  link: OrderLink,
  record: RefundRecord,
): Promise<void> {
  const store = storeOf(deps, connection);
  const now = toStoredInstant(deps.clock.nowMs());
  // Settled once, whichever runner (or connector instance) learned it first.
  if (!(await settleRefundRecord(deps.db, record.id, 'failed', now))) return;
  let deleted = false;
  if (record.store_refund_id !== null && store.deleteRefund !== undefined) {
    try {
      await store.deleteRefund(link.store_order_id, record.store_refund_id);
      deleted = true;
    } catch (error) {
      deps.logger.warn({ err: error, link_id: link.id }, 'the store refund of a failed refund could not be deleted');
    }
  }
  const amount = `${record.amount} AMD`;
  if (!deleted) await raiseFlag(deps.db, link.id, 'refund_failed', now);
  await store.addNote(
    link.store_order_id,
    deleted
      ? `The refund of ${amount} did not go through: the payment processor refused it, and no money was returned to the buyer. The refund was removed from this order; you can refund again.`
      : `The refund of ${amount} did not go through: the payment processor refused it, and no money was returned to the buyer, though this order still shows it. Refund the buyer again from the gateway dashboard, or correct the order.`,
  );
  deps.logger.info(
    { connection_id: connection.id, order: link.store_order_id, deleted },
    'failed store refund taken back',
  );
}

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
