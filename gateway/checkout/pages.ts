/**
 * The checkout's pages as HTML. Every value printed goes through `escapeHtml` (or `scriptJson`
 * inside the one inline script); no key, secret or card number is ever part of a page.
 */
import type { FailureCode } from '../domain/payment-lifecycle.js';
import { escapeHtml } from './html.js';
import {
  amountBlock,
  details,
  errorBox,
  type IconKind,
  icon,
  layout,
  merchantHeader,
  type PaymentSummary,
  payable,
  type Shell,
} from './layout.js';
import type { ResultMessage } from './page-script.js';

/** How often the "waiting for the bank" page reloads itself (seconds). */
export const WAITING_REFRESH_SECONDS = 5;

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
  kind: IconKind,
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
