/**
 * `/metrics` over real HTTP on both databases (docs/operations.md "Metrics"): refused without the
 * token, Prometheus text with it, and the figures move with what the gateway does: requests by
 * route pattern, payments by processor and environment, refunds by outcome, webhook attempts by
 * outcome and attempt, rate-limit refusals, the due-work queues (on the manual clock) and the
 * PostgreSQL pool; the process's and Node.js runtime's metrics and the build's version are there too.
 */
import { readFileSync } from 'node:fs';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { MINUTE_MS } from '../../gateway/domain/clock.js';
import { checkRefundsWork } from '../../gateway/jobs/check-refunds.js';
import { setRateLimit } from '../../gateway/merchants/merchant.service.js';
import { DIALECTS } from '../support/databases.js';
import {
  expectErrorBody,
  paymentBody,
  startTestGateway,
  type TestGateway,
  type TestMerchant,
} from '../support/gateway.js';
import { type Scrape, scrape } from '../support/prometheus.js';
import { WebhookReceiver } from '../support/webhook-receiver.js';

const TOKEN = 'metrics-token-0123456789abcdef';
const VERSION = (JSON.parse(readFileSync('package.json', 'utf8')) as { version: string }).version;

/** The process's and Node.js runtime's metric families (prom-client's defaults), by type. */
const RUNTIME_FAMILIES = {
  process_cpu_user_seconds_total: 'counter',
  process_cpu_seconds_total: 'counter',
  process_start_time_seconds: 'gauge',
  process_resident_memory_bytes: 'gauge',
  nodejs_heap_size_used_bytes: 'gauge',
  nodejs_eventloop_lag_seconds: 'gauge',
  nodejs_eventloop_lag_p99_seconds: 'gauge',
  nodejs_active_handles_total: 'gauge',
  nodejs_gc_duration_seconds: 'histogram',
  nodejs_version_info: 'gauge',
};

/** Checks the runtime's figures of a scrape: present once each, and plausible for this process. */
function expectRuntimeMetrics(metrics: Scrape, build: string): void {
  expect(Object.fromEntries(metrics.types)).toMatchObject({ ...RUNTIME_FAMILIES, [build]: 'gauge' });
  expect(metrics.find(build)).toEqual([{ name: build, labels: { version: VERSION }, value: 1 }]);
  expect(metrics.find('nodejs_version_info')).toHaveLength(1);
  expect(metrics.find('nodejs_version_info')[0]?.labels.version).toBe(process.version);
  const resident = metrics.value('process_resident_memory_bytes');
  expect(resident).toBeGreaterThan(10 * 1024 * 1024);
  const started = metrics.value('process_start_time_seconds');
  // prom-client reads the process's start from the real time, whatever the service's clock.
  expect(Math.abs(started - (Date.now() - process.uptime() * 1000) / 1000)).toBeLessThan(5);
  expect(metrics.value('process_cpu_seconds_total')).toBeGreaterThan(0);
}

describe.each(DIALECTS)('/metrics (%s)', (dialect) => {
  let t: TestGateway;
  let receiver: WebhookReceiver;
  let m: TestMerchant;

  beforeAll(async () => {
    t = await startTestGateway(dialect, {
      env: { GATEWAY_METRICS_TOKEN: TOKEN, GATEWAY_ALLOW_PRIVATE_WEBHOOKS: '1' },
    });
    receiver = await WebhookReceiver.start();
    m = await t.merchant();
  });
  afterEach(async () => {
    await t.gateway.scheduler.runDueNow();
    receiver.replyWith({ status: 200 });
    receiver.received.length = 0;
  });
  afterAll(async () => {
    await t?.close();
    await receiver?.close();
  });

  const read = (): Promise<Scrape> => scrape(`${t.url}/metrics`, TOKEN);

  async function createPayment(overrides: Record<string, unknown> = {}): Promise<Record<string, unknown>> {
    const created = await t.call('POST', '/api/v1/payments', { key: m.testKey, body: paymentBody(overrides) });
    expect(created.status, created.text).toBe(201);
    return created.body;
  }

  async function pay(uuid: unknown, card = '4111 1111 1111 1111'): Promise<Record<string, unknown>> {
    const paid = await t.call('POST', `/api/v1/test_helpers/payments/${uuid}/pay`, {
      key: m.testKey,
      body: { card_number: card },
    });
    expect(paid.status, paid.text).toBe(200);
    return paid.body;
  }

  it('refuses a scrape without the token or with another one (401), never with the figures', async () => {
    const none = await fetch(`${t.url}/metrics`);
    expect(none.status).toBe(401);
    expect(none.headers.get('www-authenticate')).toBe('Bearer realm="metrics"');
    expect(await none.text()).not.toContain('gateway_');
    const wrong = await fetch(`${t.url}/metrics`, { headers: { Authorization: `Bearer ${TOKEN}x` } });
    expect(wrong.status).toBe(401);
    expect(await wrong.text()).not.toContain('gateway_');
    const basic = await fetch(`${t.url}/metrics`, { headers: { Authorization: `Basic ${TOKEN}` } });
    expect(basic.status).toBe(401);
  });

  it('answers Prometheus text with every metric family declared', async () => {
    const metrics = await read();
    expect(Object.fromEntries(metrics.types)).toMatchObject({
      gateway_http_requests_total: 'counter',
      gateway_http_request_duration_seconds: 'histogram',
      gateway_payments_total: 'counter',
      gateway_webhook_delivery_attempts_total: 'counter',
      gateway_processor_call_duration_seconds: 'histogram',
      gateway_processor_call_errors_total: 'counter',
      gateway_rate_limit_refusals_total: 'counter',
      gateway_refunds_total: 'counter',
      gateway_queue_depth: 'gauge',
      gateway_queue_due: 'gauge',
      gateway_queue_lag_seconds: 'gauge',
    });
    for (const queue of ['webhook_deliveries', 'payment_expiries', 'refund_checks', 'hold_checks', 'hold_expiries']) {
      expect(metrics.find('gateway_queue_depth', { queue }), queue).toHaveLength(1);
    }
  });

  it("reports the process's and Node.js runtime's metrics and the build's version", async () => {
    expectRuntimeMetrics(await read(), 'gateway_build_info');
  });

  it('labels requests with the route pattern, never the raw path, and unknown routes as unmatched', async () => {
    const created = await createPayment();
    const before = await read();
    const labels = { method: 'GET', route: '/api/v1/payments/:uuid', status: '200' };
    expect((await t.call('GET', `/api/v1/payments/${created.uuid}`, { key: m.testKey })).status).toBe(200);
    expectErrorBody(await t.call('GET', '/no/such/route'), 404, 'not_found');
    const after = await read();
    expect(after.value('gateway_http_requests_total', labels)).toBe(
      before.value('gateway_http_requests_total', labels) + 1,
    );
    expect(after.value('gateway_http_request_duration_seconds_count', labels)).toBe(
      before.value('gateway_http_request_duration_seconds_count', labels) + 1,
    );
    const unmatched = { method: 'GET', route: 'unmatched', status: '404' };
    expect(after.value('gateway_http_requests_total', unmatched)).toBe(
      before.value('gateway_http_requests_total', unmatched) + 1,
    );
    const routes = new Set(after.find('gateway_http_requests_total').map((sample) => sample.labels.route));
    expect(routes).toContain('/api/v1/payments');
    expect([...routes].some((route) => route?.includes(String(created.uuid)) || route === '/no/such/route')).toBe(
      false,
    );
  });

  it('counts payments created, completed and failed by processor and environment', async () => {
    const before = await read();
    const paid = await createPayment();
    await pay(paid.uuid);
    const declined = await createPayment();
    await pay(declined.uuid, '4000 0000 0000 0002');
    const after = await read();
    const delta = (labels: Record<string, string>) =>
      after.value('gateway_payments_total', labels) - before.value('gateway_payments_total', labels);
    expect(delta({ event: 'created', processor: 'none', environment: 'test' })).toBe(2);
    expect(delta({ event: 'completed', processor: 'sandbox', environment: 'test' })).toBe(1);
    expect(delta({ event: 'failed', processor: 'sandbox', environment: 'test' })).toBe(1);
    expect(delta({ event: 'completed', environment: 'live' })).toBe(0);
  });

  it('counts refunds by outcome; one whose outcome was unknown counts again once a check settles it', async () => {
    const refund = async (card: string, status: number) => {
      const payment = await createPayment();
      await pay(payment.uuid, card);
      const answer = await t.call('POST', `/api/v1/payments/${payment.uuid}/refund`, { key: m.testKey, body: {} });
      expect(answer.status, answer.text).toBe(status);
    };
    const before = await read();
    await refund('4111 1111 1111 1111', 201);
    await refund('4000 0000 0000 5126', 409);
    await refund('4000 0000 0000 5134', 409);
    await refund('4000 0000 0000 5142', 409);
    const answered = await read();
    const delta = (after: Scrape, outcome: string) =>
      after.value('gateway_refunds_total', { outcome, processor: 'sandbox', environment: 'test' }) -
      before.value('gateway_refunds_total', { outcome, processor: 'sandbox', environment: 'test' });
    expect(['succeeded', 'declined', 'unavailable', 'unknown'].map((o) => delta(answered, o))).toEqual([1, 1, 1, 1]);

    // The unknown refund's status check, a minute later, finds it refunded.
    t.clock.advance(MINUTE_MS);
    const checks = checkRefundsWork(t.gateway.deps);
    await checks.runBatch();
    await checks.settle?.();
    const settled = await read();
    expect(['succeeded', 'declined', 'unavailable', 'unknown'].map((o) => delta(settled, o))).toEqual([2, 1, 1, 1]);
    expect(settled.value('gateway_refunds_total', { environment: 'live' })).toBe(0);
  });

  it('counts expired payments once the expiry job moved them', async () => {
    const before = await read();
    await createPayment();
    await t.gateway.scheduler.runDueNow();
    t.clock.advance(24 * 60 * MINUTE_MS);
    await t.gateway.scheduler.runDueNow();
    const after = await read();
    const labels = { event: 'expired', processor: 'none', environment: 'test' };
    expect(after.value('gateway_payments_total', labels)).toBeGreaterThanOrEqual(
      before.value('gateway_payments_total', labels) + 1,
    );
    expect(after.value('gateway_queue_due', { queue: 'payment_expiries' })).toBe(0);
  });

  it('counts a failed delivery attempt, shows it queued and late on the clock, then counts its delivery', async () => {
    const before = await read();
    receiver.replyWith({ status: 500 });
    const created = await createPayment({ callback_url: `${receiver.url}/hooks` });
    await pay(created.uuid);
    await receiver.waitFor(1);
    await t.gateway.scheduler.runDueNow();

    const failed = await read();
    expect(failed.value('gateway_webhook_delivery_attempts_total', { outcome: 'retry', attempt: '1' })).toBe(
      before.value('gateway_webhook_delivery_attempts_total', { outcome: 'retry', attempt: '1' }) + 1,
    );
    expect(failed.value('gateway_queue_depth', { queue: 'webhook_deliveries' })).toBe(1);
    expect(failed.value('gateway_queue_due', { queue: 'webhook_deliveries' })).toBe(0);
    expect(failed.value('gateway_queue_lag_seconds', { queue: 'webhook_deliveries' })).toBe(0);

    // The retry is due a minute after the failure; with the scheduler stopped it waits 30 s more.
    await t.gateway.scheduler.stop();
    t.clock.advance(90_000);
    const late = await read();
    expect(late.value('gateway_queue_due', { queue: 'webhook_deliveries' })).toBe(1);
    expect(late.value('gateway_queue_lag_seconds', { queue: 'webhook_deliveries' })).toBe(30);

    receiver.replyWith({ status: 200 });
    t.gateway.scheduler.start();
    await t.gateway.scheduler.runDueNow();
    await receiver.waitFor(2);
    const delivered = await read();
    expect(delivered.value('gateway_webhook_delivery_attempts_total', { outcome: 'delivered', attempt: '2' })).toBe(
      before.value('gateway_webhook_delivery_attempts_total', { outcome: 'delivered', attempt: '2' }) + 1,
    );
    expect(delivered.value('gateway_queue_depth', { queue: 'webhook_deliveries' })).toBe(0);
  });

  it('counts rate-limit refusals by reason', async () => {
    const limited = await t.merchant();
    await setRateLimit(t.gateway.deps, limited.merchantId, 1);
    const before = await read();
    expect((await t.call('GET', '/api/v1/payments', { key: limited.testKey })).status).toBe(200);
    expectErrorBody(await t.call('GET', '/api/v1/payments', { key: limited.testKey }), 429, 'rate_limited');
    const after = await read();
    expect(after.value('gateway_rate_limit_refusals_total', { reason: 'rate_limited' })).toBe(
      before.value('gateway_rate_limit_refusals_total', { reason: 'rate_limited' }) + 1,
    );
    expect(after.value('gateway_rate_limit_refusals_total', { reason: 'too_many_attempts' })).toBe(
      before.value('gateway_rate_limit_refusals_total', { reason: 'too_many_attempts' }),
    );
  });

  it(dialect === 'postgres' ? 'reports the PostgreSQL pool' : 'has no pool figures on SQLite', async () => {
    const metrics = await read();
    const total = metrics.find('gateway_db_pool_connections', { state: 'total' });
    if (dialect === 'postgres') {
      expect(total).toHaveLength(1);
      expect(total[0]?.value).toBeGreaterThanOrEqual(1);
      expect(metrics.find('gateway_db_pool_connections', { state: 'waiting' })).toHaveLength(1);
    } else {
      expect(total).toEqual([]);
    }
  });
});

describe('/metrics exposure', () => {
  it('does not exist without a token or a port (404, the API error body)', async () => {
    const t = await startTestGateway('sqlite');
    try {
      expectErrorBody(await t.call('GET', '/metrics'), 404, 'not_found');
      expectErrorBody(
        await t.call('GET', '/metrics', { headers: { Authorization: `Bearer ${TOKEN}` } }),
        404,
        'not_found',
      );
      expect(t.gateway.metricsUrl).toBeUndefined();
    } finally {
      await t.close();
    }
  });

  it('with a metrics port, serves /metrics only there, behind the token', async () => {
    const t = await startTestGateway('sqlite', { env: { GATEWAY_METRICS_PORT: '0', GATEWAY_METRICS_TOKEN: TOKEN } });
    try {
      const metricsUrl = t.gateway.metricsUrl;
      if (metricsUrl === undefined) throw new Error('no metrics listener');
      expect(metricsUrl).not.toBe(t.url);
      expectErrorBody(
        await t.call('GET', '/metrics', { headers: { Authorization: `Bearer ${TOKEN}` } }),
        404,
        'not_found',
      );
      expect((await fetch(`${metricsUrl}/metrics`)).status).toBe(401);
      expect((await fetch(`${metricsUrl}/api/v1/payments`)).status).toBe(404);
      await t.call('GET', '/health');
      const metrics = await scrape(`${metricsUrl}/metrics`, TOKEN);
      expect(metrics.value('gateway_http_requests_total', { route: '/health', status: '200' })).toBe(1);
      // A second gateway in this process reports the process's metrics as well.
      expectRuntimeMetrics(metrics, 'gateway_build_info');
    } finally {
      await t.close();
    }
  });

  it('refuses a token too short to be secret', async () => {
    await expect(startTestGateway('sqlite', { env: { GATEWAY_METRICS_TOKEN: 'short' } })).rejects.toThrow(
      /GATEWAY_METRICS_TOKEN must be at least 16 characters/,
    );
  });
});
