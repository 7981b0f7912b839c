/**
 * Why a refund cannot be reserved on a payment now, in the order the checks are documented (spec
 * "Payments", refund errors): not completed, already refunded, a processor that cannot refund (or
 * only whole payments, once), more than remains, or refunds in flight holding the rest.
 */
import type { PaymentRow } from '../../storage/payment.table.js';
import { ApiError } from '../domain/errors.js';
import { refundingProcessor } from './refund-processor.js';

/**
 * Why `requested` (undefined: the whole remaining amount) cannot be reserved on the payment now, in
 * the order the checks are documented; undefined when it can.
 */
export function refusalFor(row: PaymentRow, requested: number | undefined): ApiError | undefined {
  if (row.status === 'refunded') {
    return new ApiError('already_refunded', `Payment ${row.id} is already fully refunded.`);
  }
  if (row.status !== 'completed') {
    return new ApiError(
      'not_refundable',
      `Payment ${row.id} is ${row.status}; only a completed payment can be refunded.`,
      {
        details: { payment_status: row.status },
      },
    );
  }
  if (refundingProcessor(row) === undefined) {
    return new ApiError(
      'refund_not_supported',
      `Payment ${row.id} cannot be refunded through the API (processor ${row.processor ?? 'none'}).`,
    );
  }
  const remaining = Number(row.amount) - Number(row.refunded_amount);
  const inFlight = Number(row.refund_reserved_amount);
  const whole = requested === undefined || requested === Number(row.amount);
  if (
    refundingProcessor(row)?.partialRefunds === false &&
    (!whole || Number(row.refunded_amount) > 0 || inFlight > 0)
  ) {
    return new ApiError(
      'refund_not_supported',
      `Processor ${row.processor ?? 'none'} refunds only a whole payment, once: refund ${Number(row.amount)} AMD or nothing.`,
      { details: { refundable_amount: Number(row.amount) - Number(row.refunded_amount) } },
    );
  }
  if (requested === undefined) {
    if (inFlight > 0) return refundInProgress(row, remaining, inFlight);
    return undefined;
  }
  if (requested > remaining) {
    return new ApiError(
      'amount_exceeds_remaining',
      `The refund amount ${requested} is larger than the ${remaining} AMD that remain refundable.`,
      { details: { remaining_amount: remaining } },
    );
  }
  if (requested > remaining - inFlight) return refundInProgress(row, remaining, inFlight);
  return undefined;
}

function refundInProgress(row: PaymentRow, remaining: number, inFlight: number): ApiError {
  return new ApiError(
    'refund_in_progress',
    `Refunds of ${inFlight} AMD of payment ${row.id} are still in flight; ${remaining - inFlight} AMD can be refunded until they finish.`,
    { details: { remaining_amount: remaining, in_progress_amount: inFlight } },
  );
}
