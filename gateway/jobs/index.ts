/** Every kind of due work the gateway runs, in the order a scheduler run visits them. */
import type { Deps } from '../runtime/deps.js';
import { expirePaymentsWork } from './expire-payments.js';
import { pruneIdempotencyKeysWork } from './prune-idempotency-keys.js';
import type { DueWork } from './scheduler.js';

export function dueWorks(deps: Deps): DueWork[] {
  return [expirePaymentsWork(deps), pruneIdempotencyKeysWork(deps)];
}
