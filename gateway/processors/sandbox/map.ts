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
