/**
 * Ameriabank refunds: RefundPayment (full or partial, repeatable), and a refund whose answer was
 * lost found by comparing the bank's cumulative `RefundedAmount` with what the gateway had counted.
 */
import { ProcessorCallError, type ProcessorReply } from '../http.js';
import type { RefundAttempt, RefundRequest, RefundStatusRequest } from '../processor.js';
import { type Call, mismatch, parseJson, post, readDetails } from './client.js';
import { refundOutcome } from './codes.js';
import { refundReadBack, toWireAmount } from './map.js';
import { type RefundPaymentRequest, refundPaymentAnswer } from './wire.js';

export const REFUND_TIMEOUT_MS = 20_000;
export const REFUND_STATUS_TIMEOUT_MS = 10_000;

/**
 * RefundPayment answers no id of its own: a refund's reference is the bank's PaymentID with the
 * gateway's refund uuid, so the same one comes out of a refund and of its status check.
 */
export function ameriaRefundReference(paymentId: string, refundId: string): string {
  return `${paymentId.toUpperCase()}/${refundId}`;
}

export async function refund(call: Call, request: RefundRequest): Promise<RefundAttempt> {
  const paymentId = request.session?.reference ?? null;
  // Never registered at the bank: nothing to refund there, and nothing is sent.
  if (paymentId === null) return { kind: 'unavailable' };
  const body: RefundPaymentRequest = {
    PaymentID: paymentId,
    Username: call.config.username,
    Password: call.config.password,
    Amount: toWireAmount(request.amount),
  };
  let reply: ProcessorReply;
  try {
    reply = await post(call, 'RefundPayment', body, REFUND_TIMEOUT_MS);
  } catch (error) {
    return error instanceof ProcessorCallError && !error.reached ? { kind: 'unavailable' } : { kind: 'unknown' };
  }
  // Something reached the bank: from here on, anything but a clear answer is an unknown outcome.
  if (reply.status !== 200) return { kind: 'unknown' };
  const answer = refundPaymentAnswer.safeParse(parseJson(reply.body));
  if (!answer.success) return { kind: 'unknown' };
  switch (refundOutcome(answer.data.ResponseCode)) {
    case 'refunded':
      return { kind: 'refunded', reference: ameriaRefundReference(paymentId, request.refundId) };
    case 'declined':
      return { kind: 'declined', code: answer.data.ResponseCode };
    case 'unknown':
      return { kind: 'unknown' };
  }
}

/**
 * A refund whose answer was lost, read back from the bank's cumulative `RefundedAmount`: refunded
 * once it covers what the gateway had counted before (`payment.refundedAmount`) plus this refund;
 * not made (declined) while it is no more than that count; asked again while in between.
 */
export async function refundStatus(call: Call, request: RefundStatusRequest): Promise<RefundAttempt> {
  const session = request.session;
  // A refund is only sent with a PaymentID: without one, none was made.
  if (session === null || session.reference === null) return { kind: 'declined', code: 'not_registered' };
  const read = await readDetails(call, session.reference, REFUND_STATUS_TIMEOUT_MS);
  if (read.kind !== 'details') return { kind: 'unavailable' };
  const details = read.details;
  if (details.ResponseCode !== '00' || mismatch(details, session) !== undefined) return { kind: 'unavailable' };
  switch (refundReadBack(details.RefundedAmount, request.payment.refundedAmount, request.amount)) {
    case 'refunded':
      return { kind: 'refunded', reference: ameriaRefundReference(session.reference, request.refundId) };
    case 'not_made':
      return { kind: 'declined', code: 'not_refunded' };
    case 'unclear':
      return { kind: 'unknown' };
  }
}
