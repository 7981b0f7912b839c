import type { ConnectTokenRow, NewConnectTokenRow } from './connect-token.table.js';
import type { Executor } from './database.js';

export async function insertConnectToken(db: Executor, row: NewConnectTokenRow): Promise<void> {
  await db.insertInto('connect_tokens').values(row).execute();
}

export async function findConnectToken(db: Executor, id: string): Promise<ConnectTokenRow | undefined> {
  return db.selectFrom('connect_tokens').selectAll().where('id', '=', id).executeTakeFirst();
}

/**
 * A token with the facts every request it authenticates needs: its domain (null columns when the
 * domain is gone) and its merchant's verification and rate limit.
 */
export interface ConnectTokenWithAccount extends ConnectTokenRow {
  domain_host: string | null;
  domain_verified: number | null;
  domain_merchant_id: string | null;
  business_verified: number;
  rate_limit_per_minute: number | null;
}

export async function findConnectTokenWithAccount(
  db: Executor,
  id: string,
): Promise<ConnectTokenWithAccount | undefined> {
  return db
    .selectFrom('connect_tokens')
    .innerJoin('merchants', 'merchants.id', 'connect_tokens.merchant_id')
    .leftJoin('domains', 'domains.id', 'connect_tokens.domain_id')
    .selectAll('connect_tokens')
    .select([
      'domains.host as domain_host',
      'domains.verified as domain_verified',
      'domains.merchant_id as domain_merchant_id',
      'merchants.business_verified',
      'merchants.rate_limit_per_minute',
    ])
    .where('connect_tokens.id', '=', id)
    .executeTakeFirst();
}

/** A merchant's tokens with their domain's host, oldest first. */
export async function listMerchantConnectTokens(
  db: Executor,
  merchantId: string,
): Promise<Array<ConnectTokenRow & { domain_host: string | null }>> {
  return db
    .selectFrom('connect_tokens')
    .leftJoin('domains', 'domains.id', 'connect_tokens.domain_id')
    .selectAll('connect_tokens')
    .select('domains.host as domain_host')
    .where('connect_tokens.merchant_id', '=', merchantId)
    .orderBy('connect_tokens.created_at')
    .orderBy('connect_tokens.id')
    .execute();
}

/** Marks the token revoked unless it already is; answers whether this call revoked it. */
export async function markConnectTokenRevoked(db: Executor, id: string, now: string): Promise<boolean> {
  const result = await db
    .updateTable('connect_tokens')
    .set({ revoked_at: now })
    .where('id', '=', id)
    .where('revoked_at', 'is', null)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

/** As `touchKeyLastUse`, for a connect token. */
export async function touchConnectTokenLastUse(
  db: Executor,
  tokenId: string,
  now: string,
  since: string,
): Promise<boolean> {
  const result = await db
    .updateTable('connect_tokens')
    .set({ last_used_at: now })
    .where('id', '=', tokenId)
    .where((eb) => eb.or([eb('last_used_at', 'is', null), eb('last_used_at', '<', since)]))
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}
