import type { ColumnType, Insertable, Selectable, Updateable } from 'kysely';

export interface MerchantTable {
  id: string;
  name: string;
  email: string | null;
  business_verified: number;
  unlimited: number;
  /** Operator's override of the per-account request limit; null means the service default. */
  rate_limit_per_minute: number | null;
  /** The language of the service's emails to the merchant: `en` (the default), `hy` or `ru`. */
  language: ColumnType<'en' | 'hy' | 'ru', 'en' | 'hy' | 'ru' | undefined, 'en' | 'hy' | 'ru'>;
  created_at: string;
  updated_at: string;
}

export type MerchantRow = Selectable<MerchantTable>;
export type NewMerchantRow = Insertable<MerchantTable>;
export type MerchantUpdate = Updateable<MerchantTable>;
