/** The query of `GET /api/v1/customers` (an addition). */
import { z } from 'zod';
import { pageParams, text } from './fields.js';

export const listCustomersSchema = z.object({
  email: text(254).optional().describe('Only the customer of this email address (compared without case).'),
  ...pageParams('Customers'),
});

export type ListCustomersQuery = z.output<typeof listCustomersSchema>;
