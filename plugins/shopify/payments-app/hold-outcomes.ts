/**
 * What the gateway's answer to a capture or a void means for Shopify's capture or void session
 * (docs/decisions.md "Shopify: authorizations, captures and voids"): a decision (resolve, or reject
 * with a reason of `CaptureSessionStatusReasonRejectionCode` / `VoidSessionStatusReasonRejectionCode`
 * and the gateway's words in `merchantMessage`), or "ask again later" with the same idempotency key
 * when the outcome is not known (no answer, a 5xx, `capture_outcome_unknown`, an operation in flight,
 * the processor not reached). Pure: the caller makes the calls.
 */
import { ConnectorError } from '../../../connector/errors.js';
import { GatewayError, type GatewayPayment } from '../../../connector/gateway-client/client.js';
import type { Resolution } from './payment-sessions.js';

/**
 * `decide`: tell Shopify; `later`: ask the gateway again with the same key; `person`: neither answer
 * would be true (the money taken is not what Shopify asks about), so the session is left for a
 * person, on the connection's health.
 */
export type HoldStep = { decide: Resolution } | { later: string } | { person: string };

/** What the gateway said: the payment after the call, or the error (with the payment read back, if it was). */
export type HoldAnswer = { payment: GatewayPayment } | { error: unknown; readBack?: GatewayPayment };

/** Gateway codes whose operation may still be made (or was made): asked again, never decided. */
const NOT_KNOWN_YET = new Set([
  'capture_outcome_unknown',
  'void_outcome_unknown',
  'hold_operation_in_progress',
  'processor_unavailable',
  'conflict',
]);

const reject = (message: string, code = 'PROCESSING_ERROR'): HoldStep => ({
  decide: { action: 'reject', code, message: message.slice(0, 500) },
});
const RESOLVE: HoldStep = { decide: { action: 'resolve' } };

/** Whether the error leaves the outcome unknown (ask again), as opposed to a refusal. */
export function outcomeNotKnown(error: unknown): boolean {
  if (error instanceof ConnectorError) return false;
  if (!(error instanceof GatewayError)) return true;
  return error.retryable || NOT_KNOWN_YET.has(error.code);
}

/** The gateway error's code, or a placeholder. */
const codeOf = (error: unknown) => (error instanceof GatewayError ? error.code : 'error');
const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

/** A capture of `amountAmd` (Shopify's capture session amount). */
export function captureStep(answer: HoldAnswer, amountAmd: number): HoldStep {
  if ('payment' in answer) {
    if (answer.payment.status === 'completed' || answer.payment.status === 'refunded') return RESOLVE;
    return { later: `the capture answered the payment ${answer.payment.status}` };
  }
  const { error, readBack } = answer;
  if (outcomeNotKnown(error)) return { later: `${codeOf(error)}: ${messageOf(error)}` };
  switch (codeOf(error)) {
    case 'authorization_expired':
      return reject(
        `The hold ran out before it was captured; nothing was taken. (${messageOf(error)})`,
        'AUTHORIZATION_EXPIRED',
      );
    case 'capture_declined':
      return reject(`The processor declined the capture; nothing was taken and the hold stands. (capture_declined)`);
    case 'amount_exceeds_authorized':
      return reject(`The capture is more than the card holds; nothing was taken. (amount_exceeds_authorized)`);
    case 'payment_not_authorized': {
      // Captured already (from the gateway's dashboard, or by an earlier call): the money Shopify asks for is taken.
      if (readBack?.status === 'completed' && readBack.amount === amountAmd) return RESOLVE;
      if ((readBack?.status === 'completed' || readBack?.status === 'refunded') && readBack.amount !== amountAmd) {
        // Money was taken, but not what Shopify asks for: rejecting would say nothing was taken.
        return {
          person: `The gateway payment was captured for ${readBack.amount} AMD elsewhere (the gateway's dashboard?), not the ${amountAmd} AMD of this capture: settle the order in Shopify by hand.`,
        };
      }
      const status = readBack?.status ?? 'not authorized';
      if (readBack?.status === 'expired' && readBack.failure_code === 'authorization_expired') {
        return reject('The hold ran out before it was captured; nothing was taken.', 'AUTHORIZATION_EXPIRED');
      }
      return reject(`The gateway payment is ${status}: there is no hold to capture. (payment_not_authorized)`);
    }
    default:
      return reject(`The gateway refused the capture: ${messageOf(error)} (${codeOf(error)})`);
  }
}

/** A void (the release of the whole hold). */
export function voidStep(answer: HoldAnswer): HoldStep {
  if ('payment' in answer) {
    if (answer.payment.status === 'expired') return RESOLVE;
    return { later: `the void answered the payment ${answer.payment.status}` };
  }
  const { error, readBack } = answer;
  if (outcomeNotKnown(error)) return { later: `${codeOf(error)}: ${messageOf(error)}` };
  switch (codeOf(error)) {
    // The hold ran out: the gateway releases it and never captures it; nothing is held any more.
    case 'authorization_expired':
      return RESOLVE;
    case 'void_declined':
      return reject('The processor declined to release the hold; it runs out by itself. (void_declined)');
    case 'payment_not_authorized': {
      if (readBack?.status === 'expired') return RESOLVE;
      if (readBack?.status === 'completed' || readBack?.status === 'refunded') {
        return reject(
          'The payment was captured at the gateway: nothing to release; refund it instead. (payment_not_authorized)',
        );
      }
      return reject(`The gateway payment is ${readBack?.status ?? 'not authorized'}: there is no hold to release.`);
    }
    default:
      return reject(`The gateway refused the void: ${messageOf(error)} (${codeOf(error)})`);
  }
}
