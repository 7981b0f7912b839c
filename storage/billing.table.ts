import type { Generated, Insertable, Selectable } from 'kysely';
import type { Counter } from '../gateway/domain/billing.js';

/** One balance per merchant and counter; created (with the signup grant) on first use. */
export interface BillingBalanceTable {
  merchant_id: string;
  counter: Counter;
  /** Units left; may go below zero down to the grace floor. */
  available: number;
  updated_at: string;
}

/** Every change to a balance, in commit order; `balance_after` is the running sum. */
export interface BillingLedgerTable {
  id: Generated<number>;
  merchant_id: string;
  counter: Counter;
  delta: number;
  /** `signup_grant`, `purchase`, `payment`, `receipt`, `adjustment`. */
  event_type: string;
  /** What the entry is about: `payment`, `purchase`, `receipt`; null for grants and adjustments. */
  ref_type: string | null;
  ref_id: string | null;
  balance_after: number;
  note: string | null;
  created_at: string;
}

/**
 * A purchase of units. `card` purchases (preset quantities) are paid through a checkout of a payment
 * on the service's house account (`payment_id`); `bank_transfer` purchases carry a `reference` and
 * are credited by the operator when the transfer arrives. `pending` → `paid` (credited once).
 */
export interface BillingPurchaseTable {
  id: string;
  merchant_id: string;
  counter: Counter;
  quantity: number;
  amount_amd: number;
  method: 'card' | 'bank_transfer';
  status: 'pending' | 'paid';
  /** `api` or `auto_topup`. */
  source: string;
  payment_id: string | null;
  reference: string | null;
  payment_method_id: string | null;
  created_at: string;
  updated_at: string;
  paid_at: string | null;
}

export interface BillingAutoTopupTable {
  merchant_id: string;
  counter: Counter;
  enabled: number;
  threshold_qty: number;
  refill_qty: number;
  payment_method_id: string | null;
  armed: number;
  last_purchase_id: string | null;
  created_at: string;
  updated_at: string;
}

export type BillingBalanceRow = Selectable<BillingBalanceTable>;
export type BillingLedgerRow = Selectable<BillingLedgerTable>;
export type NewBillingLedgerRow = Insertable<BillingLedgerTable>;
export type BillingPurchaseRow = Selectable<BillingPurchaseTable>;
export type BillingAutoTopupRow = Selectable<BillingAutoTopupTable>;
