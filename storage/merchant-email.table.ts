import type { Insertable, Selectable } from 'kysely';

/**
 * The outbox of emails to merchants (failed webhook deliveries, ...). Without `SMTP_URL` an email
 * is written to the log and kept here as `logged`; with it, sent and kept as `sent`.
 */
export interface MerchantEmailTable {
  id: string;
  merchant_id: string;
  domain_id: string | null;
  /** What it is about, e.g. `webhook_delivery_failed`. */
  kind: string;
  /** The merchant's email at the time; null when the merchant has none (the email is only logged). */
  recipient: string | null;
  subject: string;
  body: string;
  status: 'pending' | 'sent' | 'logged' | 'failed';
  attempts: number;
  next_attempt_at: string | null;
  last_error: string | null;
  created_at: string;
  sent_at: string | null;
}

export type MerchantEmailRow = Selectable<MerchantEmailTable>;
export type NewMerchantEmailRow = Insertable<MerchantEmailTable>;
