/**
 * Pure mapping between Telcell's words and the core's: invoice statuses to payment and refund
 * outcomes, amounts, the order number as `issuer_id`, the page language.
 */
import type { FailureCode } from '../../domain/payment-lifecycle.js';
import type { ProcessorLanguage } from '../processor.js';
import { base64Text, decodeBase64Text, type TelcellLanguage } from './wire.js';

/**
 * Invoice statuses as Telcell's shop manual lists them (Appendix A, via arm092/omnipay-telcell
 * Gateway.php), with the other spelling of "cancelled" another client checks for.
 */
export const TELCELL_INVOICE_STATUSES = [
  'NEW',
  'PAID',
  'REJECTED',
  'EXPIRED',
  'CANCELLED',
  'CANCELED',
  'CANCELLED FOR REPEAT',
  'CANCELED FOR REPEAT',
] as const;
export type TelcellInvoiceStatus = (typeof TELCELL_INVOICE_STATUSES)[number];

function knownStatus(status: string): TelcellInvoiceStatus | null {
  return (TELCELL_INVOICE_STATUSES as readonly string[]).includes(status) ? (status as TelcellInvoiceStatus) : null;
}

/**
 * What an invoice's status says about the payment. `pending` carries the failure code the payment
 * keeps should it stay unpaid until it expires.
 */
export type InvoiceOutcome =
  | { readonly kind: 'paid' }
  | { readonly kind: 'declined'; readonly failureCode: FailureCode }
  | { readonly kind: 'pending'; readonly failureCode: FailureCode };

export function invoiceOutcome(status: string): InvoiceOutcome {
  const known = knownStatus(status);
  if (known === null) {
    // An unknown status: not paid, not refused either; keep asking.
    return { kind: 'pending', failureCode: 'general_failure' };
  }
  switch (known) {
    case 'PAID':
      return { kind: 'paid' };
    case 'NEW':
      // Issued, not paid yet: if it stays so, the payment expires.
      return { kind: 'pending', failureCode: 'transaction_expired' };
    case 'REJECTED':
      // The buyer refused the invoice in the wallet.
      return { kind: 'declined', failureCode: 'declined' };
    case 'EXPIRED':
      return { kind: 'declined', failureCode: 'transaction_expired' };
    case 'CANCELLED':
    case 'CANCELED':
      // Cancelled by Telcell's staff (or by the shop's own cancel_bill).
      return { kind: 'declined', failureCode: 'general_failure' };
    case 'CANCELLED FOR REPEAT':
    case 'CANCELED FOR REPEAT':
      // Replaced by a newer invoice for the same order (the buyer started again), which may yet be
      // paid: not a decline of the payment.
      return { kind: 'pending', failureCode: 'transaction_expired' };
  }
}

/** What an invoice's status says about a refund (`cancel_bill`) of it. */
export type CancelOutcome = 'cancelled' | 'not_cancelled' | 'unknown';

export function cancelOutcome(status: string): CancelOutcome {
  const known = knownStatus(status);
  if (known === null) return 'unknown';
  switch (known) {
    case 'CANCELLED':
    case 'CANCELED':
      return 'cancelled';
    case 'PAID':
    case 'NEW':
    case 'REJECTED':
    case 'EXPIRED':
    case 'CANCELLED FOR REPEAT':
    case 'CANCELED FOR REPEAT':
      return 'not_cancelled';
  }
}

/** PostInvoice's `price`: whole AMD, digits only (the core's amounts are whole AMD already). */
export function toWirePrice(amount: number): string {
  if (!Number.isSafeInteger(amount) || amount < 1) throw new RangeError('a Telcell price is a positive whole AMD');
  return String(amount);
}

/**
 * A `sum` Telcell sends back (`1500`, `1500.00`) in whole AMD; null when it is not a number or
 * has a fraction of a dram.
 */
export function fromWireSum(sum: string): number | null {
  const match = /^(\d+)(?:\.(\d{1,2}))?$/.exec(sum.trim());
  if (match === null) return null;
  if (match[2] !== undefined && !/^0+$/.test(match[2])) return null;
  const amount = Number(match[1]);
  return Number.isSafeInteger(amount) ? amount : null;
}

/** PostInvoice's `issuer_id`: base64 of our order number. */
export function toIssuerId(orderNumber: string): string {
  return base64Text(orderNumber);
}

/** The order numbers this adapter sends: the payment's uuid without dashes. */
const ORDER_NUMBER = /^[0-9a-fA-F]{32}$/;

/**
 * The order number an `issuer_id` (or a return's `order`) names. Telcell's sources disagree on
 * whether it comes back as sent (base64) or decoded; both are read. Our order numbers are 32 hex
 * digits and their base64 is 44 characters, so the two forms cannot be confused.
 */
export function readOrderNumber(value: string): string | null {
  if (ORDER_NUMBER.test(value)) return value;
  const decoded = decodeBase64Text(value);
  return decoded !== null && ORDER_NUMBER.test(decoded) ? decoded : null;
}

export function telcellLanguage(language: ProcessorLanguage): TelcellLanguage {
  switch (language) {
    case 'hy':
      return 'am';
    case 'ru':
      return 'ru';
    case 'en':
      return 'en';
  }
}
