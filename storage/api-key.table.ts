import type { ColumnType, Insertable, Selectable } from 'kysely';

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
  /** When the key last authenticated a request (to the minute: written at most once a minute); null: never. */
  last_used_at: ColumnType<string | null, string | null | undefined, string | null>;
}

export type ApiKeyRow = Selectable<ApiKeyTable>;
export type NewApiKeyRow = Insertable<ApiKeyTable>;
