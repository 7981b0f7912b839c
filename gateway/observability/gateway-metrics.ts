/**
 * The gateway's metrics (docs/operations.md "Metrics" lists each one). Every gateway owns its own
 * registry (tests run several gateways in one process), which also holds the process's and the
 * Node.js runtime's metrics and the build's version; services record into it through
 * `deps.metrics`. Counters are bumped where things happen; the due-work queues and the PostgreSQL
 * pool are read when a scraper asks.
 */
import type { Logger } from 'pino';
import { Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { Executor } from '../../storage/database.js';
import { type DueQueueStats, dueQueueStats } from '../../storage/due-work.repository.js';
import { type Clock, toStoredInstant } from '../domain/clock.js';
import { LATENCY_BUCKETS, type RequestMetrics, requestMetrics } from './request-metrics.js';
import { registerRuntimeMetrics } from './runtime-metrics.js';

export type PaymentEvent = 'created' | 'authorized' | 'completed' | 'failed' | 'expired';
export type DeliveryOutcome = 'delivered' | 'retry' | 'failed';
/**
 * How a refund call or status check left a refund: `succeeded`, `declined` by the processor,
 * `unavailable` (the processor could not be reached; nothing was sent), `unknown` (no answer: a
 * status check settles it later, and counts again then).
 */
export type RefundOutcome = 'succeeded' | 'declined' | 'unavailable' | 'unknown';
/**
 * How a capture or release of a hold (or its status check) left it: as for refunds, `unknown` is
 * counted when the call leaves it so, and again as what a status check settles it to.
 */
export type HoldOutcome = 'succeeded' | 'declined' | 'unavailable' | 'unknown';
/** What the gateway asked a processor: register a payment, read its status, check a callback, refund, capture or release a hold, read a hold back. */
export type ProcessorOperation = 'start' | 'status' | 'callback' | 'refund' | 'capture' | 'release' | 'hold_status';
export type ProcessorCallFailure = 'timeout' | 'unreachable' | 'no_answer' | 'server_error';
export type RefusalReason = 'rate_limited' | 'too_many_attempts' | 'link_payments';

/** Connections of a PostgreSQL pool (pg's `totalCount`, `idleCount`, `waitingCount`). */
export interface PoolStats {
  readonly total: number;
  readonly idle: number;
  readonly waiting: number;
}

export interface MetricSources {
  readonly db: Executor;
  readonly clock: Clock;
  readonly logger: Logger;
  /** The database pool's connections; absent on SQLite (one connection in the process). */
  readonly pool?: () => PoolStats;
}

export class GatewayMetrics {
  readonly registry = new Registry();
  readonly requests: RequestMetrics;
  readonly #payments: Counter<'event' | 'processor' | 'environment'>;
  readonly #refunds: Counter<'outcome' | 'processor' | 'environment'>;
  readonly #deliveries: Counter<'outcome' | 'attempt'>;
  readonly #processorDuration: Histogram<'processor' | 'operation'>;
  readonly #processorErrors: Counter<'processor' | 'operation' | 'reason'>;
  readonly #refusals: Counter<'reason'>;
  readonly #holdOperations: Counter<'operation' | 'outcome' | 'processor' | 'environment'>;
  readonly #holdsRunOut: Counter<'processor' | 'environment'>;

  constructor(sources: MetricSources) {
    const registers = [this.registry];
    this.requests = requestMetrics(this.registry, 'gateway');
    this.#payments = new Counter({
      name: 'gateway_payments_total',
      help: 'Payments created and payments that reached completed, failed or expired, by processor and environment.',
      labelNames: ['event', 'processor', 'environment'],
      registers,
    });
    this.#refunds = new Counter({
      name: 'gateway_refunds_total',
      help: 'Refunds by outcome (succeeded, declined, unavailable: nothing sent, unknown: settled by a later status check, which counts again), processor and environment.',
      labelNames: ['outcome', 'processor', 'environment'],
      registers,
    });
    this.#deliveries = new Counter({
      name: 'gateway_webhook_delivery_attempts_total',
      help: 'Webhook delivery attempts by outcome (delivered, retry: failed and scheduled again, failed: for good) and attempt number.',
      labelNames: ['outcome', 'attempt'],
      registers,
    });
    this.#processorDuration = new Histogram({
      name: 'gateway_processor_call_duration_seconds',
      help: 'Time of HTTP calls to processors, answered or not, by processor and operation.',
      labelNames: ['processor', 'operation'],
      buckets: LATENCY_BUCKETS,
      registers,
    });
    this.#processorErrors = new Counter({
      name: 'gateway_processor_call_errors_total',
      help: 'Processor calls without a usable answer, by processor, operation and reason.',
      labelNames: ['processor', 'operation', 'reason'],
      registers,
    });
    this.#refusals = new Counter({
      name: 'gateway_rate_limit_refusals_total',
      help: 'Requests refused by a rate limit: rate_limited (per account), too_many_attempts (failed authentications per address) or link_payments (payments started through reusable payment links per address).',
      labelNames: ['reason'],
      registers,
    });
    this.#holdOperations = new Counter({
      name: 'gateway_hold_operations_total',
      help: 'Captures and releases of holds by operation (capture, release), outcome (succeeded, declined, unavailable: nothing sent, unknown: settled by a later status check, which counts again), processor and environment.',
      labelNames: ['operation', 'outcome', 'processor', 'environment'],
      registers,
    });
    this.#holdsRunOut = new Counter({
      name: 'gateway_holds_expired_total',
      help: 'Authorizations that were not captured before their hold ran out (capture_before) and were released by the gateway, by processor and environment.',
      labelNames: ['processor', 'environment'],
      registers,
    });
    registerRuntimeMetrics(this.registry, 'gateway');
    registerQueueGauges(this.registry, sources);
    if (sources.pool !== undefined) registerPoolGauge(this.registry, sources.pool);
  }

  payment(event: PaymentEvent, payment: { processor: string | null; environment: string }): void {
    this.#payments.inc({ event, processor: payment.processor ?? 'none', environment: payment.environment });
  }

  refund(outcome: RefundOutcome, refund: { processor: string; environment: string }): void {
    this.#refunds.inc({ outcome, processor: refund.processor || 'none', environment: refund.environment });
  }

  holdOperation(
    operation: 'capture' | 'release',
    outcome: HoldOutcome,
    hold: { processor: string; environment: string },
  ): void {
    this.#holdOperations.inc({
      operation,
      outcome,
      processor: hold.processor || 'none',
      environment: hold.environment,
    });
  }

  holdRanOut(payment: { processor: string | null; environment: string }): void {
    this.#holdsRunOut.inc({ processor: payment.processor ?? 'none', environment: payment.environment });
  }

  deliveryAttempt(outcome: DeliveryOutcome, attempt: number): void {
    this.#deliveries.inc({ outcome, attempt: String(attempt) });
  }

  processorCall(
    processor: string,
    operation: ProcessorOperation,
    seconds: number,
    failure: ProcessorCallFailure | null,
  ): void {
    this.#processorDuration.observe({ processor, operation }, seconds);
    if (failure !== null) this.#processorErrors.inc({ processor, operation, reason: failure });
  }

  refused(reason: RefusalReason): void {
    this.#refusals.inc({ reason });
  }
}

function registerQueueGauges(registry: Registry, sources: MetricSources): void {
  // One read serves the three gauges of a scrape (they are collected together).
  let reading: Promise<DueQueueStats[] | null> | undefined;
  const read = (): Promise<DueQueueStats[] | null> => {
    reading ??= dueQueueStats(sources.db, toStoredInstant(sources.clock.nowMs()))
      .catch((error: unknown) => {
        sources.logger.warn({ err: error }, 'could not read the due-work queues for the metrics');
        return null;
      })
      .finally(() => {
        reading = undefined;
      });
    return reading;
  };
  const gauge = (name: string, help: string, value: (stats: DueQueueStats) => number) =>
    new Gauge({
      name,
      help,
      labelNames: ['queue'],
      registers: [registry],
      async collect() {
        const stats = await read();
        this.reset();
        for (const queue of stats ?? []) this.set({ queue: queue.queue }, value(queue));
      },
    });
  gauge(
    'gateway_queue_depth',
    'Items waiting for a due-work job (webhook_deliveries, payment_expiries, refund_checks), due or not yet.',
    (s) => s.open,
  );
  gauge('gateway_queue_due', 'Items of a due-work queue whose time has come.', (s) => s.due);
  gauge(
    'gateway_queue_lag_seconds',
    'Age of the oldest due item of a queue (0 when none is due): how far the job is behind.',
    (s) => (s.oldestDue === null ? 0 : Math.max(0, (sources.clock.nowMs() - Date.parse(s.oldestDue)) / 1000)),
  );
}

function registerPoolGauge(registry: Registry, pool: () => PoolStats): void {
  new Gauge({
    name: 'gateway_db_pool_connections',
    help: 'PostgreSQL pool connections: total (open), idle, waiting (queries waiting for a connection).',
    labelNames: ['state'],
    registers: [registry],
    collect() {
      const stats = pool();
      this.set({ state: 'total' }, stats.total);
      this.set({ state: 'idle' }, stats.idle);
      this.set({ state: 'waiting' }, stats.waiting);
    },
  });
}
