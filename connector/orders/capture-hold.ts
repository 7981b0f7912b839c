/**
 * Capturing an order's card hold (`POST /v1/orders/{id}/capture`): the plugin asks when the shop
 * owner sets a held order Processing or Completed, or presses Capture in the order panel (with a
 * smaller amount). The capture is sent once, under the idempotency key `store-capture:<link id>`
 * with the same amount every time: a second request answers the same capture; one whose outcome is
 * unknown (the gateway or the processor did not answer) is kept and asked about again later by the
 * due work with the same key and amount, never sent as a second capture. Once captured, the order is
 * marked paid once (apply-payment.ts, mark-paid.ts), after the answer.
 */
import { HOUR_MS, MINUTE_MS, toStoredInstant } from '../../gateway/domain/clock.js';
import { gatewayOf, requireStoreAccess } from '../connections/connection-access.js';
import { fromGatewayError } from '../connections/plugin-auth.js';
import { ConnectorError } from '../errors.js';
import { GatewayError, type GatewayPayment } from '../gateway-client/client.js';
import type { ConnectorDeps } from '../runtime/deps.js';
import type { StoreConnection } from '../storage/connection.repository.js';
import { linksDueForHoldCheck, moveHold } from '../storage/order-hold.repository.js';
import { findLink, findLinkById, type OrderLink } from '../storage/order-link.repository.js';
import type { HoldState } from '../storage/order-link.table.js';
import { applyPayment } from './apply-payment.js';
import { gatewayCall, noteQuietly } from './calls.js';
import { type StoreWork, storeNow } from './store-work.js';

/** Waits before each check of a capture whose outcome is unknown; then every 6 hours. */
export const CAPTURE_CHECK_BACKOFF_MS: readonly number[] = [MINUTE_MS, 5 * MINUTE_MS, 30 * MINUTE_MS];
const CAPTURE_CHECK_EVERY_MS = 6 * HOUR_MS;

/** The gateway's answers that say the capture's outcome is not known yet (nothing to send again). */
const IN_DOUBT: ReadonlySet<string> = new Set(['capture_outcome_unknown', 'hold_operation_in_progress']);

export interface CaptureResponse {
  order_id: string;
  payment_uuid: string;
  /** `captured`, or `pending` while the outcome is not known (answered 202). */
  capture: 'captured' | 'pending';
  /** What was captured (or is being captured), whole AMD. */
  captured_amount: number;
  authorized_amount: number | null;
  /** The payment's status at the gateway (`completed` once captured). */
  status: string;
}

/** The idempotency key of the link's capture: one per capture, the same for every try of it. */
export function captureKey(link: Pick<OrderLink, 'id' | 'capture_attempt'>): string {
  return link.capture_attempt <= 1 ? `store-capture:${link.id}` : `store-capture:${link.id}:${link.capture_attempt}`;
}

export async function captureOrderHold(
  deps: ConnectorDeps,
  connection: StoreConnection,
  storeOrderId: string,
  input: { amount?: number | undefined },
  storeWork: StoreWork = storeNow,
): Promise<{ status: 200 | 202; body: CaptureResponse }> {
  requireStoreAccess(connection);
  const link = await findLink(deps.db, connection.id, storeOrderId);
  if (link === undefined || link.hold_payment_uuid === null || link.hold_state === null) {
    throw new ConnectorError(409, 'no_card_hold', `Order ${storeOrderId} has no card hold to capture.`);
  }
  const uuid = link.hold_payment_uuid;
  if (link.hold_state === 'authorized') {
    const held = link.authorized_amount ?? link.amount;
    const amount = input.amount ?? held;
    if (amount > held) {
      throw new ConnectorError(
        422,
        'amount_exceeds_authorized',
        `Only ${held} ${link.currency} is held on the buyer's card: capture at most that.`,
      );
    }
    // The one capture of this hold: whoever moves it to `capturing` sends it.
    // Should this request die before it knows, the due work asks about the capture with its key.
    const checkAt = toStoredInstant(deps.clock.nowMs() + (CAPTURE_CHECK_BACKOFF_MS[0] as number));
    if (
      await moveHold(deps.db, link.id, uuid, ['authorized'], 'capturing', {
        capture_amount: amount,
        hold_check_at: checkAt,
        hold_checks: 0,
      })
    ) {
      return answer(await sendCapture(deps, connection, link.id, storeWork));
    }
  }
  const current = (await findLinkById(deps.db, link.id)) ?? link;
  switch (current.hold_state) {
    case 'capturing':
    case 'capture_unknown':
      // The same capture, asked again: sent again with its key and amount, answered as it is now.
      return answer(await sendCapture(deps, connection, current.id, storeWork));
    case 'captured': {
      // Captured already (by this route, or at the gateway itself): answered from the gateway, not sent.
      const payment = await gatewayCall(() => gatewayOf(deps, connection).getPayment(uuid));
      await applyPayment(deps, connection, current, payment, storeWork);
      return answer({ kind: 'captured', link: (await findLinkById(deps.db, current.id)) ?? current, payment });
    }
    case 'voided':
    case 'expired':
      throw new ConnectorError(
        409,
        'hold_released',
        current.hold_state === 'expired'
          ? `The card hold of order ${storeOrderId} ran out before it was captured: nothing can be taken any more.`
          : `The card hold of order ${storeOrderId} was released with the cancelled order: nothing can be taken any more.`,
      );
    default:
      throw new ConnectorError(
        409,
        'hold_operation_in_progress',
        `Order ${storeOrderId}'s card hold is changing right now; try again in a moment.`,
      );
  }
}

type CaptureOutcome =
  | { kind: 'captured'; link: OrderLink; payment: GatewayPayment }
  | { kind: 'pending'; link: OrderLink };

function answer(outcome: CaptureOutcome): { status: 200 | 202; body: CaptureResponse } {
  const { link } = outcome;
  return {
    status: outcome.kind === 'captured' ? 200 : 202,
    body: {
      order_id: link.store_order_id,
      payment_uuid: link.hold_payment_uuid as string,
      capture: outcome.kind,
      captured_amount: outcome.kind === 'captured' ? outcome.payment.amount : (link.capture_amount ?? 0),
      authorized_amount: link.authorized_amount,
      status: outcome.kind === 'captured' ? outcome.payment.status : 'authorized',
    },
  };
}

/**
 * Sends the link's capture (its key, its amount) and records what became of it. A capture known not
 * made (declined, the hold gone) gives the hold back as `authorized`, with a new key for a next
 * capture; the refusal is thrown. Exported for the due work's settlement of unknown outcomes.
 */
export async function sendCapture(
  deps: ConnectorDeps,
  connection: StoreConnection,
  linkId: string,
  storeWork: StoreWork = storeNow,
): Promise<CaptureOutcome> {
  const link = await findLinkById(deps.db, linkId);
  if (link === undefined || link.hold_payment_uuid === null) throw new Error(`order link ${linkId} has no hold`);
  const uuid = link.hold_payment_uuid;
  const gateway = gatewayOf(deps, connection);
  const amount = link.capture_amount ?? link.authorized_amount ?? link.amount;
  let payment: GatewayPayment;
  try {
    payment = await gateway.capturePayment(uuid, { amount }, { idempotencyKey: captureKey(link) });
  } catch (error) {
    if (error instanceof GatewayError && (error.retryable || IN_DOUBT.has(error.code))) {
      // No answer, or an answer that the capture is still in doubt: kept, asked about later.
      const checks = link.hold_state === 'capture_unknown' ? link.hold_checks + 1 : 1;
      const wait = CAPTURE_CHECK_BACKOFF_MS[checks - 1] ?? CAPTURE_CHECK_EVERY_MS;
      const nowMs = deps.clock.nowMs();
      await moveHold(deps.db, link.id, uuid, ['capturing', 'capture_unknown'], 'capture_unknown', {
        hold_checks: checks,
        hold_check_at: toStoredInstant(nowMs + wait),
        updated_at: toStoredInstant(nowMs),
      });
      deps.logger.warn(
        { connection_id: connection.id, order: link.store_order_id, payment_uuid: uuid, err: error.code },
        'the capture of a card hold has no known outcome yet: asked again later with the same key',
      );
      return { kind: 'pending', link: (await findLinkById(deps.db, link.id)) ?? link };
    }
    await captureNotMade(deps, connection, link, error);
    throw fromGatewayError(error);
  }
  await applyPayment(deps, connection, link, payment, storeWork);
  const current = (await findLinkById(deps.db, link.id)) ?? link;
  if (payment.status === 'completed' || payment.status === 'refunded')
    return { kind: 'captured', link: current, payment };
  // Answered, but not captured (the hold ran out or was released meanwhile): applied above.
  throw new ConnectorError(409, 'hold_released', `Payment ${uuid} is ${payment.status}: nothing was captured.`);
}

/**
 * A capture the gateway refused or found not made: nothing was taken and the hold is as it was
 * (unless the refusal says it is gone: the payment is read back and applied). The key is spent, so
 * a next capture gets its own. Noted once when a capture in doubt turns out not made.
 */
async function captureNotMade(
  deps: ConnectorDeps,
  connection: StoreConnection,
  link: OrderLink,
  error: unknown,
): Promise<void> {
  const uuid = link.hold_payment_uuid as string;
  const from: HoldState[] = ['capturing', 'capture_unknown'];
  const now = toStoredInstant(deps.clock.nowMs());
  const keySpent = !(error instanceof GatewayError && error.code === 'processor_unavailable');
  const moved = await moveHold(deps.db, link.id, uuid, from, 'authorized', {
    capture_amount: null,
    capture_attempt: keySpent ? link.capture_attempt + 1 : link.capture_attempt,
    hold_check_at: null,
    hold_checks: 0,
    updated_at: now,
  });
  if (moved && link.hold_state === 'capture_unknown') {
    await noteQuietly(
      deps,
      connection,
      link,
      `The capture of ${link.capture_amount ?? link.authorized_amount} ${link.currency} (gateway payment ${uuid}) did not go through: nothing was taken, and the card hold stands. Capture again from this order.`,
    );
  }
  // The hold may be gone (ran out, captured or released elsewhere): the gateway's word is applied.
  const payment = await gatewayCall(() => gatewayOf(deps, connection).getPayment(uuid)).catch(() => null);
  if (payment !== null) await applyPayment(deps, connection, link, payment);
}

/** The due work: captures whose outcome is unknown, asked about again with their key. */
export async function settleUnknownCaptures(
  deps: ConnectorDeps,
  connectionOf: (id: string) => Promise<StoreConnection | undefined>,
  limit: number,
): Promise<number> {
  let settled = 0;
  for (const link of await linksDueForHoldCheck(deps.db, toStoredInstant(deps.clock.nowMs()), limit)) {
    const connection = await connectionOf(link.connection_id);
    if (connection === undefined) continue;
    try {
      const outcome = await sendCapture(deps, connection, link.id);
      if (outcome.kind === 'captured') settled += 1;
    } catch (error) {
      settled += 1; // known not made: the hold is back to authorized and the owner told
      deps.logger.info(
        { connection_id: connection.id, order: link.store_order_id, err: String(error) },
        'a capture in doubt was found not made',
      );
    }
  }
  return settled;
}
