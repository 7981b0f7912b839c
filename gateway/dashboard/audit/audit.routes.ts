/**
 * The audit log page, `GET /dashboard/audit-log[?after=<created_at>|<id>]`, for the owner and
 * admins (a viewer gets the 403 page). 50 entries a page, newest first; `after` is the cursor of
 * the last entry shown, checked (an ISO instant and a uuid) before use: a malformed one is a 400.
 */
import type { AuditCursor } from '../../../storage/dashboard-audit.repository.js';
import type { SectionRoutes } from '../kit.js';
import { messagePage } from '../pages.js';
import { mayReadAudit } from '../roles.js';
import { auditLogPage } from './audit.pages.js';
import { readAuditLog } from './audit.service.js';
import { AUDIT_MESSAGES } from './messages.js';

const INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,6})?Z$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** The cursor of a page link (`<created_at>|<id>`), or null when malformed. */
export function parseAuditCursor(raw: string): AuditCursor | null {
  const bar = raw.indexOf('|');
  if (bar < 0) return null;
  const createdAt = raw.slice(0, bar);
  const id = raw.slice(bar + 1);
  if (!INSTANT.test(createdAt) || Number.isNaN(Date.parse(createdAt)) || !UUID.test(id)) return null;
  return { created_at: createdAt, id };
}

export function auditCursorHref(cursor: AuditCursor): string {
  return `/dashboard/audit-log?after=${encodeURIComponent(`${cursor.created_at}|${cursor.id}`)}`;
}

export const auditRoutes: SectionRoutes = (router, kit) => {
  router.get('/dashboard/audit-log', async (ctx) => {
    const visit = await kit.signedIn(ctx, 'audit_log');
    if (!visit) return;
    if (!mayReadAudit(visit.session.user.role)) return kit.forbidden(ctx, visit);
    const raw = kit.query(ctx, 'after');
    let after: AuditCursor | undefined;
    if (raw !== undefined) {
      const parsed = parseAuditCursor(raw);
      if (parsed === null) {
        const a = AUDIT_MESSAGES[visit.shell.lang];
        return kit.send(
          ctx,
          visit.shell,
          400,
          messagePage(visit.shell, a.badCursorTitle, a.badCursorText, { href: '/dashboard/audit-log', text: a.first }),
        );
      }
      after = parsed;
    }
    const page = await readAuditLog(kit.deps, visit.merchantId, after);
    const view = {
      events: page.events,
      nextHref: page.next === null ? null : auditCursorHref(page.next),
      paged: after !== undefined,
    };
    kit.send(ctx, visit.shell, 200, auditLogPage(visit.shell, view));
  });
};
