/**
 * The payments list: the test/live switch, the search and filters (a GET form: the page's address
 * is the search) with the Uncaptured filter (authorized payments), the matching payments with their
 * total and, for an authorized one, its hold's deadline, newer/older pages, and the CSV export
 * with its progress. Each row links to the payment's own page. The export form works without
 * script (a plain download); with it, the download is read as it comes and "N of M rows" is said
 * in a live region.
 */
import { escapeHtml } from '../../checkout/html.js';
import { type Environment, PAYMENT_STATUSES, type Payment, pricedAs } from '../../domain/payment.js';
import { formatDateTime, formatMoney, formatNumber } from '../../i18n/format.js';
import { type Language, LOCALES } from '../../i18n/languages.js';
import { alert, layout, type Shell } from '../layout.js';
import { PAYMENTS_MESSAGES } from './messages.js';

export const FILTER_FIELDS = ['q', 'status', 'processor', 'order_id', 'from', 'to'] as const;
export type FilterField = (typeof FILTER_FIELDS)[number];

export interface PaymentsListView {
  readonly env: Environment;
  /** The filters as asked ('' when not given). */
  readonly values: Readonly<Record<FilterField, string>>;
  /** Per field, the problem in the reader's language. */
  readonly problems: Partial<Record<FilterField, string>>;
  readonly payments: readonly Payment[];
  readonly total: number;
  readonly newerHref: string | null;
  readonly olderHref: string | null;
  readonly newestHref: string | null;
  /** The export's address with the filters (the no-script download). */
  readonly exportHref: string;
  /** The list's address with the filters and only authorized payments (the Uncaptured filter). */
  readonly uncapturedHref: string;
  readonly processors: readonly string[];
}

/**
 * A message that counts rows, once per plural form of `language` (`one`, `few`, `many`, `other`),
 * with the count left as `{m}` for the export script: it picks the form with `Intl.PluralRules`.
 */
function pluralTemplates(language: Language, render: (count: number) => string): string {
  const rules = new Intl.PluralRules(LOCALES[language]);
  const forms: Record<string, string> = {};
  for (const sample of [1, 2, 5, 0, 1.5, 21]) {
    const form = rules.select(sample);
    if (forms[form] !== undefined) continue;
    forms[form] = render(sample).replace(formatNumber(language, sample, 1), '{m}');
  }
  return JSON.stringify(forms);
}

/**
 * The export's progress: reads the response as it streams, counts the CSV's records (line breaks
 * outside quotes, less the header), says "N of M rows" at most twice a second, then saves the file.
 */
const EXPORT_SCRIPT = `(function(){var f=document.getElementById('pay-export');var s=document.getElementById('pay-export-status');if(!f||!s||!window.fetch||!window.ReadableStream||!window.TextDecoder)return;f.addEventListener('submit',function(e){e.preventDefault();var b=f.querySelector('button');b.disabled=true;var url=f.action+'?'+new URLSearchParams(new FormData(f)).toString();var lang=document.documentElement.lang;var rules=new Intl.PluralRules(lang);var num=function(x){return typeof x==='number'?x.toLocaleString(lang):String(x);};var say=function(t,n,m){var k=t==='data-done'?n:Number(m);var forms=JSON.parse(f.getAttribute(t)||'{}');var form=forms[isNaN(k)?'other':rules.select(k)]||forms.other||'';s.textContent=form.replace('{n}',num(n)).replace('{m}',t==='data-done'?num(n):num(isNaN(Number(m))?m:Number(m)));};fetch(url,{credentials:'same-origin'}).then(function(r){if(!r.ok||!r.body)throw new Error('export');var total=r.headers.get('X-Row-Count')||'?';var name=(/filename="([^"]+)"/.exec(r.headers.get('Content-Disposition')||'')||[])[1]||'payments.csv';var reader=r.body.getReader();var dec=new TextDecoder();var parts=[];var rows=-1;var q=false;var last=0;say('data-progress',0,total);var pump=function(){return reader.read().then(function(c){if(c.done){var a=document.createElement('a');a.href=URL.createObjectURL(new Blob(parts,{type:'text/csv'}));a.download=name;document.body.appendChild(a);a.click();a.remove();say('data-done',Math.max(rows,0),total);b.disabled=false;return;}parts.push(c.value);var t=dec.decode(c.value,{stream:true});for(var i=0;i<t.length;i++){var ch=t.charCodeAt(i);if(ch===34)q=!q;else if(ch===10&&!q)rows++;}var now=Date.now();if(now-last>500){last=now;say('data-progress',Math.max(rows,0),total);}return pump();});};return pump();}).catch(function(){s.textContent=f.getAttribute('data-failed');b.disabled=false;});});})();`;

function envSwitch(shell: Shell, view: PaymentsListView, hrefFor: (env: Environment) => string): string {
  const p = PAYMENTS_MESSAGES[shell.lang];
  const items = (['test', 'live'] as const)
    .map((env) => {
      const current = env === view.env ? ' aria-current="page"' : '';
      return `<li><a href="${escapeHtml(hrefFor(env))}"${current}>${escapeHtml(env === 'test' ? p.test : p.live)}</a></li>`;
    })
    .join('');
  return `<nav class="pay-env" aria-label="${escapeHtml(p.environment)}"><ul>${items}</ul></nav>`;
}

function problemOf(view: PaymentsListView, name: FilterField): { aria: string; text: string } {
  const problem = view.problems[name];
  if (problem === undefined) return { aria: '', text: '' };
  return {
    aria: ` aria-invalid="true" aria-describedby="pay-${name}-error"`,
    text: `<p class="field-error" id="pay-${name}-error">${escapeHtml(problem)}</p>`,
  };
}

function filterForm(shell: Shell, view: PaymentsListView): string {
  const p = PAYMENTS_MESSAGES[shell.lang];
  const v = view.values;
  const input = (name: FilterField, label: string, type: 'search' | 'text' | 'date', extra = '') => {
    const problem = problemOf(view, name);
    return `<div class="pay-field"><label for="pay-${name}">${escapeHtml(label)}</label>
<input id="pay-${name}" name="${name}" type="${type}" value="${escapeHtml(v[name])}"${extra}${problem.aria}>${problem.text}</div>`;
  };
  const select = (
    name: 'status' | 'processor',
    label: string,
    any: string,
    options: ReadonlyArray<[string, string]>,
  ) => {
    const problem = problemOf(view, name);
    const opts = [['', any] as [string, string], ...options]
      .map(
        ([value, text]) =>
          `<option value="${escapeHtml(value)}"${value === v[name] ? ' selected' : ''}>${escapeHtml(text)}</option>`,
      )
      .join('');
    return `<div class="pay-field"><label for="pay-${name}">${escapeHtml(label)}</label>
<select id="pay-${name}" name="${name}"${problem.aria}>${opts}</select>${problem.text}</div>`;
  };
  const processors = [...new Set([...view.processors, ...(v.processor === '' ? [] : [v.processor])])];
  const search = problemOf(view, 'q');
  return `<form class="pay-filters card" method="get" action="/dashboard/payments" role="search" aria-label="${escapeHtml(p.filters)}">
<h2>${escapeHtml(p.filters)}</h2>
<input type="hidden" name="env" value="${view.env}">
<div class="pay-search"><label for="pay-q">${escapeHtml(p.search)}</label>
<p class="hint" id="pay-q-hint">${escapeHtml(p.searchHint)}</p>
<input id="pay-q" name="q" type="search" autocomplete="off" value="${escapeHtml(v.q)}" aria-describedby="pay-q-hint${view.problems.q === undefined ? '' : ' pay-q-error'}"${view.problems.q === undefined ? '' : ' aria-invalid="true"'}>${search.text}</div>
<p class="pay-quick"><a href="${escapeHtml(view.uncapturedHref)}" aria-describedby="pay-uncaptured-hint"${v.status === 'authorized' ? ' aria-current="true"' : ''}>${escapeHtml(p.uncaptured)}</a> <span class="hint" id="pay-uncaptured-hint">${escapeHtml(p.uncapturedHint)}</span></p>
<div class="pay-grid">
${select(
  'status',
  p.status,
  p.anyStatus,
  PAYMENT_STATUSES.map((status) => [status, p.statuses[status]]),
)}
${select(
  'processor',
  p.processor,
  p.anyProcessor,
  processors.map((slug) => [slug, slug]),
)}
${input('order_id', p.orderId, 'text', ' autocomplete="off"')}
${input('from', p.from, 'date')}
${input('to', p.to, 'date')}
</div>
<div class="pay-actions"><button type="submit">${escapeHtml(p.apply)}</button> <a href="/dashboard/payments?env=${view.env}">${escapeHtml(p.clear)}</a></div>
</form>`;
}

/** The status as a word in a badge, and under it the deadline of an authorized payment's hold. */
function statusCell(shell: Shell, payment: Payment): string {
  const p = PAYMENTS_MESSAGES[shell.lang];
  const status = `<span class="pay-badge pay-${payment.status}">${escapeHtml(p.statuses[payment.status])}</span>`;
  if (payment.status !== 'authorized' || payment.captureBefore === null) return status;
  const deadline = `<span class="pay-deadline">${escapeHtml(p.captureBy)} <time datetime="${escapeHtml(payment.captureBefore)}">${escapeHtml(formatDateTime(shell.lang, payment.captureBefore))}</time></span>`;
  return `<span class="pay-status">${status}${deadline}</span>`;
}

function paymentRow(shell: Shell, payment: Payment): string {
  const p = PAYMENTS_MESSAGES[shell.lang];
  const priced = pricedAs(payment);
  const cell = (label: string, html: string, cls = '') =>
    `<td data-label="${escapeHtml(label)}"${cls === '' ? '' : ` class="${cls}"`}>${html}</td>`;
  return `<tr data-uuid="${escapeHtml(payment.uuid)}">
${cell(p.created, `<time datetime="${escapeHtml(payment.createdAt)}">${escapeHtml(formatDateTime(shell.lang, payment.createdAt))}</time>`)}
${cell(p.orderId, `<a href="/dashboard/payments/${escapeHtml(payment.uuid)}">${escapeHtml(payment.orderId)}</a>`, 'pay-order')}
${cell(p.amount, escapeHtml(formatMoney(shell.lang, priced.amount, priced.currency)), 'pay-amount')}
${cell(p.status, statusCell(shell, payment))}
${cell(p.processor, escapeHtml(payment.processor ?? '—'))}
${cell(p.customer, escapeHtml(payment.customerEmail ?? '—'), 'pay-email')}
${cell(p.rrn, escapeHtml(payment.rrn ?? '—'))}
</tr>`;
}

function exportForm(shell: Shell, view: PaymentsListView): string {
  const p = PAYMENTS_MESSAGES[shell.lang];
  const hiddenFilters = ['env', ...FILTER_FIELDS]
    .map((name) => {
      const value = name === 'env' ? view.env : view.values[name as FilterField];
      return value === '' ? '' : `<input type="hidden" name="${name}" value="${escapeHtml(value)}">`;
    })
    .join('');
  return `<section class="card pay-export" aria-labelledby="pay-export-title">
<h2 id="pay-export-title">${escapeHtml(p.exportTitle)}</h2>
<p>${escapeHtml(p.exportText(view.total))}</p>
<form id="pay-export" method="get" action="/dashboard/payments/export.csv" data-progress="${escapeHtml(pluralTemplates(shell.lang, (m) => p.progress('{n}', m)))}" data-done="${escapeHtml(pluralTemplates(shell.lang, (n) => p.exportDone(n)))}" data-failed="${escapeHtml(p.exportFailed)}">${hiddenFilters}
<button type="submit" class="secondary">${escapeHtml(p.exportButton)}</button>
</form>
<p id="pay-export-status" class="pay-progress" role="status" aria-live="polite"></p>
<noscript><p><a href="${escapeHtml(view.exportHref)}" download>${escapeHtml(p.exportButton)}</a></p></noscript>
</section>`;
}

export function paymentsListPage(shell: Shell, view: PaymentsListView, hrefFor: (env: Environment) => string): string {
  const p = PAYMENTS_MESSAGES[shell.lang];
  const invalid = Object.keys(view.problems).length > 0;
  const rows = view.payments.map((payment) => paymentRow(shell, payment)).join('');
  const table =
    view.payments.length === 0
      ? `<p class="muted">${escapeHtml(p.empty)}</p>`
      : `<div class="pay-wrap" role="region" tabindex="0" aria-label="${escapeHtml(p.tableLabel)}"><table class="pay-table">
<thead><tr><th scope="col">${escapeHtml(p.created)}</th><th scope="col">${escapeHtml(p.orderId)}</th><th scope="col">${escapeHtml(p.amount)}</th><th scope="col">${escapeHtml(p.status)}</th><th scope="col">${escapeHtml(p.processor)}</th><th scope="col">${escapeHtml(p.customer)}</th><th scope="col">${escapeHtml(p.rrn)}</th></tr></thead>
<tbody>${rows}</tbody></table></div>`;
  const links = [
    view.newestHref === null ? '' : `<a href="${escapeHtml(view.newestHref)}">${escapeHtml(p.newest)}</a>`,
    view.newerHref === null ? '' : `<a href="${escapeHtml(view.newerHref)}" rel="prev">${escapeHtml(p.newer)}</a>`,
    view.olderHref === null ? '' : `<a href="${escapeHtml(view.olderHref)}" rel="next">${escapeHtml(p.older)}</a>`,
  ].join('');
  return layout(
    shell,
    p.title,
    `<h1>${escapeHtml(p.title)}</h1>
<p class="muted">${escapeHtml(p.intro)}</p>
${envSwitch(shell, view, hrefFor)}
${invalid ? alert(p.badFilters) : ''}
${filterForm(shell, view)}
<div class="card pay-list">
<h2 id="pay-list-title">${escapeHtml(p.tableLabel)}</h2>
${invalid ? '' : `<p class="pay-total" id="pay-total">${escapeHtml(p.total(view.total))}</p>`}
${table}
${links === '' ? '' : `<nav class="pay-pager" aria-label="${escapeHtml(p.pages)}">${links}</nav>`}
</div>
${invalid || view.total === 0 ? '' : exportForm(shell, view)}
<script nonce="${shell.nonce}">${EXPORT_SCRIPT}</script>`,
  );
}
