/**
 * What the checkout needs from a processor. Each processor lives in its own folder beside this
 * file: `adapter.ts` (HTTP and auth with the remote), `wire.ts` (the remote's exact shapes),
 * `map.ts` (pure mapping to the core's types), and `webhook.ts` where the remote calls back.
 */
import type { Payment } from '../domain/payment.js';

/** What the gateway asks a processor to refund: (part of) one paid payment. */
export interface RefundRequest {
  /** The gateway's refund uuid: the idempotency reference a processor's API should be given. */
  readonly refundId: string;
  readonly payment: Payment;
  /** Whole AMD, at least 1, at most what remains refundable. */
  readonly amount: number;
  readonly reason: string | null;
}

/** A refund whose outcome is asked about later; carries the processor's reference when it gave one. */
export interface RefundStatusRequest extends RefundRequest {
  readonly processorReference: string | null;
}

/**
 * What a processor answered about a refund. Like a payment decline, a refused refund is data, not
 * an exception.
 *
 * - `refunded`: the money goes back to the buyer.
 * - `declined`: the processor refused; nothing was refunded. A status check answers it too when the
 *   processor has no such refund.
 * - `unavailable`: the processor could not be reached and we know nothing reached it. From a status
 *   check: the check itself could not be made (the outcome stays unknown).
 * - `unknown`: no answer (a timeout, a broken connection): the refund may or may not have been made.
 */
export type RefundAttempt =
  | { readonly kind: 'refunded'; readonly reference: string }
  | { readonly kind: 'declined'; readonly code?: string }
  | { readonly kind: 'unavailable' }
  | { readonly kind: 'unknown' };

export interface Processor {
  readonly slug: string;
  /** The name the buyer sees on the checkout's list of methods. */
  readonly displayName: string;
  /** Where the buyer goes to pay once this processor is chosen for the payment. */
  paymentPageUrl(payment: Payment, publicUrl: string): string;
  /**
   * Refunds (part of) a paid payment. Absent when the processor cannot refund through its API
   * (`refund_not_supported`). Called once per refund and never retried: an adapter must answer
   * within a few seconds (well under a minute, when status checks of pending refunds start), and
   * answer `unknown` rather than guess when it got no answer.
   */
  refund?(request: RefundRequest): Promise<RefundAttempt>;
  /** Asks what became of a refund whose outcome is unknown. Never sends the refund again. */
  refundStatus?(request: RefundStatusRequest): Promise<RefundAttempt>;
  /**
   * Whether this payment can be refunded through the API (a processor may take payments by methods
   * it cannot refund). Absent: every payment of a processor that has `refund`.
   */
  canRefund?(payment: Payment): boolean;
}
