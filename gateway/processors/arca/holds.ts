/**
 * ArCa holds: a `manual` payment is registered with `registerPreAuth.do` (adapter.ts); `deposit.do`
 * captures all or part of it, `reverse.do` releases it, and an unanswered one is settled by reading
 * the order back.
 */
import { DAY_MS } from '../../domain/clock.js';
import type { HoldAttempt, HoldFinding, HoldRequest, ProcessorCall } from '../processor.js';
import { credentials, post, readOrder } from './client.js';
import type { ArcaConfig } from './config.js';
import { holdCallError, holdStateOf, orderStatusOf, refundedMinorUnits, toMinorUnits } from './map.js';
import { depositRequest, refundAnswer, reverseRequest } from './wire.js';

export const CAPTURE_TIMEOUT_MS = 20_000;
export const RELEASE_TIMEOUT_MS = 20_000;
export const HOLD_STATUS_TIMEOUT_MS = 10_000;

/**
 * How long a hold may be captured: 7 days, the usual life of an e-commerce card hold (the issuer's,
 * not documented for ArCa). `reverse.do` works only until the end of the bank day of the payment
 * (BPC): a release later is refused and the hold lapses at the issuer.
 */
export const ARCA_HOLD_MS = 7 * DAY_MS;

/** Sends `deposit.do` (a capture, of `amount`) or `reverse.do` (a release) once; never retried. */
export async function holdCall(call: ProcessorCall<ArcaConfig>, request: HoldRequest): Promise<HoldAttempt> {
  const orderId = request.session?.reference ?? null;
  // Without BPC's orderId there is no order to capture or release (and nothing is sent).
  if (orderId === null) return { kind: 'declined', code: 'arca_no_order_id' };
  const capture = request.kind === 'capture';
  const fields = capture
    ? depositRequest.safeParse({ ...credentials(call.config), orderId, amount: toMinorUnits(request.amount) })
    : reverseRequest.safeParse({ ...credentials(call.config), orderId });
  if (!fields.success) return { kind: 'declined', code: 'arca_request_invalid' };
  const reply = await post(
    call,
    capture ? 'deposit' : 'reverse',
    fields.data,
    capture ? CAPTURE_TIMEOUT_MS : RELEASE_TIMEOUT_MS,
  );
  if (reply.kind === 'failed') return { kind: reply.reached ? 'unknown' : 'unavailable' };
  const parsed = refundAnswer.safeParse(reply.json);
  if (!parsed.success) return { kind: 'unknown' };
  switch (holdCallError(parsed.data.errorCode)) {
    case 'ok':
      // Neither answers an id of its own: the operation is found under the order's orderId.
      return { kind: 'done', reference: orderId };
    case 'refused':
      return { kind: 'declined', code: `arca_error_${parsed.data.errorCode}` };
    case 'unknown':
      return { kind: 'unknown' };
  }
}

/**
 * What became of a hold whose deposit or reversal got no answer: the order read back. Held
 * (`orderStatus` 1); captured (2, or 4 once refunded: `paymentAmountInfo.depositedAmount` plus the
 * refunded total, else the amount asked); released (3 reversed, 6 declined).
 */
export async function holdStatus(call: ProcessorCall<ArcaConfig>, request: HoldRequest): Promise<HoldFinding> {
  const session = request.session;
  if (session === null || session.reference === null) return { kind: 'unavailable', detail: 'no orderId' };
  const read = await readOrder(call, request.payment, session, HOLD_STATUS_TIMEOUT_MS);
  if (read.kind === 'unreadable') return { kind: 'unavailable', detail: read.detail };
  switch (holdStateOf(orderStatusOf(read.orderStatus))) {
    case 'held':
      return { kind: 'held' };
    case 'captured': {
      const deposited = read.answer.paymentAmountInfo?.depositedAmount;
      const minor =
        deposited === null || deposited === undefined ? null : deposited + (refundedMinorUnits(read.answer) ?? 0);
      return {
        kind: 'captured',
        amount: minor === null || minor <= 0 ? request.amount : Math.floor(minor / 100),
        reference: session.reference,
      };
    }
    case 'released':
      return { kind: 'released' };
    case 'unknown':
      return {
        kind: 'unavailable',
        detail: `getOrderStatusExtended.do: orderStatus ${read.orderStatus} is not a hold`,
      };
  }
}
