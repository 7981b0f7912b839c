/**
 * Due work: payments left processing at a live processor are asked about (the status read back)
 * on a bounded schedule from the session's start: 1, 3, 6, 10, 15 and 21 minutes, then 30 minutes
 * and 1, 2, 4, 8, 16 and 24 hours (`POLL_AFTER_MS`), until the processor gives a final answer. A
 * lost callback or a buyer who never came back still ends in the right status, and a processor
 * that confirms after the gateway expired the payment completes it late.
 */
import { pollProcessorSessions } from '../payments/processor-payments.service.js';
import type { Deps } from '../runtime/deps.js';
import type { DueWork } from './scheduler.js';

export function pollProcessorsWork(deps: Deps, batchSize = 20): DueWork {
  return { name: 'poll-processors', runBatch: () => pollProcessorSessions(deps, batchSize) };
}
