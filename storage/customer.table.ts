import type { Insertable, Selectable } from 'kysely';

export interface CustomerTable {
  id: string;
  merchant_id: string;
  environment: 'live' | 'test';
  email: string | null;
  created_at: string;
}

export type CustomerRow = Selectable<CustomerTable>;
export type NewCustomerRow = Insertable<CustomerTable>;
