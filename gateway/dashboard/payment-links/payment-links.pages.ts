/**
 * The payment links pages: the list (link, amount, use, environment, status, payments, created)
 * with the create form for the owner and admins; one link's page with its address and copy
 * button, its QR code (PNG shown, PNG and SVG to download), its payments and the deactivate button.
 * Viewers get the same pages without the forms.
 */
import { escapeHtml } from '../../checkout/html.js';
import type { Paginated } from '../../domain/pagination.js';
import { formatAmd, formatDateTimeWithZone } from '../../i18n/format.js';
import type { LinkPaymentView, PaymentLinkView } from '../../payment-links/payment-link.service.js';
import { choices, liveExplanation, timeTag } from '../api-keys/api-keys.pages.js';
import { alert, field, hidden, layout, notice, type Shell, secretBox } from '../layout.js';
import { PAYMENT_LINKS_MESSAGES, type PaymentLinksMessages } from './messages.js';

export function paymentLinksText(shell: Shell): PaymentLinksMessages {
  return PAYMENT_LINKS_MESSAGES[shell.lang];
}

function amd(shell: Shell, amount: number): string {
  return formatAmd(shell.lang, amount);
}

export function amountText(shell: Shell, m: PaymentLinksMessages, link: PaymentLinkView): string {
  if (link.amount !== null) return amd(shell, link.amount);
  return m.range(amd(shell, link.amount_min ?? 0), amd(shell, link.amount_max ?? 0));
}

function statusBadge(m: PaymentLinksMessages, link: PaymentLinkView): string {
  const on = link.status === 'active' || link.status === 'completed';
  return `<span class="keys-badge${on ? ' on' : ' off'}" data-status="${escapeHtml(link.status)}">${escapeHtml(m.statuses[link.status])}</span>`;
}

/** `/dashboard/payment-links/:id` of a link. */
export function linkPath(id: string): string {
  return `/dashboard/payment-links/${encodeURIComponent(id)}`;
}

/** `expires_at` in Yerevan time with the zone named, in the reader's language. */
function shortInstant(shell: Shell, iso: string | null): string | null {
  return iso === null ? null : formatDateTimeWithZone(shell.lang, iso);
}

function linksTable(shell: Shell, m: PaymentLinksMessages, page: Paginated<PaymentLinkView>): string {
  if (page.data.length === 0) return `<p class="muted">${escapeHtml(m.none)}</p>`;
  const rows = page.data
    .map(
      (link) => `<tr data-link-id="${escapeHtml(link.id)}">
<td><a href="${escapeHtml(linkPath(link.id))}"><code>${escapeHtml(link.id)}</code></a>${link.description === null ? '' : `<br><span class="muted">${escapeHtml(link.description)}</span>`}</td>
<td>${escapeHtml(amountText(shell, m, link))}</td>
<td>${escapeHtml(link.reusable ? m.reusable : m.singleUse)}</td>
<td>${escapeHtml(m.environments[link.livemode ? 'live' : 'test'])}</td>
<td>${statusBadge(m, link)}</td>
<td>${escapeHtml(m.paymentsCount(link.completed_payments_count, link.payments_count))}</td>
<td>${timeTag(shell.lang, link.created_at)}</td>
</tr>`,
    )
    .join('');
  const head = [m.link, m.amount, m.kind, m.environment, m.statusLabel, m.payments, m.created]
    .map((text) => `<th scope="col">${escapeHtml(text)}</th>`)
    .join('');
  const { meta } = page;
  const pager =
    meta.last_page <= 1
      ? ''
      : `<nav class="plinks-pager" aria-label="${escapeHtml(m.pageOf(meta.current_page, meta.last_page))}">${
          meta.current_page > 1
            ? `<a href="/dashboard/payment-links?page=${meta.current_page - 1}">${escapeHtml(m.previous)}</a>`
            : ''
        }<span>${escapeHtml(m.pageOf(meta.current_page, meta.last_page))}</span>${
          meta.current_page < meta.last_page
            ? `<a href="/dashboard/payment-links?page=${meta.current_page + 1}">${escapeHtml(m.next)}</a>`
            : ''
        }</nav>`;
  return `<div class="keys-wrap" tabindex="0" role="region" aria-labelledby="links-title"><table class="keys-table">
<thead><tr>${head}</tr></thead>
<tbody>${rows}</tbody></table></div>${pager}`;
}

export interface LinkForm {
  readonly environment: string;
  readonly amountKind: string;
  readonly amount: string;
  readonly amountMin: string;
  readonly amountMax: string;
  readonly description: string;
  readonly reusable: string;
  readonly expiresAt: string;
  readonly problems: Partial<
    Record<'environment' | 'amountKind' | 'amount' | 'range' | 'description' | 'reusable' | 'expiresAt', string>
  >;
}

export const EMPTY_LINK_FORM: LinkForm = {
  environment: 'test',
  amountKind: 'fixed',
  amount: '',
  amountMin: '',
  amountMax: '',
  description: '',
  reusable: 'no',
  expiresAt: '',
  problems: {},
};

export interface LinksView {
  readonly page: Paginated<PaymentLinkView>;
  readonly manage: boolean;
  readonly businessVerified: boolean;
  readonly notice: string | null;
  readonly form: LinkForm;
}

const problemOf = (text: string | undefined) => (text === undefined ? undefined : { text });

function createForm(shell: Shell, m: PaymentLinksMessages, view: LinksView): string {
  const { form } = view;
  const { t } = shell;
  const why = view.businessVerified ? '' : liveExplanation(m.liveNeedsVerification, m.verifyBusiness);
  return `<div class="card"><h2 id="create-title">${escapeHtml(m.createTitle)}</h2>
${Object.keys(form.problems).length === 0 ? '' : alert(t.errorSummary)}
<form method="post" action="/dashboard/payment-links" aria-labelledby="create-title" novalidate>${hidden(shell)}
${choices(
  'environment',
  m.environment,
  [
    { value: 'test', label: m.environments.test, hint: m.testHint },
    { value: 'live', label: m.environments.live, hint: m.liveHint, disabled: !view.businessVerified },
  ],
  form.environment,
  form.problems.environment,
  why,
)}
${choices(
  'amount_kind',
  m.amountKind,
  [
    { value: 'fixed', label: m.fixedAmount, hint: m.fixedHint },
    { value: 'range', label: m.rangeAmount, hint: m.rangeHint },
  ],
  form.amountKind,
  form.problems.amountKind,
)}
${field(t, { name: 'amount', label: m.amountField, type: 'text', inputmode: 'numeric', autocomplete: 'off', value: form.amount, optional: true, problem: problemOf(form.problems.amount) })}
<div class="plinks-range">
${field(t, { name: 'amount_min', label: m.amountMin, type: 'text', inputmode: 'numeric', autocomplete: 'off', value: form.amountMin, optional: true, problem: problemOf(form.problems.range) })}
${field(t, { name: 'amount_max', label: m.amountMax, type: 'text', inputmode: 'numeric', autocomplete: 'off', value: form.amountMax, optional: true })}
</div>
${field(t, { name: 'description', label: m.description, type: 'text', autocomplete: 'off', value: form.description, optional: true, hint: m.descriptionHint, problem: problemOf(form.problems.description) })}
${choices(
  'reusable',
  m.use,
  [
    { value: 'no', label: m.singleUse, hint: m.singleUseHint },
    { value: 'yes', label: m.reusable, hint: m.reusableHint },
  ],
  form.reusable,
  form.problems.reusable,
)}
${field(t, { name: 'expires_at', label: m.expiresAt, type: 'text', autocomplete: 'off', value: form.expiresAt, optional: true, hint: m.expiresHint, problem: problemOf(form.problems.expiresAt) })}
<button type="submit">${escapeHtml(m.create)}</button>
</form></div>`;
}

export function paymentLinksPage(shell: Shell, view: LinksView): string {
  const m = paymentLinksText(shell);
  return layout(
    shell,
    m.title,
    `<h1>${escapeHtml(m.title)}</h1>
<p class="muted">${escapeHtml(m.intro)}</p>
${notice(view.notice)}
${view.manage ? createForm(shell, m, view) : `<p class="muted">${escapeHtml(m.viewerNote)}</p>`}
<div class="card"><h2 id="links-title">${escapeHtml(m.listTitle)}</h2>
${linksTable(shell, m, view.page)}
</div>`,
  );
}

function paymentsTable(shell: Shell, m: PaymentLinksMessages, payments: readonly LinkPaymentView[]): string {
  if (payments.length === 0) return `<p class="muted">${escapeHtml(m.noPayments)}</p>`;
  const rows = payments
    .map(
      (p) => `<tr data-payment-id="${escapeHtml(p.uuid)}">
<td><code>${escapeHtml(p.order_id)}</code></td>
<td>${escapeHtml(amd(shell, p.amount))}</td>
<td data-status="${escapeHtml(p.status)}">${escapeHtml(m.paymentStatuses[p.status] ?? p.status)}</td>
<td>${timeTag(shell.lang, p.created_at)}</td>
</tr>`,
    )
    .join('');
  const head = [m.order, m.amount, m.paymentStatus, m.created]
    .map((text) => `<th scope="col">${escapeHtml(text)}</th>`)
    .join('');
  return `<div class="keys-wrap" tabindex="0" role="region" aria-labelledby="payments-title"><table class="keys-table">
<thead><tr>${head}</tr></thead>
<tbody>${rows}</tbody></table></div>`;
}

export interface LinkDetailView {
  readonly link: PaymentLinkView;
  readonly qrDataUrl: string;
  readonly manage: boolean;
  readonly notice: string | null;
}

export function paymentLinkPage(shell: Shell, view: LinkDetailView): string {
  const m = paymentLinksText(shell);
  const { link } = view;
  const path = linkPath(link.id);
  const facts: Array<[string, string]> = [
    [m.amount, escapeHtml(amountText(shell, m, link))],
    [m.kind, escapeHtml(link.reusable ? m.reusable : m.singleUse)],
    [m.environment, escapeHtml(m.environments[link.livemode ? 'live' : 'test'])],
    [m.statusLabel, statusBadge(m, link)],
    [m.payments, escapeHtml(m.paymentsCount(link.completed_payments_count, link.payments_count))],
    [m.expires, escapeHtml(shortInstant(shell, link.expires_at) ?? m.never)],
    [m.created, timeTag(shell.lang, link.created_at)],
  ];
  if (link.description !== null) facts.unshift([m.description.replace(/ \(.*\)$/, ''), escapeHtml(link.description)]);
  const deactivate =
    view.manage && link.status !== 'inactive'
      ? `<div class="card"><h2>${escapeHtml(m.deactivate)}</h2><p class="muted">${escapeHtml(m.deactivateHint)}</p>
<form method="post" action="${escapeHtml(path)}/deactivate">${hidden(shell)}<button type="submit" class="keys-danger">${escapeHtml(m.deactivate)}</button></form></div>`
      : '';
  return layout(
    shell,
    m.detailTitle(link.id),
    `<p><a href="/dashboard/payment-links">${escapeHtml(m.backToList)}</a></p>
<h1>${escapeHtml(m.detailTitle(link.id))}</h1>
${notice(view.notice)}
<div class="card"><h2>${escapeHtml(m.url)}</h2>
${secretBox(shell, 'link-url', link.url, null)}
<dl class="plinks-facts">${facts.map(([name, value]) => `<dt>${escapeHtml(name)}</dt><dd>${value}</dd>`).join('')}</dl>
</div>
<div class="card"><h2>${escapeHtml(m.shareTitle)}</h2>
<img class="plinks-qr" src="${escapeHtml(view.qrDataUrl)}" width="200" height="200" alt="${escapeHtml(m.qrAlt)}">
<p><a href="${escapeHtml(path)}/qr.png" download>${escapeHtml(m.downloadPng)}</a></p>
<p><a href="${escapeHtml(path)}/qr.svg" download>${escapeHtml(m.downloadSvg)}</a></p>
</div>
<div class="card"><h2 id="payments-title">${escapeHtml(m.linkPayments)}</h2>
${paymentsTable(shell, m, link.payments ?? [])}
</div>
${deactivate}`,
  );
}
