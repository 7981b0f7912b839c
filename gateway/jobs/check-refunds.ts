/**
 * Due work: refunds whose outcome is unknown (the processor did not answer), or still pending a
 * minute after they were sent (the request died before settling), are checked with the processor
 * and settled: succeeded (the payment is updated and `payment.refunded` is emitted) or failed (the
 * reservation is released). Still unknown: checked again after 1, 5 and 30 minutes, then every
 * 6 hours. A refund is never sent again.
 */
import { checkDueRefunds } from '../refunds/refund.service.js';
import type { Deps } from '../runtime/deps.js';
import type { DueWork } from './scheduler.js';

export function checkRefundsWork(deps: Deps, batchSize = 20): DueWork {
  return { name: 'check-refunds', runBatch: () => checkDueRefunds(deps, batchSize) };
}
