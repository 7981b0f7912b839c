/**
 * FastShift's statuses, errors and amounts mapped to the core's types: pure functions, exhaustive
 * switches, and an explicit unknown for any value the manual does not list.
 */
import type { FailureCode, ProviderResult } from '../../domain/payment-lifecycle.js';
import { ANSWER_STATUSES, type AnswerStatus, ORDER_STATUSES, type OrderStatus } from './wire.js';

export type KnownOrderStatus = OrderStatus | 'unknown';

export function orderStatusOf(raw: string): KnownOrderStatus {
  return (ORDER_STATUSES as readonly string[]).includes(raw) ? (raw as OrderStatus) : 'unknown';
}

/**
 * What an order's status says about the payment. FastShift pays from the buyer's wallet: there is
 * no card, so `cardLast4` is always null. The rrn is FastShift's own id of the order (`order_guid`):
 * the status answer's `fastshift_id` names the payer, the same for every payment of that payer.
 */
export function orderResult(status: KnownOrderStatus, orderGuid: string): ProviderResult {
  switch (status) {
    case 'completed':
      return { kind: 'paid', rrn: orderGuid, cardLast4: null };
    case 'rejected':
      return { kind: 'declined', failureCode: 'declined', cardLast4: null };
    case 'expired':
      return { kind: 'declined', failureCode: 'transaction_expired', cardLast4: null };
    case 'pending':
    case 'unknown':
      // No outcome yet (the buyer has not confirmed in the app), or one we cannot read: keep asking.
      return { kind: 'pending', failureCode: 'processor_timeout', cardLast4: null };
  }
}

/** An answer's `status`, from its body when it names a known one, else from the HTTP code as the manual pairs them. */
export function answerStatusOf(httpStatus: number, bodyStatus: string | undefined): AnswerStatus | 'unknown' {
  if (bodyStatus !== undefined && (ANSWER_STATUSES as readonly string[]).includes(bodyStatus)) {
    return bodyStatus as AnswerStatus;
  }
  if (httpStatus === 422) return 'INVALID_DATA';
  if (httpStatus === 400) return 'ERROR';
  if (httpStatus === 401) return 'UNAUTHORIZED';
  if (httpStatus === 403) return 'FORBIDDEN';
  if (httpStatus === 404) return 'NOT_FOUND';
  if (httpStatus >= 500) return 'APP_ERROR';
  return 'unknown';
}

export type RegisterFailure =
  | { readonly kind: 'refused'; readonly failureCode: FailureCode }
  | { readonly kind: 'unavailable' };

/**
 * What a register answer other than success means. `fields` are the keys of an INVALID_DATA
 * answer's `errors`. A refusal keeps the payment pending with another method open to the buyer;
 * unavailable means try again later.
 */
export function registerFailure(
  status: AnswerStatus | 'unknown',
  httpStatus: number,
  fields: readonly string[],
): RegisterFailure {
  switch (status) {
    case 'INVALID_DATA':
      return { kind: 'refused', failureCode: fields.includes('amount') ? 'amount_limit_exceeded' : 'general_failure' };
    case 'ERROR':
      return { kind: 'refused', failureCode: 'general_failure' };
    case 'UNAUTHORIZED':
    case 'FORBIDDEN':
    case 'NOT_FOUND':
      // The token, the allow-listed address or the base URL is wrong: the merchant's settings.
      return { kind: 'refused', failureCode: 'processor_unavailable' };
    case 'APP_ERROR':
    case 'OK':
      // A system error, or an OK we could not read.
      return { kind: 'unavailable' };
    case 'unknown':
      return httpStatus >= 400 && httpStatus < 500 && httpStatus !== 408 && httpStatus !== 429
        ? { kind: 'refused', failureCode: 'general_failure' }
        : { kind: 'unavailable' };
  }
}

/**
 * What a register refused for an order number FastShift already has means. FastShift gives no way
 * to rebuild the payment page's address, so a still open order cannot be resumed from here; an
 * order that is over cannot be registered again under the same number.
 */
export function duplicateOrderFailure(existing: KnownOrderStatus): RegisterFailure {
  switch (existing) {
    case 'pending':
    case 'completed':
    case 'unknown':
      // Open or paid: the read-back of the status settles the payment; nothing to refuse.
      return { kind: 'unavailable' };
    case 'rejected':
    case 'expired':
      return { kind: 'refused', failureCode: 'duplicate_transaction' };
  }
}

/** The amount FastShift takes: whole AMD, as the core gives it. Null for what it cannot take. */
export function wireAmount(amd: number): number | null {
  return Number.isSafeInteger(amd) && amd >= 1 ? amd : null;
}
