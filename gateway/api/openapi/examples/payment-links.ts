/**
 * Examples of the payment links operations: a reusable gift card link of 8,000 AMD.
 */

import type { z } from 'zod';
import { paginate } from '../../../domain/pagination.js';
import type { createPaymentLinkSchema } from '../../schemas/payment-link.schema.js';
import type { paymentLinkListSchema, paymentLinkSchema } from '../components.js';
import { EXAMPLE_ORIGIN } from './payments.js';

type PaymentLink = z.output<typeof paymentLinkSchema>;

const LINK_ID = 'plink_lPhBxIbZFzzVmsS1';

export const createPaymentLinkRequest = {
  amount: 8000,
  description: 'Gift card',
  reusable: true,
} satisfies z.input<ReturnType<typeof createPaymentLinkSchema>>;

export const paymentLink = {
  id: LINK_ID,
  object: 'payment_link',
  url: `${EXAMPLE_ORIGIN}/l/${LINK_ID}`,
  status: 'active',
  active: true,
  amount: 8000,
  amount_min: null,
  amount_max: null,
  currency: 'AMD',
  description: 'Gift card',
  reusable: true,
  expires_at: null,
  livemode: false,
  payments_count: 0,
  completed_payments_count: 0,
  created_at: '2026-11-21T11:10:00+00:00',
  deactivated_at: null,
} satisfies PaymentLink;

/** One link read alone: with its latest payments (the one paid so far). */
export const paymentLinkWithPayments = {
  ...paymentLink,
  payments_count: 1,
  completed_payments_count: 1,
  payments: [
    {
      uuid: '01a1fe20-33c1-7a0e-9f12-6d5c4b3a2918',
      order_id: `${LINK_ID}-1`,
      amount: 8000,
      currency: 'AMD',
      status: 'completed',
      created_at: '2026-11-21T11:20:45+00:00',
      completed_at: '2026-11-21T11:21:30+00:00',
    },
  ],
} satisfies PaymentLink;

/** Deactivated: answered with its latest payments too. */
export const deactivatedPaymentLink = {
  ...paymentLinkWithPayments,
  status: 'inactive',
  active: false,
  deactivated_at: '2026-11-30T18:00:00+00:00',
} satisfies PaymentLink;

const LINKS_URL = `${EXAMPLE_ORIGIN}/api/v1/payment_links`;

export const paymentLinkList = paginate([paymentLink], 1, {
  path: LINKS_URL,
  query: [],
  page: 1,
  perPage: 25,
}) satisfies z.output<typeof paymentLinkListSchema>;
