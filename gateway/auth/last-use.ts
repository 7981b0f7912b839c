/**
 * "Last used" of API keys and connect tokens, shown on the dashboard. A request that authenticates
 * records its key's (or token's) time of use, but at most once a minute per key: an in-process memo
 * skips the write while this instance wrote it less than a minute ago, and the write itself is
 * conditional (`last_used_at` null or older than a minute), so several instances write it about
 * once a minute between them. The write never delays nor fails the request: it runs after the
 * credential is accepted, without being awaited, and a failure is only logged. `last_used_at` does
 * not move the account version (storage/migrations/0015-key-last-use.ts), so it never empties a
 * cache.
 */
import { touchKeyLastUse } from '../../storage/api-key.repository.js';
import { touchConnectTokenLastUse } from '../../storage/connect-token.repository.js';
import { toStoredInstant } from '../domain/clock.js';
import type { Deps } from '../runtime/deps.js';

/** How often at most a key's (or token's) last use is written. */
export const LAST_USE_INTERVAL_MS = 60_000;
const MAX_MEMO = 10_000;

/** When this instance last wrote each credential's use (business time), per gateway. */
const memos = new WeakMap<object, Map<string, number>>();

function memoOf(deps: Deps): Map<string, number> {
  let memo = memos.get(deps.accountCache);
  if (memo === undefined) {
    memo = new Map();
    memos.set(deps.accountCache, memo);
  }
  return memo;
}

/**
 * Notes that `id` (an API key's or a connect token's) authenticated a request now. Answers the
 * write's promise (never rejected) for tests; callers do not wait for it.
 */
export function recordLastUse(deps: Deps, kind: 'api_key' | 'connect_token', id: string): Promise<void> {
  const nowMs = deps.clock.nowMs();
  const memo = memoOf(deps);
  const memoKey = `${kind}:${id}`;
  const written = memo.get(memoKey);
  if (written !== undefined && nowMs >= written && nowMs - written < LAST_USE_INTERVAL_MS) return Promise.resolve();
  if (memo.size >= MAX_MEMO) memo.clear();
  memo.set(memoKey, nowMs);
  const now = toStoredInstant(nowMs);
  const since = toStoredInstant(nowMs - LAST_USE_INTERVAL_MS);
  const write = kind === 'api_key' ? touchKeyLastUse : touchConnectTokenLastUse;
  return write(deps.db, id, now, since).then(
    () => undefined,
    (error: unknown) => {
      deps.logger.warn(
        { kind, id, err: error instanceof Error ? error.message : String(error) },
        'last use of a credential not recorded',
      );
    },
  );
}
