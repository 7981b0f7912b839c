/**
 * The OpenAPI parts of holds (docs/decisions.md "Holds"): the fields a payment and a webhook's
 * `transaction` gain, the capture or release an error names (`details.operation`), and the error
 * keys of the hold codes. Kept apart from components.ts, which spreads them in.
 */
import { z } from 'zod';
import { CAPTURE_METHODS } from '../../domain/payment.js';

const instant = () => z.iso.datetime({ offset: true, precision: 0 });

/** What a payment (and a webhook's `transaction`) says about its hold. */
export const holdPaymentFields = {
  capture_method: z
    .enum(CAPTURE_METHODS)
    .describe(
      '`automatic`: the money is taken when the buyer pays. `manual`: the amount is held on the card (`authorized`) until captured or voided.',
    ),
  authorized_amount: z
    .int()
    .nullable()
    .describe(
      'Whole AMD held on the card for a `manual` payment once authorized (`amount` becomes what is captured); null otherwise.',
    ),
  capture_before: instant()
    .nullable()
    .describe(
      "Until when the hold may be captured (the processor's hold window); the gateway releases it then. Null unless the payment was authorized.",
    ),
};

/** The same, in a webhook's `transaction`: present only for a payment created with `capture_method: manual`. */
export const holdTransactionFields = {
  capture_method: holdPaymentFields.capture_method
    .optional()
    .describe('Only for a payment created with `capture_method: manual` (then `manual`).'),
  authorized_amount: holdPaymentFields.authorized_amount.optional().describe('Only for a `manual` payment.'),
  capture_before: holdPaymentFields.capture_before.optional().describe('Only for a `manual` payment.'),
};

export const holdOperationSchema = z.object({
  uuid: z.guid(),
  payment_uuid: z.guid(),
  kind: z.enum(['capture', 'release']).describe('`release`: a void, or the release of a hold that ran out.'),
  reason: z.enum(['merchant', 'expiry']).describe('`expiry`: the gateway released a hold that ran out.'),
  amount: z.int().describe('Whole AMD: what a capture takes; what a release lets go.'),
  status: z.enum(['pending', 'succeeded', 'failed', 'unknown']),
  failure_code: z
    .string()
    .nullable()
    .describe(
      '`capture_declined`, `void_declined`, `processor_unavailable` (nothing sent), `not_made` (a status check found it was not made), `hold_released`, `hold_captured`.',
    ),
  created_at: instant(),
  completed_at: instant().nullable().describe('When it succeeded or failed; null while in flight.'),
});

/** The keys the hold error codes add to the error body. */
export const holdErrorFields = {
  operation: holdOperationSchema
    .optional()
    .describe(
      '`capture_outcome_unknown`, `void_outcome_unknown`, `capture_declined`, `void_declined`, `hold_operation_in_progress`, `processor_unavailable` of a capture or void: the capture or release in its current state.',
    ),
  authorized_amount: z.int().optional().describe('`amount_exceeds_authorized`: what the card holds, whole AMD.'),
  capture_before: instant().optional().describe('`authorization_expired`: when the hold ran out.'),
};
