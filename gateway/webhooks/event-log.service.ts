/**
 * `GET /api/v1/payments/{uuid}/events`: the events a payment emitted and how each delivery went
 * (an addition to the spec). It is where an integrator sees an event that had no target, a
 * delivery still retrying and why, or one that failed for good. Each delivery lists its attempts
 * (`attempt_log`, oldest first; table `webhook_delivery_attempts`).
 *
 * A delivery's and an attempt's `url` is the webhook target as the reader may see it
 * (`webhookUrlShownTo`): as set for a full-access key, an owner or an admin; masked for a
 * payments-only key, a connect token and a viewer (the URL may carry a password or a token).
 */
import { listPaymentEvents } from '../../storage/outbox-event.repository.js';
import { findPayment } from '../../storage/payment.repository.js';
import { listEventDeliveries } from '../../storage/webhook-delivery.repository.js';
import type { WebhookDeliveryRow } from '../../storage/webhook-delivery.table.js';
import { listDeliveryAttempts } from '../../storage/webhook-delivery-attempt.repository.js';
import type { WebhookDeliveryAttemptRow } from '../../storage/webhook-delivery-attempt.table.js';
import type { Principal } from '../auth/principal.js';
import type { SecretReader } from '../domain/access.js';
import { toApiInstant } from '../domain/clock.js';
import { ApiError } from '../domain/errors.js';
import { isUuid } from '../domain/ids.js';
import { webhookUrlShownTo } from '../domain/masked-url.js';
import { scopeOf } from '../payments/payment-scope.js';
import type { Deps } from '../runtime/deps.js';
import type { EventBody } from './events.js';

export interface AttemptView {
  attempt: number;
  /** When the attempt started. */
  at: string;
  url: string;
  /** Null when no answer came. */
  http_status: number | null;
  duration_ms: number;
  error: string | null;
  outcome: WebhookDeliveryAttemptRow['outcome'];
}

export interface DeliveryView {
  delivery_id: string;
  url: string;
  status: WebhookDeliveryRow['status'];
  attempts: number;
  next_attempt_at: string | null;
  last_attempt_at: string | null;
  last_status_code: number | null;
  last_error: string | null;
  delivered_at: string | null;
  /** Every recorded attempt, oldest first (an attempt being sent is not listed yet). */
  attempt_log: AttemptView[];
}

export interface EventView {
  id: string;
  event: string;
  livemode: boolean;
  created_at: string;
  /** The delivery body without `delivery_id` and `timestamp`, which each delivery adds. */
  body: EventBody;
  /** Empty when the payment had no `callback_url` and its domain no webhook URL. */
  deliveries: DeliveryView[];
}

function toAttemptView(reader: SecretReader, row: WebhookDeliveryAttemptRow): AttemptView {
  return {
    attempt: row.attempt,
    at: toApiInstant(row.started_at) as string,
    url: webhookUrlShownTo(reader, row.url),
    http_status: row.http_status,
    duration_ms: row.duration_ms,
    error: row.error,
    outcome: row.outcome,
  };
}

function toDeliveryView(
  reader: SecretReader,
  row: WebhookDeliveryRow,
  attempts: readonly WebhookDeliveryAttemptRow[],
): DeliveryView {
  return {
    delivery_id: row.id,
    url: webhookUrlShownTo(reader, row.url),
    status: row.status,
    attempts: row.attempts,
    next_attempt_at: row.status === 'pending' ? toApiInstant(row.next_attempt_at) : null,
    last_attempt_at: toApiInstant(row.last_attempt_at),
    last_status_code: row.last_status_code,
    last_error: row.last_error,
    delivered_at: toApiInstant(row.delivered_at),
    attempt_log: attempts.filter((a) => a.delivery_id === row.id).map((a) => toAttemptView(reader, a)),
  };
}

export async function listPaymentEventLog(
  deps: Deps,
  principal: Principal,
  uuid: string,
): Promise<{ data: EventView[] }> {
  const payment = isUuid(uuid) ? await findPayment(deps.db, scopeOf(principal), uuid) : undefined;
  if (payment === undefined) throw new ApiError('not_found', `No payment ${uuid} for this key.`);
  return { data: await eventLogOf(deps, payment.uuid, principal) };
}

/**
 * The events of a payment already found in the caller's scope (the API's, or the dashboard's
 * account), oldest first, with the webhook targets as `reader` may see them.
 */
export async function eventLogOf(deps: Deps, paymentUuid: string, reader: SecretReader): Promise<EventView[]> {
  const events = await listPaymentEvents(deps.db, paymentUuid);
  const deliveries = await listEventDeliveries(
    deps.db,
    events.map((e) => e.id),
  );
  const attempts = await listDeliveryAttempts(
    deps.db,
    deliveries.map((d) => d.id),
  );
  return events.map((e) => ({
    id: e.id,
    event: e.event,
    livemode: e.livemode === 1,
    created_at: toApiInstant(e.created_at) as string,
    body: JSON.parse(e.payload) as EventBody,
    deliveries: deliveries.filter((d) => d.event_id === e.id).map((d) => toDeliveryView(reader, d, attempts)),
  }));
}
