/**
 * A customer record as the customers page and `GET /api/v1/customers` show it: per merchant,
 * environment and customer id, kept by triggers on `payments` (migration 0019). Amounts are whole
 * AMD, as payments hold them; counts and sums may come back as strings from PostgreSQL (bigint).
 */
export interface CustomerTotalTable {
  merchant_id: string;
  environment: 'live' | 'test';
  customer_id: string;
  /** Lower-cased `customer_email` of its latest payment that had one. */
  email: string | null;
  /** `customer_name` of its latest payment that had one. */
  name: string | null;
  payments_count: number | string;
  /** Payments completed at some point (a refunded payment was paid). */
  paid_count: number | string;
  total_paid: number | string;
  refunded_amount: number | string;
  first_payment_at: string;
  last_payment_at: string;
  last_paid_at: string | null;
}
