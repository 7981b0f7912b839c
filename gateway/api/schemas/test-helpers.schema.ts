/**
 * Requests of the test helpers: the test card of the pay helper, and the clock advance.
 */
import { z } from 'zod';
import { readCardNumber } from '../../processors/sandbox/map.js';

/** Ten years: far beyond anything a payment's lifecycle measures. */
export const MAX_ADVANCE_SECONDS = 10 * 365 * 24 * 3600;

export const advanceClockSchema = z.strictObject(
  {
    seconds: z
      .number({ error: (issue) => (issue.input === undefined ? 'is required' : 'must be an integer') })
      .int({ error: 'must be a whole number of seconds' })
      .min(1, { error: 'must be at least 1' })
      .max(MAX_ADVANCE_SECONDS, { error: `must be at most ${MAX_ADVANCE_SECONDS}` })
      .describe('How far to move the manual clock forward, in whole seconds (at most ten years).'),
  },
  { error: 'must be a JSON object' },
);

/** `card_number` as the test payment page reads it; its messages are the page's. */
function cardNumberMessage(input: unknown): string {
  const check = readCardNumber(input);
  return check.ok ? 'must be a card number' : check.reason;
}

/** Request of `POST /api/v1/test_helpers/payments/{uuid}/pay`. */
export const testCardSchema = z.strictObject({
  card_number: z
    .string({ error: (issue) => cardNumberMessage(issue.input) })
    .superRefine((s, ctx) => {
      const check = readCardNumber(s);
      if (!check.ok) ctx.addIssue({ code: 'custom', message: check.reason });
    })
    .describe(
      'A test card: 16 digits, spaces and dashes ignored (docs/api.md "Drive sandbox payments from your tests").',
    ),
});
