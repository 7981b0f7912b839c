/**
 * Webhook redelivery (an addition, docs/api.md "Resending an event"): a fresh delivery of a past
 * event, queued for the dispatcher like any other.
 *
 * - The body is the event's, as it was emitted (the payment's state then, not now); the delivery
 *   gets a new `delivery_id` and its own `timestamp` and signature when it is sent, so a receiver
 *   that de-duplicates on `delivery_id` takes it, and one that reads the payment back sees today's
 *   state anyway.
 * - The target is today's: the payment's `callback_url`, else its domain's webhook URL as it is
 *   now (the URL may have been fixed since). With neither: 409 `no_webhook_target`.
 * - The delivery runs the usual schedule (spec "Delivery rules": retries, then `failed`) and is
 *   listed with the event's other deliveries (`GET /api/v1/payments/{uuid}/events`).
 * - Through the API, full-access keys only, at most {@link RESENDS_PER_MINUTE} per merchant per
 *   minute (shared by every instance on PostgreSQL). The operator's CLI is not limited.
 */

import type { Executor } from '../../storage/database.js';
import { findDomainWebhookUrl } from '../../storage/domain.repository.js';
import { findOutboxEvent } from '../../storage/outbox-event.repository.js';
import { findPayment, findPaymentRow } from '../../storage/payment.repository.js';
import type { PaymentRow } from '../../storage/payment.table.js';
import { insertDelivery } from '../../storage/webhook-delivery.repository.js';
import type { AuthDeps } from '../auth/authenticate.js';
import type { Principal } from '../auth/principal.js';
import { toApiInstant, toStoredInstant } from '../domain/clock.js';
import { ApiError } from '../domain/errors.js';
import { isUuid } from '../domain/ids.js';
import { scopeOf } from '../payments/payment-scope.js';
import type { Deps } from '../runtime/deps.js';
import { newDelivery } from './outbox.js';

/** Resends one merchant may ask for in a minute through the API. */
export const RESENDS_PER_MINUTE = 10;

export interface ResentDelivery {
  event_id: string;
  delivery_id: string;
  url: string;
  status: 'pending';
  attempts: 0;
  next_attempt_at: string;
  created_at: string;
}

/**
 * `POST /api/v1/payments/{uuid}/events/{event_id}/resend`: the event must belong to a payment the
 * key can read (else 404, as for another merchant's payment).
 */
export async function resendPaymentEvent(
  deps: AuthDeps,
  principal: Principal,
  paymentUuid: string,
  eventId: string,
): Promise<ResentDelivery> {
  const payment = isUuid(paymentUuid) ? await findPayment(deps.db, scopeOf(principal), paymentUuid) : undefined;
  if (payment === undefined) throw new ApiError('not_found', `No payment ${paymentUuid} for this key.`);
  const event = isUuid(eventId) ? await findOutboxEvent(deps.db, eventId) : undefined;
  if (event === undefined || event.payment_id !== payment.uuid) {
    throw new ApiError('not_found', `No event ${eventId} of payment ${payment.uuid}.`);
  }
  const counted = await deps.limiter.hit(`webhook-resend:${payment.merchantId}`);
  if (counted.hits > RESENDS_PER_MINUTE) {
    throw new ApiError(
      'rate_limited',
      `More than ${RESENDS_PER_MINUTE} webhook resends in a minute for this account. Retry in ${counted.resetSeconds} seconds.`,
      { headers: { 'Retry-After': String(counted.resetSeconds) } },
    );
  }
  return queueResend(deps, event.id);
}

/**
 * The dashboard's Resend button: the event must belong to the payment, and the payment to the
 * signed-in user's account (else 404). Not rate-limited: only owners and admins may press it, each
 * press behind the form token and written to the audit log.
 */
export async function resendAccountEvent(
  deps: Deps,
  merchantId: string,
  paymentUuid: string,
  eventId: string,
): Promise<ResentDelivery> {
  const payment = isUuid(paymentUuid) ? await findPaymentRow(deps.db, paymentUuid) : undefined;
  if (payment === undefined || payment.merchant_id !== merchantId) {
    throw new ApiError('not_found', `No payment ${paymentUuid}.`);
  }
  const event = isUuid(eventId) ? await findOutboxEvent(deps.db, eventId) : undefined;
  if (event === undefined || event.payment_id !== payment.id) {
    throw new ApiError('not_found', `No event ${eventId} of payment ${payment.id}.`);
  }
  return queueResend(deps, event.id);
}

/** `bin/gateway webhook resend --event ID`: any merchant's event, not rate-limited. */
export async function resendEvent(deps: Deps, eventId: string): Promise<ResentDelivery> {
  const event = isUuid(eventId) ? await findOutboxEvent(deps.db, eventId) : undefined;
  if (event === undefined) throw new ApiError('not_found', `No event ${eventId}.`);
  return queueResend(deps, event.id);
}

/** Where a resend of the payment's events goes today: its `callback_url`, else its domain's webhook URL; null: nowhere. */
export async function currentWebhookTarget(
  db: Executor,
  payment: Pick<PaymentRow, 'callback_url' | 'domain_id'>,
): Promise<string | null> {
  return payment.callback_url ?? (await findDomainWebhookUrl(db, payment.domain_id));
}

async function queueResend(deps: Deps, eventId: string): Promise<ResentDelivery> {
  const queued = await deps.transact(async (trx) => {
    const event = await findOutboxEvent(trx, eventId);
    const payment = event === undefined ? undefined : await findPaymentRow(trx, event.payment_id);
    if (event === undefined || payment === undefined) throw new ApiError('not_found', `No event ${eventId}.`);
    const url = await currentWebhookTarget(trx, payment);
    if (url === null) {
      throw new ApiError(
        'no_webhook_target',
        "The payment has no callback_url and its domain no webhook URL: set the domain's webhook URL, then resend.",
      );
    }
    const nowMs = deps.clock.nowMs();
    const now = toStoredInstant(nowMs);
    const id = deps.ids.uuid(nowMs);
    await insertDelivery(
      trx,
      newDelivery({
        id,
        eventId: event.id,
        merchantId: event.merchant_id,
        domainId: event.domain_id,
        url,
        dueAt: now,
        now,
      }),
    );
    return { id, url, now, eventId: event.id };
  });
  deps.dueSignal.notify();
  deps.logger.info({ event_id: queued.eventId, delivery_id: queued.id }, 'webhook event queued again');
  const at = toApiInstant(queued.now) as string;
  return {
    event_id: queued.eventId,
    delivery_id: queued.id,
    url: queued.url,
    status: 'pending',
    attempts: 0,
    next_attempt_at: at,
    created_at: at,
  };
}
