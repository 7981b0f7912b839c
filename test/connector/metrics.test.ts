/**
 * The connector's `/metrics` and `/ready` over real HTTP on both databases, with a real gateway and
 * a fake WooCommerce store: the figures move when the connector calls the gateway and the store,
 * marks an order paid and runs a reconciliation; the process's and Node.js runtime's metrics and
 * the build's version are there beside them; `/ready` answers 503 when a migration is missing.
 */
import { readFileSync } from 'node:fs';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createConnectToken } from '../../gateway/connect/connect-token.service.js';
import { startTestConnector, type TestConnector } from '../support/connector.js';
import { DIALECTS } from '../support/databases.js';
import { eventually } from '../support/eventually.js';
import { type FakeWooCommerce, LOOPBACK_TEST_CALLBACKS, startFakeWooCommerce } from '../support/fake-woocommerce.js';
import { startTestGateway, type TestGateway, type TestMerchant } from '../support/gateway.js';
import { type Scrape, scrape } from '../support/prometheus.js';

const TOKEN = 'connector-metrics-token-0123456789';

describe.each(DIALECTS)('connector metrics and readiness (%s)', (dialect) => {
  let gw: TestGateway;
  let store: FakeWooCommerce;
  let connector: TestConnector;
  let merchant: TestMerchant;
  let token: string;

  const plugin = <T = Record<string, unknown>>(method: string, path: string, body?: unknown) =>
    connector.call<T>(method, path, { token, ...(body === undefined ? {} : { body }) });
  const read = (): Promise<Scrape> => scrape(`${connector.url}/metrics`, TOKEN);

  beforeAll(async () => {
    gw = await startTestGateway(dialect, { env: { GATEWAY_ALLOW_PRIVATE_WEBHOOKS: '1' } });
    store = await startFakeWooCommerce({ testCallbacks: LOOPBACK_TEST_CALLBACKS });
    connector = await startTestConnector(dialect, gw, { env: { CONNECTOR_METRICS_TOKEN: TOKEN } });
    merchant = await gw.merchant();
    token = (
      await createConnectToken(gw.gateway.deps, {
        merchantId: merchant.merchantId,
        domain: merchant.hostedDomain,
        platform: 'woocommerce',
      })
    ).connect_token;
    const registered = await plugin<{ authorize_url: string }>('POST', '/v1/connections', { store_url: store.url });
    expect(registered.status).toBe(201);
    await store.approve(registered.body.authorize_url);
  }, 60_000);

  afterAll(async () => {
    await connector?.close();
    await store?.close();
    await gw?.close();
  });

  it('refuses a scrape without the token', async () => {
    const answer = await fetch(`${connector.url}/metrics`);
    expect(answer.status).toBe(401);
    expect(await answer.text()).not.toContain('connector_');
  });

  it("reports the process's and Node.js runtime's metrics and the build's version", async () => {
    const metrics = await read();
    const version = (JSON.parse(readFileSync('package.json', 'utf8')) as { version: string }).version;
    expect(metrics.find('connector_build_info')).toEqual([
      { name: 'connector_build_info', labels: { version }, value: 1 },
    ]);
    expect(Object.fromEntries(metrics.types)).toMatchObject({
      process_cpu_seconds_total: 'counter',
      process_resident_memory_bytes: 'gauge',
      nodejs_heap_size_used_bytes: 'gauge',
      nodejs_eventloop_lag_seconds: 'gauge',
      nodejs_gc_duration_seconds: 'histogram',
    });
    expect(metrics.find('nodejs_version_info')[0]?.labels.version).toBe(process.version);
    expect(metrics.value('process_resident_memory_bytes')).toBeGreaterThan(10 * 1024 * 1024);
  });

  it('counts the gateway call, the store calls and the mark of a paid order', async () => {
    const before = await read();
    const order = store.addOrder({ total: '1500.00' });
    const created = await plugin<{ payment_uuid: string }>('POST', `/v1/orders/${order.id}/payment`, {
      return_url: `${store.url}/done`,
      cancel_url: `${store.url}/cancel`,
    });
    expect(created.status).toBe(201);
    const paid = await gw.call('POST', `/api/v1/test_helpers/payments/${created.body.payment_uuid}/pay`, {
      key: merchant.testKey,
      body: { card_number: '4111 1111 1111 1111' },
    });
    expect(paid.status).toBe(200);
    await eventually(() => store.order(order.id)?.date_paid_gmt != null, 'the order marked paid');
    let after = before;
    await eventually(async () => {
      after = await read();
      return (
        after.value('connector_orders_marked_paid_total', { platform: 'woocommerce' }) >
        before.value('connector_orders_marked_paid_total', { platform: 'woocommerce' })
      );
    }, 'the mark counted');
    const delta = (name: string, labels: Record<string, string>) =>
      after.value(name, labels) - before.value(name, labels);
    expect(delta('connector_orders_marked_paid_total', { platform: 'woocommerce' })).toBe(1);
    expect(
      delta('connector_store_calls_total', { platform: 'woocommerce', operation: 'markPaid', outcome: 'ok' }),
    ).toBe(1);
    expect(delta('connector_gateway_calls_total', { operation: 'createPayment', outcome: 'ok' })).toBe(1);
    expect(delta('connector_gateway_call_duration_seconds_count', { operation: 'createPayment' })).toBe(1);
    expect(
      delta('connector_http_requests_total', { method: 'POST', route: '/v1/orders/:order_id/payment', status: '201' }),
    ).toBe(1);
    const routes = after.find('connector_http_requests_total').map((sample) => sample.labels.route);
    expect(routes.some((route) => route?.includes(String(order.id)))).toBe(false);
  });

  it('counts a reconciliation run and its findings by kind', async () => {
    const before = await read();
    store.addOrder({ total: '1300.00', date_paid_gmt: '2026-11-21T10:00:00', status: 'processing' });
    const from = new Date(Date.now() - 3_600_000).toISOString();
    const to = new Date(Date.now() + 60_000).toISOString();
    const report = await plugin<{ findings: { kind: string }[] }>('POST', '/v1/reconciliation', { from, to });
    expect(report.status, JSON.stringify(report.body)).toBe(201);
    const after = await read();
    const delta = (name: string, labels: Record<string, string>) =>
      after.value(name, labels) - before.value(name, labels);
    expect(delta('connector_reconciliation_runs_total', { trigger: 'plugin', status: 'finished' })).toBe(1);
    const manual = report.body.findings.filter((f) => f.kind === 'paid_in_store_not_at_gateway').length;
    expect(manual).toBeGreaterThanOrEqual(1);
    expect(delta('connector_reconciliation_findings_total', { kind: 'paid_in_store_not_at_gateway' })).toBe(manual);
    expect(
      delta('connector_store_calls_total', { platform: 'woocommerce', operation: 'listOrders', outcome: 'ok' }),
    ).toBe(1);
  });

  it('answers /ready 200 when migrated, 503 migrations_pending when a migration is missing', async () => {
    expect((await connector.call('GET', '/ready')).body).toEqual({ status: 'ok', database: dialect });
    const db = connector.current().deps.db;
    const [last] = (
      await sql<{ name: string }>`select name from connector_migration order by name desc limit 1`.execute(db)
    ).rows;
    if (last === undefined) throw new Error('no migration recorded');
    await sql`delete from connector_migration where name = ${last.name}`.execute(db);
    try {
      const ready = await connector.call('GET', '/ready');
      expect(ready.status).toBe(503);
      expect(ready.body).toMatchObject({
        error: 'service_unavailable',
        reason: 'migrations_pending',
        pending_migrations: [last.name],
      });
      expect((await connector.call('GET', '/health')).status).toBe(200);
    } finally {
      await sql`insert into connector_migration (name, timestamp) values (${last.name}, ${'2026-11-21T10:00:00.000Z'})`.execute(
        db,
      );
    }
    expect((await connector.call('GET', '/ready')).status).toBe(200);
  });
});

describe('connector /metrics without a token', () => {
  it('does not exist (404)', async () => {
    const gw = await startTestGateway('sqlite');
    const connector = await startTestConnector('sqlite', gw);
    try {
      const answer = await connector.call('GET', '/metrics');
      expect(answer.status).toBe(404);
      expect(answer.body.error).toBe('not_found');
      expect(connector.current().metricsUrl).toBeUndefined();
    } finally {
      await connector.close();
      await gw.close();
    }
  });
});
