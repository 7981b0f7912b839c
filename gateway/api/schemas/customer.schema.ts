/** The query of `GET /api/v1/customers` (an addition). */
import { z } from 'zod';
import { text } from './fields.js';

function positiveIntegerParam(max: number, name: string) {
  return z
    .string()
    .regex(/^\d+$/, { error: 'must be an integer' })
    .transform(Number)
    .refine((n) => n >= 1 && n <= max, { error: `${name} must be between 1 and ${max}` });
}

export const listCustomersSchema = z.object({
  email: text(254).optional().describe('Only the customer of this email address (compared without case).'),
  per_page: positiveIntegerParam(100, 'per_page').default(25),
  page: positiveIntegerParam(1_000_000, 'page').default(1),
});

export type ListCustomersQuery = z.output<typeof listCustomersSchema>;
