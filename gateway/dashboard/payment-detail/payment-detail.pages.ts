/**
 * A payment's page: every field of the API's payment object, the hold of a payment created
 * `manual` with its capture and release (./hold.pages.ts), its items and receipts, a timeline of its
 * status changes, the webhook events it sent (./events.pages.ts), its refunds and the refund form
 * (./refund.pages.ts). Owners and admins get the buttons and the forms; viewers read the same page
 * without them.
 */
import { escapeHtml } from '../../checkout/html.js';
import type { PaymentResponse } from '../../domain/payment.js';
import { formatAmd, formatMoney, formatNumber } from '../../i18n/format.js';
import type { Language } from '../../i18n/languages.js';
import type { RefundObject } from '../../refunds/refund.service.js';
import type { EventView } from '../../webhooks/event-log.service.js';
import { timeTag } from '../api-keys/api-keys.pages.js';
import { alert, field, hidden, layout, notice, type Shell } from '../layout.js';
import { badge, cell, paymentDetailText, table, when } from './detail-parts.js';
import { eventsCard } from './events.pages.js';
import { type HoldView, holdCard, holdProblems } from './hold.pages.js';
import type { PaymentDetailMessages } from './messages.js';
import { type RefundForm, refundProblems, refundsCard } from './refund.pages.js';

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
  /** The hold of a payment created `manual` once it was authorized; null for any other. */
  readonly hold: HoldView | null;
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
    [f.capture_method, escapeHtml(m.captureMethods[p.capture_method])],
    [
      f.authorized_amount,
      p.authorized_amount === null ? cell(m, null) : escapeHtml(formatAmd(lang, p.authorized_amount)),
    ],
    [f.capture_before, when(lang, m, p.capture_before)],
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
${notice(view.notice)}${alert(view.error)}${refundProblems(m, view.form)}${holdProblems(shell, view.hold)}
${settleCard(shell, m, view)}
${holdCard(shell, view.hold)}
<div class="card"><h2>${escapeHtml(m.detailsTitle)}</h2>${fieldsList(lang, m, p)}</div>
${itemsCard(lang, m, p)}
${receiptsCard(lang, m, view.receipts)}
${timelineCard(lang, m, view.timeline)}
${eventsCard(shell, m, { paymentUuid: p.uuid, events: view.events, manage: view.manage, webhookTarget: view.webhookTarget, error: view.error })}
${refundsCard(shell, m, { paymentUuid: p.uuid, refunds: view.refunds, manage: view.manage, remaining: view.remaining, form: view.form })}`,
  );
}
