/**
 * What `bin/gateway listen` does with the database: follows an account's test events as they are
 * written (by any instance: they are rows of `outbox_events`) and forwards each, signed exactly as
 * a real delivery is, to the one address the developer gave.
 *
 * - Only test events (`livemode: false`) of the account, or of one of its domains, are followed;
 *   those written before the tail started are never forwarded.
 * - The body is the delivery body (./dispatcher.ts `deliveryBody`) with a new `delivery_id` per
 *   forward; the headers are those of a real delivery (./signer.ts), under the event's domain's
 *   secrets as they are at that instant (a rotation included).
 * - Each event is forwarded once, whatever the answer: no retries, no rows written. The event's own
 *   deliveries (to the payment's `callback_url` or the domain's webhook URL) go on as always.
 *
 * A transaction that wrote an event may commit after a later one, and instances' clocks may
 * differ (under `GATEWAY_CLOCK=manual`, a server's clock runs ahead of the real one): the tail looks
 * back `LISTEN_LOOKBACK_MS` behind the newest event it saw and behind the real time, whichever is
 * earlier, and remembers which ids it handed out there.
 */
import { findDomainSecrets } from '../../storage/domain.repository.js';
import {
  findOutboxEvents,
  listTestEventIdsSince,
  newestTestEventAt,
  type TestEventFilter,
} from '../../storage/outbox-event.repository.js';
import type { OutboxEventRow } from '../../storage/outbox-event.table.js';
import { type Clock, SECOND_MS, toStoredInstant } from '../domain/clock.js';
import type { Deps } from '../runtime/deps.js';
import { monotonicMs } from '../runtime/system.js';
import { deliveryBody } from './dispatcher.js';
import type { EventBody } from './events.js';
import { openWebhookSecrets, signingSecrets } from './secrets.js';
import type { WebhookSender } from './sender.js';
import { signatureHeaders } from './signer.js';

export type { TestEventFilter };

/** How far behind the newest event seen the tail still looks for events committed late. */
export const LISTEN_LOOKBACK_MS = 60 * SECOND_MS;
/** Events handed out by one `next()`. */
const BATCH = 100;

/** The account's test events written after `start`, each handed out once, oldest first. */
export class TestEventTail {
  readonly #deps: Deps;
  readonly #filter: TestEventFilter;
  readonly #realClock: Clock;
  /** The newest event time seen (null: no event yet). */
  #newest: string | null;
  /** Ids seen within the look-back, with their times. */
  readonly #seen = new Map<string, string>();

  private constructor(deps: Deps, filter: TestEventFilter, realClock: Clock, newest: string | null) {
    this.#deps = deps;
    this.#filter = filter;
    this.#realClock = realClock;
    this.#newest = newest;
  }

  /** A tail that skips every event written so far; `realClock` reads the real time. */
  static async start(deps: Deps, filter: TestEventFilter, realClock: Clock): Promise<TestEventTail> {
    const tail = new TestEventTail(deps, filter, realClock, await newestTestEventAt(deps.db, filter));
    for (const row of await listTestEventIdsSince(deps.db, filter, tail.#since()))
      tail.#seen.set(row.id, row.created_at);
    return tail;
  }

  /** Where the look-back starts (null: no event seen, so every event is looked at). */
  #since(): string | null {
    if (this.#newest === null) return null;
    return toStoredInstant(Math.min(Date.parse(this.#newest), this.#realClock.nowMs()) - LISTEN_LOOKBACK_MS);
  }

  /** The events written since the last call (at most 100; call again for more). */
  async next(): Promise<OutboxEventRow[]> {
    const since = this.#since();
    const fresh = (await listTestEventIdsSince(this.#deps.db, this.#filter, since))
      .filter((row) => !this.#seen.has(row.id))
      .slice(0, BATCH);
    if (fresh.length === 0) return [];
    const events = await findOutboxEvents(
      this.#deps.db,
      fresh.map((row) => row.id),
    );
    for (const event of events) {
      this.#seen.set(event.id, event.created_at);
      if (this.#newest === null || event.created_at > this.#newest) this.#newest = event.created_at;
    }
    const low = this.#since();
    if (low !== null) for (const [id, at] of this.#seen) if (at < low) this.#seen.delete(id);
    return events;
  }
}

/** The secrets a domain's deliveries are signed with now, as `listen` shows them. */
export interface SigningSecret {
  readonly host: string;
  /** Signs `X-Service-Signature` (and `webhook-signature`). */
  readonly secret: string;
  /** During a rotation: signs `X-Service-Signature-Next`, and replaces `secret` at `next_secret_from`. */
  readonly next_secret: string | null;
  readonly next_secret_from: string | null;
}

/** The signing secrets of the filter's domains (the merchant's, oldest first, or the one domain). */
export async function signingSecretsOf(deps: Deps, filter: TestEventFilter): Promise<SigningSecret[]> {
  let query = deps.db
    .selectFrom('domains')
    .select(['id', 'host', 'webhook_secret', 'webhook_secret_next', 'webhook_secret_next_at'])
    .where('merchant_id', '=', filter.merchantId);
  if (filter.domainId !== null) query = query.where('id', '=', filter.domainId);
  const rows = await query.orderBy('created_at').orderBy('id').execute();
  const nowMs = deps.clock.nowMs();
  return rows.map((row) => {
    const opened = openWebhookSecrets(deps.sealer, row.id, row);
    const [secret, next] = signingSecrets(opened, nowMs);
    return {
      host: row.host,
      secret,
      next_secret: next ?? null,
      next_secret_from: next === undefined ? null : opened.webhook_secret_next_at,
    };
  });
}

/** One forward, as `listen` prints it. */
export interface ForwardedEvent {
  readonly event_id: string;
  readonly event: string;
  readonly payment_uuid: string;
  /** The payment's status in the event. */
  readonly payment_status: string;
  readonly delivery_id: string;
  readonly delivered: boolean;
  /** The local answer's HTTP status; null when none came. */
  readonly status_code: number | null;
  readonly duration_ms: number;
  readonly error: string | null;
}

/**
 * Sends one event to `url`, signed with its domain's secrets. `transportClock` stamps the attempt
 * (the body's `timestamp`, `webhook-timestamp`), as the dispatcher's does.
 */
export async function forwardEvent(
  deps: Deps,
  sender: WebhookSender,
  transportClock: Clock,
  url: string,
  event: OutboxEventRow,
): Promise<ForwardedEvent> {
  const body = JSON.parse(event.payload) as EventBody;
  const nowMs = deps.clock.nowMs();
  const deliveryId = deps.ids.uuid(nowMs);
  const stored = await findDomainSecrets(deps.db, event.domain_id);
  const common = {
    event_id: event.id,
    event: event.event,
    payment_uuid: body.transaction.uuid,
    payment_status: body.transaction.status,
    delivery_id: deliveryId,
  };
  if (stored === undefined) {
    return { ...common, delivered: false, status_code: null, duration_ms: 0, error: 'the domain no longer exists' };
  }
  const secrets = signingSecrets(openWebhookSecrets(deps.sealer, event.domain_id, stored), nowMs);
  const timestamp = Math.floor(transportClock.nowMs() / 1000);
  const payload = deliveryBody(deliveryId, body, timestamp);
  const started = monotonicMs();
  const outcome = await sender.send(url, payload, signatureHeaders(deliveryId, timestamp, payload, secrets));
  return {
    ...common,
    delivered: outcome.delivered,
    status_code: outcome.statusCode,
    duration_ms: Math.round(monotonicMs() - started),
    error: outcome.delivered ? null : outcome.error,
  };
}
