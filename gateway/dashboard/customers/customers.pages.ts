/**
 * The customers list (search by id or email, test/live switch, 50 a page) and a customer's page
 * (their record and their payments, each linked to its payment page). Read-only for every role.
 * At a phone's width each table row becomes a stack of labelled lines.
 */
import type { CustomerTotals } from '../../../storage/customer-total.repository.js';
import { escapeHtml } from '../../checkout/html.js';
import type { Payment } from '../../domain/payment.js';
import { layout, type Shell } from '../layout.js';
import { amd, count, type Environment, environmentSwitch, instant } from './environment.js';
import { CUSTOMERS_MESSAGES } from './messages.js';

export const CUSTOMERS_PER_PAGE = 50;

export function customersHref(env: Environment, extra: Record<string, string> = {}): string {
  const params = new URLSearchParams({ env, ...extra });
  return `/dashboard/customers?${params.toString()}`;
}

export function customerHref(id: string, env: Environment, page?: number): string {
  const params = new URLSearchParams({ env });
  if (page !== undefined && page > 1) params.set('page', String(page));
  return `/dashboard/customers/${encodeURIComponent(id)}?${params.toString()}`;
}

function cell(label: string, html: string, numeric = false): string {
  return `<td data-label="${escapeHtml(label)}"${numeric ? ' class="num"' : ''}>${html}</td>`;
}

function pager(shell: Shell, page: number, lastPage: number, total: number, href: (page: number) => string): string {
  const c = CUSTOMERS_MESSAGES[shell.lang];
  if (lastPage <= 1) return '';
  const prev = page > 1 ? `<a href="${escapeHtml(href(page - 1))}" rel="prev">${escapeHtml(c.previous)}</a>` : '';
  const next = page < lastPage ? `<a href="${escapeHtml(href(page + 1))}" rel="next">${escapeHtml(c.next)}</a>` : '';
  return `<nav class="dash-pager" aria-label="${escapeHtml(c.pager)}">${prev}<span>${escapeHtml(c.pageOf(page, lastPage, total))}</span>${next}</nav>`;
}

export interface CustomersView {
  readonly env: Environment;
  readonly search: string;
  readonly customers: readonly CustomerTotals[];
  readonly page: number;
  readonly total: number;
}

export function customersPage(shell: Shell, view: CustomersView): string {
  const c = CUSTOMERS_MESSAGES[shell.lang];
  const locale = shell.t.locale;
  const rows = view.customers
    .map(
      (customer) => `<tr>
${cell(c.id, `<a class="mono" href="${escapeHtml(customerHref(customer.id, view.env))}">${escapeHtml(customer.id)}</a>`)}
${cell(c.email, escapeHtml(customer.email ?? '—'))}
${cell(c.name, escapeHtml(customer.name ?? '—'))}
${cell(c.payments, escapeHtml(count(customer.paymentsCount, locale)), true)}
${cell(c.totalPaid, escapeHtml(amd(customer.totalPaid, locale)), true)}
${cell(c.lastPayment, instant(customer.lastPaymentAt, locale))}
</tr>`,
    )
    .join('');
  const table =
    view.customers.length === 0
      ? `<p class="muted">${escapeHtml(view.search === '' ? c.empty : c.noMatch)}</p>`
      : `<div class="dash-wrap"><table class="dash-table" aria-label="${escapeHtml(c.tableLabel)}">
<thead><tr><th scope="col">${escapeHtml(c.id)}</th><th scope="col">${escapeHtml(c.email)}</th><th scope="col">${escapeHtml(c.name)}</th><th scope="col" class="num">${escapeHtml(c.payments)}</th><th scope="col" class="num">${escapeHtml(c.totalPaid)}</th><th scope="col">${escapeHtml(c.lastPayment)}</th></tr></thead>
<tbody>${rows}</tbody></table></div>`;
  const lastPage = Math.max(Math.ceil(view.total / CUSTOMERS_PER_PAGE), 1);
  const extra: Record<string, string> = view.search === '' ? {} : { q: view.search };
  return layout(
    shell,
    c.title,
    `<h1>${escapeHtml(c.title)}</h1>
${environmentSwitch(c.environment, view.env, (env) => customersHref(env, extra))}
<p class="muted">${escapeHtml(c.intro)}</p>
<form class="dash-search card" method="get" action="/dashboard/customers" role="search">
<input type="hidden" name="env" value="${view.env}">
<label for="f-q">${escapeHtml(c.searchLabel)}</label>
<p class="hint" id="f-q-hint">${escapeHtml(c.searchHint)}</p>
<div class="dash-search-row"><input id="f-q" name="q" type="search" autocomplete="off" aria-describedby="f-q-hint" value="${escapeHtml(view.search)}">
<button type="submit">${escapeHtml(c.search)}</button></div>
${view.search === '' ? '' : `<p><a href="${escapeHtml(customersHref(view.env))}">${escapeHtml(c.clear)}</a></p>`}
</form>
<section class="card" aria-label="${escapeHtml(c.tableLabel)}">
${table}
${pager(shell, view.page, lastPage, view.total, (page) => customersHref(view.env, { ...extra, page: String(page) }))}
</section>`,
  );
}

export interface CustomerView {
  readonly env: Environment;
  readonly customer: CustomerTotals;
  readonly payments: readonly Payment[];
  readonly page: number;
}

export function customerPage(shell: Shell, view: CustomerView): string {
  const c = CUSTOMERS_MESSAGES[shell.lang];
  const locale = shell.t.locale;
  const { customer } = view;
  const facts: Array<[string, string]> = [
    [c.id, `<span class="mono">${escapeHtml(customer.id)}</span>`],
    [c.email, escapeHtml(customer.email ?? '—')],
    [c.name, escapeHtml(customer.name ?? '—')],
    [c.payments, escapeHtml(count(customer.paymentsCount, locale))],
    [c.paid, escapeHtml(count(customer.paidCount, locale))],
    [c.totalPaid, escapeHtml(amd(customer.totalPaid, locale))],
    [c.refunded, escapeHtml(amd(customer.refundedAmount, locale))],
    [c.firstPayment, instant(customer.firstPaymentAt, locale)],
    [c.lastPayment, instant(customer.lastPaymentAt, locale)],
    [c.lastPaid, customer.lastPaidAt === null ? escapeHtml(c.none) : instant(customer.lastPaidAt, locale)],
  ];
  const rows = view.payments
    .map(
      (p) => `<tr data-status="${escapeHtml(p.status)}">
${cell(c.created, instant(p.createdAt, locale))}
${cell(c.order, `<a href="/dashboard/payments/${escapeHtml(p.uuid)}" aria-label="${escapeHtml(c.openPayment(p.orderId))}">${escapeHtml(p.orderId)}</a>`)}
${cell(c.amount, escapeHtml(amd(p.amount, locale)), true)}
${cell(c.status, escapeHtml(c.statuses[p.status]))}
${cell(c.refunded, escapeHtml(p.refundedAmount === 0 ? '—' : amd(p.refundedAmount, locale)), true)}
</tr>`,
    )
    .join('');
  const lastPage = Math.max(Math.ceil(customer.paymentsCount / CUSTOMERS_PER_PAGE), 1);
  const title = c.detailTitle(customer.id);
  return layout(
    shell,
    title,
    `<p><a href="${escapeHtml(customersHref(view.env))}">${escapeHtml(c.back)}</a></p>
<h1 class="mono-title">${escapeHtml(title)}</h1>
<p class="muted">${escapeHtml(`${c.environment.label}: ${c.environment[view.env]}`)}</p>
<section class="card"><dl class="dash-facts">${facts.map(([k, v]) => `<dt>${escapeHtml(k)}</dt><dd>${v}</dd>`).join('')}</dl></section>
<section class="card" aria-labelledby="payments-title">
<h2 id="payments-title">${escapeHtml(c.paymentsTitle)}</h2>
<div class="dash-wrap"><table class="dash-table" aria-label="${escapeHtml(c.paymentsLabel)}">
<thead><tr><th scope="col">${escapeHtml(c.created)}</th><th scope="col">${escapeHtml(c.order)}</th><th scope="col" class="num">${escapeHtml(c.amount)}</th><th scope="col">${escapeHtml(c.status)}</th><th scope="col" class="num">${escapeHtml(c.refunded)}</th></tr></thead>
<tbody>${rows}</tbody></table></div>
${pager(shell, view.page, lastPage, customer.paymentsCount, (page) => customerHref(customer.id, view.env, page))}
</section>`,
  );
}
