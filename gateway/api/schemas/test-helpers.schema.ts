/**
 * Request of the clock test helper (`POST /api/v1/test_helpers/clock/advance`).
 */
import { z } from 'zod';

/** Ten years: far beyond anything a payment's lifecycle measures. */
export const MAX_ADVANCE_SECONDS = 10 * 365 * 24 * 3600;

export const advanceClockSchema = z.object(
  {
    seconds: z
      .number({ error: (issue) => (issue.input === undefined ? 'is required' : 'must be an integer') })
      .int({ error: 'must be a whole number of seconds' })
      .min(1, { error: 'must be at least 1' })
      .max(MAX_ADVANCE_SECONDS, { error: `must be at most ${MAX_ADVANCE_SECONDS}` }),
  },
  { error: 'must be a JSON object' },
);
