/**
 * The sandbox's card table (spec "Sandbox card outcomes"), as pure data: which test card number
 * gives which outcome. Any other 16-digit number is approved; expiry, CVV and name are not checked.
 */
import type { FailureCode } from '../../domain/payment-lifecycle.js';

export type SandboxOutcome =
  | { readonly kind: 'approved' }
  | { readonly kind: 'declined'; readonly failureCode: FailureCode }
  /** The processor does not answer: the payment stays processing (and expires unless confirmed late). */
  | { readonly kind: 'no_answer'; readonly failureCode: 'processor_timeout' };

export const SANDBOX_CARDS: Readonly<Record<string, SandboxOutcome>> = {
  '4111111111111111': { kind: 'approved' },
  '4000000000000002': { kind: 'declined', failureCode: 'declined' },
  '4000000000000069': { kind: 'declined', failureCode: 'insufficient_funds' },
  '4000000000000119': { kind: 'no_answer', failureCode: 'processor_timeout' },
  '4000000000000101': { kind: 'declined', failureCode: '3ds_failed' },
  '4000000000000127': { kind: 'declined', failureCode: 'amount_limit_exceeded' },
  '4000000000000200': { kind: 'declined', failureCode: 'duplicate_transaction' },
  '4000000000000259': { kind: 'declined', failureCode: 'transaction_expired' },
  '4000000000000309': { kind: 'declined', failureCode: 'processor_unavailable' },
  '4000000000000341': { kind: 'declined', failureCode: 'general_failure' },
};

/**
 * What a sandbox payment does when it is refunded, decided by the card that paid it. These cards
 * are not in the spec's table: they pay like any other approved number, and behave specially only
 * when the payment is refunded. Only the last four digits are kept with a payment, so the outcome
 * is looked up by them: any card ending in these four digits behaves the same.
 */
export type SandboxRefundOutcome =
  | { readonly kind: 'refunded' }
  /** The processor refuses the refund. */
  | { readonly kind: 'declined' }
  /** The processor cannot be reached for refunds (nothing is sent); status checks cannot reach it either. */
  | { readonly kind: 'unavailable' }
  /** The refund gets no answer; a later status check finds it refunded. */
  | { readonly kind: 'no_answer' }
  /** The payment was made with a method that cannot be refunded through the API. */
  | { readonly kind: 'not_supported' };

export const SANDBOX_REFUND_CARDS: Readonly<Record<string, SandboxRefundOutcome>> = {
  '4000000000005126': { kind: 'declined' },
  '4000000000005134': { kind: 'unavailable' },
  '4000000000005142': { kind: 'no_answer' },
  '4000000000005159': { kind: 'not_supported' },
};

const REFUND_OUTCOME_BY_LAST4: ReadonlyMap<string, SandboxRefundOutcome> = new Map(
  Object.entries(SANDBOX_REFUND_CARDS).map(([digits, outcome]) => [digits.slice(-4), outcome]),
);

/** The refund outcome of a sandbox payment paid by a card ending in `cardLast4` (null: paid without a card). */
export function sandboxRefundOutcome(cardLast4: string | null): SandboxRefundOutcome {
  return (cardLast4 === null ? undefined : REFUND_OUTCOME_BY_LAST4.get(cardLast4)) ?? { kind: 'refunded' };
}

/**
 * What a sandbox hold does (docs/api.md "Test cards for holds"), decided by the card that authorized
 * it. These cards authorize a `manual` payment like any approved number (and pay an `automatic`
 * one); only the last four digits are kept, so any card ending in these digits behaves the same.
 */
export type SandboxHoldOutcome =
  /** Captured and released as asked. */
  | { readonly kind: 'approved' }
  /** The capture is declined: the hold stays, and may be voided (or runs out). */
  | { readonly kind: 'capture_declined' }
  /** The hold runs out at once (`capture_before` is the authorization's instant): the expiry job releases it. */
  | { readonly kind: 'expired_hold' }
  /** The capture and the release get no answer; a status check later finds them done. */
  | { readonly kind: 'no_answer' };

export const SANDBOX_HOLD_CARDS: Readonly<Record<string, SandboxHoldOutcome>> = {
  '4000000000006017': { kind: 'capture_declined' },
  '4000000000006025': { kind: 'expired_hold' },
  '4000000000006033': { kind: 'no_answer' },
};

const HOLD_OUTCOME_BY_LAST4: ReadonlyMap<string, SandboxHoldOutcome> = new Map(
  Object.entries(SANDBOX_HOLD_CARDS).map(([digits, outcome]) => [digits.slice(-4), outcome]),
);

/** The hold outcome of a sandbox payment authorized by a card ending in `cardLast4`. */
export function sandboxHoldOutcome(cardLast4: string | null): SandboxHoldOutcome {
  return (cardLast4 === null ? undefined : HOLD_OUTCOME_BY_LAST4.get(cardLast4)) ?? { kind: 'approved' };
}

export type CardNumberCheck =
  | { readonly ok: true; readonly digits: string }
  | { readonly ok: false; readonly reason: string };

/** Accepts 16 digits, with spaces (or dashes) between groups as buyers type them. */
export function readCardNumber(input: unknown): CardNumberCheck {
  if (typeof input !== 'string') return { ok: false, reason: 'Enter the 16-digit card number.' };
  const digits = input.replace(/[\s-]/g, '');
  if (!/^\d{16}$/.test(digits)) return { ok: false, reason: 'The card number must have 16 digits.' };
  return { ok: true, digits };
}

export function sandboxOutcome(digits: string): SandboxOutcome {
  return SANDBOX_CARDS[digits] ?? { kind: 'approved' };
}
