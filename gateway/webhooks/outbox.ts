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
import { toStoredInstant } from '../domain/clock.js';
import type { Deps } from '../runtime/deps.js';
import type { EventBody } from './events.js';

/** Answers whether a delivery was queued; call `deps.dueSignal.notify()` once the transaction committed. */
export async function emitEvent(deps: Deps, trx: Executor, payment: PaymentRow, body: EventBody): Promise<boolean> {
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
  if (url === null) return false;
  await insertDelivery(trx, {
    id: deps.ids.uuid(nowMs),
    event_id: eventId,
    merchant_id: payment.merchant_id,
    domain_id: payment.domain_id,
    url,
    status: 'pending',
    attempts: 0,
    next_attempt_at: now,
    last_attempt_at: null,
    last_status_code: null,
    last_error: null,
    delivered_at: null,
    created_at: now,
    updated_at: now,
  });
  return true;
}
