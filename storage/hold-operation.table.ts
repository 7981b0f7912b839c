import type { Insertable, Selectable } from 'kysely';

/**
 * One capture or release of a `manual` payment's hold, sent to its processor once (migration 0028).
 * `pending` while the processor is asked; `succeeded` or `failed` once it answered; `unknown` when it
 * did not answer, until a status check settles it. While pending or unknown, the payment's
 * `hold_operation_id` names it, so no other capture or release is sent.
 */
export interface HoldOperationTable {
  id: string;
  payment_id: string;
  merchant_id: string;
  environment: 'live' | 'test';
  processor: string;
  kind: 'capture' | 'release';
  /** Who asked: `merchant` (a capture, or a void), `expiry` (the hold ran out: the expiry job). */
  reason: 'merchant' | 'expiry';
  /** Whole AMD: what a capture takes; what a release lets go (the held amount). */
  amount: number;
  status: 'pending' | 'succeeded' | 'failed' | 'unknown';
  /**
   * Why it failed: `capture_declined` or `void_declined` (the processor refused), `processor_unavailable`
   * (nothing was sent), `not_made` (a status check found it was not made), `hold_released` (a capture
   * found the hold gone).
   */
  failure_code: string | null;
  /** The processor's reference for it, once it gave one. */
  processor_reference: string | null;
  /** Status checks made while its outcome is unknown. */
  checks: number;
  /** When the next status check of a pending or unknown operation is due; null once settled. */
  next_check_at: string | null;
  created_at: string;
  updated_at: string;
  completed_at: string | null;
}

export type HoldOperationRow = Selectable<HoldOperationTable>;
export type NewHoldOperationRow = Insertable<HoldOperationTable>;
