/**
 * The outbox dispatcher (spec "Delivery rules"): sends due deliveries, each signed with its
 * domain's secrets, and records the outcome. A delivery is tried at once, then retried 1, 5 and 30
 * minutes after each failure, then failed for good; its `delivery_id` never changes, so receivers
 * de-duplicate on it. A delivery for a completed or refunded payment that fails for good emails
 * the merchant (throttled per domain, see gateway/notifications/delivery-failure-email.ts).
 *
 * Two clocks: the service clock (`deps.clock`) decides what is due, when to retry and what is
 * recorded; the transport clock stamps each attempt (the body's `timestamp` and `webhook-timestamp`,
 * both signed) with the time it is sent. They are the same clock except under `GATEWAY_CLOCK=manual`,
 * where the service clock is the test clock and the transport clock stays the real one: receivers
 * compare the signed timestamp with their own clock (the connector within 5 minutes), and a stamp
 * from a clock moved by hours would be refused as a replay. The event's own times
 * (`transaction.created_at`, `completed_at`) stay on the service clock.
 *
 * Claims are short transactions that count the attempt and lease the row (FOR UPDATE SKIP LOCKED
 * on PostgreSQL), so several instances never send one delivery at the same time; a sender that
 * crashes mid-attempt lets the lease lapse and the delivery is sent again (at least once).
 *
 * Each attempt whose claim still holds when it ends gets a row in `webhook_delivery_attempts`,
 * written in the transaction that records the delivery's outcome: its start (service clock), target,
 * answer status, duration (a monotonic timer, `performance.now()`, never the wall clock) and a short
 * error with URLs masked.
 */
import { performance } from 'node:perf_hooks';
import type { Executor } from '../../storage/database.js';
import {
  type ClaimedDelivery,
  claimDueDeliveries,
  finishAttempt,
  nextDeliveryDueAt,
} from '../../storage/webhook-delivery.repository.js';
import { insertDeliveryAttempt } from '../../storage/webhook-delivery-attempt.repository.js';
import { ATTEMPT_ERROR_MAX } from '../../storage/webhook-delivery-attempt.table.js';
import { type Clock, MINUTE_MS, toStoredInstant } from '../domain/clock.js';
import { maskedUrl } from '../domain/masked-url.js';
import { queueDeliveryFailureEmail } from '../notifications/delivery-failure-email.js';
import type { DeliveryOutcome as DeliveryOutcomeLabel } from '../observability/gateway-metrics.js';
import type { Deps } from '../runtime/deps.js';
import type { EventBody } from './events.js';
import { openWebhookSecrets, signingSecrets } from './secrets.js';
import type { DeliveryOutcome, WebhookSender } from './sender.js';
import { signatureHeaders } from './signer.js';

/** Waits after the 1st, 2nd and 3rd failed attempt; the 4th failure is final. */
export const RETRY_DELAYS_MS = [1 * MINUTE_MS, 5 * MINUTE_MS, 30 * MINUTE_MS] as const;
export const MAX_ATTEMPTS = 1 + RETRY_DELAYS_MS.length;
/** How long a claimed delivery belongs to its sender (well above the 10 s answer wait). */
export const CLAIM_LEASE_MS = 2 * MINUTE_MS;

/** The delivery body (spec "Webhook delivery body"): the event plus this delivery's id and time. */
export function deliveryBody(deliveryId: string, event: EventBody, timestampSeconds: number): string {
  return JSON.stringify({
    delivery_id: deliveryId,
    event: event.event,
    livemode: event.livemode,
    timestamp: timestampSeconds,
    transaction: event.transaction,
    refund: event.refund,
    receipt: event.receipt,
  });
}

/** An attempt's error as stored: URLs masked (credentials hidden), one line, bounded. */
export function attemptError(error: string): string {
  const masked = error.replace(/\b[a-z][a-z0-9+.-]*:\/\/[^\s"'<>()]+/gi, (url) => maskedUrl(url) ?? '(url)');
  const line = masked.replace(/\s+/g, ' ').trim();
  return line.length <= ATTEMPT_ERROR_MAX ? line : `${line.slice(0, ATTEMPT_ERROR_MAX - 1)}…`;
}

/** What one attempt measured, for its row. */
interface AttemptTiming {
  /** Service clock, when it started. */
  readonly startedMs: number;
  /** Monotonic milliseconds from sending to the outcome. */
  readonly durationMs: number;
}

/** Whether a delivery that fails for good is worth an email: the buyer paid (or was refunded). */
function concernsPaidPayment(event: EventBody): boolean {
  return (
    event.event === 'payment.refunded' ||
    event.transaction.status === 'completed' ||
    event.transaction.status === 'refunded'
  );
}

export class WebhookDispatcher {
  readonly #deps: Deps;
  readonly #sender: WebhookSender;
  readonly #batchSize: number;
  readonly #transportClock: Clock;

  /** `transportClock` stamps the attempts (default: the service clock). */
  constructor(deps: Deps, sender: WebhookSender, batchSize = 100, transportClock: Clock = deps.clock) {
    this.#deps = deps;
    this.#sender = sender;
    this.#batchSize = batchSize;
    this.#transportClock = transportClock;
  }

  /** Sends one batch of due deliveries and waits for their outcomes; answers how many it claimed. */
  async dispatchDue(): Promise<number> {
    const claimed = await this.claim(this.#batchSize);
    const results = await Promise.allSettled(claimed.map((delivery) => this.attempt(delivery)));
    for (const result of results) {
      // The attempt was made but its outcome could not be stored: the lease lapses and it is sent again.
      if (result.status === 'rejected') {
        this.#deps.logger.error({ err: result.reason }, 'could not record a webhook attempt');
      }
    }
    return claimed.length;
  }

  /**
   * Claims up to `limit` due deliveries (counting their attempt and leasing them), none to a domain
   * of `skipDomains` (whose endpoint has as many attempts in flight as it may).
   */
  claim(limit: number, skipDomains: readonly string[] = []): Promise<ClaimedDelivery[]> {
    const deps = this.#deps;
    const nowMs = deps.clock.nowMs();
    return deps.transact((trx) =>
      claimDueDeliveries(trx, {
        now: toStoredInstant(nowMs),
        leaseUntil: toStoredInstant(nowMs + CLAIM_LEASE_MS),
        limit,
        lock: deps.dialect === 'postgres',
        skipDomains,
      }),
    );
  }

  /** Milliseconds until the next pending delivery falls due (negative: one is due), or null: none. */
  async nextDueInMs(): Promise<number | null> {
    const next = await nextDeliveryDueAt(this.#deps.db);
    return next === null ? null : Date.parse(next) - this.#deps.clock.nowMs();
  }

  /** Sends one claimed delivery and records its outcome. */
  async attempt(delivery: ClaimedDelivery): Promise<void> {
    const deps = this.#deps;
    const startedMs = deps.clock.nowMs();
    const event = JSON.parse(delivery.payload) as EventBody;
    const timestamp = Math.floor(this.#transportClock.nowMs() / 1000);
    const body = deliveryBody(delivery.id, event, timestamp);
    const secrets = signingSecrets(openWebhookSecrets(deps.sealer, delivery.domain_id, delivery), startedMs);
    const headers = signatureHeaders(delivery.id, timestamp, body, secrets);
    const sentAt = performance.now();
    const outcome = await this.#sender.send(delivery.url, body, headers);
    const durationMs = Math.max(0, Math.round(performance.now() - sentAt));
    const recorded = await deps.transact((trx) =>
      this.#record(trx, delivery, event, outcome, { startedMs, durationMs }),
    );
    deps.metrics.deliveryAttempt(recorded, delivery.attempts);
    const log = {
      delivery_id: delivery.id,
      event: event.event,
      attempt: delivery.attempts,
      host: hostOf(delivery.url),
    };
    if (outcome.delivered) deps.logger.debug({ ...log, status: outcome.statusCode }, 'webhook delivered');
    else deps.logger.warn({ ...log, status: outcome.statusCode, error: outcome.error }, 'webhook attempt failed');
  }

  async #record(
    trx: Executor,
    delivery: ClaimedDelivery,
    event: EventBody,
    outcome: DeliveryOutcome,
    timing: AttemptTiming,
  ): Promise<DeliveryOutcomeLabel> {
    const deps = this.#deps;
    const nowMs = deps.clock.nowMs();
    const now = toStoredInstant(nowMs);
    const attemptedAt = toStoredInstant(timing.startedMs);
    /** The attempt's row, written only when the claim still held (else its new claimant records its own). */
    const logAttempt = async (held: boolean, label: DeliveryOutcomeLabel) => {
      if (!held) return;
      await insertDeliveryAttempt(trx, {
        id: deps.ids.uuid(nowMs),
        delivery_id: delivery.id,
        attempt: delivery.attempts,
        url: delivery.url,
        started_at: attemptedAt,
        duration_ms: timing.durationMs,
        http_status: outcome.statusCode,
        error: outcome.delivered ? null : attemptError(outcome.error),
        outcome: label,
      });
    };
    const common = {
      last_attempt_at: attemptedAt,
      last_status_code: outcome.statusCode,
      last_error: outcome.delivered ? null : outcome.error,
      updated_at: now,
    };
    if (outcome.delivered) {
      const held = await finishAttempt(trx, delivery.id, delivery.attempts, {
        ...common,
        status: 'delivered',
        delivered_at: now,
        next_attempt_at: null,
      });
      await logAttempt(held, 'delivered');
      return 'delivered';
    }
    const delay = RETRY_DELAYS_MS[delivery.attempts - 1];
    if (delay !== undefined) {
      const held = await finishAttempt(trx, delivery.id, delivery.attempts, {
        ...common,
        next_attempt_at: toStoredInstant(nowMs + delay),
      });
      await logAttempt(held, 'retry');
      return 'retry';
    }
    const failed = await finishAttempt(trx, delivery.id, delivery.attempts, {
      ...common,
      status: 'failed',
      next_attempt_at: null,
    });
    await logAttempt(failed, 'failed');
    if (failed && concernsPaidPayment(event)) {
      await queueDeliveryFailureEmail(deps, trx, {
        merchantId: delivery.merchant_id,
        domainId: delivery.domain_id,
        deliveryId: delivery.id,
        url: delivery.url,
        event: event.event,
        paymentUuid: event.transaction.uuid,
        orderId: event.transaction.order_id,
        attempts: delivery.attempts,
        lastStatusCode: outcome.statusCode,
        lastError: outcome.error,
      });
    }
    return 'failed';
  }
}

function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return '(invalid url)';
  }
}
