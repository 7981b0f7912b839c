/**
 * The webhook events card of a payment's page: each event the payment sent, with its deliveries
 * (target, status, attempts, the last attempt's time, answer and error, the next attempt), each
 * delivery's attempts (time, target, answer, duration, error, outcome) under it, and a Resend
 * button per event for owners and admins when there is somewhere to send it today.
 */
import { escapeHtml } from '../../checkout/html.js';
import type { Language } from '../../i18n/languages.js';
import type { DeliveryView, EventView } from '../../webhooks/event-log.service.js';
import { timeTag } from '../api-keys/api-keys.pages.js';
import { hidden, type Shell } from '../layout.js';
import { badge, cell, table } from './detail-parts.js';
import type { PaymentDetailMessages } from './messages.js';

export interface EventsCardView {
  readonly paymentUuid: string;
  readonly events: readonly EventView[];
  /** Owner or admin: the Resend buttons. */
  readonly manage: boolean;
  /** Where a resend would go today; null: nowhere, so no Resend button, and the card says why. */
  readonly webhookTarget: string | null;
  /** The page's error, if any (the card does not say again what the page's top says). */
  readonly error: string | null;
}

/** A delivery's attempts, one row each, oldest first. */
function attemptsBlock(lang: Language, m: PaymentDetailMessages, d: DeliveryView, n: number): string {
  const titleId = `attempts-${d.delivery_id}`;
  const heading = `<h4 id="${titleId}" class="pd-attempts-title">${escapeHtml(m.attemptsTitle(n))}</h4>`;
  if (d.attempt_log.length === 0) {
    return `<div class="pd-attempts" data-attempts-of="${escapeHtml(d.delivery_id)}">${heading}<p class="muted">${escapeHtml(m.noAttempts)}</p></div>`;
  }
  const rows = d.attempt_log.map((a) => ({
    attrs: ` class="pd-attempt" data-attempt="${escapeHtml(String(a.attempt))}"`,
    // The delivery's own target, above, unless the attempt went elsewhere.
    repeated: a.url === d.url ? [2] : [],
    cells: [
      escapeHtml(String(a.attempt)),
      timeTag(lang, a.at),
      `<code class="pd-wrap">${escapeHtml(a.url)}</code>`,
      a.http_status === null ? escapeHtml(m.noAnswer) : `HTTP ${escapeHtml(String(a.http_status))}`,
      escapeHtml(m.durationMs(a.duration_ms)),
      `<span class="pd-wrap">${cell(m, a.error === `HTTP ${a.http_status}` ? null : a.error)}</span>`,
      badge(m.attemptOutcomes[a.outcome], a.outcome === 'delivered'),
    ],
  }));
  return `<div class="pd-attempts" data-attempts-of="${escapeHtml(d.delivery_id)}">${heading}${table(
    titleId,
    [
      m.attemptNumber,
      m.attemptTime,
      m.attemptTarget,
      m.attemptAnswer,
      m.attemptDuration,
      m.attemptError,
      m.attemptOutcome,
    ],
    rows,
  )}</div>`;
}

function eventCard(shell: Shell, m: PaymentDetailMessages, paymentUuid: string, event: EventView, manage: boolean) {
  const lang = shell.lang;
  const titleId = `event-${event.id}`;
  const numbered = event.deliveries.length > 1;
  const rows = event.deliveries.map((d, i) => ({
    attrs: ` data-delivery-id="${escapeHtml(d.delivery_id)}"`,
    // The last attempt's time, answer and error: its row among the attempts below says them.
    repeated: d.attempt_log.length > 0 ? [3, 4, 5] : [],
    cells: [
      `${numbered ? `<span class="muted">${i + 1}.</span> ` : ''}<code class="pd-wrap">${escapeHtml(d.url)}</code>`,
      `<span data-testid="delivery-status">${badge(m.deliveryStates[d.status], d.status === 'delivered')}</span>`,
      escapeHtml(String(d.attempts)),
      d.last_attempt_at === null ? escapeHtml(m.notYet) : timeTag(lang, d.last_attempt_at),
      d.last_status_code === null ? cell(m, null) : `HTTP ${escapeHtml(String(d.last_status_code))}`,
      cell(m, d.last_error === `HTTP ${d.last_status_code}` ? null : d.last_error),
      d.next_attempt_at === null ? cell(m, null) : timeTag(lang, d.next_attempt_at),
    ],
  }));
  const deliveries =
    event.deliveries.length === 0
      ? `<p class="muted">${escapeHtml(m.noDeliveries)}</p>`
      : table(
          titleId,
          [
            m.deliveryTarget,
            m.deliveryStatus,
            m.deliveryAttempts,
            m.deliveryLastAttempt,
            m.deliveryAnswer,
            m.deliveryError,
            m.deliveryNext,
          ],
          rows,
        );
  const attempts = event.deliveries.map((d, i) => attemptsBlock(lang, m, d, i + 1)).join('');
  const resend = manage
    ? `<form class="keys-row-action" method="post" action="/dashboard/payments/${escapeHtml(paymentUuid)}/events/${escapeHtml(event.id)}/resend">${hidden(shell)}<button type="submit" class="secondary small">${escapeHtml(m.resend(event.event))}</button></form>`
    : '';
  return `<section class="pd-event" data-event-id="${escapeHtml(event.id)}" aria-labelledby="${titleId}">
<h3 id="${titleId}"><code>${escapeHtml(event.event)}</code> ${timeTag(lang, event.created_at)}</h3>
${deliveries}${attempts}${resend}</section>`;
}

export function eventsCard(shell: Shell, m: PaymentDetailMessages, view: EventsCardView): string {
  const body =
    view.events.length === 0
      ? `<p class="muted">${escapeHtml(m.noEvents)}</p>`
      : view.events
          .map((e) => eventCard(shell, m, view.paymentUuid, e, view.manage && view.webhookTarget !== null))
          .join('');
  const nowhere =
    view.events.length > 0 && view.webhookTarget === null && view.error !== m.noWebhookTarget
      ? `<p class="hint" data-testid="no-webhook-target">${escapeHtml(m.noWebhookTarget)}</p>`
      : '';
  return `<div class="card" id="events"><h2>${escapeHtml(m.eventsTitle)}</h2><p class="hint">${escapeHtml(m.eventsIntro)}</p>${nowhere}${body}</div>`;
}
