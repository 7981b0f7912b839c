import type { ApiKeyRow, NewApiKeyRow } from './api-key.table.js';
import type { Executor } from './database.js';

export async function insertApiKey(db: Executor, row: NewApiKeyRow): Promise<void> {
  await db.insertInto('api_keys').values(row).execute();
}

/** A key with the facts of its merchant that every authenticated request needs. */
export interface KeyWithMerchant extends ApiKeyRow {
  business_verified: number;
  rate_limit_per_minute: number | null;
}

export async function findActiveKeyByHash(db: Executor, keyHash: string): Promise<KeyWithMerchant | undefined> {
  return db
    .selectFrom('api_keys')
    .innerJoin('merchants', 'merchants.id', 'api_keys.merchant_id')
    .selectAll('api_keys')
    .select(['merchants.business_verified', 'merchants.rate_limit_per_minute'])
    .where('api_keys.key_hash', '=', keyHash)
    .where('api_keys.revoked_at', 'is', null)
    .executeTakeFirst();
}

/** Revokes a key of the merchant; answers false when it has no such active key. */
export async function revokeKey(db: Executor, merchantId: string, keyId: string, now: string): Promise<boolean> {
  const result = await db
    .updateTable('api_keys')
    .set({ revoked_at: now })
    .where('id', '=', keyId)
    .where('merchant_id', '=', merchantId)
    .where('revoked_at', 'is', null)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

/** The merchant's keys, revoked ones too, newest first. */
export async function listMerchantKeys(db: Executor, merchantId: string): Promise<ApiKeyRow[]> {
  return db
    .selectFrom('api_keys')
    .selectAll()
    .where('merchant_id', '=', merchantId)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .execute();
}

/**
 * Records that the key authenticated a request at `now`, unless it already did within the last
 * minute (`since`: now minus a minute). Answers whether the row was written.
 */
export async function touchKeyLastUse(db: Executor, keyId: string, now: string, since: string): Promise<boolean> {
  const result = await db
    .updateTable('api_keys')
    .set({ last_used_at: now })
    .where('id', '=', keyId)
    .where((eb) => eb.or([eb('last_used_at', 'is', null), eb('last_used_at', '<', since)]))
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}
