import type { Insertable, Selectable } from 'kysely';

/** A payment link (migration 0018): a fixed `amount`, or a range `amount_min`..`amount_max` the buyer chooses in. */
export interface PaymentLinkTable {
  /** `plink_` and 16 random characters. */
  id: string;
  merchant_id: string;
  environment: 'live' | 'test';
  /** The account's hosted domain: the payments made through the link belong to it. */
  domain_id: string;
  amount: number | null;
  amount_min: number | null;
  amount_max: number | null;
  currency: string;
  description: string | null;
  reusable: number;
  /** How many payments were started through the link (numbers a reusable link's order ids). */
  payments_count: number;
  expires_at: string | null;
  deactivated_at: string | null;
  created_at: string;
  updated_at: string;
}

export interface PaymentLinkPaymentTable {
  payment_id: string;
  link_id: string;
  created_at: string;
}

export type PaymentLinkRow = Selectable<PaymentLinkTable>;
export type NewPaymentLinkRow = Insertable<PaymentLinkTable>;
