/**
 * The connector's metrics (docs/operations.md "Metrics"): its requests, its calls to stores and
 * to the gateway, the orders it marked paid, and its reconciliation runs and findings, with the
 * process's and the Node.js runtime's metrics and the build's version. Every connector owns its own
 * registry (tests run several services in one process).
 */
import { Counter, Histogram, Registry } from 'prom-client';
import { LATENCY_BUCKETS, type RequestMetrics, requestMetrics } from '../../gateway/observability/request-metrics.js';
import { registerRuntimeMetrics } from '../../gateway/observability/runtime-metrics.js';

/** `ok`, or why the call failed: `refused` (the remote answered no), `unavailable` (no usable answer). */
export type CallOutcome = 'ok' | 'refused' | 'unavailable';

export class ConnectorMetrics {
  readonly registry = new Registry();
  readonly requests: RequestMetrics;
  readonly #storeCalls: Counter<'platform' | 'operation' | 'outcome'>;
  readonly #storeDuration: Histogram<'platform' | 'operation'>;
  readonly #marked: Counter<'platform'>;
  readonly #gatewayCalls: Counter<'operation' | 'outcome'>;
  readonly #gatewayDuration: Histogram<'operation'>;
  readonly #runs: Counter<'trigger' | 'status'>;
  readonly #findings: Counter<'kind'>;

  constructor() {
    const registers = [this.registry];
    this.requests = requestMetrics(this.registry, 'connector');
    registerRuntimeMetrics(this.registry, 'connector');
    this.#storeCalls = new Counter({
      name: 'connector_store_calls_total',
      help: 'Calls to stores (WooCommerce, Shopify) by platform, operation and outcome.',
      labelNames: ['platform', 'operation', 'outcome'],
      registers,
    });
    this.#storeDuration = new Histogram({
      name: 'connector_store_call_duration_seconds',
      help: 'Time of calls to stores by platform and operation.',
      labelNames: ['platform', 'operation'],
      buckets: LATENCY_BUCKETS,
      registers,
    });
    this.#marked = new Counter({
      name: 'connector_orders_marked_paid_total',
      help: 'Store orders the connector marked paid (a repeated mark of one order counts again).',
      labelNames: ['platform'],
      registers,
    });
    this.#gatewayCalls = new Counter({
      name: 'connector_gateway_calls_total',
      help: "Calls to the gateway's API by operation and outcome.",
      labelNames: ['operation', 'outcome'],
      registers,
    });
    this.#gatewayDuration = new Histogram({
      name: 'connector_gateway_call_duration_seconds',
      help: "Time of calls to the gateway's API by operation.",
      labelNames: ['operation'],
      buckets: LATENCY_BUCKETS,
      registers,
    });
    this.#runs = new Counter({
      name: 'connector_reconciliation_runs_total',
      help: 'Reconciliation runs that ended, by trigger (scheduled, plugin, cli) and status (finished, failed).',
      labelNames: ['trigger', 'status'],
      registers,
    });
    this.#findings = new Counter({
      name: 'connector_reconciliation_findings_total',
      help: 'Mismatches reconciliation runs found, by kind.',
      labelNames: ['kind'],
      registers,
    });
  }

  storeCall(platform: string, operation: string, outcome: CallOutcome, seconds: number): void {
    this.#storeCalls.inc({ platform, operation, outcome });
    this.#storeDuration.observe({ platform, operation }, seconds);
    if (operation === 'markPaid' && outcome === 'ok') this.#marked.inc({ platform });
  }

  gatewayCall(operation: string, outcome: CallOutcome, seconds: number): void {
    this.#gatewayCalls.inc({ operation, outcome });
    this.#gatewayDuration.observe({ operation }, seconds);
  }

  reconciliationRun(trigger: string, status: 'finished' | 'failed', findingKinds: readonly string[]): void {
    this.#runs.inc({ trigger, status });
    for (const kind of findingKinds) this.#findings.inc({ kind });
  }
}
