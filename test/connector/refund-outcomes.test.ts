/**
 * A refund started in the store whose outcome is not known is never sent twice, on both databases.
 * The connector answers it 202 `pending` (so the store keeps its refund and its id), asks about the
 * same refund until the gateway knows, and then: keeps it (succeeded), or takes it back out of the
 * store with a note (failed), so what the store shows refunded is what the gateway refunded.
 *
 * - The processor does not answer (sandbox card ending 5142): 202 pending, a retry of the same store
 *   refund sends nothing new, the check a minute later finds it refunded, and its webhook is
 *   recognised as the store's own refund.
 * - The gateway's answer is lost on the way back: 202 pending with no refund uuid yet; the check asks
 *   again under the same idempotency key and learns the one refund.
 * - The gateway says the outcome is unknown, then that the refund failed: the store's refund is
 *   deleted and the order says why.
 * - A refund made at the gateway while a store refund is still in doubt is recorded in the store in
 *   full: the refund in doubt is no cover for it, so once that one fails and is taken back, the
 *   store's refunded total is the gateway's.
 * - A store refund that failed (taken back out of the store) is never taken for a later gateway
 *   refund of the same amount: that refund is recorded in the store.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { OrderPaymentResponse } from '../../connector/orders/order.service.js';
import { closeConnectedWooStore, startConnectedWooStore } from '../support/connected-woo-store.js';
import type { TestConnector } from '../support/connector.js';
import { DIALECTS } from '../support/databases.js';
import { eventually } from '../support/eventually.js';
import type { FakeWooCommerce } from '../support/fake-woocommerce.js';
import type { TestGateway, TestMerchant } from '../support/gateway.js';

type Json = Record<string, unknown>;
const UNKNOWN_CARD = '4000 0000 0000 5142';
const APPROVED = '4111 1111 1111 1111';

describe.each(DIALECTS)('store refunds whose outcome is unknown (%s)', (dialect) => {
  let gw: TestGateway;
  let store: FakeWooCommerce;
  let connector: TestConnector;
  let merchant: TestMerchant;
  let token: string;
  /** What the connector's next refund call to the gateway meets, when set. */
  let onRefund: ((request: Request, forward: () => Promise<Response>) => Promise<Response>) | null = null;
  /** Refund statuses the gateway's refund list answers instead of its own, by refund uuid. */
  const listedAs = new Map<string, { payment: string; amount: number; status: string }>();

  const gatewayFetch: typeof fetch = async (input, init) => {
    const request = new Request(input, init);
    const path = new URL(request.url).pathname;
    const forward = () => fetch(input, init);
    if (request.method === 'POST' && path.endsWith('/refund') && onRefund !== null) {
      const handler = onRefund;
      onRefund = null;
      return handler(request, forward);
    }
    const listed = /^\/api\/v1\/payments\/([^/]+)\/refunds$/.exec(path);
    if (request.method === 'GET' && listed !== null) {
      const own = [...listedAs.entries()].filter(([, r]) => r.payment === listed[1]);
      if (own.length > 0) {
        const data = own.map(([uuid, r]) => ({
          uuid,
          payment_uuid: r.payment,
          amount: r.amount,
          reason: null,
          status: r.status,
          failure_code: r.status === 'failed' ? 'refund_declined' : null,
          created_at: '2026-11-21T10:00:00+00:00',
          completed_at: null,
        }));
        return Response.json({ data });
      }
    }
    return forward();
  };

  const plugin = <T = Json>(method: string, path: string, body?: unknown) =>
    connector.call<T>(method, path, { token, ...(body === undefined ? {} : { body }) });
  const gatewayRefunds = async (uuid: string) =>
    (await gw.call<{ data: Json[] }>('GET', `/api/v1/payments/${uuid}/refunds`, { key: merchant.testKey })).body.data;
  const refundRecords = (linkPayment: string) =>
    connector
      .current()
      .deps.db.selectFrom('refund_records')
      .innerJoin('order_links', 'order_links.id', 'refund_records.link_id')
      .select(['refund_records.status', 'refund_records.gateway_refund_uuid', 'refund_records.store_refund_id'])
      .where('order_links.paid_payment_uuid', '=', linkPayment)
      .execute();

  async function paidOrder(total: number, card: string): Promise<{ orderId: number; payment: string }> {
    const order = store.addOrder({ total: `${total}.00` });
    const created = await plugin<OrderPaymentResponse>('POST', `/v1/orders/${order.id}/payment`, {
      return_url: `${store.url}/?wc-api=wc_armenian_gateway&order_id=${order.id}`,
      cancel_url: `${store.url}/cart/`,
    });
    expect(created.status).toBe(201);
    const paid = await gw.call('POST', `/api/v1/test_helpers/payments/${created.body.payment_uuid}/pay`, {
      key: merchant.testKey,
      body: { card_number: card },
    });
    expect(paid.body.status).toBe('completed');
    await eventually(() => store.order(order.id)?.date_paid_gmt != null, `order ${order.id} marked paid`);
    return { orderId: order.id, payment: created.body.payment_uuid };
  }

  /** The owner refunds in WooCommerce: its refund object first, then the plugin's call. */
  async function ownerRefunds(orderId: number, amount: number) {
    const wcRefund = store.adminRefund(orderId, { amount: `${amount}.00`, reason: 'returned' });
    const answer = await plugin<Json>('POST', `/v1/orders/${orderId}/refunds`, {
      amount,
      reason: 'returned',
      store_refund_id: String(wcRefund.id),
    });
    return { wcRefund, answer };
  }

  const storeRefunded = (orderId: number) =>
    store.refunds(orderId).reduce((sum, refund) => sum + Math.round(Math.abs(Number(refund.amount))), 0);

  beforeAll(async () => {
    ({ gw, store, connector, merchant, token } = await startConnectedWooStore(dialect, { gatewayFetch }));
  }, 60_000);

  afterAll(async () => closeConnectedWooStore({ connector, store, gw }));

  it('keeps a refund the processor did not answer, never sends it again, and keeps it once it succeeded', async () => {
    const { orderId, payment } = await paidOrder(3000, UNKNOWN_CARD);
    const { wcRefund, answer } = await ownerRefunds(orderId, 600);
    expect(answer.status, JSON.stringify(answer.body)).toBe(202);
    expect(answer.body).toMatchObject({ status: 'pending', amount: 600, payment_uuid: payment });
    const refundUuid = String(answer.body.refund_uuid);
    expect(await gatewayRefunds(payment)).toEqual([expect.objectContaining({ uuid: refundUuid, status: 'unknown' })]);

    // The plugin retries the same store refund: the same one, nothing new at the gateway.
    const retried = await plugin<Json>('POST', `/v1/orders/${orderId}/refunds`, {
      amount: 600,
      reason: 'returned',
      store_refund_id: String(wcRefund.id),
    });
    expect([201, 202]).toContain(retried.status);
    expect(await gatewayRefunds(payment)).toHaveLength(1);

    // A minute later the gateway's status check finds it refunded, and so does the connector's.
    gw.clock.advance(60_000);
    await gw.gateway.scheduler.runDueNow();
    gw.clock.advance(60_000);
    await connector.runDueWork();
    await eventually(async () => (await refundRecords(payment))[0]?.status === 'succeeded', 'the refund settled');
    expect(await refundRecords(payment)).toEqual([
      { status: 'succeeded', gateway_refund_uuid: refundUuid, store_refund_id: String(wcRefund.id) },
    ]);
    expect(await gatewayRefunds(payment)).toEqual([expect.objectContaining({ uuid: refundUuid, status: 'succeeded' })]);
    // Its webhook is the store's own refund: nothing more recorded in the store.
    await eventually(async () => {
      const events = await gw.call<{ data: { event: string; deliveries: { status: string }[] }[] }>(
        'GET',
        `/api/v1/payments/${payment}/events`,
        { key: merchant.testKey },
      );
      return events.body.data.some(
        (e) => e.event === 'payment.refunded' && e.deliveries.every((d) => d.status === 'delivered'),
      );
    }, 'the refund webhook delivered');
    expect(store.refunds(orderId)).toHaveLength(1);
    expect(storeRefunded(orderId)).toBe(600);
  });

  it('learns the one refund made when the gateway answer was lost on the way back', async () => {
    const { orderId, payment } = await paidOrder(2000, APPROVED);
    onRefund = async (_request, forward) => {
      await forward(); // the gateway refunds...
      throw new TypeError('fetch failed'); // ...but its answer never arrives
    };
    const { answer } = await ownerRefunds(orderId, 500);
    expect(answer.status, JSON.stringify(answer.body)).toBe(202);
    expect(answer.body).toMatchObject({ status: 'pending', refund_uuid: null });
    const made = await gatewayRefunds(payment);
    expect(made).toEqual([expect.objectContaining({ amount: 500, status: 'succeeded' })]);

    gw.clock.advance(60_000);
    await connector.runDueWork();
    await eventually(async () => (await refundRecords(payment))[0]?.status === 'succeeded', 'the refund settled');
    expect((await refundRecords(payment))[0]?.gateway_refund_uuid).toBe(made[0]?.uuid);
    expect(await gatewayRefunds(payment)).toHaveLength(1);
    expect(storeRefunded(orderId)).toBe(500);
  });

  it('takes a refund that then failed back out of the store, and says why on the order', async () => {
    const { orderId, payment } = await paidOrder(2500, APPROVED);
    const unknownUuid = randomUUID();
    onRefund = async () =>
      Response.json(
        {
          error: 'refund_outcome_unknown',
          message: 'The processor did not answer.',
          request_id: 'req_test',
          docs_url: 'http://gateway.test/docs/errors#refund_outcome_unknown',
          refund: { uuid: unknownUuid, payment_uuid: payment, amount: 700, status: 'unknown' },
        },
        { status: 409 },
      );
    const { answer } = await ownerRefunds(orderId, 700);
    expect(answer.status, JSON.stringify(answer.body)).toBe(202);
    expect(answer.body).toMatchObject({ status: 'pending', refund_uuid: unknownUuid });
    expect(storeRefunded(orderId)).toBe(700);

    // Still unknown at the first check; failed at the next.
    listedAs.set(unknownUuid, { payment, amount: 700, status: 'unknown' });
    gw.clock.advance(60_000);
    await connector.runDueWork();
    expect((await refundRecords(payment))[0]?.status).toBe('unknown');
    listedAs.set(unknownUuid, { payment, amount: 700, status: 'failed' });
    gw.clock.advance(5 * 60_000);
    await connector.runDueWork();
    await eventually(async () => (await refundRecords(payment))[0]?.status === 'failed', 'the refund settled failed');
    expect(store.refunds(orderId)).toEqual([]);
    expect(storeRefunded(orderId)).toBe(0);
    const notes = store.notes(orderId).filter((n) => n.note.includes('did not go through'));
    expect(notes).toHaveLength(1);
    expect(notes[0]?.note).toContain('700 AMD');
    expect(notes[0]?.note).toContain('the payment processor refused it');
    // Checked again, nothing more happens.
    gw.clock.advance(60 * 60_000);
    await connector.runDueWork();
    expect(store.notes(orderId).filter((n) => n.note.includes('did not go through'))).toHaveLength(1);
  });

  it('records a gateway refund in full while a store refund is in doubt, which then fails', async () => {
    const { orderId, payment } = await paidOrder(3000, APPROVED);
    const unknownUuid = randomUUID();
    onRefund = async () =>
      Response.json(
        {
          error: 'refund_outcome_unknown',
          message: 'The processor did not answer.',
          request_id: 'req_test',
          docs_url: 'http://gateway.test/docs/errors#refund_outcome_unknown',
          refund: { uuid: unknownUuid, payment_uuid: payment, amount: 700, status: 'unknown' },
        },
        { status: 409 },
      );
    const { answer } = await ownerRefunds(orderId, 700);
    expect(answer.status, JSON.stringify(answer.body)).toBe(202);
    listedAs.set(unknownUuid, { payment, amount: 700, status: 'unknown' });

    // Meanwhile the owner refunds 500 at the gateway itself: the store records all 500.
    const direct = await gw.call<Json>('POST', `/api/v1/payments/${payment}/refund`, {
      key: merchant.testKey,
      body: { amount: 500, reason: 'damaged' },
      headers: { 'Idempotency-Key': `direct-${orderId}` },
    });
    expect(direct.status, direct.text).toBe(201);
    await eventually(() => storeRefunded(orderId) === 1200, 'the gateway refund recorded in the store');

    // The refund in doubt fails: taken back, and the store shows what the gateway refunded.
    listedAs.set(unknownUuid, { payment, amount: 700, status: 'failed' });
    gw.clock.advance(60_000);
    await connector.runDueWork();
    await eventually(() => storeRefunded(orderId) === 500, 'the failed refund taken back');
    const atGateway = await gw.call<Json>('GET', `/api/v1/payments/${payment}`, { key: merchant.testKey });
    expect(atGateway.body.refunded_amount).toBe(500);
  });

  it('says the gateway refused a store refund in doubt that was more than the payment had left', async () => {
    const { orderId, payment } = await paidOrder(2000, APPROVED);
    // The owner refunds 1500 at the gateway itself while the connector is down: the store does not know yet.
    await connector.stop();
    const direct = await gw.call<Json>('POST', `/api/v1/payments/${payment}/refund`, {
      key: merchant.testKey,
      body: { amount: 1500, reason: 'damaged' },
      headers: { 'Idempotency-Key': `direct-${orderId}` },
    });
    expect(direct.status, direct.text).toBe(201);
    await gw.gateway.scheduler.runDueNow();
    await connector.start();
    // Then refunds 1000 in the store, whose request never reaches the gateway.
    onRefund = async () => {
      throw new TypeError('fetch failed');
    };
    const { answer } = await ownerRefunds(orderId, 1000);
    expect(answer.status, JSON.stringify(answer.body)).toBe(202);
    // Asked again, it is more than is left: the gateway refuses it (not the processor), and the store
    // refund is taken back with a note saying so.
    gw.clock.advance(60_000);
    await connector.runDueWork();
    await eventually(async () => (await refundRecords(payment))[0]?.status === 'failed', 'the refund settled failed');
    const notes = store.notes(orderId).filter((n) => n.note.includes('did not go through'));
    expect(notes).toHaveLength(1);
    expect(notes[0]?.note).toContain('The refund of 1000 AMD did not go through: the gateway refused it (');
    expect(notes[0]?.note).not.toContain('processor');
    expect(await gatewayRefunds(payment)).toEqual([expect.objectContaining({ amount: 1500, status: 'succeeded' })]);
    // The gateway's own refund reaches the store when its webhook is retried.
    gw.clock.advance(60 * 60_000);
    await gw.gateway.scheduler.runDueNow();
    await eventually(() => storeRefunded(orderId) === 1500, 'the gateway refund recorded in the store');
  });

  it('records a later gateway refund of the same amount as a store refund that failed', async () => {
    const { orderId, payment } = await paidOrder(2000, APPROVED);
    onRefund = async () => {
      throw new TypeError('fetch failed'); // the request never reaches the gateway
    };
    const { answer } = await ownerRefunds(orderId, 700);
    expect(answer.status, JSON.stringify(answer.body)).toBe(202);
    expect(answer.body).toMatchObject({ refund_uuid: null });
    // Asked again a minute later, the gateway refuses it: taken back out of the store.
    onRefund = async () =>
      Response.json(
        {
          error: 'refund_declined',
          message: 'The processor declined the refund.',
          request_id: 'req_test',
          docs_url: 'http://gateway.test/docs/errors#refund_declined',
        },
        { status: 422 },
      );
    gw.clock.advance(60_000);
    await connector.runDueWork();
    await eventually(async () => (await refundRecords(payment))[0]?.status === 'failed', 'the refund settled failed');
    expect(storeRefunded(orderId)).toBe(0);
    expect(store.notes(orderId).filter((n) => n.note.includes('did not go through'))).toEqual([
      expect.objectContaining({ note: expect.stringContaining('the payment processor refused it') }),
    ]);

    // The owner then refunds 700 at the gateway itself: the store records it.
    const direct = await gw.call<Json>('POST', `/api/v1/payments/${payment}/refund`, {
      key: merchant.testKey,
      body: { amount: 700, reason: 'damaged' },
      headers: { 'Idempotency-Key': `direct-${orderId}` },
    });
    expect(direct.status, direct.text).toBe(201);
    await eventually(() => storeRefunded(orderId) === 700, 'the gateway refund recorded in the store');
    expect((await refundRecords(payment)).map((r) => r.status).sort()).toEqual(['failed', 'succeeded']);
  });
});
