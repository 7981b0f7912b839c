/**
 * A held payment on its page (docs/dashboard.md "Payment page"): the amount the card holds and
 * the capture deadline, what became of the hold (captured, released, ran out, or an operation
 * being sent or being checked), and for owners and admins while it is open the Capture form (the
 * whole hold by default, or less) and Release; each goes to a confirmation page carrying the
 * operation's idempotency key. The problems of a capture or release that was not made are said at
 * the top of the page, linked to the field or to the hold.
 */
import { escapeHtml } from '../../checkout/html.js';
import { formatAmd, formatDateTimeWithZone } from '../../i18n/format.js';
import { field, hidden, layout, type Shell } from '../layout.js';
import { formError, problemsSummary } from './detail-parts.js';
import { HOLD_MESSAGES, type HoldMessages } from './hold.messages.js';

export function holdText(shell: Shell): HoldMessages {
  return HOLD_MESSAGES[shell.lang];
}

/** What the hold is now. */
export type HoldState =
  /** Authorized, nothing in flight: it may be captured or released. */
  | { readonly kind: 'open' }
  /** Authorized but past `capture_before`: the gateway is releasing it. */
  | { readonly kind: 'ran_out' }
  /** A capture or release was sent: still being sent (`unknown` false), or unanswered and being checked. */
  | {
      readonly kind: 'in_flight';
      readonly operation: 'capture' | 'release';
      readonly amount: number;
      readonly unknown: boolean;
    }
  | { readonly kind: 'captured'; readonly amount: number }
  /** Released by the merchant (`voided`). */
  | { readonly kind: 'released' }
  /** Ran out and released by the gateway (`authorization_expired`). */
  | { readonly kind: 'expired' };

/** A capture or release asked for from the page and not made. */
export interface HoldForm {
  readonly action: 'capture' | 'release';
  /** The amount as typed (capture). */
  readonly amount: string;
  /** What is wrong with the amount, or null. */
  readonly problem: string | null;
  /** Why the service refused (a refusal, a processor's answer), or null. */
  readonly error: string | null;
}

export interface HoldView {
  readonly paymentUuid: string;
  /** Whole AMD held (`authorized_amount`). */
  readonly authorizedAmount: number;
  /** `capture_before` (API instant). */
  readonly captureBefore: string | null;
  readonly state: HoldState;
  /** Whether less than the hold may be captured (false: a payment priced in another currency, captured whole). */
  readonly partial: boolean;
  /** Owner or admin: the Capture and Release forms. */
  readonly manage: boolean;
  readonly form: HoldForm | null;
}

export const CAPTURE_AMOUNT_ID = 'f-capture-amount';

/** A deadline in the reader's language, Yerevan time with the zone named (a reader abroad could take it for theirs). */
function deadline(shell: Shell, instant: string): string {
  return `<time datetime="${escapeHtml(instant)}">${escapeHtml(formatDateTimeWithZone(shell.lang, instant))}</time>`;
}

function stateText(h: HoldMessages, view: HoldView): string {
  const state = view.state;
  switch (state.kind) {
    case 'open':
      return h.openText;
    case 'ran_out':
      return h.ranOutText;
    case 'in_flight':
      if (state.operation === 'capture') {
        return state.unknown ? h.checkingCapture(state.amount) : h.sendingCapture(state.amount);
      }
      return state.unknown ? h.checkingRelease : h.sendingRelease;
    case 'captured':
      return `${h.capturedText(state.amount, view.authorizedAmount)}${state.amount < view.authorizedAmount ? ` ${h.restReleased}` : ''}`;
    case 'released':
      return h.releasedText;
    case 'expired':
      return h.expiredText;
  }
}

function holdForms(shell: Shell, h: HoldMessages, view: HoldView): string {
  const form = view.form;
  const action = `/dashboard/payments/${escapeHtml(view.paymentUuid)}`;
  const amount = form?.action === 'capture' ? form.amount : String(view.authorizedAmount);
  const problem = form?.action === 'capture' ? form.problem : null;
  const amountField = view.partial
    ? field(shell.t, {
        name: 'amount',
        id: CAPTURE_AMOUNT_ID,
        label: h.captureAmountLabel,
        type: 'text',
        inputmode: 'numeric',
        autocomplete: 'off',
        value: amount,
        hint: h.captureAmountHint(view.authorizedAmount),
        problem: problem === null ? undefined : { text: problem },
      })
    : `<p>${escapeHtml(h.captureWhole(view.authorizedAmount))}</p>${formError(problem)}<input type="hidden" name="amount" value="${escapeHtml(String(view.authorizedAmount))}">`;
  return `<div class="pd-hold-actions">
<section aria-labelledby="capture-form-title"><h3 id="capture-form-title">${escapeHtml(h.captureTitle)}</h3>${formError(form?.action === 'capture' ? form.error : null)}
<form method="post" action="${action}/capture" aria-labelledby="capture-form-title" novalidate>${hidden(shell)}
${amountField}
<button type="submit">${escapeHtml(h.captureContinue)}</button></form></section>
<section aria-labelledby="release-form-title"><h3 id="release-form-title">${escapeHtml(h.releaseTitle)}</h3>${formError(form?.action === 'release' ? form.error : null)}
<p class="hint">${escapeHtml(h.releaseHint)}</p>
<form method="post" action="${action}/void" aria-labelledby="release-form-title">${hidden(shell)}<button type="submit" class="secondary">${escapeHtml(h.releaseContinue)}</button></form></section>
</div>`;
}

/** The card of a payment that was held (created `manual` and authorized); '' for any other. */
export function holdCard(shell: Shell, view: HoldView | null): string {
  if (view === null) return '';
  const h = holdText(shell);
  const held = ['open', 'ran_out', 'in_flight'].includes(view.state.kind);
  const facts: Array<[string, string]> = [
    [
      h.heldAmount,
      `<span data-testid="hold-amount">${escapeHtml(formatAmd(shell.lang, view.authorizedAmount))}</span>`,
    ],
    ...(held && view.captureBefore !== null
      ? [
          [h.captureBefore, `<span data-testid="hold-deadline">${deadline(shell, view.captureBefore)}</span>`] as [
            string,
            string,
          ],
        ]
      : []),
  ];
  const list = `<dl class="pd-fields">${facts.map(([term, value]) => `<dt>${escapeHtml(term)}</dt><dd>${value}</dd>`).join('')}</dl>`;
  const state = `<p class="pd-hold-state pd-hold-${view.state.kind}" data-testid="hold-state">${escapeHtml(stateText(h, view))}</p>`;
  const forms = view.manage && view.state.kind === 'open' ? holdForms(shell, h, view) : '';
  return `<div class="card" id="hold"><h2 id="hold-title">${escapeHtml(h.holdTitle)}</h2>
${list}${state}${forms}</div>`;
}

/**
 * What kept a capture or release from being made, at the top of the page: linked to the amount's
 * field (when the form has one) or to the hold.
 */
export function holdProblems(shell: Shell, view: HoldView | null): string {
  const form = view?.form ?? null;
  if (view === null || form === null) return '';
  const h = holdText(shell);
  const links: Array<[string, string]> = [];
  if (form.error !== null) links.push(['#hold', form.error]);
  if (form.problem !== null) links.push([view.partial ? `#${CAPTURE_AMOUNT_ID}` : '#hold', form.problem]);
  return problemsSummary('hold-problems', form.action === 'capture' ? h.captureNotMade : h.releaseNotMade, links);
}

export interface HoldConfirmation {
  readonly paymentUuid: string;
  readonly orderId: string;
  /** What is captured, or released (the whole hold). */
  readonly amount: number;
  readonly authorizedAmount: number;
  /** The idempotency key of this confirmation: a second submit of the same form sends nothing more. */
  readonly key: string;
}

function confirmPage(shell: Shell, title: string, body: string, back: string, cancel: string): string {
  return layout(
    shell,
    title,
    `<div class="narrow"><div class="card">
<h1>${escapeHtml(title)}</h1>
${body}
<div class="links"><a href="${escapeHtml(back)}">${escapeHtml(cancel)}</a></div>
</div></div>`,
  );
}

export function captureConfirmPage(shell: Shell, c: HoldConfirmation): string {
  const h = holdText(shell);
  const back = `/dashboard/payments/${c.paymentUuid}`;
  const rest = c.authorizedAmount - c.amount;
  return confirmPage(
    shell,
    h.captureConfirmTitle,
    `<p data-testid="capture-question">${escapeHtml(h.captureConfirmText(c.amount, c.orderId))}</p>
${rest > 0 ? `<p data-testid="capture-rest">${escapeHtml(h.captureConfirmRest(rest))}</p>` : ''}
<form method="post" action="${escapeHtml(back)}/capture">${hidden(shell)}<input type="hidden" name="confirm" value="yes">
<input type="hidden" name="amount" value="${escapeHtml(String(c.amount))}">
<input type="hidden" name="capture_key" value="${escapeHtml(c.key)}">
<button type="submit">${escapeHtml(h.captureConfirmButton)}</button>
</form>`,
    back,
    h.cancel,
  );
}

export function releaseConfirmPage(shell: Shell, c: HoldConfirmation): string {
  const h = holdText(shell);
  const back = `/dashboard/payments/${c.paymentUuid}`;
  return confirmPage(
    shell,
    h.releaseConfirmTitle,
    `<p data-testid="release-question">${escapeHtml(h.releaseConfirmText(c.amount, c.orderId))}</p>
<form method="post" action="${escapeHtml(back)}/void">${hidden(shell)}<input type="hidden" name="confirm" value="yes">
<input type="hidden" name="release_key" value="${escapeHtml(c.key)}">
<button type="submit" class="keys-danger">${escapeHtml(h.releaseConfirmButton)}</button>
</form>`,
    back,
    h.cancel,
  );
}
