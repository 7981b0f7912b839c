/**
 * The operator's sensitive actions go to the account's audit log too, with no dashboard user (the
 * log shows them as the operator's): keys, domains, processors, connect tokens, webhook secrets.
 */
import { type AuditAction, recordAudit } from '../dashboard/audit/audit.service.js';
import type { Deps } from '../runtime/deps.js';

export function operatorAudit(
  deps: Deps,
  merchantId: string,
  action: AuditAction,
  subject: string | null,
): Promise<void> {
  return recordAudit(deps, deps.db, { merchantId, actor: null, action, subject });
}
