import type { Executor } from './database.js';
import type { IdempotencyKeyRow, NewIdempotencyKeyRow } from './idempotency-key.table.js';

type KeyIdentity = Pick<IdempotencyKeyRow, 'merchant_id' | 'environment' | 'scope' | 'idempotency_key'>;

/** Inserts the record unless one exists for the same key; answers whether this call created it. */
export async function claimIdempotencyKey(db: Executor, row: NewIdempotencyKeyRow): Promise<boolean> {
  const inserted = await db
    .insertInto('idempotency_keys')
    .values(row)
    .onConflict((oc) => oc.columns(['merchant_id', 'environment', 'scope', 'idempotency_key']).doNothing())
    .returning('id')
    .executeTakeFirst();
  return inserted !== undefined;
}

export async function findIdempotencyKey(db: Executor, key: KeyIdentity): Promise<IdempotencyKeyRow | undefined> {
  return db
    .selectFrom('idempotency_keys')
    .selectAll()
    .where('merchant_id', '=', key.merchant_id)
    .where('environment', '=', key.environment)
    .where('scope', '=', key.scope)
    .where('idempotency_key', '=', key.idempotency_key)
    .executeTakeFirst();
}

/**
 * Takes over a record that no longer protects anything: expired (past the 24 h window) or left
 * `processing` by a request that died. Conditional, so of two takers exactly one wins.
 */
export async function takeOverIdempotencyKey(
  db: Executor,
  existing: IdempotencyKeyRow,
  replacement: NewIdempotencyKeyRow,
  now: string,
): Promise<boolean> {
  const result = await db
    .updateTable('idempotency_keys')
    .set({
      id: replacement.id,
      request_hash: replacement.request_hash,
      state: 'processing',
      response_status: null,
      response_body: null,
      locked_until: replacement.locked_until,
      created_at: replacement.created_at,
      expires_at: replacement.expires_at,
    })
    .where('id', '=', existing.id)
    .where((eb) =>
      eb.or([eb('expires_at', '<=', now), eb.and([eb('state', '=', 'processing'), eb('locked_until', '<=', now)])]),
    )
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

export async function completeIdempotencyKey(
  db: Executor,
  id: string,
  response: { status: number; body: string },
): Promise<boolean> {
  const result = await db
    .updateTable('idempotency_keys')
    .set({ state: 'completed', response_status: response.status, response_body: response.body })
    .where('id', '=', id)
    .where('state', '=', 'processing')
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

/** Forgets a key whose request failed before doing anything, so the client may retry with it. */
export async function releaseIdempotencyKey(db: Executor, id: string): Promise<void> {
  await db.deleteFrom('idempotency_keys').where('id', '=', id).where('state', '=', 'processing').execute();
}

/** Deletes up to `limit` records past their 24-hour window; answers how many it deleted. */
export async function deleteExpiredIdempotencyKeys(db: Executor, now: string, limit: number): Promise<number> {
  const doomed = db.selectFrom('idempotency_keys').select('id').where('expires_at', '<=', now).limit(limit);
  const result = await db.deleteFrom('idempotency_keys').where('id', 'in', doomed).executeTakeFirst();
  return Number(result.numDeletedRows);
}
