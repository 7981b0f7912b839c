/**
 * The body of `POST /api/v1/payments/{uuid}/processor_reference` (an addition): `reference`, the
 * processor's own id of the order (Telcell's invoice id), which only the processor's callback
 * names. A strict object like every other request body: an unknown key is refused by name.
 */
import { z } from 'zod';

/** What a processor's id of an order may look like (Telcell's invoice ids are digits). */
export const PROCESSOR_REFERENCE = /^[A-Za-z0-9._-]{1,64}$/;

const REFERENCE_FORM = "must be the processor's id of the order: 1 to 64 letters, digits, dots, dashes or underscores";

/** Spaces around the number (pasted from a back office) are dropped; anything else must fit the form. */
export const processorReferenceSchema = z
  .string({ error: (issue) => (issue.input === undefined ? 'is required' : REFERENCE_FORM) })
  .trim()
  .regex(PROCESSOR_REFERENCE, { error: REFERENCE_FORM });

export const settleReferenceBodySchema = z.strictObject(
  {
    reference: processorReferenceSchema.describe(
      "The processor's id of the order (Telcell: the invoice id). 1 to 64 letters, digits, `.`, `-`, `_`.",
    ),
  },
  { error: 'must be a JSON object' },
);
