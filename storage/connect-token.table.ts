import type { ColumnType, Insertable, Selectable } from 'kysely';
import type { ConnectPlatform } from '../gateway/domain/connect-tokens.js';

/** A connect token, by its id (the token's `jti`); the token itself is never stored. */
export interface ConnectTokenTable {
  id: string;
  merchant_id: string;
  /** The one domain the token may take payments on. */
  domain_id: string;
  platform: ConnectPlatform;
  environment: 'live' | 'test';
  created_at: string;
  expires_at: string;
  revoked_at: string | null;
  /** When the token last authenticated a request (written at most once a minute); null: never. */
  last_used_at: ColumnType<string | null, string | null | undefined, string | null>;
}

export type ConnectTokenRow = Selectable<ConnectTokenTable>;
export type NewConnectTokenRow = Insertable<ConnectTokenTable>;
