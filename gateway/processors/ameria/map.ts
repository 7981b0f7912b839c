/**
 * Ameriabank vPOS 3.x to the core's terms, as pure functions: languages, amounts, the order status
 * (`OrderStatus`, manual's Table 2), hold answers and refund read-backs; the codes of the manual's
 * Table 1 are codes.ts. Every known value is listed in an exhaustive switch; an unknown value maps
 * to an explicit unknown (for a payment: keep asking), never to paid or declined by guess.
 */
import type { ProcessorLanguage } from '../processor.js';
import { ameriaCode, refundOutcome } from './codes.js';

/** The payment page's `lang`: Armenian is `am`, not `hy`. */
export function ameriaLanguage(language: ProcessorLanguage): 'am' | 'ru' | 'en' {
  switch (language) {
    case 'hy':
      return 'am';
    case 'ru':
      return 'ru';
    case 'en':
      return 'en';
  }
}

/**
 * The core's whole drams to the wire's `Amount`: the bank takes major units (10 is 10 AMD), so
 * the number is sent as it is; anything but a positive whole number is refused here.
 */
export function toWireAmount(amd: number): number {
  if (!Number.isSafeInteger(amd) || amd < 1) throw new RangeError('an AMD amount is a whole number of at least 1');
  return amd;
}

/** A wire amount (a JSON float in drams) in luma (hundredths), for exact comparisons. */
export function wireLuma(amount: number): number {
  return Math.round(amount * 100);
}

/** Whether a wire amount (drams, as a float) is exactly `amd` whole drams. */
export function isWireAmount(amount: number, amd: number): boolean {
  return wireLuma(amount) === amd * 100;
}

/** The last four digits of the bank's card mask (`408306**3143`); null when it shows none. */
export function cardLast4FromMask(mask: string): string | null {
  const match = /(\d{4})$/.exec(mask.trim());
  return match === null ? null : (match[1] as string);
}

export const ORDER_STATUSES = ['0', '1', '2', '3', '4', '5', '6'] as const;
export type OrderStatus = (typeof ORDER_STATUSES)[number];

function isOrderStatus(value: string): value is OrderStatus {
  return (ORDER_STATUSES as readonly string[]).includes(value);
}

/**
 * What an `OrderStatus` (with `ResponseCode` "00") says about the money:
 *
 * - `paid`: deposited ("2"), or refunded since ("4", also after a partial refund): it was paid;
 * - `declined`: authorisation declined ("6") or reversed ("3", void);
 * - `pending`: registered ("0"), held by a two-stage client ("1", never confirmed by us: not
 *   money we took), at the issuer's ACS ("5"), or a status we do not know.
 */
export type OrderOutcome = 'paid' | 'declined' | 'pending';

export function orderOutcome(orderStatus: string): OrderOutcome {
  if (!isOrderStatus(orderStatus)) return 'pending';
  switch (orderStatus) {
    case '0': // payment_started
    case '1': // payment_approved (pre-authorised, two-stage)
    case '5': // payment_autoauthorized (authorisation at the issuer's ACS)
      return 'pending';
    case '2': // payment_deposited
    case '4': // payment_refunded
      return 'paid';
    case '3': // payment_void
    case '6': // payment_declined
      return 'declined';
  }
}

/**
 * Whether an `OrderStatus` is a held two-stage payment: "1", payment_approved ("the order amount
 * was pre-authorised", manual's Table 2), neither confirmed (deposited, "2") nor cancelled ("3").
 */
export function isHeld(orderStatus: string): boolean {
  return orderStatus === '1';
}

/**
 * What a hold read back (GetPaymentDetails, "00") says: held ("1"), captured ("2", or "4" when
 * refunded since), released ("3" void; "6" declined), or nothing about a hold (registered, at the
 * ACS, a status we do not know).
 */
export type HoldState = 'held' | 'captured' | 'released' | 'unknown';

export function holdState(orderStatus: string): HoldState {
  if (!isOrderStatus(orderStatus)) return 'unknown';
  switch (orderStatus) {
    case '1':
      return 'held';
    case '2':
    case '4':
      return 'captured';
    case '3':
    case '6':
      return 'released';
    case '0':
    case '5':
      return 'unknown';
  }
}

/**
 * What a ConfirmPayment or CancelPayment answer says was done: `done` on "00"; `declined` on a
 * refusal after which nothing changed (as for a refund, plus "514", no reversal permission, for a
 * cancel; "07" is also the bank's "Reversal is impossible for current transaction state"); else
 * `unknown`, left to the read-back.
 */
export function holdCallOutcome(responseCode: string, call: 'confirm' | 'cancel'): 'done' | 'declined' | 'unknown' {
  if (call === 'cancel' && ameriaCode(responseCode) === '514') return 'declined';
  switch (refundOutcome(responseCode)) {
    case 'refunded':
      return 'done';
    case 'declined':
      return 'declined';
    case 'unknown':
      return 'unknown';
  }
}

/**
 * What the bank's cumulative `RefundedAmount` says about one refund whose answer was lost, given
 * what the gateway had already counted as refunded before it (`before`) and the refund's `amount`
 * (whole drams):
 *
 * - `refunded`: the bank's total covers what we knew plus this refund;
 * - `not_made`: the bank's total is no more than what we knew: this refund was not made;
 * - `unclear`: in between (another refund moved the total, or part of one): ask again later.
 */
export type RefundReadBack = 'refunded' | 'not_made' | 'unclear';

export function refundReadBack(refundedAmount: number, before: number, amount: number): RefundReadBack {
  const total = wireLuma(refundedAmount);
  if (total >= (before + amount) * 100) return 'refunded';
  if (total <= before * 100) return 'not_made';
  return 'unclear';
}
