/**
 * The manual-payment bridge when the gateway's webhook does not come as it should: lost for good
 * (the connector was down for the gateway's whole delivery schedule) and caught by polling, or by
 * reconciliation from the app's page; delivered twice or more; delivered out of order; delivered
 * after a connector restart. Each ends in exactly one `orderMarkAsPaid` on the (fake) Shopify order.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { webhookSecretsOf } from '../../../connector/connections/connection-access.js';
import { findConnection } from '../../../connector/storage/connection.repository.js';
import { MINUTE_MS, toStoredInstant } from '../../../gateway/domain/clock.js';
import { deliveryBody } from '../../../gateway/webhooks/dispatcher.js';
import type { EventView } from '../../../gateway/webhooks/event-log.service.js';
import { signatureHeaders } from '../../../gateway/webhooks/signer.js';
import { DIALECTS } from '../../support/databases.js';
import { eventually } from '../../support/eventually.js';
import type { FakeOrder } from '../../support/fake-shopify-admin.js';
import { type BridgeHarness, METHOD, startBridgeHarness } from './bridge-support.js';

const SHOP = 'lost-webhook-shop.myshopify.com';
const DECLINED = '4000 0000 0000 0002';

describe.each(DIALECTS)('Shopify bridge: lost, repeated and reordered gateway webhooks (%s)', (dialect) => {
  let b: BridgeHarness;
  let connectionId: string;

  const deps = () => b.h.connector.current().deps;
  const key = () => b.merchant.testKey;
  const events = async (uuid: string) =>
    (await b.gw.call<{ data: EventView[] }>('GET', `/api/v1/payments/${uuid}/events`, { key: key() })).body.data;
  const deliveries = async (uuid: string) => (await events(uuid)).flatMap((event) => event.deliveries);
  /** The gateway's scheduler runs what became due (retries of deliveries) after the clock moves. */
  const advanceGateway = (seconds: number) =>
    b.gw.call('POST', '/api/v1/test_helpers/clock/advance', { key: key(), body: { seconds } });
  const isPaid = (order: FakeOrder, uuid: string) =>
    b.admin.financialStatus(order) === 'PAID' &&
    order.metafields.get('gateway.payment_uuid') === uuid &&
    (order.note ?? '').includes(`Gateway payment ${uuid}`);
  /** `orderMarkAsPaid(input: {id})` calls for this order. */
  const markCalls = (order: FakeOrder) =>
    b.admin.requests.filter(
      (r) => r.operationName === 'MarkOrderPaid' && r.variables.input?.id === `gid://shopify/Order/${order.id}`,
    ).length;

  /** A new unpaid order of the bridge's method, delivered as orders/create: answers its gateway payment. */
  async function newOrder(createdAt?: string): Promise<{ order: FakeOrder; uuid: string }> {
    const order = b.admin.addOrder({ total: '7000.00', gateway: METHOD, ...(createdAt ? { createdAt } : {}) });
    const created = await b.webhook(
      'orders/create',
      b.orderCreated(order, { total_price: '7000.00', ...(createdAt ? { created_at: createdAt } : {}) }),
    );
    expect(created.status).toBe(200);
    const link = await deps()
      .db.selectFrom('order_links')
      .selectAll()
      .where('connection_id', '=', connectionId)
      .where('store_order_id', '=', String(order.id))
      .executeTakeFirstOrThrow();
    const payment = await deps()
      .db.selectFrom('order_payments')
      .select('uuid')
      .where('link_id', '=', link.id)
      .executeTakeFirstOrThrow();
    return { order, uuid: payment.uuid };
  }

  /** Sends one of the gateway's events to the connector as the gateway would, under `deliveryId`. */
  async function deliver(event: EventView, deliveryId: string) {
    const connection = await findConnection(deps().db, connectionId);
    if (connection === undefined) throw new Error('no connection');
    const ts = Math.floor(b.gw.clock.nowMs() / 1000);
    const raw = deliveryBody(deliveryId, event.body, ts);
    return b.h.connector.call('POST', `/v1/webhooks/gateway/${connectionId}`, {
      rawBody: raw,
      headers: {
        'Content-Type': 'application/json',
        ...signatureHeaders(deliveryId, ts, raw, webhookSecretsOf(deps(), connection) as [string]),
      },
    });
  }

  /** Waits until every delivery of the payment's events has had `attempts` failed attempts. */
  const untilAttemptsFailed = (uuid: string, attempts: number) =>
    eventually(async () => {
      const all = await deliveries(uuid);
      return all.length > 0 && all.every((d) => d.attempts >= attempts && d.last_error !== null);
    }, `delivery attempt ${attempts} of ${uuid} to fail`);

  /**
   * The connector is down while the buyer pays and for the gateway's whole delivery schedule (now,
   * then 1, 5 and 30 minutes later): the deliveries fail for good. Then the connector starts again.
   */
  async function loseWebhooks(uuid: string) {
    await b.h.connector.stop();
    expect((await b.pay(uuid)).body.status).toBe('completed');
    await untilAttemptsFailed(uuid, 1);
    for (const [seconds, attempts] of [
      [60, 2],
      [5 * 60, 3],
      [30 * 60, 4],
    ] as const) {
      await advanceGateway(seconds);
      await untilAttemptsFailed(uuid, attempts);
    }
    expect((await deliveries(uuid)).map((d) => d.status)).toEqual(['failed']);
    await b.h.connector.start();
  }

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
  }, 60_000);

  afterAll(async () => {
    await b?.close();
  });

  it('a webhook lost for good: the polling job marks the order paid once', async () => {
    // Created long before the reconciliation window (the job's runs cover the last day): only
    // polling can find this payment.
    const { order, uuid } = await newOrder('2026-05-01T10:00:00Z');
    await loseWebhooks(uuid);
    expect(b.admin.financialStatus(order)).toBe('PENDING');
    expect(markCalls(order)).toBe(0);

    await b.h.connector.runDueWork();
    expect(isPaid(order, uuid)).toBe(true);
    expect(markCalls(order)).toBe(1);
    // Polling learned it long after it happened: the connection's webhooks are reported missing.
    const connection = await findConnection(deps().db, connectionId);
    expect(connection?.last_missed_webhook_at).not.toBeNull();

    b.gw.clock.advance(10 * MINUTE_MS);
    await b.h.connector.runDueWork();
    expect(markCalls(order)).toBe(1);
  });

  it('a webhook lost for good: reconciliation with repair from the app page marks the order paid once', async () => {
    const createdAt = toStoredInstant(b.gw.clock.nowMs());
    const { order, uuid } = await newOrder(createdAt);
    await loseWebhooks(uuid);
    expect(markCalls(order)).toBe(0);

    const from = toStoredInstant(Date.parse(createdAt) - MINUTE_MS);
    const to = toStoredInstant(b.gw.clock.nowMs() + MINUTE_MS);
    const report = await b.api('POST', '/reconciliation', { from, to, repair: true });
    expect(report.status, report.text).toBe(201);
    const findings = report.body.findings.filter(
      (f: { store_order_id: string }) => f.store_order_id === String(order.id),
    );
    expect(findings).toEqual([
      expect.objectContaining({ kind: 'paid_at_gateway_unpaid_in_store', action: 'repaired', payment_uuid: uuid }),
    ]);
    expect(isPaid(order, uuid)).toBe(true);
    expect(markCalls(order)).toBe(1);

    // Polling, the job's own reconciliation and a second run all find it paid.
    await b.h.connector.runDueWork();
    const again = await b.api('POST', '/reconciliation', { from, to, repair: true });
    expect(again.status).toBe(201);
    expect(again.body.findings.some((f: { store_order_id: string }) => f.store_order_id === String(order.id))).toBe(
      false,
    );
    expect(markCalls(order)).toBe(1);
  });

  it('the same delivery twice and another delivery of the same event: marked paid once', async () => {
    const { order, uuid } = await newOrder();
    await b.pay(uuid);
    await eventually(() => isPaid(order, uuid), 'the order to be marked paid');
    const [completed] = (await events(uuid)).filter((e) => e.body.transaction.status === 'completed');
    if (completed === undefined) throw new Error('no completed event');
    const first = await deliver(completed, `dup-${uuid}-1`);
    const repeat = await deliver(completed, `dup-${uuid}-1`);
    const other = await deliver(completed, `dup-${uuid}-2`);
    for (const answer of [first, repeat, other]) expect(answer.status, answer.text).toBe(200);
    expect(repeat.body).toMatchObject({ received: true, outcome: 'duplicate' });
    await deps().background.idle();
    expect(markCalls(order)).toBe(1);
    // Shopify retries orders/create after the order was paid: no new payment, no second mark.
    expect((await b.webhook('orders/create', b.orderCreated(order, { total_price: '7000.00' }))).status).toBe(200);
    await deps().background.idle();
    const links = await deps()
      .db.selectFrom('order_payments')
      .innerJoin('order_links', 'order_links.id', 'order_payments.link_id')
      .select('order_payments.uuid')
      .where('order_links.store_order_id', '=', String(order.id))
      .execute();
    expect(links).toEqual([{ uuid }]);
    expect(markCalls(order)).toBe(1);
  });

  it('a declined attempt and its late confirmation delivered newest first: marked paid once, not undone', async () => {
    const { order, uuid } = await newOrder();
    await b.h.connector.stop();
    expect((await b.pay(uuid, DECLINED)).body.status).toBe('failed');
    const confirmed = await b.gw.call<{ status: string }>('POST', `/api/v1/test_helpers/payments/${uuid}/confirm`, {
      key: key(),
    });
    expect(confirmed.body.status).toBe('completed');
    await eventually(async () => (await events(uuid)).length >= 2, 'both events');
    await untilAttemptsFailed(uuid, 1);
    await b.h.connector.start();

    const byAge = (await events(uuid)).sort((x, y) => Date.parse(x.created_at) - Date.parse(y.created_at));
    expect(byAge.map((e) => e.body.transaction.status)).toEqual(['failed', 'completed']);
    const [older, newer] = byAge as [EventView, EventView];
    expect((await deliver(newer, `reordered-${uuid}-new`)).status).toBe(200);
    await eventually(() => isPaid(order, uuid), 'the order to be marked paid');
    expect((await deliver(older, `reordered-${uuid}-old`)).status).toBe(200);
    await deps().background.idle();
    expect(isPaid(order, uuid)).toBe(true);
    expect(order.note ?? '').not.toMatch(/failed/i);

    // The gateway's own retries arrive later still: nothing changes.
    await advanceGateway(60);
    await eventually(
      async () => (await deliveries(uuid)).every((d) => d.status === 'delivered'),
      "the gateway's retries to be delivered",
    );
    await deps().background.idle();
    expect(markCalls(order)).toBe(1);
  });

  it('a connector restart between the payment and its webhook: the retried delivery marks the order paid once', async () => {
    const { order, uuid } = await newOrder();
    await b.h.connector.stop();
    await b.pay(uuid);
    await untilAttemptsFailed(uuid, 1);
    await b.h.connector.start();
    expect(markCalls(order)).toBe(0);

    await advanceGateway(60);
    await eventually(() => isPaid(order, uuid), 'the retried delivery to mark the order paid');
    expect((await deliveries(uuid)).map((d) => d.status)).toEqual(['delivered']);
    await b.h.connector.runDueWork();
    expect(markCalls(order)).toBe(1);
  });
});
