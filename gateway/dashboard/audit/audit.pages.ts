/**
 * The audit log page: a table of 50 entries, newest first, with a link to the older ones. At a
 * phone's width each row becomes a small stack of labelled lines (no sideways scrolling).
 */
import type { DashboardAuditEventRow } from '../../../storage/dashboard-audit.table.js';
import { escapeHtml } from '../../checkout/html.js';
import { formatDateTimeSeconds } from '../../i18n/format.js';
import type { Language } from '../../i18n/languages.js';
import { layout, type Shell } from '../layout.js';
import { AUDIT_ACTIONS, type AuditAction } from './audit.service.js';
import { AUDIT_MESSAGES } from './messages.js';

/** A stored instant in words of the reader's language, Yerevan time (the UTC instant is shown beside it). */
export function readableInstant(instant: string, language: Language): string {
  return Number.isNaN(Date.parse(instant)) ? instant : formatDateTimeSeconds(language, instant);
}

function isAuditAction(action: string): action is AuditAction {
  return (AUDIT_ACTIONS as readonly string[]).includes(action);
}

export interface AuditLogView {
  readonly events: readonly DashboardAuditEventRow[];
  /** The next (older) page's link, or null at the end. */
  readonly nextHref: string | null;
  /** Whether this is a later page (then a link back to the newest). */
  readonly paged: boolean;
}

export function auditLogPage(shell: Shell, view: AuditLogView): string {
  const a = AUDIT_MESSAGES[shell.lang];
  const rows = view.events
    .map((event) => {
      const action = isAuditAction(event.action) ? a.actions[event.action] : event.action;
      const who = event.actor_email ?? a.operator;
      return `<tr data-action="${escapeHtml(event.action)}">
<td data-label="${escapeHtml(a.when)}"><span><time datetime="${escapeHtml(event.created_at)}">${escapeHtml(readableInstant(event.created_at, shell.lang))}</time><span class="iso">${escapeHtml(event.created_at)}</span></span></td>
<td data-label="${escapeHtml(a.who)}">${escapeHtml(who)}</td>
<td data-label="${escapeHtml(a.action)}">${escapeHtml(action)}</td>
<td data-label="${escapeHtml(a.subject)}">${escapeHtml(event.subject ?? '')}</td>
<td data-label="${escapeHtml(a.address)}">${escapeHtml(event.address ?? '')}</td>
</tr>`;
    })
    .join('');
  const table =
    view.events.length === 0
      ? `<p class="muted">${escapeHtml(a.empty)}</p>`
      : `<div class="audit-wrap"><table class="audit-table" aria-label="${escapeHtml(a.tableLabel)}">
<thead><tr><th scope="col">${escapeHtml(a.when)}</th><th scope="col">${escapeHtml(a.who)}</th><th scope="col">${escapeHtml(a.action)}</th><th scope="col">${escapeHtml(a.subject)}</th><th scope="col">${escapeHtml(a.address)}</th></tr></thead>
<tbody>${rows}</tbody></table></div>`;
  const links = [
    view.paged ? `<a href="/dashboard/audit-log">${escapeHtml(a.first)}</a>` : '',
    view.nextHref === null ? '' : `<a href="${escapeHtml(view.nextHref)}" rel="next">${escapeHtml(a.next)}</a>`,
  ].join('');
  return layout(
    shell,
    a.title,
    `<h1>${escapeHtml(a.title)}</h1>
<p class="muted">${escapeHtml(a.intro)}</p>
<section class="card" aria-label="${escapeHtml(a.tableLabel)}">
${table}
${links === '' ? '' : `<nav class="audit-pager" aria-label="${escapeHtml(a.title)}">${links}</nav>`}
</section>`,
  );
}
