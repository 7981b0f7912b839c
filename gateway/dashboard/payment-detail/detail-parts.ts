/**
 * The pieces the payment page's cards are built from: its texts for the visit, a cell that says
 * "none" for an empty value, a badge, and the page's tables, which become blocks of "column: value"
 * lines on a phone.
 */
import { escapeHtml } from '../../checkout/html.js';
import type { Language } from '../../i18n/languages.js';
import { timeTag } from '../api-keys/api-keys.pages.js';
import type { Shell } from '../layout.js';
import { PAYMENT_DETAIL_MESSAGES, type PaymentDetailMessages } from './messages.js';

export function paymentDetailText(shell: Shell): PaymentDetailMessages {
  return PAYMENT_DETAIL_MESSAGES[shell.lang];
}

export function cell(m: Pick<PaymentDetailMessages, 'none'>, value: string | null): string {
  return value === null || value === '' ? `<span class="muted">${escapeHtml(m.none)}</span>` : escapeHtml(value);
}

export function when(lang: Language, m: Pick<PaymentDetailMessages, 'none'>, value: string | null): string {
  return value === null ? `<span class="muted">${escapeHtml(m.none)}</span>` : timeTag(lang, value);
}

export function badge(text: string, on: boolean): string {
  return `<span class="keys-badge ${on ? 'on' : 'off'}">${escapeHtml(text)}</span>`;
}

/** A refusal beside its form (the summary at the top of the page is the one announced). */
export function formError(error: string | null): string {
  return error === null ? '' : `<p class="alert">${escapeHtml(error)}</p>`;
}

/** A table's row: its cells (HTML) and the attributes of its `<tr>` (HTML, with a leading space). */
export interface Row {
  readonly attrs?: string;
  readonly cells: readonly string[];
  /** The cells (by index) a phone leaves out: what the rows just below show again. */
  readonly repeated?: readonly number[];
}

/**
 * A table of the page. On a phone each row becomes a block of "column: value" lines (the column's
 * name from each cell's `data-label`) instead of columns squeezed to a few letters each, without
 * the cells that the attempts below repeat.
 */
export function table(labelId: string, heads: readonly string[], rows: readonly Row[]): string {
  const body = rows
    .map(
      (row) =>
        `<tr${row.attrs ?? ''}>${row.cells.map((cell, i) => `<td data-label="${escapeHtml(heads[i] ?? '')}"${row.repeated?.includes(i) ? ' class="pd-repeated"' : ''}><span>${cell}</span></td>`).join('')}</tr>`,
    )
    .join('\n');
  return `<div class="pd-table-wrap" tabindex="0" role="region" aria-labelledby="${labelId}"><table class="pd-table">
<thead><tr>${heads.map((h) => `<th scope="col">${escapeHtml(h)}</th>`).join('')}</tr></thead>
<tbody>${body}</tbody></table></div>`;
}

/**
 * What kept an action from being made, at the top of the page (its form may be far out of sight on
 * a long page): a heading and each problem as a link to its field or card, announced with
 * `role="alert"` (the GOV.UK error summary pattern). Empty without problems.
 */
export function problemsSummary(
  id: string,
  heading: string,
  links: ReadonlyArray<readonly [href: string, text: string]>,
): string {
  if (links.length === 0) return '';
  const items = links.map(([href, text]) => `<li><a href="${href}">${escapeHtml(text)}</a></li>`).join('');
  return `<div class="alert pd-problems" role="alert" aria-labelledby="${id}-title" data-testid="${id}">
<h2 id="${id}-title">${escapeHtml(heading)}</h2><ul>${items}</ul></div>`;
}
