/**
 * Examples of the customers operations: the buyer of order `1042` (examples/payments.ts).
 */

import type { z } from 'zod';
import { paginate } from '../../../domain/pagination.js';
import type { customerListSchema, customerSchema } from '../components.js';
import { EXAMPLE_ORIGIN } from './payments.js';

export const customer = {
  id: 'cus_D4XFNv9a6Tz2Vgit',
  livemode: false,
  email: 'buyer@example.am',
  name: 'Anna Petrosyan',
  payments_count: 2,
  paid_count: 2,
  total_paid: 30000,
  refunded_amount: 3000,
  currency: 'AMD',
  first_payment_at: '2026-11-21T10:36:49+00:00',
  last_payment_at: '2026-11-21T11:02:10+00:00',
  last_paid_at: '2026-11-21T11:05:41+00:00',
} satisfies z.output<typeof customerSchema>;

const CUSTOMERS_URL = `${EXAMPLE_ORIGIN}/api/v1/customers`;

export const customerList = paginate([customer], 1, {
  path: CUSTOMERS_URL,
  query: [],
  page: 1,
  perPage: 25,
}) satisfies z.output<typeof customerListSchema>;
