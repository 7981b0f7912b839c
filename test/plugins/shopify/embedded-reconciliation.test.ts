/**
 * The embedded app API's reconciliation and data-request routes (`/shopify/api/reconciliation`,
 * `/shopify/api/reconciliation/{id}`, `/shopify/api/data-requests`): what a good session token gets
 * (report and findings shapes, a run in the background, the kept reports, the privacy exports), and
 * the refusals: 401 for a bad or expired token, 409 for a shop without the app, 404 before the shop
 * is connected, and another shop's report never shown.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createConnectToken } from '../../../gateway/connect/connect-token.service.js';
import { MINUTE_MS, toStoredInstant } from '../../../gateway/domain/clock.js';
import { DIALECTS } from '../../support/databases.js';
import { eventually } from '../../support/eventually.js';
import { type BridgeHarness, METHOD, sessionToken, startBridgeHarness } from './bridge-support.js';
import { API_SECRET, install, webhookFixture } from './install-support.js';

// biome-ignore lint/suspicious/noExplicitAny: JSON answers read field by field
type Json = Record<string, any>;

const SHOP = 'recon-shop.myshopify.com';
const OTHER_SHOP = 'recon-other.myshopify.com';
const UNCONNECTED_SHOP = 'recon-unconnected.myshopify.com';
const STRANGER_SHOP = 'recon-stranger.myshopify.com';

const REPORT_KEYS = [
  'connection_id',
  'error',
  'findings',
  'finished_at',
  'from',
  'id',
  'orders_checked',
  'repair',
  'started_at',
  'status',
  'to',
  'trigger',
];
const FINDING_KEYS = [
  'action',
  'advice',
  'detail',
  'kind',
  'order_number',
  'payment_uuid',
  'repairable',
  'store_order_id',
];

describe.each(DIALECTS)('Shopify embedded API: reconciliation and data requests (%s)', (dialect) => {
  let b: BridgeHarness;
  let connectionId: string;
  let from: string;
  let to: string;

  const tokenOf = (shop: string, overrides: Json = {}, secret = API_SECRET) =>
    sessionToken(shop, b.gw.clock.nowMs(), overrides, secret);
  const as = (shop: string) => (method: string, path: string, body?: unknown) =>
    b.api(method, path, body, tokenOf(shop));
  const ROUTES: [string, string, unknown?][] = [
    ['POST', '/reconciliation', { from: '2026-11-01T00:00:00Z', to: '2026-11-02T00:00:00Z' }],
    ['GET', '/reconciliation'],
    ['GET', '/reconciliation/00000000-0000-4000-8000-000000000000'],
    ['GET', '/data-requests'],
  ];

  beforeAll(async () => {
    b = await startBridgeHarness(dialect, SHOP);
    const saved = await b.api('PUT', '/settings', {
      connect_token: b.shopifyToken,
      way: 'manual_bridge',
      manual_method_name: METHOD,
      test_mode: true,
    });
    expect(saved.status, saved.text).toBe(200);
    connectionId = saved.body.connection.connection_id;
    from = toStoredInstant(b.gw.clock.nowMs() - MINUTE_MS);
    to = toStoredInstant(b.gw.clock.nowMs() + 10 * MINUTE_MS);
  }, 60_000);

  afterAll(async () => {
    await b?.close();
  });

  it('refuses a missing, forged, expired, not-yet-valid or foreign session token with 401 on every route', async () => {
    const bad: [string, string | undefined][] = [
      ['none', undefined],
      ['forged', tokenOf(SHOP, {}, 'shpss_not_the_secret')],
      ['expired', tokenOf(SHOP, { exp: Math.floor(b.gw.clock.nowMs() / 1000) - 1 })],
      ['not yet valid', tokenOf(SHOP, { nbf: Math.floor(b.gw.clock.nowMs() / 1000) + 3600 })],
      ['another app', tokenOf(SHOP, { aud: 'another-api-key' })],
      ['no shop', tokenOf(SHOP, { dest: 'https://example.com' })],
    ];
    for (const [method, path, body] of ROUTES) {
      for (const [what, token] of bad) {
        const answer = await b.h.connector.call<Json>(method, `/shopify/api${path}`, {
          headers: token === undefined ? {} : { Authorization: `Bearer ${token}` },
          ...(body === undefined ? {} : { body }),
        });
        expect(answer.status, `${method} ${path} with ${what} token`).toBe(401);
        expect(Object.keys(answer.body).sort()).toEqual(['error', 'message', 'request_id']);
        expect(answer.body.error).toBe('invalid_session_token');
        if (token !== undefined) expect(answer.text).not.toContain(token);
      }
    }
  });

  it('answers 409 shop_not_installed for a shop without the app, and 404 connection_not_found before it is connected', async () => {
    for (const [method, path, body] of ROUTES) {
      const answer = await as(STRANGER_SHOP)(method, path, body);
      expect(answer.status, `${method} ${path}`).toBe(409);
      expect(answer.body.error).toBe('shop_not_installed');
    }
    await install(b.h, UNCONNECTED_SHOP);
    for (const [method, path, body] of ROUTES.slice(0, 3)) {
      const answer = await as(UNCONNECTED_SHOP)(method, path, body);
      expect(answer.status, `${method} ${path}`).toBe(404);
      expect(answer.body.error).toBe('connection_not_found');
    }
    // Data requests need no connection: none yet.
    const exports = await as(UNCONNECTED_SHOP)('GET', '/data-requests');
    expect(exports.status).toBe(200);
    expect(exports.body).toEqual({ data: [] });
  });

  it('POST runs a report with its findings; GET lists it and reads it back', async () => {
    // Paid at the gateway without a webhook (no callback): unpaid in Shopify.
    const createdAt = toStoredInstant(b.gw.clock.nowMs());
    const unpaid = b.admin.addOrder({ total: '3000.00', gateway: METHOD, createdAt });
    const direct = await b.gw.call<Json>('POST', '/api/v1/payments', {
      headers: { 'X-Service-Connect': b.shopifyToken },
      body: { amount: 3000, order_id: `sh-${connectionId}-${unpaid.id}`, return_url: `https://${SHOP}/done` },
    });
    expect(direct.status, direct.text).toBe(201);
    await b.pay(direct.body.uuid);
    // Paid in Shopify by hand, nothing at the gateway.
    const paidHere = b.admin.addOrder({ total: '4000.00', gateway: METHOD, createdAt, paid: true });

    const report = await b.api('POST', '/reconciliation', { from, to });
    expect(report.status, report.text).toBe(201);
    expect(Object.keys(report.body).sort()).toEqual(REPORT_KEYS);
    expect(report.body).toMatchObject({
      connection_id: connectionId,
      status: 'finished',
      error: null,
      trigger: 'plugin',
      repair: false,
      from: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T/),
      to: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T/),
    });
    expect(report.body.orders_checked).toBeGreaterThanOrEqual(2);
    for (const finding of report.body.findings) expect(Object.keys(finding).sort()).toEqual(FINDING_KEYS);
    const of = (id: number) => report.body.findings.filter((f: Json) => f.store_order_id === String(id));
    expect(of(unpaid.id)).toEqual([
      {
        kind: 'paid_at_gateway_unpaid_in_store',
        store_order_id: String(unpaid.id),
        order_number: unpaid.name.replace('#', ''),
        payment_uuid: direct.body.uuid,
        detail: expect.any(String),
        action: 'flagged',
        repairable: true,
        advice: expect.any(String),
      },
    ]);
    expect(of(paidHere.id)).toEqual([
      expect.objectContaining({ kind: 'paid_in_store_not_at_gateway', action: 'flagged', repairable: false }),
    ]);
    expect(b.admin.financialStatus(unpaid)).toBe('PENDING');

    const listed = await b.api('GET', '/reconciliation?trigger=plugin&limit=5');
    expect(listed.status).toBe(200);
    expect(listed.body.data[0]).toEqual(report.body);
    const read = await b.api('GET', `/reconciliation/${report.body.id}`);
    expect(read.status).toBe(200);
    expect(read.body).toEqual(report.body);

    // With repair: the unpaid order is marked paid; the other stays flagged.
    const repaired = await b.api('POST', '/reconciliation', { from, to, repair: true });
    expect(repaired.status).toBe(201);
    expect(repaired.body.findings.filter((f: Json) => f.store_order_id === String(unpaid.id))).toEqual([
      expect.objectContaining({ action: 'repaired', repairable: false, payment_uuid: direct.body.uuid }),
    ]);
    expect(b.admin.financialStatus(unpaid)).toBe('PAID');
  });

  it('POST with wait: false answers 202 with the running run, finished later; bad bodies and ids are refused', async () => {
    const started = await b.api('POST', '/reconciliation', { from, to, wait: false });
    expect(started.status, started.text).toBe(202);
    expect(started.body).toMatchObject({ connection_id: connectionId, status: 'running', finished_at: null });
    await eventually(
      async () => (await b.api('GET', `/reconciliation/${started.body.id}`)).body.status === 'finished',
      'the background run to finish',
    );

    const backwards = await b.api('POST', '/reconciliation', { from: to, to: from });
    expect(backwards.status).toBe(422);
    expect(backwards.body.error).toBe('validation_failed');
    const unknown = await b.api('GET', '/reconciliation/00000000-0000-4000-8000-000000000000');
    expect(unknown.status).toBe(404);
    expect(unknown.body.error).toBe('not_found');
  });

  it("never shows one shop's reports to another shop", async () => {
    const other = await b.gw.merchant({ domains: [OTHER_SHOP], verifyDomains: true });
    const token = (
      await createConnectToken(b.gw.gateway.deps, {
        merchantId: other.merchantId,
        domain: OTHER_SHOP,
        platform: 'shopify',
      })
    ).connect_token;
    await install(b.h, OTHER_SHOP);
    const saved = await as(OTHER_SHOP)('PUT', '/settings', {
      connect_token: token,
      way: 'manual_bridge',
      manual_method_name: METHOD,
      test_mode: true,
    });
    expect(saved.status, saved.text).toBe(200);
    const mine = await b.api('POST', '/reconciliation', { from, to });
    expect(mine.status).toBe(201);

    const peek = await as(OTHER_SHOP)('GET', `/reconciliation/${mine.body.id}`);
    expect(peek.status).toBe(404);
    const theirs = await as(OTHER_SHOP)('GET', '/reconciliation');
    expect(theirs.status).toBe(200);
    expect(theirs.body.data.map((r: Json) => r.id)).not.toContain(mine.body.id);
    expect(theirs.body.data.every((r: Json) => r.connection_id === saved.body.connection.connection_id)).toBe(true);
  });

  it('GET /data-requests lists the customers/data_request exports of this shop only', async () => {
    const order = b.admin.addOrder({ total: '5000.00', gateway: METHOD });
    expect((await b.webhook('orders/create', b.orderCreated(order, { total_price: '5000.00' }))).status).toBe(200);
    const request = { ...webhookFixture('customers-data-request', SHOP), orders_requested: [order.id] };
    expect((await b.webhook('customers/data_request', request)).status).toBe(200);

    const answer = await b.api('GET', '/data-requests');
    expect(answer.status).toBe(200);
    expect(answer.body.data).toHaveLength(1);
    const [row] = answer.body.data;
    expect(Object.keys(row).sort()).toEqual(['customer_id', 'data_request_id', 'export', 'id', 'requested_at']);
    expect(row).toMatchObject({ data_request_id: '9999', customer_id: '191167' });
    expect(row.export.orders.map((o: Json) => o.store_order_id)).toEqual([String(order.id)]);
    expect(row.export.orders[0].payments[0]).toMatchObject({ amount: 5000, currency: 'AMD' });
    expect(JSON.stringify(row)).not.toContain('john@example.com');

    const elsewhere = await as(OTHER_SHOP)('GET', '/data-requests');
    expect(elsewhere.status).toBe(200);
    expect(elsewhere.body).toEqual({ data: [] });
  });

  it('answers 409 shop_not_installed once the shop uninstalled the app', async () => {
    const uninstalled = await b.h.fake.sendWebhook({
      url: `${b.h.connector.url}/shopify/webhooks`,
      topic: 'app/uninstalled',
      shop: OTHER_SHOP,
      body: webhookFixture('app-uninstalled', OTHER_SHOP),
    });
    expect(uninstalled.status).toBe(200);
    for (const [method, path, body] of ROUTES) {
      const answer = await as(OTHER_SHOP)(method, path, body);
      expect(answer.status, `${method} ${path}`).toBe(409);
      expect(answer.body.error).toBe('shop_not_installed');
    }
  });
});
