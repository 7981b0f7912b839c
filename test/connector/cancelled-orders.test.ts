/**
 * Cancelled orders at the seam between a WooCommerce store and the gateway, on both databases:
 *
 * - The store cancels an order with an open payment (`POST /v1/orders/{id}/cancel`): the payment is
 *   cancelled at the gateway, so opening its checkout again can no longer take the money.
 * - A payment that still completes for a cancelled order (the buyer was paying meanwhile) is never
 *   forced onto the order, never retried for ever: it is flagged `paid_after_cancel` with one note
 *   saying what to do, reconciliation reports it without offering a repair, and once the owner sets
 *   the order back to pending payment, "Check now" marks it paid. Once the owner refunds it in full
 *   instead, nothing more is asked: no finding, no attempt to mark it paid.
 */

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { OrderPaymentResponse } from '../../connector/orders/order.service.js';
import { closeConnectedWooStore, startConnectedWooStore } from '../support/connected-woo-store.js';
import type { TestConnector } from '../support/connector.js';
import { DIALECTS } from '../support/databases.js';
import { eventually } from '../support/eventually.js';
import type { FakeWooCommerce } from '../support/fake-woocommerce.js';
import type { TestGateway, TestMerchant } from '../support/gateway.js';

type Json = Record<string, unknown>;
type Finding = { kind: string; store_order_id: string; action: string; repairable: boolean; detail: string };
const APPROVED = '4111 1111 1111 1111';

describe.each(DIALECTS)('cancelled orders (%s)', (dialect) => {
  let gw: TestGateway;
  let store: FakeWooCommerce;
  let connector: TestConnector;
  let merchant: TestMerchant;
  let token: string;

  const plugin = <T = Json>(method: string, path: string, body?: unknown) =>
    connector.call<T>(method, path, { token, ...(body === undefined ? {} : { body }) });
  const checkout = async (orderId: number) => {
    const created = await plugin<OrderPaymentResponse>('POST', `/v1/orders/${orderId}/payment`, {
      return_url: `${store.url}/?wc-api=wc_armenian_gateway&order_id=${orderId}`,
      cancel_url: `${store.url}/cart/`,
    });
    expect(created.status).toBe(201);
    return created.body;
  };
  const pay = (uuid: string) =>
    gw.call('POST', `/api/v1/test_helpers/payments/${uuid}/pay`, {
      key: merchant.testKey,
      body: { card_number: APPROVED },
    });
  const setPaidCalls = (orderId: number) =>
    store.requests.filter(
      (r) =>
        r.method === 'PUT' && r.route === `orders/${orderId}` && (r.body as { set_paid?: boolean })?.set_paid === true,
    ).length;
  const notesWith = (orderId: number, text: string) => store.notes(orderId).filter((n) => n.note.includes(text));
  const reconcile = async (from: string) => {
    const to = new Date(Date.now() + 60_000).toISOString();
    const report = await plugin<{ findings: Finding[] }>('POST', '/v1/reconciliation', { from, to, repair: true });
    expect(report.status).toBe(201);
    return report.body.findings;
  };

  beforeAll(async () => {
    ({ gw, store, connector, merchant, token } = await startConnectedWooStore(dialect));
  }, 60_000);

  afterAll(async () => closeConnectedWooStore({ connector, store, gw }));

  it('cancels the open payment with the order: its checkout can no longer take the money', async () => {
    const order = store.addOrder({ total: '2000.00' });
    const payment = await checkout(order.id);
    (store.order(order.id) as { status: string }).status = 'cancelled';
    const cancelled = await plugin<Json>('POST', `/v1/orders/${order.id}/cancel`);
    expect(cancelled.status, JSON.stringify(cancelled.body)).toBe(200);
    expect(cancelled.body).toEqual({
      order_id: String(order.id),
      payment_uuid: payment.payment_uuid,
      status: 'expired',
      cancelled: true,
    });
    // The buyer opens the same checkout link again: nothing can be paid.
    const paid = await pay(payment.payment_uuid);
    expect(paid.body).toMatchObject({ status: 'expired', completed_at: null });
    await eventually(() => notesWith(order.id, 'was cancelled with the order').length === 1, 'the cancel note');
    // Cancelling again changes nothing.
    const again = await plugin<Json>('POST', `/v1/orders/${order.id}/cancel`);
    expect(again.body).toMatchObject({ status: 'expired', cancelled: false });
    expect(notesWith(order.id, 'was cancelled with the order')).toHaveLength(1);
    expect(setPaidCalls(order.id)).toBe(0);
  });

  it('flags a payment that completes for a cancelled order once, never forces it, and marks it paid once reopened', async () => {
    const from = new Date(Date.now() - 60_000).toISOString();
    const order = store.addOrder({ total: '2500.00' });
    const payment = await checkout(order.id);
    // Cancelled in the store while the buyer is paying (the cancel never reached the gateway).
    (store.order(order.id) as { status: string }).status = 'cancelled';
    await pay(payment.payment_uuid);
    await eventually(
      () => notesWith(order.id, 'completed for it: the buyer paid').length === 1,
      'the paid-after-cancel note',
    );
    expect(store.order(order.id)?.status).toBe('cancelled');
    expect(setPaidCalls(order.id)).toBe(0);

    // Nothing is retried for ever, and the note stays one.
    for (let hour = 0; hour < 3; hour++) {
      gw.clock.advance(60 * 60_000);
      await connector.runDueWork();
    }
    expect(setPaidCalls(order.id)).toBe(0);
    expect(notesWith(order.id, 'completed for it: the buyer paid')).toHaveLength(1);
    const panel = await plugin<Json>('GET', `/v1/orders/${order.id}/payment`);
    expect(panel.body).toMatchObject({ status: 'completed', flag: 'paid_after_cancel' });

    // Reconciliation reports it, with no repair on offer.
    const findings = (await reconcile(from)).filter((f) => f.store_order_id === String(order.id));
    expect(findings).toEqual([
      expect.objectContaining({ kind: 'paid_after_cancel', action: 'flagged', repairable: false }),
    ]);
    expect(setPaidCalls(order.id)).toBe(0);

    // The owner keeps the sale: back to pending payment, then "Check now".
    (store.order(order.id) as { status: string }).status = 'pending';
    await plugin('GET', `/v1/orders/${order.id}/payment`);
    await eventually(() => store.order(order.id)?.date_paid_gmt != null, 'the reopened order marked paid');
    await eventually(async () => {
      const read = await plugin<Json>('GET', `/v1/orders/${order.id}/payment`);
      return read.body.flag === null && read.body.store_sync === 'done';
    }, 'the flag lowered');
    expect(setPaidCalls(order.id)).toBe(1);
    expect(notesWith(order.id, 'Paid with the sandbox')).toHaveLength(1);
  });

  it('leaves a paid order paid when the store cancels it: the payment is not undone', async () => {
    const order = store.addOrder({ total: '1500.00' });
    const payment = await checkout(order.id);
    await pay(payment.payment_uuid);
    await eventually(() => store.order(order.id)?.date_paid_gmt != null, 'the order marked paid');
    const cancelled = await plugin<Json>('POST', `/v1/orders/${order.id}/cancel`);
    expect(cancelled.status).toBe(200);
    expect(cancelled.body).toMatchObject({ status: 'completed', cancelled: false });
    const read = await gw.call('GET', `/api/v1/payments/${payment.payment_uuid}`, { key: merchant.testKey });
    expect(read.body).toMatchObject({ status: 'completed' });
  });

  it('asks nothing more of a cancelled order paid anyway once the owner refunded it in full', async () => {
    const from = new Date(Date.now() - 60_000).toISOString();
    const order = store.addOrder({ total: '1700.00' });
    const payment = await checkout(order.id);
    (store.order(order.id) as { status: string }).status = 'cancelled';
    await pay(payment.payment_uuid);
    await eventually(
      () => notesWith(order.id, 'completed for it: the buyer paid').length === 1,
      'the paid-after-cancel note',
    );
    // The owner does as the note says: refunds the payment from the order (WooCommerce then sets it Refunded).
    const wcRefund = store.adminRefund(order.id, { amount: '1700.00', reason: 'cancelled order' });
    expect(store.order(order.id)?.status).toBe('refunded');
    const refunded = await plugin<Json>('POST', `/v1/orders/${order.id}/refunds`, {
      amount: 1700,
      reason: 'cancelled order',
      store_refund_id: String(wcRefund.id),
    });
    expect(refunded.status, JSON.stringify(refunded.body)).toBe(201);
    for (let hour = 0; hour < 2; hour++) {
      gw.clock.advance(60 * 60_000);
      await connector.runDueWork();
    }
    const findings = (await reconcile(from)).filter((f) => f.store_order_id === String(order.id));
    expect(findings).toEqual([]);
    expect(setPaidCalls(order.id)).toBe(0);
    expect(store.notes(order.id).filter((n) => n.note.startsWith('Reconciliation:'))).toEqual([]);
  });
  it('never asks the store to mark paid a cancelled order paid anyway that the owner then set Refunded', async () => {
    const from = new Date(Date.now() - 60_000).toISOString();
    const order = store.addOrder({ total: '2600.00' });
    const payment = await checkout(order.id);
    (store.order(order.id) as { status: string }).status = 'cancelled';
    await pay(payment.payment_uuid);
    await eventually(
      () => notesWith(order.id, 'completed for it: the buyer paid').length === 1,
      'the paid-after-cancel note',
    );
    // The owner refunds part at the gateway and sets the order Refunded: not a status that takes a payment.
    (store.order(order.id) as { status: string }).status = 'refunded';
    const direct = await gw.call<Json>('POST', `/api/v1/payments/${payment.payment_uuid}/refund`, {
      key: merchant.testKey,
      body: { amount: 600, reason: 'part returned' },
      headers: { 'Idempotency-Key': `part-${order.id}` },
    });
    expect(direct.status, direct.text).toBe(201);
    // The refund's webhook, the read-backs and a reconciliation with repair: none of them asks the
    // store to mark it paid, and the order keeps its one note and its flag.
    await eventually(() => store.refunds(order.id).length === 1, 'the gateway refund recorded in the store');
    await plugin('GET', `/v1/orders/${order.id}/payment`);
    for (let hour = 0; hour < 2; hour++) {
      gw.clock.advance(60 * 60_000);
      await connector.runDueWork();
    }
    const findings = (await reconcile(from)).filter((f) => f.store_order_id === String(order.id));
    expect(findings).toEqual([
      expect.objectContaining({ kind: 'paid_after_cancel', action: 'flagged', repairable: false }),
    ]);
    expect(findings[0]?.detail).toContain('which was cancelled in the store and is now refunded');
    expect(setPaidCalls(order.id)).toBe(0);
    expect(store.requests.filter((r) => r.method === 'PUT' && r.route === `orders/${order.id}`)).toEqual([]);
    expect(notesWith(order.id, 'completed for it: the buyer paid')).toHaveLength(1);
    const panel = await plugin<Json>('GET', `/v1/orders/${order.id}/payment`);
    expect(panel.body).toMatchObject({ flag: 'paid_after_cancel', refunded_amount: 600 });
  });

  it('refunds an order whose payment completed while its news was lost, instead of calling it unpaid', async () => {
    const order = store.addOrder({ total: '2300.00' });
    const payment = await checkout(order.id);
    // The buyer pays while the connector is down: the webhook fails and is retried only later.
    await connector.stop();
    await pay(payment.payment_uuid);
    await gw.gateway.scheduler.runDueNow();
    await connector.start();
    // The owner cancels the order (the plugin's cancel call does not arrive) and, seeing the money
    // taken at the gateway, refunds part of it from the order.
    (store.order(order.id) as { status: string }).status = 'cancelled';
    const wcRefund = store.adminRefund(order.id, { amount: '1000.00', reason: 'cancelled order' });
    const refunded = await plugin<Json>('POST', `/v1/orders/${order.id}/refunds`, {
      amount: 1000,
      reason: 'cancelled order',
      store_refund_id: String(wcRefund.id),
    });
    expect(refunded.status, JSON.stringify(refunded.body)).toBe(201);
    expect(refunded.body).toMatchObject({ payment_uuid: payment.payment_uuid, amount: 1000, refunded_amount: 1000 });
    // The payment is recorded as it is: paid after the cancel, with its one note, never marked paid.
    const panel = await plugin<Json>('GET', `/v1/orders/${order.id}/payment`);
    expect(panel.body).toMatchObject({ flag: 'paid_after_cancel', refunded_amount: 1000 });
    expect(notesWith(order.id, 'completed for it: the buyer paid')).toHaveLength(1);
    expect(setPaidCalls(order.id)).toBe(0);
  });
});
