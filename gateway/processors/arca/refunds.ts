/**
 * ArCa refunds: `refund.do` (partial and repeated up to the payment), and a refund without an
 * answer settled by reading the order's refunded total back.
 */
import type { ProcessorCall, RefundAttempt, RefundRequest, RefundStatusRequest } from '../processor.js';
import { credentials, post, readOrder } from './client.js';
import type { ArcaConfig } from './config.js';
import { refundError, refundedMinorUnits, refundFinding, toMinorUnits } from './map.js';
import { refundAnswer, refundRequest } from './wire.js';

export const REFUND_TIMEOUT_MS = 20_000;
export const REFUND_STATUS_TIMEOUT_MS = 10_000;

export async function refund(call: ProcessorCall<ArcaConfig>, request: RefundRequest): Promise<RefundAttempt> {
  const orderId = request.session?.reference ?? null;
  // Without BPC's orderId nothing can be refunded (and nothing was sent).
  if (orderId === null) return { kind: 'declined', code: 'arca_no_order_id' };
  if (!Number.isSafeInteger(request.amount) || request.amount < 1)
    return { kind: 'declined', code: 'arca_amount_invalid' };
  const fields = refundRequest.safeParse({
    ...credentials(call.config),
    orderId,
    amount: toMinorUnits(request.amount),
  });
  if (!fields.success) return { kind: 'declined', code: 'arca_request_invalid' };
  const reply = await post(call, 'refund', fields.data, REFUND_TIMEOUT_MS);
  if (reply.kind === 'failed') return { kind: reply.reached ? 'unknown' : 'unavailable' };
  const parsed = refundAnswer.safeParse(reply.json);
  if (!parsed.success) return { kind: 'unknown' };
  switch (refundError(parsed.data.errorCode)) {
    case 'ok':
      // refund.do answers no id of its own: the refund is found under the order's orderId.
      return { kind: 'refunded', reference: orderId };
    case 'refused':
      return { kind: 'declined', code: `arca_error_${parsed.data.errorCode}` };
    case 'unknown':
      return { kind: 'unknown' };
  }
}

/**
 * What became of a refund that got no answer: the order's refunded total at the bank, against the
 * ledger's (the payment's refunded amount, which does not include this refund) plus this refund.
 */
export async function refundStatus(
  call: ProcessorCall<ArcaConfig>,
  request: RefundStatusRequest,
): Promise<RefundAttempt> {
  const session = request.session;
  if (session === null || session.reference === null) return { kind: 'declined', code: 'arca_no_order_id' };
  const read = await readOrder(call, request.payment, session, REFUND_STATUS_TIMEOUT_MS);
  if (read.kind === 'unreadable') return { kind: 'unavailable' };
  const refunded = refundedMinorUnits(read.answer);
  if (refunded === null) return { kind: 'unknown' };
  switch (refundFinding(refunded, request.payment.refundedAmount * 100, request.amount * 100)) {
    case 'refunded':
      return { kind: 'refunded', reference: session.reference };
    case 'not_refunded':
      return { kind: 'declined', code: 'arca_not_refunded' };
    case 'unknown':
      return { kind: 'unknown' };
  }
}
