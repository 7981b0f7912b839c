import type { Insertable, Selectable } from 'kysely';

export interface ApiKeyTable {
  id: string;
  merchant_id: string;
  environment: 'live' | 'test';
  access: 'full' | 'payments';
  /** Lowercase hex SHA-256 of the whole key; the key itself is never stored. */
  key_hash: string;
  key_prefix: string;
  key_last4: string;
  created_at: string;
  revoked_at: string | null;
}

export type ApiKeyRow = Selectable<ApiKeyTable>;
export type NewApiKeyRow = Insertable<ApiKeyTable>;
