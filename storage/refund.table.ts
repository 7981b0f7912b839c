import type { Insertable, Selectable } from 'kysely';

/**
 * A refund of (part of) a payment. `pending` while the processor is asked; `succeeded` or `failed`
 * once it answered; `unknown` when it did not answer, until a status check settles it. A refund
 * that is pending or unknown keeps its amount reserved on the payment (`refund_reserved_amount`).
 */
export interface RefundTable {
  id: string;
  payment_id: string;
  merchant_id: string;
  environment: 'live' | 'test';
  processor: string;
  amount: number;
  reason: string | null;
  status: 'pending' | 'succeeded' | 'failed' | 'unknown';
  /** Why it failed: `refund_declined` or `processor_unavailable`. */
  failure_code: string | null;
  /** The processor's reference for the refund, once it gave one. */
  processor_reference: string | null;
  /** Status checks made for a refund whose outcome is unknown. */
  checks: number;
  /** When the next status check of a pending or unknown refund is due; null once settled. */
  next_check_at: string | null;
  created_at: string;
  updated_at: string;
  completed_at: string | null;
}

export type RefundRow = Selectable<RefundTable>;
export type NewRefundRow = Insertable<RefundTable>;
