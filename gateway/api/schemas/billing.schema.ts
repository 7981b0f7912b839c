/**
 * Requests of the billing read endpoints (spec "Billing", "Limits"): the ledger query. The cursor
 * is only checked for its shape here; its signature is checked by the billing service.
 */
import { z } from 'zod';
import { COUNTERS } from '../../domain/billing.js';

export const LEDGER_PER_PAGE_DEFAULT = 50;
export const LEDGER_PER_PAGE_MAX = 100;

export const ledgerQuerySchema = z.object({
  counter: z
    .enum(COUNTERS, { error: `must be one of ${COUNTERS.join(', ')}` })
    .optional()
    .describe('Only the entries of this counter.'),
  cursor: z
    .string({ error: 'must be the next_cursor of the previous page' })
    .regex(/^[A-Za-z0-9_-]{1,32}\.[A-Za-z0-9_-]{1,64}$/, { error: 'is not a cursor this service issued' })
    .optional()
    .describe('The `next_cursor` of the previous page.'),
  per_page: z
    .string({ error: 'must be an integer' })
    .regex(/^\d{1,6}$/, { error: 'must be an integer' })
    .transform(Number)
    .refine((n) => n >= 1 && n <= LEDGER_PER_PAGE_MAX, {
      error: `per_page must be between 1 and ${LEDGER_PER_PAGE_MAX}`,
    })
    .default(LEDGER_PER_PAGE_DEFAULT)
    .describe(`Entries per page, 1 to ${LEDGER_PER_PAGE_MAX}.`),
});

export type LedgerQuery = z.output<typeof ledgerQuerySchema>;
