/**
 * Store refunds whose outcome was unknown, settled with the gateway by due work: kept when the
 * gateway made them, taken back out of the store (with a note to the owner) when it did not.
 */
import { toStoredInstant } from '../../gateway/domain/clock.js';
import { gatewayOf, storeOf } from '../connections/connection-access.js';
import type { ConnectorDeps } from '../runtime/deps.js';
import { findConnection, type StoreConnection } from '../storage/connection.repository.js';
import { findLinkById, type OrderLink, raiseFlag } from '../storage/order-link.repository.js';
import {
  type RefundRecord,
  refundsDueForCheck,
  settleRefundRecord,
  updateRefund,
} from '../storage/refund-record.repository.js';
import { refundCheckDelayMs } from './check-backoff.js';
import { askGateway } from './gateway-refund-call.js';

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
  // Who refused it, for the owner's note: a refund the gateway has as failed was declined by the processor.
  let refusal = 'the payment processor refused it';
  if (record.gateway_refund_uuid === null) {
    const outcome = await askGateway(deps, connection, paymentUuid, record);
    status = outcome.kind === 'succeeded' ? 'succeeded' : outcome.kind === 'refused' ? 'failed' : 'unknown';
    if (outcome.kind === 'refused' && outcome.by === 'gateway') refusal = gatewayRefusal(outcome.error);
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
  await takeBackStoreRefund(deps, connection, link, record, refusal);
  return true;
}

/** The gateway's own refusal, in the owner's words: what it said (more than was left to refund, ...). */
function gatewayRefusal(error: unknown): string {
  const said = error instanceof Error ? error.message.trim().replace(/\.$/, '') : '';
  return said === '' ? 'the gateway refused it' : `the gateway refused it (${said.slice(0, 200)})`;
}

/** A store refund the gateway did not make: out of the store again, and the owner told. */
async function takeBackStoreRefund(
  deps: ConnectorDeps,
  connection: StoreConnection,
  link: OrderLink,
  record: RefundRecord,
  refusal: string,
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
      ? `The refund of ${amount} did not go through: ${refusal}, and no money was returned to the buyer. The refund was removed from this order; you can refund again.`
      : `The refund of ${amount} did not go through: ${refusal}, and no money was returned to the buyer, though this order still shows it. Refund the buyer again from the gateway dashboard, or correct the order.`,
  );
  deps.logger.info(
    { connection_id: connection.id, order: link.store_order_id, deleted },
    'failed store refund taken back',
  );
}
