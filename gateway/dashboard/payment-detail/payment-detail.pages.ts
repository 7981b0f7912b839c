/**
 * A payment's page: every field of the API's payment object, its items and receipts, a timeline of
 * its status changes, the webhook events it sent with each delivery (target, attempts, the last
 * attempt's time, answer and error), each delivery's attempts (time, target, answer, duration, error,
 * outcome) under it, and a Resend button per event, its refunds, and the refund
 * form. Owners and admins get the buttons and the form; viewers read the same page without them.
 * The refund confirmation page is a second step before anything is refunded.
 */
import { escapeHtml } from '../../checkout/html.js';
import type { PaymentResponse } from '../../domain/payment.js';
import { formatAmd, formatMoney, formatNumber } from '../../i18n/format.js';
import type { Language } from '../../i18n/languages.js';
import type { RefundObject } from '../../refunds/refund.service.js';
import type { DeliveryView, EventView } from '../../webhooks/event-log.service.js';
import { timeTag } from '../api-keys/api-keys.pages.js';
import { alert, field, hidden, layout, notice, type Shell } from '../layout.js';
import { PAYMENT_DETAIL_MESSAGES, type PaymentDetailMessages } from './messages.js';

export function paymentDetailText(shell: Shell): PaymentDetailMessages {
  return PAYMENT_DETAIL_MESSAGES[shell.lang];
}

export interface ReceiptLine {
  readonly kind: 'sale' | 'return';
  readonly status: string;
  readonly amount: number;
  /** The receipt's public page once issued; null before. */
  readonly url: string | null;
}

export interface TimelineEntry {
  /** A stored or API instant. */
  readonly at: string;
  readonly text: string;
}

export interface RefundForm {
  readonly amount: string;
  readonly reason: string;
  readonly problems: { readonly amount?: string; readonly reason?: string };
  /** Why the service refused (a refusal, a processor's answer), or null. */
  readonly error: string | null;
}

export interface DetailView {
  readonly payment: PaymentResponse;
  readonly events: readonly EventView[];
  readonly refunds: readonly RefundObject[];
  readonly receipts: readonly ReceiptLine[];
  readonly timeline: readonly TimelineEntry[];
  /** Owner or admin: the Resend buttons and the refund form. */
  readonly manage: boolean;
  /** Where a resend would go today; null: nowhere, so no Resend button, and the page says why. */
  readonly webhookTarget: string | null;
  /** What can still be refunded (AMD); null when the payment cannot be refunded now. */
  readonly remaining: number | null;
  readonly form: RefundForm | null;
  readonly notice: string | null;
  readonly error: string | null;
  /**
   * The processor whose notice never named this payment's order (Telcell's invoice), so it can be
   * settled with the reference the merchant gives; null otherwise.
   */
  readonly settle: { readonly processor: string; readonly reference: string; readonly error: string | null } | null;
}

function cell(m: PaymentDetailMessages, value: string | null): string {
  return value === null || value === '' ? `<span class="muted">${escapeHtml(m.none)}</span>` : escapeHtml(value);
}

function when(lang: Language, m: PaymentDetailMessages, value: string | null): string {
  return value === null ? `<span class="muted">${escapeHtml(m.none)}</span>` : timeTag(lang, value);
}

function badge(text: string, on: boolean): string {
  return `<span class="keys-badge ${on ? 'on' : 'off'}">${escapeHtml(text)}</span>`;
}

function fieldsList(lang: Language, m: PaymentDetailMessages, p: PaymentResponse): string {
  const f = m.fields;
  const link = (url: string) => `<a href="${escapeHtml(url)}">${escapeHtml(url)}</a>`;
  const rows: Array<[string, string]> = [
    [f.uuid, `<code id="payment-uuid">${escapeHtml(p.uuid)}</code>`],
    [f.order_id, cell(m, p.order_id)],
    [
      f.status,
      `<span data-testid="payment-status">${badge(m.statuses[p.status] ?? p.status, p.status === 'completed')}</span>`,
    ],
    [f.amount, escapeHtml(formatMoney(lang, p.amount, p.currency))],
    [
      f.charge,
      p.charge === null
        ? cell(m, null)
        : escapeHtml(m.chargeText(p.charge.amount, formatNumber(lang, p.charge.fx_rate, 6))),
    ],
    [f.refunded_amount, escapeHtml(formatAmd(lang, p.refunded_amount))],
    [f.livemode, escapeHtml(p.livemode ? m.live : m.test)],
    [f.processor, cell(m, p.processor)],
    [f.payment_flow, cell(m, p.payment_flow)],
    [f.description, cell(m, p.description)],
    [f.customer_id, cell(m, p.customer_id)],
    [f.rrn, cell(m, p.rrn)],
    [f.failure_code, cell(m, p.failure_code)],
    [f.created_at, when(lang, m, p.created_at)],
    [f.completed_at, when(lang, m, p.completed_at)],
    [f.refunded_at, when(lang, m, p.refunded_at)],
    [f.checkout_url, link(p.checkout_url)],
    [f.redirect_url, link(p.redirect_url)],
    [f.qr_code, p.qr_code === null ? cell(m, null) : `<code class="pd-wrap">${escapeHtml(p.qr_code)}</code>`],
  ];
  return `<dl class="pd-fields">${rows.map(([term, value]) => `<dt>${escapeHtml(term)}</dt><dd>${value}</dd>`).join('')}</dl>`;
}

/** A table's row: its cells (HTML) and the attributes of its `<tr>` (HTML, with a leading space). */
interface Row {
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
function table(labelId: string, heads: readonly string[], rows: readonly Row[]): string {
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

function itemsCard(lang: Language, m: PaymentDetailMessages, p: PaymentResponse): string {
  if (p.items === null || p.items.length === 0) return '';
  const rows = p.items.map((item) => ({
    cells: [
      escapeHtml(item.name),
      `${escapeHtml(String(item.quantity))}${item.unit === null ? '' : ` ${escapeHtml(item.unit)}`}`,
      escapeHtml(formatAmd(lang, item.unit_price)),
      cell(m, item.code),
    ],
  }));
  return `<div class="card"><h2 id="items-title">${escapeHtml(m.itemsTitle)}</h2>
${table('items-title', [m.itemName, m.itemQuantity, m.itemUnitPrice, m.itemCode], rows)}</div>`;
}

function receiptsCard(lang: Language, m: PaymentDetailMessages, receipts: readonly ReceiptLine[]): string {
  if (receipts.length === 0) return '';
  const rows = receipts.map((r) => ({
    cells: [
      escapeHtml(r.kind === 'sale' ? m.receiptSale : m.receiptReturn),
      escapeHtml(r.status),
      escapeHtml(formatAmd(lang, r.amount)),
      r.url === null ? cell(m, null) : `<a href="${escapeHtml(r.url)}">${escapeHtml(m.receiptOpen)}</a>`,
    ],
  }));
  return `<div class="card"><h2 id="receipts-title">${escapeHtml(m.receiptsTitle)}</h2>
${table('receipts-title', [m.receiptKind, m.receiptStatus, m.receiptAmount, ''], rows)}</div>`;
}

function timelineCard(lang: Language, m: PaymentDetailMessages, timeline: readonly TimelineEntry[]): string {
  const items = timeline.map((e) => `<li>${timeTag(lang, e.at)} <span>${escapeHtml(e.text)}</span></li>`).join('');
  return `<div class="card"><h2>${escapeHtml(m.timelineTitle)}</h2><ol class="pd-timeline">${items}</ol></div>`;
}

/** A delivery's attempts, one row each, oldest first. */
function attemptsBlock(lang: Language, m: PaymentDetailMessages, d: DeliveryView, n: number): string {
  const titleId = `attempts-${d.delivery_id}`;
  const heading = `<h4 id="${titleId}" class="pd-attempts-title">${escapeHtml(m.attemptsTitle(n))}</h4>`;
  if (d.attempt_log.length === 0) {
    return `<div class="pd-attempts" data-attempts-of="${escapeHtml(d.delivery_id)}">${heading}<p class="muted">${escapeHtml(m.noAttempts)}</p></div>`;
  }
  const rows = d.attempt_log.map((a) => ({
    attrs: ` class="pd-attempt" data-attempt="${escapeHtml(String(a.attempt))}"`,
    // The delivery's own target, above, unless the attempt went elsewhere.
    repeated: a.url === d.url ? [2] : [],
    cells: [
      escapeHtml(String(a.attempt)),
      timeTag(lang, a.at),
      `<code class="pd-wrap">${escapeHtml(a.url)}</code>`,
      a.http_status === null ? escapeHtml(m.noAnswer) : `HTTP ${escapeHtml(String(a.http_status))}`,
      escapeHtml(m.durationMs(a.duration_ms)),
      `<span class="pd-wrap">${cell(m, a.error === `HTTP ${a.http_status}` ? null : a.error)}</span>`,
      badge(m.attemptOutcomes[a.outcome], a.outcome === 'delivered'),
    ],
  }));
  return `<div class="pd-attempts" data-attempts-of="${escapeHtml(d.delivery_id)}">${heading}${table(
    titleId,
    [
      m.attemptNumber,
      m.attemptTime,
      m.attemptTarget,
      m.attemptAnswer,
      m.attemptDuration,
      m.attemptError,
      m.attemptOutcome,
    ],
    rows,
  )}</div>`;
}

function eventCard(shell: Shell, m: PaymentDetailMessages, paymentUuid: string, event: EventView, manage: boolean) {
  const lang = shell.lang;
  const titleId = `event-${event.id}`;
  const numbered = event.deliveries.length > 1;
  const rows = event.deliveries.map((d, i) => ({
    attrs: ` data-delivery-id="${escapeHtml(d.delivery_id)}"`,
    // The last attempt's time, answer and error: its row among the attempts below says them.
    repeated: d.attempt_log.length > 0 ? [3, 4, 5] : [],
    cells: [
      `${numbered ? `<span class="muted">${i + 1}.</span> ` : ''}<code class="pd-wrap">${escapeHtml(d.url)}</code>`,
      `<span data-testid="delivery-status">${badge(m.deliveryStates[d.status], d.status === 'delivered')}</span>`,
      escapeHtml(String(d.attempts)),
      d.last_attempt_at === null ? escapeHtml(m.notYet) : timeTag(lang, d.last_attempt_at),
      d.last_status_code === null ? cell(m, null) : `HTTP ${escapeHtml(String(d.last_status_code))}`,
      cell(m, d.last_error === `HTTP ${d.last_status_code}` ? null : d.last_error),
      d.next_attempt_at === null ? cell(m, null) : timeTag(lang, d.next_attempt_at),
    ],
  }));
  const deliveries =
    event.deliveries.length === 0
      ? `<p class="muted">${escapeHtml(m.noDeliveries)}</p>`
      : table(
          titleId,
          [
            m.deliveryTarget,
            m.deliveryStatus,
            m.deliveryAttempts,
            m.deliveryLastAttempt,
            m.deliveryAnswer,
            m.deliveryError,
            m.deliveryNext,
          ],
          rows,
        );
  const attempts = event.deliveries.map((d, i) => attemptsBlock(lang, m, d, i + 1)).join('');
  const resend = manage
    ? `<form class="keys-row-action" method="post" action="/dashboard/payments/${escapeHtml(paymentUuid)}/events/${escapeHtml(event.id)}/resend">${hidden(shell)}<button type="submit" class="secondary small">${escapeHtml(m.resend(event.event))}</button></form>`
    : '';
  return `<section class="pd-event" data-event-id="${escapeHtml(event.id)}" aria-labelledby="${titleId}">
<h3 id="${titleId}"><code>${escapeHtml(event.event)}</code> ${timeTag(lang, event.created_at)}</h3>
${deliveries}${attempts}${resend}</section>`;
}

function eventsCard(shell: Shell, m: PaymentDetailMessages, view: DetailView): string {
  const body =
    view.events.length === 0
      ? `<p class="muted">${escapeHtml(m.noEvents)}</p>`
      : view.events
          .map((e) => eventCard(shell, m, view.payment.uuid, e, view.manage && view.webhookTarget !== null))
          .join('');
  const nowhere =
    view.events.length > 0 && view.webhookTarget === null && view.error !== m.noWebhookTarget
      ? `<p class="hint" data-testid="no-webhook-target">${escapeHtml(m.noWebhookTarget)}</p>`
      : '';
  return `<div class="card" id="events"><h2>${escapeHtml(m.eventsTitle)}</h2><p class="hint">${escapeHtml(m.eventsIntro)}</p>${nowhere}${body}</div>`;
}

function refundsCard(shell: Shell, m: PaymentDetailMessages, view: DetailView): string {
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

/** The refusal beside the refund form (the summary at the top of the page is the one announced). */
function formError(error: string | null): string {
  return error === null ? '' : `<p class="alert">${escapeHtml(error)}</p>`;
}

/**
 * What kept a refund from being made, at the top of the page (the form is at its bottom, far out of
 * sight on a long page): each problem links to its field, or to the refunds for a refusal.
 */
function refundProblems(m: PaymentDetailMessages, form: RefundForm | null): string {
  if (form === null) return '';
  const links: Array<[string, string]> = [];
  if (form.error !== null) links.push(['#refunds', form.error]);
  if (form.problems.amount !== undefined) links.push(['#f-amount', form.problems.amount]);
  if (form.problems.reason !== undefined) links.push(['#f-reason', form.problems.reason]);
  if (links.length === 0) return '';
  const items = links.map(([href, text]) => `<li><a href="${href}">${escapeHtml(text)}</a></li>`).join('');
  return `<div class="alert pd-problems" role="alert" aria-labelledby="refund-problems-title" data-testid="refund-problems">
<h2 id="refund-problems-title">${escapeHtml(m.refundNotMade)}</h2><ul>${items}</ul></div>`;
}

function refundForm(shell: Shell, m: PaymentDetailMessages, view: DetailView): string {
  if (!view.manage) return '';
  const error = view.form?.error ?? null;
  if (view.remaining === null) {
    return `${formError(error)}<p class="muted">${escapeHtml(m.notRefundable)}</p>`;
  }
  const form = view.form ?? { amount: String(view.remaining), reason: '', problems: {}, error: null };
  return `<h3 id="refund-form-title">${escapeHtml(m.refundFormTitle)}</h3>${formError(error)}
<form method="post" action="/dashboard/payments/${escapeHtml(view.payment.uuid)}/refund" aria-labelledby="refund-form-title" novalidate>${hidden(shell)}
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

function settleCard(shell: Shell, m: PaymentDetailMessages, view: DetailView): string {
  const settle = view.settle;
  if (settle === null) return '';
  const form = view.manage
    ? `<form method="post" action="/dashboard/payments/${escapeHtml(view.payment.uuid)}/processor_reference" aria-labelledby="settle-title" novalidate>${hidden(shell)}
${field(shell.t, {
  name: 'reference',
  label: m.settleLabel,
  type: 'text',
  autocomplete: 'off',
  value: settle.reference,
  problem: settle.error === null ? undefined : { text: settle.error },
})}
<button type="submit">${escapeHtml(m.settleButton)}</button></form>`
    : '';
  return `<div class="card" id="settle"><h2 id="settle-title">${escapeHtml(m.settleTitle(settle.processor))}</h2>
<p>${escapeHtml(m.settleText(settle.processor))}</p>${form}</div>`;
}

export function paymentDetailPage(shell: Shell, view: DetailView): string {
  const m = paymentDetailText(shell);
  const lang = shell.lang;
  const p = view.payment;
  const title = m.title(p.order_id);
  return layout(
    shell,
    title,
    `<p class="pd-back"><a href="/dashboard/payments">${escapeHtml(m.backToPayments)}</a></p>
<h1>${escapeHtml(title)}</h1>
${notice(view.notice)}${alert(view.error)}${refundProblems(m, view.form)}
${settleCard(shell, m, view)}
<div class="card"><h2>${escapeHtml(m.detailsTitle)}</h2>${fieldsList(lang, m, p)}</div>
${itemsCard(lang, m, p)}
${receiptsCard(lang, m, view.receipts)}
${timelineCard(lang, m, view.timeline)}
${eventsCard(shell, m, view)}
${refundsCard(shell, m, view)}`,
  );
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
