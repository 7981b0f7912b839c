/**
 * Due work: forget idempotency records past their 24-hour window. A retry after the window is a new
 * request anyway (the record would be taken over); pruning keeps the table at one day of traffic.
 */
import { deleteExpiredIdempotencyKeys } from '../../storage/idempotency-key.repository.js';
import { toStoredInstant } from '../domain/clock.js';
import type { Deps } from '../runtime/deps.js';
import type { DueWork } from './scheduler.js';

export function pruneIdempotencyKeysWork(deps: Deps, batchSize = 500): DueWork {
  return {
    name: 'prune-idempotency-keys',
    runBatch: () => deleteExpiredIdempotencyKeys(deps.db, toStoredInstant(deps.clock.nowMs()), batchSize),
  };
}
