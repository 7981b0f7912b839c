/**
 * Due work: a webhook secret rotation ends 24 hours after it started, and the next secret becomes
 * the domain's only secret. (Deliveries already sign with the right secrets at any instant; this
 * records the change, so the CLI and later rotations start from the secret in use.)
 */
import { finishSecretRotations } from '../../storage/domain.repository.js';
import { toStoredInstant } from '../domain/clock.js';
import type { Deps } from '../runtime/deps.js';
import type { DueWork } from './scheduler.js';

export function finishSecretRotationsWork(deps: Deps): DueWork {
  return {
    name: 'finish-secret-rotations',
    async runBatch() {
      const now = toStoredInstant(deps.clock.nowMs());
      return finishSecretRotations(deps.db, now, now);
    },
  };
}
