/**
 * How many payments a merchant has per environment, domain, UTC day of creation, status and
 * processor (`''` for none yet), kept by triggers (migration 0020); the payment list's `total`.
 */
export interface PaymentCountTable {
  merchant_id: string;
  environment: 'live' | 'test';
  domain_id: string;
  /** `YYYY-MM-DD`, the UTC day of `created_at`. */
  day: string;
  status: string;
  processor: string;
  n: number | string;
}
