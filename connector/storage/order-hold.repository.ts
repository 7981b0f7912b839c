/**
 * The card hold kept on an order link (order-link.table.ts, migration 0013): every change is a
 * conditional update, so the webhook, the read-back, the plugin's capture and the due work may race.
 */
import type { Updateable } from 'kysely';
import type { ConnectorExecutor } from './database.js';
import type { OrderLink } from './order-link.repository.js';
import type { HoldState, OrderLinkTable } from './order-link.table.js';

/** The states of a hold that still holds the buyer's card (nothing taken, nothing released). */
export const OPEN_HOLD_STATES: readonly HoldState[] = ['authorized', 'capturing', 'capture_unknown'];

/**
 * Remembers the payment holding the order's card. A first hold (or one after a hold that was
 * released) starts `authorized`; the same hold again only refreshes its amount and deadline while
 * it is open. Answers true when the link now carries this payment's hold, still open.
 */
export async function recordHold(
  db: ConnectorExecutor,
  linkId: string,
  hold: { uuid: string; authorizedAmount: number | null; captureBefore: string | null },
  now: string,
): Promise<boolean> {
  const fresh = await db
    .updateTable('order_links')
    .set({
      hold_payment_uuid: hold.uuid,
      authorized_amount: hold.authorizedAmount,
      capture_before: hold.captureBefore,
      hold_state: 'authorized',
      capture_amount: null,
      capture_attempt: 1,
      hold_check_at: null,
      hold_checks: 0,
      hold_noted_at: null,
      updated_at: now,
    })
    .where('id', '=', linkId)
    .where('paid_payment_uuid', 'is', null)
    .where((eb) =>
      eb.or([
        eb('hold_payment_uuid', 'is', null),
        eb.and([eb('hold_payment_uuid', '!=', hold.uuid), eb('hold_state', 'in', ['voided', 'expired'])]),
      ]),
    )
    .executeTakeFirst();
  if (Number(fresh.numUpdatedRows) === 1) return true;
  const same = await db
    .updateTable('order_links')
    .set({ authorized_amount: hold.authorizedAmount, capture_before: hold.captureBefore, updated_at: now })
    .where('id', '=', linkId)
    .where('hold_payment_uuid', '=', hold.uuid)
    .where('hold_state', 'in', [...OPEN_HOLD_STATES])
    .executeTakeFirst();
  return Number(same.numUpdatedRows) === 1;
}

/** Claims the hold's note (and putting the order on hold); answers true for the one caller that does it. */
export async function claimHoldNote(
  db: ConnectorExecutor,
  linkId: string,
  uuid: string,
  now: string,
): Promise<boolean> {
  const result = await db
    .updateTable('order_links')
    .set({ hold_noted_at: now })
    .where('id', '=', linkId)
    .where('hold_payment_uuid', '=', uuid)
    .where('hold_noted_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

export async function releaseHoldNote(db: ConnectorExecutor, linkId: string): Promise<void> {
  await db.updateTable('order_links').set({ hold_noted_at: null }).where('id', '=', linkId).execute();
}

/**
 * Moves the hold from one of `from` to `to` with `changes`; answers true when this call moved it.
 * The guard that makes a capture, a settlement or a release happen once.
 */
export async function moveHold(
  db: ConnectorExecutor,
  linkId: string,
  uuid: string,
  from: readonly HoldState[],
  to: HoldState,
  changes: Updateable<OrderLinkTable> = {},
): Promise<boolean> {
  const result = await db
    .updateTable('order_links')
    .set({ ...changes, hold_state: to })
    .where('id', '=', linkId)
    .where('hold_payment_uuid', '=', uuid)
    .where('hold_state', 'in', [...from])
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** Links whose capture outcome is unknown (or whose capture request may have died) and due to be asked about again. */
export async function linksDueForHoldCheck(db: ConnectorExecutor, now: string, limit: number): Promise<OrderLink[]> {
  return db
    .selectFrom('order_links')
    .selectAll()
    .where('hold_state', 'in', ['capturing', 'capture_unknown'])
    .where('hold_check_at', '<=', now)
    .orderBy('hold_check_at')
    .limit(limit)
    .execute();
}
