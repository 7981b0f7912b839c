/**
 * The overview page: four figures, two server-rendered SVG bar charts (completed volume and
 * count per day) each with a title, a description in words, a title on every bar, labelled axes and
 * the day-by-day table beside them, so nothing is told by colour alone; the split by processor;
 * the webhook deliveries that failed in the last 24 hours, each linked to its payment; both balances
 * with their blocked state and the way to top up. Read-only for every role.
 */
import { escapeHtml } from '../../checkout/html.js';
import { formatDate, formatDayMonth, formatPercent } from '../../i18n/format.js';
import { isLanguage } from '../../i18n/languages.js';
import { amd, count, environmentSwitch, instant } from '../customers/environment.js';
import { layout, type Shell } from '../layout.js';
import { OVERVIEW_MESSAGES, type OverviewMessages } from './messages.js';
import { type DayFigures, FAILED_DELIVERIES_SHOWN, type Overview } from './overview.service.js';

const W = 640;
const H = 220;
const LEFT = 8;
const TOP = 24;
const BOTTOM = 28;

/** A UTC day of the chart (`2026-11-05`) as day and month in the reader's language (`Nov 5`, `5 նոյ`, `5 нояб.`). */
function shortDay(day: string, locale: string): string {
  return formatDayMonth(isLanguage(locale) ? locale : 'en', `${day}T00:00:00Z`);
}

/** One bar chart of `value` per day, as an `img` with its own title and description. */
export function barChart(
  id: string,
  title: string,
  days: readonly DayFigures[],
  value: (d: DayFigures) => number,
  format: (n: number) => string,
  o: OverviewMessages,
  locale: string,
): string {
  const values = days.map(value);
  const max = Math.max(...values, 0);
  const total = values.reduce((s, v) => s + v, 0);
  const plotH = H - TOP - BOTTOM;
  const slot = (W - LEFT * 2) / days.length;
  const barW = Math.max(slot - 4, 2);
  const bars = days
    .map((d, i) => {
      const v = values[i] ?? 0;
      const h = max === 0 ? 0 : Math.max((v / max) * plotH, v > 0 ? 2 : 0);
      const x = LEFT + i * slot + (slot - barW) / 2;
      const y = TOP + plotH - h;
      const label = o.barTitle(shortDay(d.day, locale), format(v));
      return `<g><title>${escapeHtml(label)}</title><rect class="bar" x="${x.toFixed(1)}" y="${y.toFixed(1)}" width="${barW.toFixed(1)}" height="${h.toFixed(1)}"></rect></g>`;
    })
    .join('');
  // The first day, every seventh, and the last (anchored at the edges, never overlapping).
  const last = days.length - 1;
  const ticks = days
    .map((d, i) => {
      if (!(i === last || (i % 7 === 0 && last - i >= 5))) return '';
      const anchor = i === 0 ? 'start' : i === last ? 'end' : 'middle';
      const x = i === 0 ? LEFT : i === last ? W - LEFT : LEFT + i * slot + slot / 2;
      return `<text class="tick" x="${x.toFixed(1)}" y="${H - 8}" text-anchor="${anchor}">${escapeHtml(shortDay(d.day, locale))}</text>`;
    })
    .join('');
  const desc = o.chartDesc(format(total), format(max), days.length);
  return `<figure class="chart"><figcaption id="${id}-title">${escapeHtml(title)}</figcaption>
<svg viewBox="0 0 ${W} ${H}" role="img" aria-labelledby="${id}-svg-title ${id}-desc" focusable="false">
<title id="${id}-svg-title">${escapeHtml(title)}</title><desc id="${id}-desc">${escapeHtml(desc)}</desc>
<line class="axis" x1="${LEFT}" y1="${TOP + plotH}" x2="${W - LEFT}" y2="${TOP + plotH}"></line>
<line class="grid" x1="${LEFT}" y1="${TOP}" x2="${W - LEFT}" y2="${TOP}"></line>
<text class="tick" x="${LEFT}" y="${TOP - 8}">${escapeHtml(format(max))}</text>
${bars}${ticks}</svg>
<p class="muted chart-desc" aria-hidden="true">${escapeHtml(desc)}</p></figure>`;
}

function figure(label: string, value: string, note: string): string {
  return `<div class="figure"><p class="figure-label">${escapeHtml(label)}</p><p class="figure-value">${escapeHtml(value)}</p><p class="figure-note">${escapeHtml(note)}</p></div>`;
}

function cell(label: string, html: string, numeric = false): string {
  return `<td data-label="${escapeHtml(label)}"${numeric ? ' class="num"' : ''}>${html}</td>`;
}

function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return '';
  }
}

export function overviewPage(shell: Shell, view: Overview): string {
  const o = OVERVIEW_MESSAGES[shell.lang];
  const locale = shell.t.locale;
  const money = (n: number) => amd(n, locale);
  const num = (n: number) => count(n, locale);
  const percent = (r: number) => formatPercent(shell.lang, r);
  const period = `${formatDate(shell.lang, view.from)} – ${formatDate(shell.lang, view.to)}`;

  const figures = `<div class="figures">
${figure(o.completedVolume, money(view.completedVolume), period)}
${figure(o.completedCount, num(view.completedCount), period)}
${figure(o.successRate, view.successRate === null ? '—' : percent(view.successRate), view.successRate === null ? o.noFinished : o.successRateOf(view.paid, view.finished))}
${figure(o.refunds, money(view.refundsAmount), o.refundsOf(view.refundsCount))}
</div>`;

  const dayRows = view.days
    .map(
      (d) =>
        `<tr><th scope="row">${escapeHtml(d.day)}</th><td class="num">${escapeHtml(num(d.count))}</td><td class="num">${escapeHtml(money(d.volume))}</td></tr>`,
    )
    .join('');
  const charts = `<section class="card" aria-label="${escapeHtml(o.numbersLabel)}">
<div class="charts">
${barChart('volume', o.volumeChart, view.days, (d) => d.volume, money, o, locale)}
${barChart('count', o.countChart, view.days, (d) => d.count, num, o, locale)}
</div>
<details class="numbers"><summary>${escapeHtml(o.numbers)}</summary>
<div class="dash-wrap"><table class="dash-table days-table" aria-label="${escapeHtml(o.numbersLabel)}">
<thead><tr><th scope="col">${escapeHtml(o.day)}</th><th scope="col" class="num">${escapeHtml(o.count)}</th><th scope="col" class="num">${escapeHtml(o.volume)}</th></tr></thead>
<tbody>${dayRows}</tbody></table></div></details></section>`;

  const processorRows = view.processors
    .map(
      (p) => `<tr>${cell(o.processor, escapeHtml(p.processor === '' ? o.noProcessor : p.processor))}
${cell(o.count, escapeHtml(num(p.count)), true)}${cell(o.volume, escapeHtml(money(p.volume)), true)}</tr>`,
    )
    .join('');
  const processors = `<section class="card" aria-labelledby="processors-title"><h2 id="processors-title">${escapeHtml(o.processorsTitle)}</h2>
${
  view.processors.length === 0
    ? `<p class="muted">${escapeHtml(o.noCompleted)}</p>`
    : `<div class="dash-wrap"><table class="dash-table" aria-label="${escapeHtml(o.processorsLabel)}">
<thead><tr><th scope="col">${escapeHtml(o.processor)}</th><th scope="col" class="num">${escapeHtml(o.count)}</th><th scope="col" class="num">${escapeHtml(o.volume)}</th></tr></thead>
<tbody>${processorRows}</tbody></table></div>`
}</section>`;

  const failedRows = view.failedDeliveries
    .map(
      (d) => `<tr>${cell(o.failedAt, instant(d.failedAt, locale))}
${cell(o.payment, `<a class="mono" href="/dashboard/payments/${escapeHtml(d.paymentId)}" aria-label="${escapeHtml(`${o.openPayment} ${d.paymentId}`)}">${escapeHtml(d.paymentId)}</a>`)}
${cell(o.event, escapeHtml(d.event))}${cell(o.target, escapeHtml(hostOf(d.url)))}
${cell(o.attempts, escapeHtml(num(d.attempts)), true)}${cell(o.lastAnswer, escapeHtml(d.lastStatusCode === null ? o.noAnswer : String(d.lastStatusCode)))}</tr>`,
    )
    .join('');
  const webhooks = `<section class="card" aria-labelledby="webhooks-title"><h2 id="webhooks-title">${escapeHtml(o.webhooksTitle)}</h2>
${
  view.failedDeliveriesCount === 0
    ? `<p class="health-ok" data-health="ok"><span aria-hidden="true">✓ </span>${escapeHtml(o.webhooksHealthy)} ${escapeHtml(o.webhooksSummary(0, view.deliveredCount))}</p>`
    : `<p class="health-bad" data-health="failed"><span aria-hidden="true">⚠ </span>${escapeHtml(o.webhooksSummary(view.failedDeliveriesCount, view.deliveredCount))}${
        view.failedDeliveriesCount > FAILED_DELIVERIES_SHOWN
          ? ` ${escapeHtml(o.moreFailed(FAILED_DELIVERIES_SHOWN, view.failedDeliveriesCount))}`
          : ''
      }</p>
<div class="dash-wrap"><table class="dash-table" aria-label="${escapeHtml(o.failedLabel)}">
<thead><tr><th scope="col">${escapeHtml(o.failedAt)}</th><th scope="col">${escapeHtml(o.payment)}</th><th scope="col">${escapeHtml(o.event)}</th><th scope="col">${escapeHtml(o.target)}</th><th scope="col" class="num">${escapeHtml(o.attempts)}</th><th scope="col">${escapeHtml(o.lastAnswer)}</th></tr></thead>
<tbody>${failedRows}</tbody></table></div>`
}</section>`;

  const balanceRows = view.balances
    .map(
      (b) => `<tr data-blocked="${escapeHtml(b.blocked)}">${cell(o.counter, escapeHtml(o.counters[b.counter]))}
${cell(o.available, escapeHtml(b.unlimited ? o.unlimited : num(b.available)), true)}
${cell(o.graceFloor, escapeHtml(num(b.grace_floor)), true)}
${cell(o.state, `<span class="blocked-${escapeHtml(b.blocked)}">${escapeHtml(o.blocked[b.blocked])}</span>`)}</tr>`,
    )
    .join('');
  const balances = `<section class="card" aria-labelledby="balances-title"><h2 id="balances-title">${escapeHtml(o.balancesTitle)}</h2>
<p class="muted">${escapeHtml(o.balancesNote)}</p>
<div class="dash-wrap"><table class="dash-table" aria-label="${escapeHtml(o.balancesLabel)}">
<thead><tr><th scope="col">${escapeHtml(o.counter)}</th><th scope="col" class="num">${escapeHtml(o.available)}</th><th scope="col" class="num">${escapeHtml(o.graceFloor)}</th><th scope="col">${escapeHtml(o.state)}</th></tr></thead>
<tbody>${balanceRows}</tbody></table></div>
<p><a href="/dashboard/billing">${escapeHtml(o.topUp)}</a></p></section>`;

  return layout(
    shell,
    o.title,
    `<h1>${escapeHtml(o.title)}</h1>
${environmentSwitch(o.environment, view.env, (env) => `/dashboard/overview?env=${env}`)}
<p class="muted">${escapeHtml(o.intro(view.from, view.to))}</p>
${figures}
${charts}
${processors}
${webhooks}
${balances}`,
  );
}
