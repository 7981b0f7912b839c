/**
 * What each role of a team may do, decided on the server for every request (a hidden button is
 * only a courtesy):
 *
 * - `owner`: everything, and the only one who manages the team's owner seat;
 * - `admin`: everything else: keys, domains, processors, webhooks, tokens, members, refunds;
 * - `viewer`: reads pages, never sees a secret (keys, webhook secrets, tokens), changes nothing.
 */
import type { DashboardRole } from '../../storage/dashboard-user.table.js';
import { maySeeSecrets as readerMaySeeSecrets } from '../domain/access.js';

/** Whether the role may change anything on the account (and see secrets). */
export function mayManage(role: DashboardRole): boolean {
  return role === 'owner' || role === 'admin';
}

/**
 * Whether the role may see secrets (a webhook secret on request, a key or token when created, a
 * webhook URL's credentials): the one rule of gateway/domain/access.ts.
 */
export function maySeeSecrets(role: DashboardRole): boolean {
  return readerMaySeeSecrets({ kind: 'dashboard_member', role });
}

/** Whether the role may read the audit log. */
export function mayReadAudit(role: DashboardRole): boolean {
  return mayManage(role);
}
