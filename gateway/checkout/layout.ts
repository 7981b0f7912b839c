/**
 * The frame every checkout page shares: the document with its styles and script, the merchant's
 * header, the amount and what the payment is for, and the form's error box. Every value printed
 * goes through `escapeHtml`.
 */
import { escapeHtml } from './html.js';
import { DICTIONARIES, LANGUAGES, type Language, type Messages } from './i18n/index.js';
import { type Carried, carriedQuery } from './links.js';
import { LEAVE_AFTER_MS, pageScript, type ResultMessage, type ScriptConfig } from './page-script.js';
import { CHECKOUT_CSS } from './styles.js';

/** Facts of one answer that every page needs. */
export interface Shell {
  readonly t: Messages;
  readonly lang: Language;
  readonly nonce: string;
  readonly carried: Carried;
  /** Path of this page without a query (for the language links); null: no language links. */
  readonly selfPath: string | null;
}

/** What the payment looks like to the buyer (all texts unescaped; the pages escape them). */
export interface PaymentSummary {
  readonly merchantName: string;
  /**
   * The merchant's own website, under its name; null on the account's hosted domain (payment
   * links, dashboard payments), whose generated name means nothing to a buyer.
   */
  readonly host: string | null;
  /** Amount with its currency, formatted for the page's language (`5,000 AMD`, or `10 USD` as priced). */
  readonly amount: string;
  /** A payment priced in another currency: the AMD charged (`3,875 AMD`) and the locked rate (`1 USD = 387.5 AMD`). */
  readonly charge: { readonly amount: string; readonly rate: string } | null;
  readonly orderId: string;
  readonly description: string | null;
  readonly sandbox: boolean;
}

const ICONS = {
  ok: '<path d="M5 12.5l4.5 4.5L19 7.5" fill="none" stroke="currentColor" stroke-width="2.6" stroke-linecap="round" stroke-linejoin="round"/>',
  fail: '<path d="M7 7l10 10M17 7L7 17" fill="none" stroke="currentColor" stroke-width="2.6" stroke-linecap="round"/>',
  wait: '<path d="M12 3a9 9 0 1 0 9 9" fill="none" stroke="currentColor" stroke-width="2.6" stroke-linecap="round"/>',
  muted:
    '<circle cx="12" cy="12" r="8.5" fill="none" stroke="currentColor" stroke-width="2.2"/><path d="M12 7.5V12l3 2" fill="none" stroke="currentColor" stroke-width="2.2" stroke-linecap="round"/>',
} as const;

export type IconKind = keyof typeof ICONS;

export function icon(kind: IconKind): string {
  return `<div class="icon ${kind}" aria-hidden="true"><svg viewBox="0 0 24 24">${ICONS[kind]}</svg></div>`;
}

const LOCK =
  '<svg class="lock" width="12" height="12" viewBox="0 0 24 24" aria-hidden="true"><path fill="currentColor" d="M7 10V7a5 5 0 0 1 10 0v3h1a1 1 0 0 1 1 1v10a1 1 0 0 1-1 1H6a1 1 0 0 1-1-1V11a1 1 0 0 1 1-1h1zm2 0h6V7a3 3 0 0 0-6 0v3z"/></svg>';

function languageLinks(shell: Shell): string {
  if (shell.selfPath === null) return '';
  const links = LANGUAGES.map((lang) => {
    const href = `${shell.selfPath}${carriedQuery({ ...shell.carried, lang })}`;
    const current = lang === shell.lang ? ' aria-current="true"' : '';
    const name = escapeHtml(DICTIONARIES[lang].languageName);
    return `<a href="${escapeHtml(href)}" hreflang="${lang}" lang="${lang}"${current}>${name}</a>`;
  });
  return `<div class="languages">${links.join('')}</div>`;
}

export interface LayoutInput {
  readonly title: string;
  readonly main: string;
  readonly result?: ResultMessage | null;
  readonly leaveTo?: string | null;
  readonly cardFill?: boolean;
  readonly handoff?: boolean;
  readonly refreshSeconds?: number;
}

export function layout(shell: Shell, input: LayoutInput): string {
  const { t, nonce } = shell;
  const embedded = shell.carried.embedOrigin !== null;
  const config: ScriptConfig = {
    origin: shell.carried.embedOrigin,
    result: input.result ?? null,
    leaveTo: input.leaveTo ?? null,
    leaveAfterMs: LEAVE_AFTER_MS,
    cardFill: input.cardFill ?? false,
    handoff: input.handoff ?? false,
  };
  const needsScript = embedded || config.leaveTo !== null || config.cardFill || config.handoff;
  const refresh =
    input.refreshSeconds === undefined ? '' : `\n<meta http-equiv="refresh" content="${input.refreshSeconds}">`;
  return `<!doctype html>
<html lang="${escapeHtml(t.locale.split('-')[0] ?? 'en')}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<meta name="robots" content="noindex, nofollow">${refresh}
<title>${escapeHtml(input.title)}</title>
<style nonce="${escapeHtml(nonce)}">${CHECKOUT_CSS}</style>
</head>
<body${embedded ? ' class="embedded"' : ''}>
<div id="page" class="page">
<main class="card">
${input.main}
</main>
<footer><p>${LOCK}${escapeHtml(t.securedBy)}</p>${languageLinks(shell)}</footer>
</div>
${needsScript ? `<script nonce="${escapeHtml(nonce)}">${pageScript(config)}</script>\n` : ''}</body>
</html>
`;
}

function initial(name: string): string {
  const first = [...name.trim()][0] ?? '·';
  return first.toLocaleUpperCase();
}

export function merchantHeader(shell: Shell, summary: PaymentSummary): string {
  const badge = summary.sandbox ? `<span class="badge">${escapeHtml(shell.t.testMode)}</span>` : '';
  return `<div class="merchant">
<div class="avatar" aria-hidden="true">${escapeHtml(initial(summary.merchantName))}</div>
<div><div class="merchant-name">${escapeHtml(summary.merchantName)}</div>${summary.host === null ? '' : `<div class="host">${escapeHtml(summary.host)}</div>`}</div>
${badge}
</div>`;
}

export function amountBlock(t: Messages, summary: PaymentSummary): string {
  const charge =
    summary.charge === null
      ? ''
      : `\n<p class="hint" data-testid="charge">${escapeHtml(t.chargedInAmd(summary.charge.amount, summary.charge.rate))}</p>`;
  return `<div class="label">${escapeHtml(t.amount)}</div>
<p class="amount" data-testid="amount">${escapeHtml(summary.amount)}</p>${charge}`;
}

/** What the buyer pays: the AMD charged when the payment was converted, else its amount. */
export function payable(summary: PaymentSummary): string {
  return summary.charge?.amount ?? summary.amount;
}

/**
 * What the payment is for. The merchant's `description` when there is one ("Order #1042"), else the
 * `order_id`: an order id is often the merchant's internal reference (the connector's
 * `wc-<connection>-23`), which means nothing to the buyer when a description says it better.
 */
export function details(t: Messages, summary: PaymentSummary): string {
  const rows = summary.description === null ? [[t.order, summary.orderId]] : [[t.description, summary.description]];
  return `<dl class="details">${rows
    .map(([name, value]) => `<dt>${escapeHtml(name ?? '')}</dt><dd>${escapeHtml(value ?? '')}</dd>`)
    .join('')}</dl>`;
}

export function errorBox(message: string | null): string {
  return message === null ? '' : `<div class="error" role="alert" id="form-error">${escapeHtml(message)}</div>`;
}
