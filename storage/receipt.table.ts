import type { Insertable, Selectable } from 'kysely';

/** A domain's receipts settings (migration 0010). */
export interface DomainReceiptsTable {
  domain_id: string;
  merchant_id: string;
  /** The fiscal system's slug (`ehdm`), or `test`: sandbox receipts only, nothing fiscal. */
  system: string;
  /** The system's settings, sealed (gateway/receipts/settings.ts); null for `test`. */
  config: string | null;
  /** When the merchant was last emailed about this domain's receipts (at most once per 6 hours). */
  alert_email_at: string | null;
  created_at: string;
  updated_at: string;
}

export type ReceiptType = 'sale' | 'return';

/**
 * - `pending`: to be issued at `next_attempt_at` (never tried, or nothing was issued by the last try);
 * - `issuing`: a try is under way (its seq is stored); if its lease (`next_attempt_at`) lapses, the
 *   try's outcome is unknown;
 * - `unknown`: a try may have issued it: the register is searched before anything is issued again;
 * - `issued`: done, the fiscal fields are set;
 * - `failed`: the fiscal system refused it for good (bad settings, a receipt it will not take);
 *   enabling the domain's settings again or `receipts retry` puts it back to `pending`.
 */
export type ReceiptStatus = 'pending' | 'issuing' | 'unknown' | 'issued' | 'failed';

export interface ReceiptTable {
  id: string;
  merchant_id: string;
  environment: 'live' | 'test';
  domain_id: string | null;
  type: ReceiptType;
  /** `sale:<payment id>`, `return:<refund id>` or `api:<receipt id>`: one row per thing to issue. */
  issue_key: string;
  payment_id: string | null;
  refund_id: string | null;
  /** For a return: the sale receipt it returns (part of). */
  sale_receipt_id: string | null;
  /** The fiscal system's slug, or `sandbox`. */
  system: string;
  sandbox: 0 | 1;
  status: ReceiptStatus;
  card_amount: number;
  cash_amount: number;
  /** JSON: sale lines (`StoredLine[]`), or for a return the returned quantities (`StoredReturnLine[]`). */
  lines: string;
  /** The register the receipt is issued on (`<system>:<register>`), set at the first try. */
  register: string | null;
  /** The sequence number of the current (or last) try. */
  seq: number | null;
  attempts: number;
  /** Searches of the register made for a try whose outcome was unknown. */
  searches: number;
  next_attempt_at: string | null;
  first_attempt_at: string | null;
  attempt_started_at: string | null;
  /**
   * The last fiscal id the register was known to have issued for us when the current try started:
   * a search for that try's receipt starts after it.
   */
  search_after: string | null;
  /** Why the last try did not issue it (for the merchant and operators; never credentials). */
  last_error: string | null;
  last_error_code: string | null;
  fiscal_id: string | null;
  fiscal_number: string | null;
  serial_number: string | null;
  tin: string | null;
  taxpayer: string | null;
  address: string | null;
  /** The total as the fiscal system computed it (a decimal string). */
  fiscal_total: string | null;
  issued_at: string | null;
  qr_text: string | null;
  public_token: string;
  /** The event (`transaction.status.updated` or `payment.refunded`) held back for this receipt. */
  held_event_id: string | null;
  created_at: string;
  updated_at: string;
}

export interface FiscalRegisterTable {
  /** `<system>:<register number>`. */
  register: string;
  last_seq: number;
  last_fiscal_id: string | null;
  /** Until when one instance has the register to itself (its tries go out one after another). */
  busy_until: string | null;
  updated_at: string;
}

export type DomainReceiptsRow = Selectable<DomainReceiptsTable>;
export type ReceiptRow = Selectable<ReceiptTable>;
export type NewReceiptRow = Insertable<ReceiptTable>;
