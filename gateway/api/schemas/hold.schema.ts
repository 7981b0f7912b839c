/**
 * The bodies of `POST /api/v1/payments/{uuid}/capture` (`amount`: whole AMD, optional; left out, the
 * whole hold) and `POST /api/v1/payments/{uuid}/void` (nothing). Either body may be absent. An
 * unknown key is refused by name (422).
 */
import { z } from 'zod';
import { ApiError, validationFailed } from '../../domain/errors.js';
import { fieldErrorsOf } from './validation.js';

/** `amount` may be left out, but not sent as null: a client that meant a number must not capture the whole hold by mistake. */
const amountSchema = z
  .number({ error: 'must be a whole number of AMD (leave amount out to capture the whole hold)' })
  .int({ error: 'must be a whole number of AMD (no minor units)' })
  .min(1, { error: 'must be at least 1' })
  .max(Number.MAX_SAFE_INTEGER, { error: 'is too large' })
  .optional();

export const captureBodySchema = z.strictObject(
  {
    amount: amountSchema.describe(
      'Whole AMD to take, at least 1, at most `authorized_amount`; the rest of the hold is let go. Left out: the whole hold (`null` is refused). A payment priced in another currency is captured whole.',
    ),
  },
  { error: 'must be a JSON object' },
);

export const voidBodySchema = z.strictObject({}, { error: 'must be a JSON object' });

/** Undefined: the whole hold. An invalid `amount` is `invalid_amount` (`errors.amount`); anything else `validation_failed`. */
export function parseCaptureBody(input: unknown): { readonly amount: number | undefined } {
  const result = captureBodySchema.safeParse(input);
  if (result.success) return { amount: result.data.amount };
  const errors = fieldErrorsOf(result.error);
  const amount = errors.amount?.[0];
  if (amount !== undefined) {
    throw new ApiError('invalid_amount', `The capture amount is invalid: ${amount}.`, {
      fieldErrors: { ...errors, amount: [amount] },
    });
  }
  throw validationFailed(errors);
}

export function parseVoidBody(input: unknown): void {
  const result = voidBodySchema.safeParse(input);
  if (!result.success) throw validationFailed(fieldErrorsOf(result.error));
}
