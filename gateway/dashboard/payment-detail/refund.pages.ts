/**
 * A payment's refunds on its page: the list, and for owners and admins the refund form; the
 * problems of a refund that was not made, said at the top of the page; and the confirmation page,
 * a second step before anything is refunded.
 */
import { escapeHtml } from '../../checkout/html.js';
import { formatAmd } from '../../i18n/format.js';
import type { RefundObject } from '../../refunds/refund.service.js';
import { timeTag } from '../api-keys/api-keys.pages.js';
import { field, hidden, layout, type Shell } from '../layout.js';
import { cell, formError, paymentDetailText, problemsSummary, table } from './detail-parts.js';
import type { PaymentDetailMessages } from './messages.js';

export interface RefundForm {
  readonly amount: string;
  readonly reason: string;
  readonly problems: { readonly amount?: string; readonly reason?: string };
  /** Why the service refused (a refusal, a processor's answer), or null. */
  readonly error: string | null;
}

export interface RefundsCardView {
  readonly paymentUuid: string;
  readonly refunds: readonly RefundObject[];
  /** Owner or admin: the refund form. */
  readonly manage: boolean;
  /** What can still be refunded (AMD); null when the payment cannot be refunded now. */
  readonly remaining: number | null;
  readonly form: RefundForm | null;
}

/**
 * What kept a refund from being made, at the top of the page (the form is at its bottom, far out of
 * sight on a long page): each problem links to its field, or to the refunds for a refusal.
 */
export function refundProblems(m: PaymentDetailMessages, form: RefundForm | null): string {
  if (form === null) return '';
  const links: Array<[string, string]> = [];
  if (form.error !== null) links.push(['#refunds', form.error]);
  if (form.problems.amount !== undefined) links.push(['#f-amount', form.problems.amount]);
  if (form.problems.reason !== undefined) links.push(['#f-reason', form.problems.reason]);
  return problemsSummary('refund-problems', m.refundNotMade, links);
}

function refundForm(shell: Shell, m: PaymentDetailMessages, view: RefundsCardView): string {
  if (!view.manage) return '';
  const error = view.form?.error ?? null;
  if (view.remaining === null) {
    return `${formError(error)}<p class="muted">${escapeHtml(m.notRefundable)}</p>`;
  }
  const form = view.form ?? { amount: String(view.remaining), reason: '', problems: {}, error: null };
  return `<h3 id="refund-form-title">${escapeHtml(m.refundFormTitle)}</h3>${formError(error)}
<form method="post" action="/dashboard/payments/${escapeHtml(view.paymentUuid)}/refund" aria-labelledby="refund-form-title" novalidate>${hidden(shell)}
${field(shell.t, {
  name: 'amount',
  label: m.refundAmountLabel,
  type: 'text',
  inputmode: 'numeric',
  autocomplete: 'off',
  value: form.amount,
  hint: m.refundAmountHint(view.remaining),
  problem: form.problems.amount === undefined ? undefined : { text: form.problems.amount },
})}
${field(shell.t, {
  name: 'reason',
  label: m.refundReasonLabel,
  type: 'text',
  autocomplete: 'off',
  value: form.reason,
  optional: true,
  hint: m.refundReasonHint,
  problem: form.problems.reason === undefined ? undefined : { text: form.problems.reason },
})}
<button type="submit">${escapeHtml(m.refundContinue)}</button></form>`;
}

export function refundsCard(shell: Shell, m: PaymentDetailMessages, view: RefundsCardView): string {
  const lang = shell.lang;
  const list =
    view.refunds.length === 0
      ? `<p class="muted">${escapeHtml(m.noRefunds)}</p>`
      : table(
          'refunds-title',
          [m.refundCreated, m.refundAmount, m.refundStatus, m.refundReason],
          view.refunds.map((r) => ({
            attrs: ` data-refund-id="${escapeHtml(r.uuid)}"`,
            cells: [
              timeTag(lang, r.created_at),
              escapeHtml(formatAmd(lang, r.amount)),
              `${escapeHtml(m.refundStates[r.status] ?? r.status)}${r.failure_code === null ? '' : ` <code>${escapeHtml(r.failure_code)}</code>`}`,
              cell(m, r.reason),
            ],
          })),
        );
  return `<div class="card" id="refunds"><h2 id="refunds-title">${escapeHtml(m.refundsTitle)}</h2>${list}${refundForm(shell, m, view)}</div>`;
}

export interface RefundConfirmation {
  readonly paymentUuid: string;
  readonly orderId: string;
  readonly amount: number;
  readonly reason: string;
  /** The idempotency key of this confirmation: a second submit of the same form refunds nothing more. */
  readonly key: string;
}

export function refundConfirmPage(shell: Shell, c: RefundConfirmation): string {
  const m = paymentDetailText(shell);
  const back = `/dashboard/payments/${c.paymentUuid}`;
  return layout(
    shell,
    m.confirmTitle,
    `<div class="narrow"><div class="card">
<h1>${escapeHtml(m.confirmTitle)}</h1>
<p data-testid="refund-question">${escapeHtml(m.confirmText(c.amount, c.orderId))}</p>
<p>${escapeHtml(c.reason === '' ? m.confirmNoReason : m.confirmReason(c.reason))}</p>
<form method="post" action="${escapeHtml(back)}/refund">${hidden(shell)}<input type="hidden" name="confirm" value="yes">
<input type="hidden" name="amount" value="${escapeHtml(String(c.amount))}">
<input type="hidden" name="reason" value="${escapeHtml(c.reason)}">
<input type="hidden" name="refund_key" value="${escapeHtml(c.key)}">
<button type="submit" class="keys-danger">${escapeHtml(m.confirmButton)}</button>
</form>
<div class="links"><a href="${escapeHtml(back)}">${escapeHtml(m.cancel)}</a></div>
</div></div>`,
  );
}
