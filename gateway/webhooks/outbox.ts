/**
 * Writes an event and its delivery in the caller's transaction (spec "Events", "Delivery rules" 1):
 * the change that caused the event, the event and its delivery commit together or not at all, and
 * the dispatcher (./dispatcher.ts) sends what committed. The target is the payment's
 * `callback_url`, else its domain's webhook URL; with neither, the event is kept (and listed with
 * the payment's events) but nothing is sent.
 */

import type { Executor } from '../../storage/database.js';
import { findDomainWebhookUrl } from '../../storage/domain.repository.js';
import { insertOutboxEvent } from '../../storage/outbox-event.repository.js';
import type { PaymentRow } from '../../storage/payment.table.js';
import { insertDelivery } from '../../storage/webhook-delivery.repository.js';
import type { NewWebhookDeliveryRow } from '../../storage/webhook-delivery.table.js';
import { toStoredInstant } from '../domain/clock.js';
import type { Deps } from '../runtime/deps.js';
import type { EventBody } from './events.js';

export interface EmittedEvent {
  readonly eventId: string;
  /** Whether a delivery was queued (the payment or its domain has a webhook target). */
  readonly queued: boolean;
}

/**
 * Writes the event and its delivery; call `deps.dueSignal.notify()` once the transaction
 * committed. `holdMs`: the delivery waits that long, for a receipt being issued to join the body
 * (`releaseHeldEvent`).
 */
export async function emitEvent(
  deps: Deps,
  trx: Executor,
  payment: PaymentRow,
  body: EventBody,
  options: { holdMs?: number } = {},
): Promise<EmittedEvent> {
  const nowMs = deps.clock.nowMs();
  const now = toStoredInstant(nowMs);
  const eventId = deps.ids.uuid(nowMs);
  await insertOutboxEvent(trx, {
    id: eventId,
    merchant_id: payment.merchant_id,
    environment: payment.environment,
    domain_id: payment.domain_id,
    payment_id: payment.id,
    event: body.event,
    livemode: body.livemode ? 1 : 0,
    payload: JSON.stringify(body),
    created_at: now,
  });
  const url = payment.callback_url ?? (await findDomainWebhookUrl(trx, payment.domain_id));
  if (url === null) return { eventId, queued: false };
  await insertDelivery(
    trx,
    newDelivery({
      id: deps.ids.uuid(nowMs),
      eventId,
      merchantId: payment.merchant_id,
      domainId: payment.domain_id,
      url,
      dueAt: options.holdMs === undefined ? now : toStoredInstant(nowMs + options.holdMs),
      now,
    }),
  );
  return { eventId, queued: true };
}

/** A delivery of an event to `url`, not yet tried, due at `dueAt` (stored instants). */
export function newDelivery(input: {
  id: string;
  eventId: string;
  merchantId: string;
  domainId: string;
  url: string;
  dueAt: string;
  now: string;
}): NewWebhookDeliveryRow {
  return {
    id: input.id,
    event_id: input.eventId,
    merchant_id: input.merchantId,
    domain_id: input.domainId,
    url: input.url,
    status: 'pending',
    attempts: 0,
    next_attempt_at: input.dueAt,
    last_attempt_at: null,
    last_status_code: null,
    last_error: null,
    delivered_at: null,
    created_at: input.now,
    updated_at: input.now,
  };
}

/**
 * Puts `receipt` into a held event and sends it now, if no attempt to deliver it started yet
 * (the claim of a delivery counts its attempt first, so the check and the claim cannot both win).
 * Answers false when the event already went (or is going) out without it: the caller then emits
 * a new event that carries the receipt.
 */
export async function releaseHeldEvent(
  deps: Deps,
  trx: Executor,
  eventId: string,
  receipt: NonNullable<EventBody['receipt']>,
): Promise<boolean> {
  const now = toStoredInstant(deps.clock.nowMs());
  const event = await trx.selectFrom('outbox_events').select('payload').where('id', '=', eventId).executeTakeFirst();
  if (event === undefined) return false;
  const deliveries = await trx.selectFrom('webhook_deliveries').select('id').where('event_id', '=', eventId).execute();
  if (deliveries.length > 0) {
    const released = await trx
      .updateTable('webhook_deliveries')
      .set({ next_attempt_at: now, updated_at: now })
      .where('event_id', '=', eventId)
      .where('attempts', '=', 0)
      .where('status', '=', 'pending')
      .executeTakeFirst();
    if (Number(released.numUpdatedRows) < deliveries.length) return false;
  }
  const body = JSON.parse(event.payload) as EventBody;
  await trx
    .updateTable('outbox_events')
    .set({ payload: JSON.stringify({ ...body, receipt }) })
    .where('id', '=', eventId)
    .execute();
  return true;
}
