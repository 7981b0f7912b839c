import type { Generated, Insertable, Selectable } from 'kysely';

export interface DomainTable {
  id: string;
  merchant_id: string;
  host: string;
  /** The account's hosted domain: one per merchant, verified by construction, always offers the sandbox. */
  hosted: number;
  verified: number;
  webhook_url: string | null;
  webhook_secret: string;
  /** The secret a rotation introduces; it replaces `webhook_secret` at `webhook_secret_next_at`. */
  webhook_secret_next: string | null;
  webhook_secret_next_at: string | null;
  /** When the merchant was last emailed about failing deliveries of this domain (at most every 6 h). */
  failure_email_at: string | null;
  /** The domain's largest payment in AMD, at most the service-wide one; null: the service-wide one. */
  max_payment_amount: number | null;
  /** Payments per buyer per window on this domain; 0: no velocity limit; null: the service default. */
  velocity_limit: number | null;
  /** The velocity window in minutes; null: the service default. */
  velocity_window_minutes: number | null;
  created_at: string;
  updated_at: string;
}

export interface DomainProcessorTable {
  domain_id: string;
  processor: string;
  enabled: number;
  /**
   * The processor's settings for the domain (credentials, merchant ids), JSON sealed with the
   * service secret (gateway/processors/settings.ts); null when the processor needs none.
   */
  config: string | null;
  /** Where the checkout lists the processor among the domain's (ascending, then by slug). */
  position: Generated<number>;
  created_at: string;
  updated_at: string;
}

export type DomainRow = Selectable<DomainTable>;
export type NewDomainRow = Insertable<DomainTable>;
export type DomainProcessorRow = Selectable<DomainProcessorTable>;
