/**
 * Ameriabank holds (docs/processors.md "Ameriabank", "Holds"): on a terminal the bank set up for
 * two-stage payments, ConfirmPayment captures (whole or part) and CancelPayment releases; an
 * unanswered confirm or cancel is settled by reading the order back.
 */
import { HOUR_MS } from '../../domain/clock.js';
import { ProcessorCallError, type ProcessorReply } from '../http.js';
import type { HoldAttempt, HoldFinding, HoldRequest } from '../processor.js';
import { type Call, mismatch, parseJson, post, readDetails } from './client.js';
import { holdCallOutcome, holdState, toWireAmount } from './map.js';
import { refundPaymentAnswer } from './wire.js';

export const CAPTURE_TIMEOUT_MS = 20_000;
export const RELEASE_TIMEOUT_MS = 20_000;
export const HOLD_STATUS_TIMEOUT_MS = 10_000;

/**
 * How long a hold may be captured: CancelPayment works "within 72 hours after the payment"
 * (manual), so the gateway lets a hold be captured for 71 hours and releases it then, while the
 * bank still takes the release.
 */
export const AMERIA_HOLD_MS = 71 * HOUR_MS;

/** A capture's or release's reference: the bank's PaymentID with the gateway's operation id (the bank answers none). */
export function ameriaHoldReference(paymentId: string, operationId: string): string {
  return `${paymentId.toUpperCase()}/${operationId}`;
}

/** Sends ConfirmPayment (a capture) or CancelPayment (a release) once; never retried. */
export async function holdCall(call: Call, request: HoldRequest): Promise<HoldAttempt> {
  const paymentId = request.session?.reference ?? null;
  // Never registered at the bank: there is no hold there, and nothing is sent.
  if (paymentId === null) return { kind: 'unavailable' };
  const credentials = { PaymentID: paymentId, Username: call.config.username, Password: call.config.password };
  const capture = request.kind === 'capture';
  let reply: ProcessorReply;
  try {
    reply = capture
      ? await post(call, 'ConfirmPayment', { ...credentials, Amount: toWireAmount(request.amount) }, CAPTURE_TIMEOUT_MS)
      : await post(call, 'CancelPayment', credentials, RELEASE_TIMEOUT_MS);
  } catch (error) {
    return error instanceof ProcessorCallError && !error.reached ? { kind: 'unavailable' } : { kind: 'unknown' };
  }
  // Something reached the bank: from here on, anything but a clear answer is an unknown outcome.
  if (reply.status !== 200) return { kind: 'unknown' };
  const answer = refundPaymentAnswer.safeParse(parseJson(reply.body));
  if (!answer.success) return { kind: 'unknown' };
  switch (holdCallOutcome(answer.data.ResponseCode, capture ? 'confirm' : 'cancel')) {
    case 'done':
      return { kind: 'done', reference: ameriaHoldReference(paymentId, request.operationId) };
    case 'declined':
      return { kind: 'declined', code: answer.data.ResponseCode };
    case 'unknown':
      return { kind: 'unknown' };
  }
}

/**
 * What became of a hold whose confirm or cancel got no answer, read back (GetPaymentDetails):
 * still held ("1"), captured ("2", or "4" once refunded: what was taken is `DepositedAmount` plus
 * `RefundedAmount`), released ("3", "6"). A failed read, or one about another order, concludes
 * nothing.
 */
export async function holdStatus(call: Call, request: HoldRequest): Promise<HoldFinding> {
  const session = request.session;
  if (session === null || session.reference === null) return { kind: 'unavailable', detail: 'no PaymentID' };
  const read = await readDetails(call, session.reference, HOLD_STATUS_TIMEOUT_MS);
  if (read.kind !== 'details') return { kind: 'unavailable', detail: read.detail };
  const details = read.details;
  if (details.ResponseCode !== '00') {
    return { kind: 'unavailable', detail: `GetPaymentDetails answered ResponseCode ${details.ResponseCode}` };
  }
  const wrong = mismatch(details, session);
  if (wrong !== undefined) return { kind: 'unavailable', detail: wrong };
  switch (holdState(details.OrderStatus)) {
    case 'held':
      return { kind: 'held' };
    case 'captured': {
      const luma = Math.round((details.DepositedAmount ?? 0) * 100) + Math.round(details.RefundedAmount * 100);
      return {
        kind: 'captured',
        amount: Math.floor(luma / 100),
        reference: ameriaHoldReference(session.reference, request.operationId),
      };
    }
    case 'released':
      return { kind: 'released' };
    case 'unknown':
      return { kind: 'unavailable', detail: `GetPaymentDetails answered OrderStatus ${details.OrderStatus}` };
  }
}
