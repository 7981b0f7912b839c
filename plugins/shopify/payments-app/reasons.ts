/**
 * The gateway's `failure_code` of a payment that was not paid, as the reason Shopify is given in
 * `paymentSessionReject` (`PaymentSessionStateRejectedReason`). Only reasons every supported API
 * version has are sent (2026-01 has only the card-network reasons; 2026-04 adds INSUFFICIENT_FUNDS and
 * others, which a session of 2026-01 would refuse); the closest is chosen and the gateway's own code
 * goes in `merchantMessage`. An unknown code is PROCESSING_ERROR, never silently something else.
 *
 * | gateway `failure_code`  | Shopify reason       |
 * |-------------------------|----------------------|
 * | `declined`              | CARD_DECLINED        |
 * | `insufficient_funds`    | CARD_DECLINED        |
 * | `3ds_failed`            | AUTHENTICATION_FAILED|
 * | `transaction_expired`   | PROCESSING_ERROR     |
 * | `amount_limit_exceeded` | CARD_DECLINED        |
 * | `duplicate_transaction` | PROCESSING_ERROR     |
 * | `processor_timeout`     | PROCESSING_ERROR     |
 * | `processor_unavailable` | PROCESSING_ERROR     |
 * | `general_failure`       | PROCESSING_ERROR     |
 * | none (payment expired)  | PROCESSING_ERROR     |
 * | `authorization_expired` | PROCESSING_ERROR     |
 * | `voided`                | PROCESSING_ERROR     |
 */

/** The values of `PaymentSessionStateRejectedReason` the app sends (in every supported version). */
export type RejectReason = 'CARD_DECLINED' | 'AUTHENTICATION_FAILED' | 'PROCESSING_ERROR';

export function rejectReasonOf(failureCode: string | null): RejectReason {
  switch (failureCode) {
    case 'declined':
    case 'insufficient_funds':
    case 'amount_limit_exceeded':
      return 'CARD_DECLINED';
    case '3ds_failed':
      return 'AUTHENTICATION_FAILED';
    case 'transaction_expired':
    case 'duplicate_transaction':
    case 'processor_timeout':
    case 'processor_unavailable':
    case 'general_failure':
      return 'PROCESSING_ERROR';
    default:
      return 'PROCESSING_ERROR';
  }
}

/** What the merchant reads next to the rejected payment in the Shopify admin. */
export function merchantMessageOf(status: string, failureCode: string | null): string {
  // A hold (an authorization) that ran out or was released before its session was decided.
  if (status === 'expired' && failureCode === 'authorization_expired') {
    return 'The hold on the card ran out before it was confirmed; nothing was taken (authorization_expired).';
  }
  if (status === 'expired' && failureCode === 'voided')
    return 'The hold on the card was released; nothing was taken (voided).';
  if (status === 'expired') return 'The buyer did not pay before the payment expired.';
  return failureCode === null
    ? `Payment ${status} at the gateway.`
    : `Payment ${status} at the gateway (${failureCode}).`;
}
