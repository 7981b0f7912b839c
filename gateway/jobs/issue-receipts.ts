/**
 * Due work: fiscal receipts waiting to be issued, tries whose outcome is unknown (the register is
 * searched), and tries whose process died (their lease lapsed). See gateway/receipts/issuer.ts.
 */
import { issueDueReceipts } from '../receipts/issuer.js';
import type { Deps } from '../runtime/deps.js';
import type { DueWork } from './scheduler.js';

export function issueReceiptsWork(deps: Deps, batchSize = 20): DueWork {
  return { name: 'issue-receipts', runBatch: () => issueDueReceipts(deps, batchSize) };
}
