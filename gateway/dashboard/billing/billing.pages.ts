/**
 * The billing pages: balances per counter (the state in words, never by colour alone), the ledger
 * with its cursor paging and CSV link, the buy form, a purchase (with the bank transfer's
 * reference, amount, bank details and instructions), the purchases with their receipts, and the
 * auto top-up settings. Forms only for the owner and admins; viewers read.
 */

import type { AutoTopupResponse } from '../../billing/auto-topup.service.js';
import type { LedgerEntry } from '../../billing/billing.service.js';
import type { PurchaseView } from '../../billing/purchases.service.js';
import { escapeHtml } from '../../checkout/html.js';
import { type BalanceEntry, COUNTERS, type Counter, type PriceEntry } from '../../domain/billing.js';
import { formatAmd, formatNumber } from '../../i18n/format.js';
import { timeTag } from '../api-keys/api-keys.pages.js';
import { alert, field, hidden, layout, notice, type Shell } from '../layout.js';
import { BILLING_MESSAGES, type BillingMessages, type LedgerEvent } from './messages.js';

export function billingText(shell: Shell): BillingMessages {
  return BILLING_MESSAGES[shell.lang];
}

/** The preset quantities as the reader's language writes numbers: `100, 500, 1,000`. */
function presetList(shell: Shell, presets: readonly number[]): string {
  return presets.map((n) => formatNumber(shell.lang, n)).join(', ');
}

function table(labelledBy: string, head: readonly string[], rows: string): string {
  const cells = head.map((text) => `<th scope="col">${escapeHtml(text)}</th>`).join('');
  return `<div class="keys-wrap" tabindex="0" role="region" aria-labelledby="${labelledBy}"><table class="keys-table">
<thead><tr>${cells}</tr></thead><tbody>${rows}</tbody></table></div>`;
}

function backLink(m: BillingMessages): string {
  return `<div class="links"><a href="/dashboard/billing">${escapeHtml(m.backToBilling)}</a></div>`;
}

export interface BalancesView {
  readonly balances: readonly BalanceEntry[];
  readonly prices: readonly PriceEntry[];
  readonly autoTopups: ReadonlyArray<{ counter: Counter; setting: AutoTopupResponse | null }>;
  readonly manage: boolean;
}

function autoSummary(m: BillingMessages, setting: AutoTopupResponse | null): string {
  if (setting === null) return m.notSet;
  return setting.enabled ? m.autoOn(setting.threshold_qty, setting.refill_qty) : m.autoOff;
}

export function balancesPage(shell: Shell, view: BalancesView): string {
  const m = billingText(shell);
  const cards = view.balances
    .map((balance) => {
      const name = m.counters[balance.counter];
      const price = view.prices.find((p) => p.counter === balance.counter);
      const auto = view.autoTopups.find((a) => a.counter === balance.counter)?.setting ?? null;
      const state = balance.unlimited ? m.unlimited : m.states[balance.blocked](balance.counter);
      const buy = view.manage
        ? `<p><a class="bill-button" href="/dashboard/billing/buy?counter=${balance.counter}">${escapeHtml(m.buyCounter(balance.counter))}</a></p>`
        : '';
      return `<div class="card bill-balance" data-counter="${balance.counter}" data-blocked="${balance.blocked}">
<h3 id="bal-${balance.counter}">${escapeHtml(name)}</h3>
<dl class="bill-facts">
<div><dt>${escapeHtml(m.available)}</dt><dd class="bill-available">${escapeHtml(formatNumber(shell.lang, balance.available))}</dd></div>
<div><dt>${escapeHtml(m.graceFloor)}</dt><dd>${escapeHtml(formatNumber(shell.lang, balance.grace_floor))}</dd></div>
<div><dt>${escapeHtml(m.state)}</dt><dd class="bill-state bill-${balance.blocked}">${escapeHtml(state)}</dd></div>
${price === undefined ? '' : `<div><dt>${escapeHtml(m.price)}</dt><dd>${escapeHtml(m.pricePerUnit(price.unit_price_amd))}</dd></div>`}
<div><dt>${escapeHtml(m.autoTopupLink)}</dt><dd>${escapeHtml(autoSummary(m, auto))}</dd></div>
</dl>${buy}</div>`;
    })
    .join('');
  const links = [
    ['/dashboard/billing/ledger', m.ledgerLink],
    ['/dashboard/billing/purchases', m.purchasesLink],
    ['/dashboard/billing/auto-topup', m.autoTopupLink],
    ...(view.manage ? [['/dashboard/billing/buy', m.buyLink]] : []),
  ]
    .map(([href, text]) => `<li><a href="${href}">${escapeHtml(text ?? '')}</a></li>`)
    .join('');
  return layout(
    shell,
    m.title,
    `<h1>${escapeHtml(m.title)}</h1>
<p class="muted">${escapeHtml(m.intro)}</p>
${view.manage ? '' : `<p class="muted">${escapeHtml(m.viewerNote)}</p>`}
<h2>${escapeHtml(m.balancesTitle)}</h2>
<div class="bill-balances">${cards}</div>
<div class="card"><h2>${escapeHtml(m.moreTitle)}</h2><ul class="bill-links">${links}</ul></div>`,
  );
}

export interface LedgerView {
  readonly entries: readonly LedgerEntry[];
  readonly counter: Counter | undefined;
  readonly nextCursor: string | null;
  /** Rows per page when asked for another than the default (kept in the links). */
  readonly perPage: number | undefined;
  /** Whether this is a later page (a link back to the newest). */
  readonly paged: boolean;
  readonly error: string | null;
}

function ledgerHref(counter: Counter | undefined, perPage?: number, cursor?: string): string {
  const params = new URLSearchParams();
  if (counter !== undefined) params.set('counter', counter);
  if (perPage !== undefined) params.set('per_page', String(perPage));
  if (cursor !== undefined) params.set('cursor', cursor);
  const query = params.toString();
  return `/dashboard/billing/ledger${query === '' ? '' : `?${query}`}`;
}

function eventName(m: BillingMessages, event: string): string {
  return Object.hasOwn(m.events, event) ? m.events[event as LedgerEvent] : event;
}

export function ledgerPage(shell: Shell, view: LedgerView): string {
  const m = billingText(shell);
  const filters = [undefined, ...COUNTERS]
    .map((counter) => {
      const text = counter === undefined ? m.allCounters : m.counters[counter];
      const current = counter === view.counter ? ' aria-current="page"' : '';
      return `<li><a href="${escapeHtml(ledgerHref(counter, view.perPage))}"${current}>${escapeHtml(text)}</a></li>`;
    })
    .join('');
  const rows = view.entries
    .map(
      (e) => `<tr data-ledger-id="${e.id}">
<td>${e.created_at === null ? '' : timeTag(shell.lang, e.created_at)}</td>
<td>${escapeHtml(m.counters[e.counter])}</td>
<td>${escapeHtml(eventName(m, e.event_type))}</td>
<td class="bill-num">${e.delta > 0 ? '+' : ''}${escapeHtml(formatNumber(shell.lang, e.delta))}</td>
<td class="bill-num">${escapeHtml(formatNumber(shell.lang, e.balance_after))}</td>
<td>${e.ref_id === null ? '' : `<code>${escapeHtml(e.ref_id)}</code>`}</td>
<td>${escapeHtml(e.note ?? '')}</td>
</tr>`,
    )
    .join('');
  const list =
    view.entries.length === 0
      ? `<p class="muted">${escapeHtml(m.noEntries)}</p>`
      : table('ledger-title', [m.when, m.counter, m.event, m.change, m.balanceAfter, m.about, m.note], rows);
  const paging = [
    view.paged ? `<a href="${escapeHtml(ledgerHref(view.counter, view.perPage))}">${escapeHtml(m.newest)}</a>` : '',
    view.nextCursor === null
      ? ''
      : `<a rel="next" href="${escapeHtml(ledgerHref(view.counter, view.perPage, view.nextCursor))}">${escapeHtml(m.older)}</a>`,
  ]
    .filter((link) => link !== '')
    .join(' ');
  const csv = `/dashboard/billing/ledger.csv${view.counter === undefined ? '' : `?counter=${view.counter}`}`;
  return layout(
    shell,
    m.ledgerTitle,
    `<h1>${escapeHtml(m.ledgerTitle)}</h1>
<p class="muted">${escapeHtml(m.ledgerIntro)}</p>
${alert(view.error)}
<nav aria-label="${escapeHtml(m.filter)}"><ul class="bill-filter">${filters}</ul></nav>
<div class="card"><h2 id="ledger-title">${escapeHtml(view.counter === undefined ? m.allCounters : m.counters[view.counter])}</h2>
${list}
${paging === '' ? '' : `<p class="bill-paging">${paging}</p>`}
<p><a href="${escapeHtml(csv)}" download>${escapeHtml(m.downloadCsv)}</a></p>
</div>
${backLink(m)}`,
  );
}

export interface BuyForm {
  readonly counter: string;
  readonly quantity: string;
  readonly idempotencyKey: string;
  readonly problems: { counter?: string; quantity?: string };
  readonly error: 'verification' | 'resent' | null;
}

function counterSelect(m: BillingMessages, chosen: string, problem: string | undefined): string {
  const options = COUNTERS.map(
    (counter) =>
      `<option value="${counter}"${counter === chosen ? ' selected' : ''}>${escapeHtml(m.counters[counter])}</option>`,
  ).join('');
  const error = problem === undefined ? '' : `<p class="field-error" id="counter-error">${escapeHtml(problem)}</p>`;
  const invalid = problem === undefined ? '' : ' aria-invalid="true" aria-describedby="counter-error"';
  return `<label for="f-counter">${escapeHtml(m.counterLabel)}</label>
<select class="keys-select" id="f-counter" name="counter" required${invalid}>${options}</select>${error}`;
}

export function buyPage(
  shell: Shell,
  form: BuyForm,
  rules: { presets: readonly number[]; minimum: number; prices: readonly PriceEntry[] },
): string {
  const m = billingText(shell);
  const presets = presetList(shell, rules.presets);
  const error =
    form.error === 'verification'
      ? `<p class="alert" role="alert">${escapeHtml(m.verificationNeeded)} <a href="/dashboard/business">${escapeHtml(m.goToBusiness)}</a></p>`
      : form.error === 'resent'
        ? alert(m.changedAfterSending)
        : Object.keys(form.problems).length > 0
          ? alert(shell.t.errorSummary)
          : '';
  const prices = rules.prices
    .map((p) => `<li>${escapeHtml(`${m.counters[p.counter]}: ${m.pricePerUnit(p.unit_price_amd)}`)}</li>`)
    .join('');
  return layout(
    shell,
    m.buyTitle,
    `<div class="narrow"><div class="card">
<h1 id="buy-title">${escapeHtml(m.buyTitle)}</h1>
<p>${escapeHtml(m.buyIntro(presets, rules.minimum))}</p>
<ul>${prices}</ul>
${error}
<form method="post" action="/dashboard/billing/buy" aria-labelledby="buy-title" novalidate>${hidden(shell)}
<input type="hidden" name="idempotency_key" value="${escapeHtml(form.idempotencyKey)}">
${counterSelect(m, form.counter, form.problems.counter)}
${field(shell.t, {
  name: 'quantity',
  label: m.quantityLabel,
  type: 'text',
  inputmode: 'numeric',
  autocomplete: 'off',
  value: form.quantity,
  hint: m.quantityHint(presets, rules.minimum),
  problem: form.problems.quantity === undefined ? undefined : { text: form.problems.quantity },
})}
<button type="submit">${escapeHtml(m.buyButton)}</button>
</form></div>
${backLink(m)}</div>`,
  );
}

export function purchasePage(
  shell: Shell,
  purchase: PurchaseView,
  options: { bankDetails: readonly string[]; notice: string | null; manage: boolean },
): string {
  const m = billingText(shell);
  const counter = purchase.counter;
  const amount = formatAmd(shell.lang, purchase.amount_amd);
  let body: string;
  if (purchase.status === 'paid') {
    const receipt =
      purchase.receipt_url === null
        ? ''
        : `<p><a href="${escapeHtml(purchase.receipt_url)}">${escapeHtml(m.openReceipt(purchase.quantity, counter))}</a></p>`;
    body = `<p class="bill-state bill-paid">${escapeHtml(purchase.paid_at === null ? m.statuses.paid : m.paidOn(purchase.paid_at))}</p>${receipt}`;
  } else if (purchase.method === 'bank_transfer') {
    const details =
      options.bankDetails.length === 0
        ? `<p>${escapeHtml(m.noBankDetails)}</p>`
        : `<p class="bill-bank">${options.bankDetails.map((line) => escapeHtml(line)).join('<br>')}</p>`;
    const steps = m
      .instructions(purchase.reference ?? '', purchase.amount_amd)
      .map((step) => `<li>${escapeHtml(step)}</li>`)
      .join('');
    body = `<h2>${escapeHtml(m.bankTitle)}</h2>
<dl class="bill-facts">
<div><dt>${escapeHtml(m.reference)}</dt><dd><code class="bill-reference" id="transfer-reference">${escapeHtml(purchase.reference ?? '')}</code></dd></div>
<div><dt>${escapeHtml(m.amount)}</dt><dd id="transfer-amount">${escapeHtml(amount)}</dd></div>
</dl>
<div class="copy-row"><button type="button" class="secondary" data-copy="transfer-reference" data-copied="${escapeHtml(shell.t.copied)}">${escapeHtml(shell.t.copy)}</button><span class="copied" role="status" aria-live="polite"></span></div>
<h3>${escapeHtml(m.bankDetails)}</h3>
${details}
<ol class="keys-steps">${steps}</ol>`;
  } else {
    const pay =
      options.manage && purchase.checkout_url !== null
        ? `<p><a class="bill-button" href="${escapeHtml(purchase.checkout_url)}">${escapeHtml(m.payByCard)}</a></p>`
        : '';
    body = `<p>${escapeHtml(m.cardPending)}</p>${pay}`;
  }
  return layout(
    shell,
    m.purchaseTitle,
    `<div class="narrow">${notice(options.notice)}<div class="card" data-purchase-id="${escapeHtml(purchase.id)}">
<h1>${escapeHtml(m.purchaseTitle)}</h1>
<p>${escapeHtml(m.purchaseSummary(purchase.quantity, counter, purchase.amount_amd))}</p>
<dl class="bill-facts">
<div><dt>${escapeHtml(m.status)}</dt><dd class="bill-status">${escapeHtml(m.statuses[purchase.status])}</dd></div>
<div><dt>${escapeHtml(m.method)}</dt><dd>${escapeHtml(m.methods[purchase.method])}</dd></div>
<div><dt>${escapeHtml(m.created)}</dt><dd>${timeTag(shell.lang, purchase.created_at)}</dd></div>
</dl>
${body}
</div>
<div class="links"><a href="/dashboard/billing/purchases">${escapeHtml(m.backToPurchases)}</a> · <a href="/dashboard/billing">${escapeHtml(m.backToBilling)}</a></div></div>`,
  );
}

export function purchasesPage(shell: Shell, purchases: readonly PurchaseView[]): string {
  const m = billingText(shell);
  const rows = purchases
    .map((p) => {
      const counter = p.counter;
      const receipt =
        p.receipt_url === null
          ? escapeHtml(m.noReceipt)
          : `<a href="${escapeHtml(p.receipt_url)}">${escapeHtml(m.openReceipt(p.quantity, counter))}</a>`;
      return `<tr data-purchase-id="${escapeHtml(p.id)}">
<td>${timeTag(shell.lang, p.created_at)}</td>
<td>${escapeHtml(m.counters[counter])}</td>
<td class="bill-num">${escapeHtml(formatNumber(shell.lang, p.quantity))}</td>
<td class="bill-num">${escapeHtml(formatAmd(shell.lang, p.amount_amd))}</td>
<td>${escapeHtml(m.methods[p.method])}${p.reference === null ? '' : ` <code>${escapeHtml(p.reference)}</code>`}</td>
<td>${escapeHtml(m.statuses[p.status])}${p.source === 'auto_topup' ? ` (${escapeHtml(m.sources.auto_topup ?? '')})` : ''}</td>
<td>${receipt}</td>
<td><a href="/dashboard/billing/purchases/${escapeHtml(p.id)}">${escapeHtml(m.details(p.quantity, counter))}</a></td>
</tr>`;
    })
    .join('');
  const list =
    purchases.length === 0
      ? `<p class="muted">${escapeHtml(m.noPurchases)}</p>`
      : table(
          'purchases-title',
          [m.created, m.counter, m.quantity, m.amount, m.method, m.status, m.receipt, m.purchaseTitle],
          rows,
        );
  return layout(
    shell,
    m.purchasesTitle,
    `<h1 id="purchases-title">${escapeHtml(m.purchasesTitle)}</h1>
<p class="muted">${escapeHtml(m.purchasesIntro)}</p>
<div class="card">${list}</div>
${backLink(m)}`,
  );
}

export interface AutoTopupForm {
  readonly enabled: boolean;
  readonly threshold: string;
  readonly refill: string;
  readonly problems: { threshold_qty?: string; refill_qty?: string };
}

export interface AutoTopupView {
  readonly settings: ReadonlyArray<{ counter: Counter; setting: AutoTopupResponse | null }>;
  readonly manage: boolean;
  readonly notice: string | null;
  /** The form of one counter sent back with its problems (422). */
  readonly failed: { counter: Counter; form: AutoTopupForm } | null;
  readonly presets: readonly number[];
  readonly minimum: number;
}

function autoTopupForm(shell: Shell, m: BillingMessages, counter: Counter, form: AutoTopupForm, view: AutoTopupView) {
  const problem = (text: string | undefined) => (text === undefined ? undefined : { text });
  return `<form method="post" action="/dashboard/billing/auto-topup/${counter}" aria-labelledby="auto-${counter}" novalidate>${hidden(shell)}
<div class="bill-check"><input type="checkbox" id="${counter}-enabled" name="enabled" value="on"${form.enabled ? ' checked' : ''}>
<label for="${counter}-enabled">${escapeHtml(m.enabledLabel)}</label></div>
${field(shell.t, {
  name: 'threshold_qty',
  id: `${counter}-threshold`,
  label: m.thresholdLabel,
  type: 'text',
  inputmode: 'numeric',
  autocomplete: 'off',
  value: form.threshold,
  hint: m.thresholdHint,
  problem: problem(form.problems.threshold_qty),
})}
${field(shell.t, {
  name: 'refill_qty',
  id: `${counter}-refill`,
  label: m.refillLabel,
  type: 'text',
  inputmode: 'numeric',
  autocomplete: 'off',
  value: form.refill,
  hint: m.refillHint(presetList(shell, view.presets), view.minimum),
  problem: problem(form.problems.refill_qty),
})}
<button type="submit">${escapeHtml(m.save(counter))}</button>
</form>`;
}

export function autoTopupPage(shell: Shell, view: AutoTopupView): string {
  const m = billingText(shell);
  const cards = view.settings
    .map(({ counter, setting }) => {
      const failed = view.failed?.counter === counter ? view.failed.form : undefined;
      const form: AutoTopupForm = failed ?? {
        enabled: setting?.enabled ?? false,
        threshold: String(setting?.threshold_qty ?? 0),
        refill: String(setting?.refill_qty ?? view.presets[0] ?? view.minimum),
        problems: {},
      };
      const errors = failed === undefined ? '' : alert(shell.t.errorSummary);
      return `<div class="card" data-counter="${counter}"><h2 id="auto-${counter}">${escapeHtml(m.counters[counter])}</h2>
<p class="bill-state">${escapeHtml(autoSummary(m, setting))}</p>
${view.manage ? `${errors}${autoTopupForm(shell, m, counter, form, view)}` : ''}</div>`;
    })
    .join('');
  return layout(
    shell,
    m.autoTitle,
    `<h1>${escapeHtml(m.autoTitle)}</h1>
<p class="muted">${escapeHtml(m.autoIntro)}</p>
${view.manage ? '' : `<p class="muted">${escapeHtml(m.viewerNote)}</p>`}
${notice(view.notice)}
<div class="bill-balances">${cards}</div>
${backLink(m)}`,
  );
}
