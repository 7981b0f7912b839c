/**
 * Applying what the gateway says about a payment to its store order. An order is marked paid exactly
 * once: the first completed payment that matches the order's amount and currency claims the map row
 * with a conditional update, and only that claim makes the platform call (mark-paid.ts, retried with
 * backoff by the store-sync job when the platform fails). A failed or expired payment never touches
 * a paid order; a late confirmation after a failure still marks it paid; a second completed payment
 * for a paid order is flagged for a refund, never applied.
 */
import { toStoredInstant } from '../../gateway/domain/clock.js';
import { storeOf } from '../connections/connection-access.js';
import type { GatewayPayment } from '../gateway-client/client.js';
import type { ConnectorDeps } from '../runtime/deps.js';
import type { StoreConnection } from '../storage/connection.repository.js';
import { moveHold, OPEN_HOLD_STATES, recordHold } from '../storage/order-hold.repository.js';
import {
  claimNote,
  claimPaid,
  findLinkById,
  type OrderLink,
  raiseFlag,
  releaseNote,
  updateLink,
} from '../storage/order-link.repository.js';
import { noteQuietly } from './calls.js';
import { applyHold } from './hold-placed.js';
import { PAID_AFTER_CANCEL, syncStorePaid } from './mark-paid.js';
import { rememberPayment } from './order-map.js';
import { POLL_FOR_MS, POLL_INTERVAL_MS } from './polling.js';
import { type StoreWork, storeNow } from './store-work.js';
import { unconfirmedExpiry } from './unconfirmed-payments.js';

const FINAL_UNPAID: ReadonlySet<string> = new Set(['failed', 'expired']);
/** The failure codes of a card hold that ended uncaptured: released with the order, or ran out. */
const RELEASED: ReadonlySet<string> = new Set(['voided', 'authorization_expired']);
/** The statuses of a payment that took the money. */
export const PAID: ReadonlySet<string> = new Set(['completed', 'refunded']);

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

  if (payment.status === 'authorized') {
    // A card held for the order: on hold until captured (hold-placed.ts), never marked paid yet.
    if (link.paid_payment_uuid === null) await applyHold(deps, connection, link, payment, storeWork);
    return { paid: link.paid_payment_uuid !== null, claimed: false };
  }

  if (PAID.has(payment.status)) {
    if (link.hold_payment_uuid === payment.uuid) {
      await moveHold(deps.db, link.id, payment.uuid, OPEN_HOLD_STATES, 'captured', { hold_check_at: null });
    }
    if (!matchesOrder(link, payment)) {
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
  if (payment.status === 'expired' && payment.capture_method === 'manual' && RELEASED.has(payment.failure_code ?? '')) {
    // A hold released before the connector heard of it is remembered too, so the panel says so.
    if (link.hold_payment_uuid === null) await recordReleasedHold(deps, link, payment, now);
    const released = payment.failure_code === 'authorization_expired' ? 'expired' : 'voided';
    await moveHold(deps.db, link.id, payment.uuid, OPEN_HOLD_STATES, released, { hold_check_at: null });
  }
  if (FINAL_UNPAID.has(payment.status) && !paid && (await claimNote(deps.db, payment.uuid, payment.status))) {
    const why =
      payment.status === 'failed'
        ? `failed${payment.failure_code ? ` (${payment.failure_code})` : ''}. The buyer can try again from the order's payment page.`
        : payment.failure_code === 'cancelled'
          ? 'was cancelled with the order: its checkout can no longer be paid.'
          : payment.failure_code === 'voided'
            ? `released the card hold of ${heldAmount(payment)} with the cancelled order: nothing was taken from the buyer.`
            : payment.failure_code === 'authorization_expired'
              ? `: the card hold of ${heldAmount(payment)} ran out before it was captured, and nothing was taken from the buyer. The order was left as it is: ask the buyer to pay again, or cancel it.`
              : payment.awaiting_processor_reference === true
                ? unconfirmedExpiry(payment)
                : "expired unpaid. The buyer can try again from the order's payment page.";
    await storeWork('a payment outcome note', async () => {
      try {
        const subject = `Gateway payment ${payment.uuid}`;
        await storeOf(deps, connection).addNote(
          link.store_order_id,
          why.startsWith(':') ? `${subject}${why}` : `${subject} ${why}`,
        );
      } catch (error) {
        await releaseNote(deps.db, payment.uuid);
        throw error;
      }
    });
  }
  return { paid, claimed: false };
}

/**
 * Whether a completed payment is for the order as linked: its amount and currency, or, for a card
 * hold captured in part, a hold of the order's amount of which at most that much was taken.
 */
function matchesOrder(link: OrderLink, payment: GatewayPayment): boolean {
  return payment.currency === link.currency && paysAmount(payment, link.amount);
}

/**
 * Whether a completed payment pays an order of `amount`: it is that amount, or it is a card hold of
 * that amount of which part was captured (the rest released: the shop owner chose to take less).
 */
export function paysAmount(payment: GatewayPayment, amount: number | null): boolean {
  if (payment.amount === amount) return true;
  return (
    amount !== null &&
    payment.capture_method === 'manual' &&
    payment.authorized_amount === amount &&
    payment.amount > 0 &&
    payment.amount <= amount
  );
}

/** The amount a released hold held, as a note says it. */
function heldAmount(payment: GatewayPayment): string {
  return `${payment.authorized_amount ?? payment.amount} ${payment.currency}`;
}

async function recordReleasedHold(
  deps: ConnectorDeps,
  link: OrderLink,
  payment: GatewayPayment,
  now: string,
): Promise<void> {
  await recordHold(
    deps.db,
    link.id,
    {
      uuid: payment.uuid,
      authorizedAmount: payment.authorized_amount ?? payment.amount,
      captureBefore: payment.capture_before === null ? null : toStoredInstant(Date.parse(payment.capture_before)),
    },
    now,
  );
}
