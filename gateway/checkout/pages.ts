/**
 * The checkout's pages as HTML. Every value printed goes through `escapeHtml` (or `scriptJson`
 * inside the one inline script); no key, secret or card number is ever part of a page.
 */
import type { FailureCode } from '../domain/payment-lifecycle.js';
import { escapeHtml, scriptJson } from './html.js';
import { DICTIONARIES, LANGUAGES, type Language, type Messages } from './i18n/index.js';
import { type Carried, carriedQuery } from './links.js';
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

/** The message an embedded checkout posts to the page that embeds it when the payment ends. */
export interface ResultMessage {
  readonly status: 'completed' | 'failed' | 'expired' | 'cancelled';
  readonly payment_uuid: string;
  readonly order_id: string;
  readonly message: string;
}

interface ScriptConfig {
  /** The embedding page's origin (embedded mode), else null. */
  readonly origin: string | null;
  readonly result: ResultMessage | null;
  /** Not embedded: where to go by itself after `leaveAfterMs`. */
  readonly leaveTo: string | null;
  readonly leaveAfterMs: number;
  /** The test page's "Use" buttons fill in the card number. */
  readonly cardFill: boolean;
  /** Not embedded: follow the page's `#go` link or submit its `#go` form at once (the processor handoff). */
  readonly handoff: boolean;
}

/** How long the "payment received" page stays before it takes the buyer back to the shop. */
export const LEAVE_AFTER_MS = 3000;
/** How often the "waiting for the bank" page reloads itself (seconds). */
export const WAITING_REFRESH_SECONDS = 5;

/**
 * The one inline script: in embedded mode it posts `checkout.resize` whenever the page's height
 * changes and, on a final page, `checkout.result` once, both to the embedding origin only; not
 * embedded, the final page goes back to the shop after a moment. Messages are exactly
 * `{source, version, type, ...}` as the browser SDK reads them.
 */
function pageScript(config: ScriptConfig): string {
  return `(function (c) {
  var root = document.getElementById('page');
  var base = { source: 'payment-gateway-checkout', version: 1 };
  if (c.origin) {
    var send = function (fields) {
      var message = {};
      var key;
      for (key in base) message[key] = base[key];
      for (key in fields) message[key] = fields[key];
      window.parent.postMessage(message, c.origin);
    };
    var last = 0;
    var measure = function () {
      var height = Math.ceil(root.getBoundingClientRect().height);
      if (height > 0 && height !== last) {
        last = height;
        send({ type: 'checkout.resize', height: height });
      }
    };
    if (typeof ResizeObserver === 'function') new ResizeObserver(measure).observe(root);
    window.addEventListener('load', measure);
    measure();
    if (c.result) {
      send({ type: 'checkout.result', status: c.result.status, payment_uuid: c.result.payment_uuid,
        order_id: c.result.order_id, message: c.result.message });
    }
  } else if (c.leaveTo) {
    setTimeout(function () { window.location.replace(c.leaveTo); }, c.leaveAfterMs);
  }
  if (c.handoff && !c.origin) {
    var go = document.getElementById('go');
    if (go && go.tagName === 'FORM') go.submit();
    else if (go) window.location.replace(go.href);
  }
  if (c.cardFill) {
    var input = document.getElementById('card_number');
    var buttons = document.querySelectorAll('[data-card]');
    for (var i = 0; i < buttons.length; i++) {
      buttons[i].addEventListener('click', function (event) {
        input.value = event.currentTarget.getAttribute('data-card');
        input.focus();
      });
    }
  }
})(${scriptJson(config)});`;
}

const ICONS = {
  ok: '<path d="M5 12.5l4.5 4.5L19 7.5" fill="none" stroke="currentColor" stroke-width="2.6" stroke-linecap="round" stroke-linejoin="round"/>',
  fail: '<path d="M7 7l10 10M17 7L7 17" fill="none" stroke="currentColor" stroke-width="2.6" stroke-linecap="round"/>',
  wait: '<path d="M12 3a9 9 0 1 0 9 9" fill="none" stroke="currentColor" stroke-width="2.6" stroke-linecap="round"/>',
  muted:
    '<circle cx="12" cy="12" r="8.5" fill="none" stroke="currentColor" stroke-width="2.2"/><path d="M12 7.5V12l3 2" fill="none" stroke="currentColor" stroke-width="2.2" stroke-linecap="round"/>',
} as const;

export function icon(kind: keyof typeof ICONS): string {
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

interface LayoutInput {
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

function amountBlock(t: Messages, summary: PaymentSummary): string {
  const charge =
    summary.charge === null
      ? ''
      : `\n<p class="hint" data-testid="charge">${escapeHtml(t.chargedInAmd(summary.charge.amount, summary.charge.rate))}</p>`;
  return `<div class="label">${escapeHtml(t.amount)}</div>
<p class="amount" data-testid="amount">${escapeHtml(summary.amount)}</p>${charge}`;
}

/** What the buyer pays: the AMD charged when the payment was converted, else its amount. */
function payable(summary: PaymentSummary): string {
  return summary.charge?.amount ?? summary.amount;
}

/**
 * What the payment is for. The merchant's `description` when there is one ("Order #1042"), else the
 * `order_id`: an order id is often the merchant's internal reference (the connector's
 * `wc-<connection>-23`), which means nothing to the buyer when a description says it better.
 */
function details(t: Messages, summary: PaymentSummary): string {
  const rows = summary.description === null ? [[t.order, summary.orderId]] : [[t.description, summary.description]];
  return `<dl class="details">${rows
    .map(([name, value]) => `<dt>${escapeHtml(name ?? '')}</dt><dd>${escapeHtml(value ?? '')}</dd>`)
    .join('')}</dl>`;
}

function errorBox(message: string | null): string {
  return message === null ? '' : `<div class="error" role="alert" id="form-error">${escapeHtml(message)}</div>`;
}

export interface MethodOption {
  readonly slug: string;
  readonly name: string;
  /** The processor's mark: trusted SVG markup from its adapter, printed as is ('' for none). */
  readonly logoSvg: string;
}

export interface PendingPage {
  readonly summary: PaymentSummary;
  readonly methods: readonly MethodOption[];
  /** The method shown as chosen: the one the merchant named, or the only one. */
  readonly selected: string | null;
  /** The merchant named a processor at creation. */
  readonly preselectedByShop: boolean;
  readonly formAction: string;
  readonly formToken: string;
  readonly cancelHref: string;
  readonly minutesLeft: number;
  readonly error: string | null;
}

export function pendingPage(shell: Shell, page: PendingPage): string {
  const { t } = shell;
  const options = page.methods
    .map((method) => {
      const checked = method.slug === page.selected ? ' checked' : '';
      const note =
        page.preselectedByShop && method.slug === page.selected ? `<small>${escapeHtml(t.preselected)}</small>` : '';
      // The logo is the gateway's own SVG constant (gateway/processors/<slug>/adapter.ts), not input.
      const logo = method.logoSvg === '' ? '' : `<span class="logo">${method.logoSvg}</span>`;
      return `<label class="method"><input type="radio" name="processor" value="${escapeHtml(method.slug)}" required${checked}>${logo}<span>${escapeHtml(method.name)}${note}</span></label>`;
    })
    .join('\n');
  const form =
    page.methods.length === 0
      ? `<div class="error" role="alert">${escapeHtml(t.noMethods)}</div>`
      : `<form method="post" action="${escapeHtml(page.formAction)}">
<input type="hidden" name="form_token" value="${escapeHtml(page.formToken)}">
<fieldset><legend>${escapeHtml(t.chooseMethod)}</legend>
${options}
</fieldset>
<button class="button" type="submit">${escapeHtml(t.continueToPay(payable(page.summary)))}</button>
</form>`;
  return layout(shell, {
    title: `${t.checkoutTitle} · ${page.summary.merchantName}`,
    main: `${merchantHeader(shell, page.summary)}
${amountBlock(t, page.summary)}
${details(t, page.summary)}
<p class="hint">${escapeHtml(t.expiresIn(page.minutesLeft))}</p>
${errorBox(page.error)}
${form}
<a class="link" href="${escapeHtml(page.cancelHref)}">${escapeHtml(t.cancel)}</a>`,
  });
}

export interface TestCard {
  /** Grouped by four (`4111 1111 1111 1111`). */
  readonly number: string;
  readonly outcome: 'approved' | FailureCode;
}

export interface TestPaymentPage {
  readonly summary: PaymentSummary;
  readonly cards: readonly TestCard[];
  readonly formAction: string;
  readonly formToken: string;
  readonly cancelHref: string;
  readonly error: string | null;
}

export function testPaymentPage(shell: Shell, page: TestPaymentPage): string {
  const { t } = shell;
  const invalid = page.error === null ? '' : ' aria-invalid="true" aria-describedby="form-error"';
  const rows = page.cards
    .map(
      (card) =>
        `<tr><td class="mono">${escapeHtml(card.number)}</td><td>${escapeHtml(t.outcome[card.outcome])}</td><td><button type="button" class="use" data-card="${escapeHtml(card.number)}">${escapeHtml(t.useCard)}</button></td></tr>`,
    )
    .join('\n');
  return layout(shell, {
    title: `${t.testPageTitle} · ${page.summary.merchantName}`,
    cardFill: true,
    main: `<div class="notice" role="note"><strong>${escapeHtml(t.testMode)}.</strong> ${escapeHtml(t.testNotice)}</div>
${merchantHeader(shell, page.summary)}
${amountBlock(t, page.summary)}
<h1 class="section">${escapeHtml(t.testPageTitle)}</h1>
${errorBox(page.error)}
<form method="post" action="${escapeHtml(page.formAction)}" autocomplete="off" novalidate>
<input type="hidden" name="form_token" value="${escapeHtml(page.formToken)}">
<label class="field">${escapeHtml(t.cardNumber)}<input type="text" id="card_number" name="card_number" inputmode="numeric" autocomplete="off" placeholder="4111 1111 1111 1111" maxlength="32"${invalid}></label>
<div class="row">
<label class="field">${escapeHtml(t.expiry)}<input type="text" name="expiry" inputmode="numeric" autocomplete="off" placeholder="12/34" maxlength="7"></label>
<label class="field">${escapeHtml(t.cvv)}<input type="text" name="cvv" inputmode="numeric" autocomplete="off" placeholder="123" maxlength="4"></label>
</div>
<label class="field">${escapeHtml(t.cardholder)}<input type="text" name="cardholder" autocomplete="off" maxlength="100"></label>
<button class="button" type="submit">${escapeHtml(t.payButton(payable(page.summary)))}</button>
</form>
<a class="link" href="${escapeHtml(page.cancelHref)}">${escapeHtml(t.cancel)}</a>
<h2>${escapeHtml(t.testCardsTitle)}</h2>
<p class="hint">${escapeHtml(t.testCardsHint)}</p>
<table class="cards"><tbody>
${rows}
</tbody></table>`,
  });
}

export interface ResultPage {
  readonly summary: PaymentSummary;
  /** The shop's page to go back to (with `payment_uuid` and `order_id`); not shown when embedded. */
  readonly shopHref: string;
  /** Embedded mode: what to post to the embedding page. */
  readonly result: ResultMessage | null;
}

function resultMain(
  shell: Shell,
  page: ResultPage,
  kind: keyof typeof ICONS,
  title: string,
  texts: readonly string[],
  extra = '',
): string {
  const embedded = shell.carried.embedOrigin !== null;
  const paragraphs = texts.map((text, i) => `<p${i === 0 ? ' class="message"' : ''}>${escapeHtml(text)}</p>`);
  const back = embedded
    ? `<p class="hint">${escapeHtml(shell.t.embeddedDone)}</p>`
    : `<a class="button" href="${escapeHtml(page.shopHref)}">${escapeHtml(shell.t.backToShop)}</a>`;
  return `${merchantHeader(shell, page.summary)}
<div class="result" data-status="${escapeHtml(page.result?.status ?? kind)}">
${icon(kind)}
<h1>${escapeHtml(title)}</h1>
${paragraphs.join('\n')}
${extra}
</div>
${details(shell.t, page.summary)}
${back}`;
}

export function completedPage(shell: Shell, page: ResultPage): string {
  const { t } = shell;
  const embedded = shell.carried.embedOrigin !== null;
  const leaving = embedded ? '' : `<p class="hint">${escapeHtml(t.returningSoon)}</p>`;
  return layout(shell, {
    title: `${t.completedTitle} · ${page.summary.merchantName}`,
    main: resultMain(shell, page, 'ok', t.completedTitle, [t.completedText], leaving),
    result: page.result,
    leaveTo: embedded ? null : page.shopHref,
  });
}

export function failedPage(shell: Shell, page: ResultPage, message: string): string {
  const { t } = shell;
  return layout(shell, {
    title: `${t.failedTitle} · ${page.summary.merchantName}`,
    main: resultMain(shell, page, 'fail', t.failedTitle, [message, t.failedHint]),
    result: page.result,
  });
}

/**
 * `unconfirmedBy`: the method whose processor never reported the payment and cannot be asked
 * without the id only its notice carries (Telcell's invoice): the buyer may have paid, so the page
 * does not say that no money was taken.
 */
export function expiredPage(shell: Shell, page: ResultPage, unconfirmedBy: string | null = null): string {
  const { t } = shell;
  const title = unconfirmedBy === null ? t.expiredTitle : t.unconfirmedTitle;
  const text = unconfirmedBy === null ? t.expiredText : t.unconfirmedText(unconfirmedBy);
  return layout(shell, {
    title: `${title} · ${page.summary.merchantName}`,
    main: resultMain(shell, page, 'muted', title, [text]),
    result: page.result,
  });
}

export function refundedPage(shell: Shell, page: ResultPage): string {
  const { t } = shell;
  return layout(shell, {
    title: `${t.refundedTitle} · ${page.summary.merchantName}`,
    main: resultMain(shell, page, 'muted', t.refundedTitle, [t.refundedText]),
    result: page.result,
  });
}

export function cancelledPage(shell: Shell, page: ResultPage): string {
  const { t } = shell;
  return layout(shell, {
    title: `${t.cancelledTitle} · ${page.summary.merchantName}`,
    main: resultMain(shell, page, 'muted', t.cancelledTitle, [t.cancelledText]),
    result: page.result,
  });
}

/** Where the buyer goes to pay at a processor: a link, or a form posted to it (Idram). */
export type Handoff =
  | { readonly method: 'GET'; readonly url: string }
  | { readonly method: 'POST'; readonly url: string; readonly fields: Readonly<Record<string, string>> };

/**
 * The step from the checkout to the processor's page. Its script follows the link (or posts the
 * form) at once; without script, or embedded in a frame, the buyer presses the button, which opens
 * the processor's page in the whole window (processors' pages refuse to be framed).
 */
export function handoffPage(
  shell: Shell,
  input: { summary: PaymentSummary; processorName: string; handoff: Handoff },
): string {
  const { t } = shell;
  const { handoff, processorName } = input;
  const label = escapeHtml(t.handoffButton);
  const control =
    handoff.method === 'GET'
      ? `<a id="go" class="button" href="${escapeHtml(handoff.url)}" target="_top" rel="noreferrer">${label}</a>`
      : `<form id="go" method="post" action="${escapeHtml(handoff.url)}" target="_top">
${Object.entries(handoff.fields)
  .map(([name, value]) => `<input type="hidden" name="${escapeHtml(name)}" value="${escapeHtml(value)}">`)
  .join('\n')}
<button class="button" type="submit">${label}</button>
</form>`;
  return layout(shell, {
    title: `${t.handoffTitle(processorName)} · ${input.summary.merchantName}`,
    handoff: true,
    main: `${merchantHeader(shell, input.summary)}
<div class="result" data-status="processing">
${icon('wait')}
<h1>${escapeHtml(t.handoffTitle(processorName))}</h1>
<p class="message">${escapeHtml(t.handoffText)}</p>
</div>
${control}
${details(t, input.summary)}`,
  });
}

/**
 * `awaiting`: the method whose processor has not reported the payment and cannot be asked without
 * the id only its notice carries (Telcell's invoice): the page says that the payment is being
 * confirmed, and what a buyer who paid can do.
 */
export function waitingPage(shell: Shell, summary: PaymentSummary, awaiting: string | null = null): string {
  const { t } = shell;
  const title = awaiting === null ? t.waitingTitle : t.confirmingTitle;
  const text = awaiting === null ? t.waitingText : t.confirmingText(awaiting);
  const noticeText = awaiting === null ? '' : `\n<p class="notice">${escapeHtml(t.waitingForNotice(awaiting))}</p>`;
  return layout(shell, {
    title: `${title} · ${summary.merchantName}`,
    refreshSeconds: WAITING_REFRESH_SECONDS,
    main: `${merchantHeader(shell, summary)}
<div class="result" data-status="processing">
${icon('wait')}
<h1>${escapeHtml(title)}</h1>
<p class="message">${escapeHtml(text)}</p>${noticeText}
</div>
${details(t, summary)}`,
  });
}

/** 404, 410, 403, 400: a title, a text and maybe a link. */
export function problemPage(
  shell: Shell,
  input: { title: string; text: string; link?: { href: string; label: string }; result?: ResultMessage | null },
): string {
  const link =
    input.link === undefined
      ? ''
      : `<a class="button secondary" href="${escapeHtml(input.link.href)}">${escapeHtml(input.link.label)}</a>`;
  return layout(shell, {
    title: input.title,
    result: input.result ?? null,
    main: `<div class="result" data-status="problem">
${icon('muted')}
<h1>${escapeHtml(input.title)}</h1>
<p class="message">${escapeHtml(input.text)}</p>
</div>
${link}`,
  });
}
