/** Due work: payments unpaid 20 minutes after creation become `expired`. */
import { expireDuePayments } from '../payments/lifecycle.service.js';
import type { Deps } from '../runtime/deps.js';
import type { DueWork } from './scheduler.js';

export function expirePaymentsWork(deps: Deps, batchSize = 100): DueWork {
  return { name: 'expire-payments', runBatch: () => expireDuePayments(deps, batchSize) };
}
