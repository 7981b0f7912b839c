/**
 * How many payments a merchant has per environment, domain, UTC day of creation, status and
 * processor (`''` for none yet), in shards, kept by triggers (migrations 0020, 0029); the payment
 * list's `total`.
 */
export interface PaymentCountTable {
  merchant_id: string;
  environment: 'live' | 'test';
  domain_id: string;
  /** `YYYY-MM-DD`, the UTC day of `created_at`. */
  day: string;
  status: string;
  processor: string;
  /**
   * Which of the key's rows (migration 0029): on PostgreSQL a hash of the payment's id, 0 to 15, so
   * concurrent creates do not queue on one row; always 0 on SQLite. Readers sum `n` over the shards.
   */
  shard: number;
  n: number | string;
}
