/**
 * Examples of the refund operations: the delivery of order `1042` (examples/payments.ts) refunded.
 */
import type { z } from 'zod';
import type { refundBodySchema } from '../../schemas/refund.schema.js';
import type { refundListSchema, refundResultSchema, refundSchema } from '../components.js';
import { PAYMENT_UUID } from './payments.js';

export const refundRequest = { amount: 3000, reason: 'Delivery refunded' } satisfies z.input<typeof refundBodySchema>;

export const refund = {
  uuid: '01a1fdae-4c21-7b09-9a3e-52d1c8f0a7e4',
  payment_uuid: PAYMENT_UUID,
  amount: 3000,
  reason: 'Delivery refunded',
  status: 'succeeded',
  failure_code: null,
  created_at: '2026-11-21T10:52:15+00:00',
  completed_at: '2026-11-21T10:52:15+00:00',
} satisfies z.output<typeof refundSchema>;

/** A partial refund: the payment stays `completed`. */
export const refundResult = {
  ...refund,
  refunded_amount: 3000,
  payment_status: 'completed',
} satisfies z.output<typeof refundResultSchema>;

export const refundList = { data: [refund] } satisfies z.output<typeof refundListSchema>;
