/**
 * `Idempotency-Key` (spec "Header Idempotency-Key"). The first request with a key claims it; its
 * result is stored in the same transaction as the work it did, so a retry within 24 hours answers
 * exactly what the first request answered. A retry while the first is still running gets 409
 * `conflict`; the same key with another body gets 422. A request that fails without doing anything
 * releases the key, so the client may correct the request and retry with the same key.
 */

import type { Executor } from '../../storage/database.js';
import {
  claimIdempotencyKey,
  completeIdempotencyKey,
  findIdempotencyKey,
  releaseIdempotencyKey,
  takeOverIdempotencyKey,
} from '../../storage/idempotency-key.repository.js';
import type { NewIdempotencyKeyRow } from '../../storage/idempotency-key.table.js';
import { DAY_MS, toStoredInstant } from '../domain/clock.js';
import { ApiError, validationFailed } from '../domain/errors.js';
import type { Environment } from '../domain/payment.js';
import type { Deps } from '../runtime/deps.js';
import { canonicalJson, sha256Hex } from '../runtime/hashing.js';

export const IDEMPOTENCY_WINDOW_MS = DAY_MS;
/** How long a claimed key may stay `processing` before another request may take it over. */
export const IDEMPOTENCY_LOCK_MS = 60_000;
export const IDEMPOTENCY_HEADER = 'Idempotency-Key';

export interface IdempotencyScope {
  readonly merchantId: string;
  readonly environment: Environment;
  /** The operation, e.g. `payments.create`. */
  readonly scope: string;
}

export interface StoredResponse {
  readonly status: number;
  readonly body: unknown;
}

/** Completes the claimed key inside the caller's transaction. */
export type CompleteKey = (trx: Executor, response: StoredResponse) => Promise<void>;

export function checkIdempotencyKey(raw: string | undefined): string | undefined {
  if (raw === undefined) return undefined;
  if (raw.length === 0 || raw.length > 255 || !/^[\x21-\x7e]+$/.test(raw)) {
    throw validationFailed({
      [IDEMPOTENCY_HEADER]: ['must be 1 to 255 visible ASCII characters (a UUID works well)'],
    });
  }
  return raw;
}

/**
 * Runs `work` at most once per key. `work` must call `complete` inside the transaction that makes
 * its effect durable; it answers the response the client gets the first time.
 */
export async function runIdempotent(
  deps: Deps,
  scope: IdempotencyScope,
  key: string | undefined,
  requestBody: unknown,
  work: (complete: CompleteKey) => Promise<StoredResponse>,
): Promise<StoredResponse & { replayed: boolean }> {
  if (key === undefined) {
    const response = await work(async () => {});
    return { ...response, replayed: false };
  }
  const nowMs = deps.clock.nowMs();
  const now = toStoredInstant(nowMs);
  const row: NewIdempotencyKeyRow = {
    id: deps.ids.uuid(nowMs),
    merchant_id: scope.merchantId,
    environment: scope.environment,
    scope: scope.scope,
    idempotency_key: key,
    request_hash: sha256Hex(canonicalJson(requestBody)),
    state: 'processing',
    response_status: null,
    response_body: null,
    locked_until: toStoredInstant(nowMs + IDEMPOTENCY_LOCK_MS),
    created_at: now,
    expires_at: toStoredInstant(nowMs + IDEMPOTENCY_WINDOW_MS),
  };
  const identity = {
    merchant_id: scope.merchantId,
    environment: scope.environment,
    scope: scope.scope,
    idempotency_key: key,
  };

  let claimed = await claimIdempotencyKey(deps.db, row);
  if (!claimed) {
    const existing = await findIdempotencyKey(deps.db, identity);
    if (existing === undefined) {
      // Deleted between our insert and our read (its request failed): claim it afresh.
      claimed = await claimIdempotencyKey(deps.db, row);
    } else if (existing.expires_at <= now) {
      claimed = await takeOverIdempotencyKey(deps.db, existing, row, now);
    } else if (existing.request_hash !== row.request_hash) {
      throw validationFailed(
        { [IDEMPOTENCY_HEADER]: ['was already used with a different request body; use a new key for a new request'] },
        'This Idempotency-Key was already used with a different request body.',
      );
    } else if (existing.state === 'completed') {
      return {
        status: existing.response_status ?? 200,
        body: JSON.parse(existing.response_body ?? 'null') as unknown,
        replayed: true,
      };
    } else if (existing.locked_until <= now) {
      // Its request died while processing (nothing was committed): run it again under this claim.
      claimed = await takeOverIdempotencyKey(deps.db, existing, row, now);
    }
    if (!claimed && existing !== undefined && (existing.expires_at <= now || existing.locked_until <= now)) {
      // The record was deleted while we looked (pruned past its window, or released by its failed
      // request) rather than taken by another request: claim the key afresh.
      claimed = await claimIdempotencyKey(deps.db, row);
    }
    if (!claimed) {
      throw new ApiError(
        'conflict',
        'A request with this Idempotency-Key is still being processed. Retry in a moment with the same key.',
        { headers: { 'Retry-After': '1' } },
      );
    }
  }

  try {
    const response = await work(async (trx, stored) => {
      const done = await completeIdempotencyKey(trx, row.id, {
        status: stored.status,
        body: JSON.stringify(stored.body),
      });
      if (!done) throw new Error('idempotency record was taken over while its request ran');
    });
    return { ...response, replayed: false };
  } catch (error) {
    // The work's transaction rolled back, so nothing happened: free the key for a corrected retry.
    await releaseIdempotencyKey(deps.db, row.id).catch((releaseError: unknown) => {
      deps.logger.error({ err: releaseError }, 'could not release idempotency key');
    });
    throw error;
  }
}
