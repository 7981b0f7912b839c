/**
 * The payment state machine (spec "States and transitions"). Every transition is applied as a
 * conditional update from exactly these statuses, so of two competing writers (a buyer and the
 * expiry job, two instances, a repeated confirmation) exactly one wins.
 */
import type { PaymentStatus } from './payment.js';

export const TRANSITIONS = {
  /** The buyer chose a payment method and goes to the provider. */
  start_processing: { from: ['pending'], to: 'processing' },
  /** The provider says paid. */
  complete: { from: ['processing'], to: 'completed' },
  /** The provider says not paid. */
  fail: { from: ['processing'], to: 'failed' },
  /** 20 minutes after creation, unpaid. */
  expire: { from: ['pending', 'processing'], to: 'expired' },
  /** The provider confirms a payment that had already failed or expired. */
  confirm_late: { from: ['failed', 'expired'], to: 'completed' },
  /** A `manual` payment: the provider holds the amount on the card. */
  authorize: { from: ['processing'], to: 'authorized' },
  /** The provider holds a `manual` payment that had already failed or expired (never one the gateway released). */
  authorize_late: { from: ['failed', 'expired'], to: 'authorized' },
  /** The merchant's capture of a hold succeeded. */
  capture: { from: ['authorized'], to: 'completed' },
  /** The hold was released: voided by the merchant, or run out (docs/decisions.md "Holds"). */
  release: { from: ['authorized'], to: 'expired' },
} as const satisfies Record<string, { from: readonly PaymentStatus[]; to: PaymentStatus }>;

export type Transition = keyof typeof TRANSITIONS;

/** Statuses that emit `transaction.status.updated` (`authorized` is not final: it emits `payment.authorized`). */
export const FINAL_STATUSES: readonly PaymentStatus[] = ['completed', 'failed', 'expired'];

/** Statuses in which a payment holds its order (see storage/payment.table.ts `active_order_id`). */
export function holdsOrder(status: PaymentStatus): boolean {
  return (
    status === 'pending' ||
    status === 'processing' ||
    status === 'authorized' ||
    status === 'completed' ||
    status === 'refunded'
  );
}

export function canApply(transition: Transition, from: PaymentStatus): boolean {
  return (TRANSITIONS[transition].from as readonly PaymentStatus[]).includes(from);
}

/**
 * A payment's environment is fixed at creation (docs/decisions.md "Live and test payments"): a
 * sandbox payment is paid through the sandbox only, and a live payment never through the sandbox,
 * so no test card can pay a live payment and nothing turns a live payment into a test one.
 */
export function processorFitsEnvironment(payment: { readonly sandbox: boolean }, processor: string): boolean {
  return payment.sandbox === (processor === 'sandbox');
}

/** Why a payment was not paid. Recorded on the payment as `failure_code`. */
export const FAILURE_CODES = [
  'declined',
  'insufficient_funds',
  'processor_timeout',
  '3ds_failed',
  'amount_limit_exceeded',
  'duplicate_transaction',
  'transaction_expired',
  'processor_unavailable',
  'general_failure',
] as const;
export type FailureCode = (typeof FAILURE_CODES)[number];

/**
 * What a processor answered about a payment. A decline is data, not an exception. `pending` means
 * the processor did not say (a timeout): the payment stays processing until a later answer or
 * its expiry. `authorized` (only for a `manual` payment) means the amount is held on the card, to
 * be captured within `holdMs` from now.
 */
export type ProviderResult =
  | {
      readonly kind: 'paid';
      readonly rrn: string;
      readonly cardLast4: string | null;
      /** The processor that took the money, for a payment confirmed before a method was chosen. */
      readonly processor?: string;
    }
  | {
      readonly kind: 'authorized';
      readonly rrn: string;
      readonly cardLast4: string | null;
      /** How long the gateway lets the hold be captured (the processor's hold window). */
      readonly holdMs: number;
      readonly processor?: string;
    }
  | { readonly kind: 'declined'; readonly failureCode: FailureCode; readonly cardLast4: string | null }
  | { readonly kind: 'pending'; readonly failureCode: FailureCode; readonly cardLast4: string | null };
