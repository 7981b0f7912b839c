/**
 * The audit log of an account: sensitive actions, who did them and from where, kept in the
 * database and shown to the owner and admins (never to viewers). Services call `recordAudit` in
 * the transaction of the change itself when they have one, so an action and its entry are written
 * together or not at all.
 */
import { type AuditCursor, insertAuditEvent, listAuditEvents } from '../../../storage/dashboard-audit.repository.js';
import type { DashboardAuditEventRow } from '../../../storage/dashboard-audit.table.js';
import type { Executor } from '../../../storage/database.js';
import { toStoredInstant } from '../../domain/clock.js';
import type { Deps } from '../../runtime/deps.js';

/** Every action the log records; the pages word each one in the reader's language. */
export const AUDIT_ACTIONS = [
  'sign_in.new_address',
  'api_key.created',
  'api_key.revoked',
  'domain.added',
  'domain.verified',
  'webhook.url_changed',
  'webhook.secret_revealed',
  'webhook.secret_rotated',
  'processor.configured',
  'processor.enabled',
  'processor.disabled',
  'connect_token.created',
  'connect_token.revoked',
  'member.invited',
  'member.invitation_cancelled',
  'member.removed',
  'member.role_changed',
  'totp.enabled',
  'totp.disabled',
  'totp.recovery_codes_renewed',
  'business.submitted',
  'business.verified',
  'business.rejected',
  'refund.created',
  'payment.settled',
  'payment.captured',
  'payment.released',
  'billing.purchase_created',
  'billing.auto_topup_changed',
  'payment_link.created',
  'payment_link.deactivated',
  'payments.exported',
  'webhook.resent',
] as const;
export type AuditAction = (typeof AUDIT_ACTIONS)[number];

/** Who acted: a dashboard user (with the request's address), or the operator (null). */
export interface AuditActor {
  readonly userId: string;
  readonly email: string;
  readonly address: string;
}

export interface AuditEntry {
  readonly merchantId: string;
  readonly actor: AuditActor | null;
  readonly action: AuditAction;
  /** What it was done to, in words a person reads (a key's prefix and last four, a host...). */
  readonly subject?: string | null;
}

export async function recordAudit(deps: Deps, db: Executor, entry: AuditEntry): Promise<void> {
  const nowMs = deps.clock.nowMs();
  await insertAuditEvent(db, {
    id: deps.ids.uuid(nowMs),
    merchant_id: entry.merchantId,
    user_id: entry.actor?.userId ?? null,
    actor_email: entry.actor?.email ?? null,
    action: entry.action,
    subject: entry.subject ?? null,
    address: entry.actor?.address ?? null,
    created_at: toStoredInstant(nowMs),
  });
}

export const AUDIT_PAGE_SIZE = 50;

/** A page of the merchant's log, newest first, and the cursor of the next page (null at the end). */
export async function readAuditLog(
  deps: Deps,
  merchantId: string,
  after?: AuditCursor,
): Promise<{ events: DashboardAuditEventRow[]; next: AuditCursor | null }> {
  const rows = await listAuditEvents(deps.db, merchantId, AUDIT_PAGE_SIZE + 1, after);
  const events = rows.slice(0, AUDIT_PAGE_SIZE);
  const last = events.at(-1);
  const next =
    rows.length > AUDIT_PAGE_SIZE && last !== undefined ? { created_at: last.created_at, id: last.id } : null;
  return { events, next };
}
