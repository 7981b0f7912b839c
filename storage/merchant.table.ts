import type { Insertable, Selectable, Updateable } from 'kysely';

export interface MerchantTable {
  id: string;
  name: string;
  email: string | null;
  business_verified: number;
  unlimited: number;
  /** Operator's override of the per-account request limit; null means the service default. */
  rate_limit_per_minute: number | null;
  created_at: string;
  updated_at: string;
}

export type MerchantRow = Selectable<MerchantTable>;
export type NewMerchantRow = Insertable<MerchantTable>;
export type MerchantUpdate = Updateable<MerchantTable>;
