/**
 * A merchant's API keys: created (shown once: only a hash, a prefix and the last four characters
 * are kept), listed, revoked. A live key may need a verified business.
 */
import { insertApiKey, listMerchantKeys, revokeKey } from '../../storage/api-key.repository.js';
import type { Executor } from '../../storage/database.js';
import { composeKey, type KeyAccess, keyHint } from '../domain/api-keys.js';
import { toStoredInstant } from '../domain/clock.js';
import type { Environment } from '../domain/payment.js';
import type { Deps } from '../runtime/deps.js';
import { sha256Hex } from '../runtime/hashing.js';
import { OperatorError, requireMerchant } from './operator.js';

export interface CreatedKey {
  key: string;
  key_id: string;
  environment: Environment;
  access: KeyAccess;
}

/** Writes a new key of the merchant (in `db`, a transaction when the merchant is new) and answers it once. */
export async function createKey(
  deps: Deps,
  db: Executor,
  merchantId: string,
  environment: Environment,
  access: KeyAccess,
  nowMs: number,
): Promise<CreatedKey> {
  const key = composeKey(environment, deps.ids.token(32));
  const hint = keyHint(key);
  const keyId = deps.ids.uuid(nowMs);
  await insertApiKey(db, {
    id: keyId,
    merchant_id: merchantId,
    environment,
    access,
    key_hash: sha256Hex(key),
    key_prefix: hint.prefix,
    key_last4: hint.last4,
    created_at: toStoredInstant(nowMs),
    revoked_at: null,
  });
  return { key, key_id: keyId, environment, access };
}

/**
 * A live key or live connect token asked for an account whose business is not verified yet, where
 * the caller refuses it (the dashboard; the operator's CLI may issue them, see docs/decisions.md
 * "API keys and connect tokens on the dashboard": such a key is refused by the API until then).
 */
export class BusinessNotVerified extends OperatorError {
  override name = 'BusinessNotVerified';
}

export async function createApiKey(
  deps: Deps,
  input: {
    merchantId: string;
    environment: Environment;
    access: KeyAccess;
    /** Refuse a live key (BusinessNotVerified) unless the business is verified. */
    liveNeedsVerifiedBusiness?: boolean;
  },
): Promise<CreatedKey & { merchant_id: string }> {
  const merchant = await requireMerchant(deps, input.merchantId);
  if (input.liveNeedsVerifiedBusiness === true && input.environment === 'live' && merchant.business_verified !== 1) {
    throw new BusinessNotVerified(`merchant ${input.merchantId} is not verified: live keys need a verified business`);
  }
  const key = await createKey(deps, deps.db, input.merchantId, input.environment, input.access, deps.clock.nowMs());
  return { ...key, merchant_id: input.merchantId };
}

export interface ApiKeyView {
  key_id: string;
  environment: Environment;
  access: KeyAccess;
  /** What is kept in clear: `sk_test_AbCd` and the last four characters. */
  prefix: string;
  last4: string;
  created_at: string;
  last_used_at: string | null;
  revoked_at: string | null;
}

/** The merchant's keys (never the keys themselves), revoked ones too, newest first. */
export async function listApiKeys(deps: Deps, merchantId: string): Promise<ApiKeyView[]> {
  await requireMerchant(deps, merchantId);
  const rows = await listMerchantKeys(deps.db, merchantId);
  return rows.map((row) => ({
    key_id: row.id,
    environment: row.environment,
    access: row.access,
    prefix: row.key_prefix,
    last4: row.key_last4,
    created_at: row.created_at,
    last_used_at: row.last_used_at,
    revoked_at: row.revoked_at,
  }));
}

/**
 * Revokes a key: the write moves the account version (storage/migrations/0006-account-version.ts),
 * so the next request on any instance is refused with it.
 */
export async function revokeApiKey(
  deps: Deps,
  input: { merchantId: string; keyId: string },
): Promise<{ merchant_id: string; key_id: string; revoked: true }> {
  await requireMerchant(deps, input.merchantId);
  const revoked = await revokeKey(deps.db, input.merchantId, input.keyId, toStoredInstant(deps.clock.nowMs()));
  if (!revoked) throw new OperatorError(`merchant ${input.merchantId} has no active key ${input.keyId}`);
  return { merchant_id: input.merchantId, key_id: input.keyId, revoked: true };
}
