import type { Selectable } from 'kysely';

/** One sensitive action on an account (see migration 0013 and gateway/dashboard/audit/). */
export interface DashboardAuditEventTable {
  /** A time-ordered uuid (v7), so equal times still list in the order they happened. */
  id: string;
  merchant_id: string;
  /** The dashboard user who acted; null when the operator did (`bin/gateway`) or the service. */
  user_id: string | null;
  /** That user's email when it happened (kept if the member is removed later). */
  actor_email: string | null;
  /** What was done, a dotted name such as `api_key.created` (gateway/dashboard/audit/audit.service.ts). */
  action: string;
  /** What it was done to, in words a person reads: a key's prefix and last four, a host, an email. */
  subject: string | null;
  /** The address the request came from; null for the operator. */
  address: string | null;
  created_at: string;
}

export type DashboardAuditEventRow = Selectable<DashboardAuditEventTable>;
