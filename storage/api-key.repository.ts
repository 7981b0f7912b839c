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
