/**
 * Holds (docs/decisions.md "Holds"), pure rules: how a `manual` payment's hold ends, and what a
 * capture may take. A payment created with `capture_method: manual` becomes `authorized` when the
 * processor holds its amount; a capture makes it `completed` for the captured amount, a void or a
 * hold that runs out makes it `expired` with one of the failure codes below, and the order is free
 * again.
 */
import type { Payment } from './payment.js';

/** `failure_code` of a payment whose hold the merchant voided. */
export const VOIDED = 'voided';
/** `failure_code` of a payment whose hold ran out (`capture_before` passed) or that the processor released on its own. */
export const AUTHORIZATION_EXPIRED = 'authorization_expired';

/** The failure codes of a hold the gateway released: such a payment is never authorized again by a late answer. */
export const RELEASED_HOLD_CODES: readonly string[] = [VOIDED, AUTHORIZATION_EXPIRED];

/** Whether the hold is past its deadline at `nowMs` (it may no longer be captured). */
export function holdRanOut(payment: Pick<Payment, 'captureBefore'>, nowMs: number): boolean {
  return payment.captureBefore !== null && Date.parse(payment.captureBefore) <= nowMs;
}

/**
 * Why `requested` (undefined: the whole hold) cannot be captured from a hold of `authorized` AMD;
 * null when it can. A payment priced in another currency is captured whole: its price (10 USD)
 * could not say what part was taken.
 */
export function captureAmountProblem(
  requested: number | undefined,
  authorized: number,
  options: { readonly partial: boolean; readonly converted: boolean },
): 'exceeds' | 'partial_not_supported' | 'converted' | null {
  if (requested === undefined || requested === authorized) return null;
  if (requested > authorized) return 'exceeds';
  if (options.converted) return 'converted';
  if (!options.partial) return 'partial_not_supported';
  return null;
}
