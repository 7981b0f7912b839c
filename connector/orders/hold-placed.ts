/**
 * A card held for a store order (the gateway says `authorized`: a payment created with
 * `capture_method: manual`, read back after its verified webhook, a poll or the buyer's return):
 * the order link remembers the hold, and the order is put on hold with exactly one note saying how
 * much is held and until when it may be captured. Nothing is marked paid until it is captured
 * (capture-hold.ts).
 */
import { MINUTE_MS, toStoredInstant } from '../../gateway/domain/clock.js';
import { storeOf } from '../connections/connection-access.js';
import type { GatewayPayment } from '../gateway-client/client.js';
import type { ConnectorDeps } from '../runtime/deps.js';
import type { StoreConnection } from '../storage/connection.repository.js';
import { claimHoldNote, recordHold, releaseHoldNote } from '../storage/order-hold.repository.js';
import { findLinkById, type OrderLink, updateLink } from '../storage/order-link.repository.js';
import { POLL_INTERVAL_MS } from './polling.js';
import type { StoreWork } from './store-work.js';

/** A held order is read back again this long after its hold would run out (in case that news is lost). */
export const HOLD_RAN_OUT_POLL_MS = 10 * MINUTE_MS;

/** "2026-11-28 10:36 UTC": an instant of the gateway's, as a shop owner reads it in a note. */
export function ownerInstant(instant: string | null): string {
  if (instant === null) return 'the processor’s deadline';
  const ms = Date.parse(instant);
  if (Number.isNaN(ms)) return instant;
  return `${new Date(ms).toISOString().slice(0, 16).replace('T', ' ')} UTC`;
}

/** The hold's one note on the order. */
export function holdNote(payment: GatewayPayment): string {
  const held = payment.authorized_amount ?? payment.amount;
  return `Card hold of ${held} ${payment.currency} placed (gateway payment ${payment.uuid}); capture before ${ownerInstant(payment.capture_before)}.`;
}

/**
 * Applies an `authorized` payment to its unpaid order. Safe to repeat and to race: the hold is
 * recorded by a conditional update and its note is claimed once (released again when the store
 * call fails, so a later read-back puts the order on hold).
 */
export async function applyHold(
  deps: ConnectorDeps,
  connection: StoreConnection,
  link: OrderLink,
  payment: GatewayPayment,
  storeWork: StoreWork,
): Promise<void> {
  const nowMs = deps.clock.nowMs();
  const now = toStoredInstant(nowMs);
  const recorded = await recordHold(
    deps.db,
    link.id,
    {
      uuid: payment.uuid,
      authorizedAmount: payment.authorized_amount ?? payment.amount,
      captureBefore: payment.capture_before === null ? null : toStoredInstant(Date.parse(payment.capture_before)),
    },
    now,
  );
  if (!recorded) return;
  const claimed = await claimHoldNote(deps.db, link.id, payment.uuid, now);
  if (claimed) {
    await storeWork('putting a held order on hold', async () => {
      const store = storeOf(deps, connection);
      try {
        await store.placeOnHold?.(link.store_order_id);
        await store.addNote(link.store_order_id, holdNote(payment));
      } catch (error) {
        await releaseHoldNote(deps.db, link.id);
        throw error;
      }
    });
  }
  const current = await findLinkById(deps.db, link.id);
  // Until the order is on hold and noted, read back as usual; then once more just after the hold
  // would run out (its release comes as a webhook; this is the safety net).
  const settled = current?.hold_noted_at != null && !claimed;
  const ranOut = payment.capture_before === null ? null : Date.parse(payment.capture_before) + HOLD_RAN_OUT_POLL_MS;
  await updateLink(deps.db, link.id, {
    gateway_status: payment.status,
    next_poll_at: toStoredInstant(settled && ranOut !== null ? Math.max(ranOut, nowMs) : nowMs + POLL_INTERVAL_MS),
    poll_failures: 0,
    updated_at: now,
  });
}
