/**
 * ArCa (BPC) values mapped to the core's, as pure functions: amounts between whole AMD and minor
 * units, `errorCode` of each call, `orderStatus` to a payment outcome, `actionCode` (the issuer's or
 * the processing's answer) to a `FailureCode`, and the last four digits of the card's mask. Unknown
 * values map to an explicit unknown: an order status nobody documented keeps the payment pending,
 * never paid or declined by guess.
 */
import type { FailureCode } from '../../domain/payment-lifecycle.js';
import type { ProcessorLanguage } from '../processor.js';

/** Whole AMD to minor units as the wire wants them (1 AMD = 100). */
export function toMinorUnits(amd: number): string {
  if (!Number.isSafeInteger(amd) || amd < 1)
    throw new RangeError('an ArCa amount is a whole number of AMD, at least 1');
  return (BigInt(amd) * 100n).toString();
}

/** Whether `minor` (from the wire) is exactly `amd` whole AMD. */
export function isAmountOf(minor: number, amd: number): boolean {
  return Number.isSafeInteger(minor) && minor === amd * 100;
}

/** The language of ArCa's payment page: ArCa takes the gateway's three as they are. */
export function arcaLanguage(language: ProcessorLanguage): 'hy' | 'ru' | 'en' {
  switch (language) {
    case 'hy':
    case 'ru':
    case 'en':
      return language;
  }
}

/**
 * The order's description as BPC takes it: at most 99 characters reach processing, and `%`, `+`,
 * CR and LF are refused (`errorCode` 5), so they are replaced.
 */
export function arcaDescription(description: string | null, orderId: string): string {
  const text = (description ?? '').trim() === '' ? `Order ${orderId}` : (description as string);
  const clean = text.replace(/[%+\s]+/g, ' ').trim();
  // 99 UTF-16 units (what the host counts), never cutting a character in two.
  let cut = '';
  for (const character of clean) {
    if (cut.length + character.length > 99) break;
    cut += character;
  }
  return cut;
}

/** The last four digits of a masked card number (`411111**1111`), or null when it shows none. */
export function cardLast4FromMask(mask: string | null | undefined): string | null {
  const match = /(\d{4})$/.exec(mask?.trim() ?? '');
  return match === null ? null : (match[1] as string);
}

/**
 * What `register.do`'s `errorCode` means (BPC's table: 0 none, 1 order number already registered,
 * 2 order refused, 3 unknown currency, 4 missing parameter, 5 wrong parameter value or access
 * denied, 6 unregistered order, 7 system error, 8 order bundle error).
 */
export type RegisterError =
  | { readonly kind: 'ok' }
  /** The order number is registered already: a repeated start after a lost answer. */
  | { readonly kind: 'already_registered' }
  | { readonly kind: 'refused'; readonly failureCode: FailureCode; readonly reason: string }
  | { readonly kind: 'unavailable'; readonly reason: string };

export function registerError(errorCode: string): RegisterError {
  switch (errorCode) {
    case '0':
      return { kind: 'ok' };
    case '1':
      return { kind: 'already_registered' };
    case '2':
      return { kind: 'refused', failureCode: 'declined', reason: 'order refused' };
    case '3':
      return { kind: 'refused', failureCode: 'general_failure', reason: 'currency not accepted (settings)' };
    case '4':
      return { kind: 'refused', failureCode: 'general_failure', reason: 'a required parameter is missing' };
    case '5':
      return {
        kind: 'refused',
        failureCode: 'general_failure',
        reason: 'a parameter was refused or access denied (check username and password)',
      };
    case '6':
      return { kind: 'refused', failureCode: 'general_failure', reason: 'order not registered' };
    case '7':
      return { kind: 'unavailable', reason: 'system error at the bank' };
    case '8':
      return { kind: 'refused', failureCode: 'general_failure', reason: 'order bundle refused' };
    default:
      return { kind: 'unavailable', reason: 'unknown errorCode' };
  }
}

/** What `refund.do`'s `errorCode` means for the refund. */
export type RefundError = 'ok' | 'refused' | 'unknown';

export function refundError(errorCode: string): RefundError {
  switch (errorCode) {
    case '0':
      return 'ok';
    // 4 missing parameter, 5 refused value or access denied, 6 unregistered order, 7 system error
    // or wrong state ("Payment must be in a correct state") or an amount over what remains.
    case '4':
    case '5':
    case '6':
    case '7':
      return 'refused';
    default:
      // Nothing documents it: whether money moved is not known, the status check settles it.
      return 'unknown';
  }
}

/**
 * What `deposit.do`'s or `reverse.do`'s `errorCode` means: 0 done; 4, 5, 6, 7 (missing or refused
 * parameter, access denied, unknown order, "Payment must be in a correct state" or a system error)
 * refused, as for `refund.do`; anything undocumented unknown.
 */
export function holdCallError(errorCode: string): RefundError {
  return refundError(errorCode);
}

/** What an order status says about a hold: held (approved), captured (deposited, refunded since), released (reversed, declined). */
export type HoldState = 'held' | 'captured' | 'released' | 'unknown';

export function holdStateOf(status: OrderStatus): HoldState {
  switch (status) {
    case 'approved':
      return 'held';
    case 'deposited':
    case 'refunded':
      return 'captured';
    case 'reversed':
    case 'declined':
      return 'released';
    case 'registered':
    case 'acs_started':
    case 'unknown':
      return 'unknown';
  }
}

/** BPC's `orderStatus` values. */
export const ORDER_STATUSES = {
  0: 'registered',
  1: 'approved',
  2: 'deposited',
  3: 'reversed',
  4: 'refunded',
  5: 'acs_started',
  6: 'declined',
} as const;
export type OrderStatus = (typeof ORDER_STATUSES)[keyof typeof ORDER_STATUSES] | 'unknown';

export function orderStatusOf(value: number): OrderStatus {
  return Object.hasOwn(ORDER_STATUSES, value) ? ORDER_STATUSES[value as keyof typeof ORDER_STATUSES] : 'unknown';
}

export type PaymentOutcome = 'paid' | 'declined' | 'pending';

/**
 * The payment's outcome by its order status alone. Paid only once deposited (one-phase payments
 * deposit at once), or refunded after being deposited; declined when declined or reversed; any
 * other value (registered, held, in 3-D Secure, or a value no source documents) keeps asking.
 */
export function paymentOutcome(status: OrderStatus): PaymentOutcome {
  switch (status) {
    case 'deposited':
    case 'refunded':
      return 'paid';
    case 'declined':
    case 'reversed':
      return 'declined';
    case 'registered':
    case 'approved':
    case 'acs_started':
    case 'unknown':
      return 'pending';
  }
}

/** What an `actionCode` says about a payment attempt. */
export type ActionCodeClass =
  | 'approved'
  | 'no_attempt'
  | 'insufficient_funds'
  | 'three_ds'
  | 'limit'
  | 'session_expired'
  | 'issuer_declined'
  | 'fraud'
  | 'processing_timeout'
  | 'issuer_unavailable'
  | 'system_error'
  | 'unknown';

/** BPC action codes (BPC's English table; Yandex's RBS constants), by what they say. */
const ACTION_CODES: Readonly<Record<Exclude<ActionCodeClass, 'unknown'>, readonly number[]>> = {
  approved: [0],
  no_attempt: [-100],
  insufficient_funds: [116, 915],
  three_ds: [
    -2005, -2006, -2011, -2015, -2016, -2017, -2018, -2019, -2020, 2003, 2005, 2014, 151017, 341016, 341017, 341018,
    341019, 341020,
  ],
  limit: [-2002, -20010, 121, 123, 209, 903, 917],
  // -2007: the time to enter the card ran out; 1001: the card was never entered.
  session_expired: [-2007, 1001],
  issuer_declined: [
    -2013, 1, 5, 100, 101, 103, 104, 106, 107, 110, 111, 117, 119, 120, 125, 208, 320, 803, 805, 861, 871, 902, 905,
    906, 909, 913, 2004, 71015,
  ],
  fraud: [-2000, -2001, -2003, -2101, -2102, 999, 2001],
  processing_timeout: [-1, 151018, 151019],
  issuer_unavailable: [801, 907, 910],
  system_error: [-2012, -2010, -2008, 109, 904, 2002, 2006, 2008, 2015, 9001, 341014],
};

const CLASS_BY_ACTION_CODE: ReadonlyMap<number, ActionCodeClass> = new Map(
  (Object.entries(ACTION_CODES) as Array<[ActionCodeClass, readonly number[]]>).flatMap(([cls, codes]) =>
    codes.map((code): [number, ActionCodeClass] => [code, cls]),
  ),
);

export function actionCodeClass(code: number | null | undefined): ActionCodeClass {
  return code === null || code === undefined ? 'unknown' : (CLASS_BY_ACTION_CODE.get(code) ?? 'unknown');
}

/** Why a declined (or reversed) order was not paid, by its action code. */
export function declineFailureCode(cls: ActionCodeClass): FailureCode {
  switch (cls) {
    case 'insufficient_funds':
      return 'insufficient_funds';
    case 'three_ds':
      return '3ds_failed';
    case 'limit':
      return 'amount_limit_exceeded';
    case 'session_expired':
      return 'transaction_expired';
    case 'processing_timeout':
      return 'processor_timeout';
    case 'issuer_unavailable':
      return 'processor_unavailable';
    case 'system_error':
      return 'general_failure';
    case 'issuer_declined':
    case 'fraud':
    // Declined with "approved" or without an attempt: an operator's decision or a reversal.
    case 'approved':
    case 'no_attempt':
    // Declined for a reason no source documents: a decline all the same.
    case 'unknown':
      return 'declined';
  }
}

/**
 * The refunded total (minor units) an order status answer shows: `paymentAmountInfo.refundedAmount`,
 * else the sum of its `refunds` list, else null (the answer does not say).
 */
export function refundedMinorUnits(answer: {
  readonly paymentAmountInfo?: { readonly refundedAmount?: number | null } | null;
  readonly refunds?: ReadonlyArray<{ readonly amount: number }> | null;
}): number | null {
  const stated = answer.paymentAmountInfo?.refundedAmount;
  if (stated !== null && stated !== undefined) return stated;
  if (answer.refunds === null || answer.refunds === undefined) return null;
  return answer.refunds.reduce((sum, refund) => sum + refund.amount, 0);
}

/** What a refund status check concludes from the refunded totals (all in minor units). */
export type RefundFinding = 'refunded' | 'not_refunded' | 'unknown';

/**
 * `refunded`: the bank's refunded total reaches what the ledger had plus this refund; `not_refunded`:
 * the bank shows exactly what the ledger had (this refund was not made); anything between or below
 * (another refund in flight, a ledger the bank disagrees with): `unknown`, asked again later.
 */
export function refundFinding(bankRefunded: number, ledgerRefunded: number, amount: number): RefundFinding {
  if (bankRefunded >= ledgerRefunded + amount) return 'refunded';
  if (bankRefunded === ledgerRefunded) return 'not_refunded';
  return 'unknown';
}
