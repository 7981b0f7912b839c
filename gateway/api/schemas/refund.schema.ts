/**
 * The refund request body (spec "Payments": `POST /api/v1/payments/{uuid}/refund`): `amount`
 * (whole AMD, optional: omitted means the whole remaining amount) and `reason` (optional text).
 * The body itself may be absent. An unknown key is refused by name (422).
 */
import { z } from 'zod';
import { ApiError, validationFailed } from '../../domain/errors.js';
import { optionalText } from './fields.js';
import { fieldErrorsOf } from './validation.js';

export const MAX_REFUND_REASON_LENGTH = 500;

/**
 * `amount` may be left out, but not sent as null: a client that meant a number must not refund the
 * whole payment by mistake.
 */
const amountSchema = z
  .number({ error: 'must be a whole number of AMD (leave amount out to refund the whole remaining amount)' })
  .int({ error: 'must be a whole number of AMD (no minor units)' })
  .min(1, { error: 'must be at least 1' })
  .max(Number.MAX_SAFE_INTEGER, { error: 'is too large' })
  .optional();

/** Null and the empty string both mean "no reason" (platforms send an empty reason field). */
const reasonSchema = optionalText(MAX_REFUND_REASON_LENGTH, 'a string');

export const refundBodySchema = z.strictObject(
  {
    amount: amountSchema.describe(
      'Whole AMD, at least 1, at most what remains to refund. Left out: the whole remaining amount (`null` is refused).',
    ),
    reason: reasonSchema.describe('At most 500 characters; sent with the `payment.refunded` webhook.'),
  },
  { error: 'must be a JSON object' },
);

export interface RefundBody {
  /** Undefined: the whole remaining amount. */
  readonly amount: number | undefined;
  readonly reason: string | null;
}

/**
 * Reads the body. A body that is not an object is `validation_failed` (`errors.body`); an invalid
 * `amount` is `invalid_amount` (`errors.amount`, with any other field's errors); an invalid
 * `reason` alone is `validation_failed` (`errors.reason`).
 */
export function parseRefundBody(input: unknown): RefundBody {
  const result = refundBodySchema.safeParse(input);
  if (result.success) return { amount: result.data.amount, reason: result.data.reason };
  const errors = fieldErrorsOf(result.error);
  const amount = errors.amount?.[0];
  if (amount !== undefined) {
    // One message per field is enough: "must be a whole number" and "is too large" say the same here.
    throw new ApiError('invalid_amount', `The refund amount is invalid: ${amount}.`, {
      fieldErrors: { ...errors, amount: [amount] },
    });
  }
  throw validationFailed(errors);
}
