/**
 * WooCommerce's "Authorize only, capture later" at the seam between a store and the gateway, on both
 * databases: a payment created with `capture_method: manual` holds the buyer's card, the order goes
 * On hold with one note, and the hold is captured (whole when the owner sets the order Completed,
 * in part from the order panel's Capture button), once, even when the gateway does not answer; the
 * order is then marked paid once with one "Paid with" note. A cancelled order releases its hold; a
 * hold that runs out leaves the order to its owner; nothing held can be refunded before it is captured.
 */

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { OrderPaymentResponse } from '../../connector/orders/order.service.js';
import { listPaymentHoldOperations } from '../../storage/hold-operation.repository.js';
import { closeConnectedWooStore, startConnectedWooStore } from '../support/connected-woo-store.js';
import type { TestConnector } from '../support/connector.js';
import { DIALECTS } from '../support/databases.js';
import { eventually } from '../support/eventually.js';
import type { FakeWooCommerce } from '../support/fake-woocommerce.js';
import type { TestGateway, TestMerchant } from '../support/gateway.js';

type Json = Record<string, unknown>;
const APPROVED = '4111 1111 1111 1111';
/** The sandbox's hold cards (docs/api.md "Test cards for holds"). */
const HOLD_RUNS_OUT = '4000 0000 0000 6025';
const CAPTURE_UNANSWERED = '4000 0000 0000 6033';
const CAPTURE_DECLINED = '4000 0000 0000 6017';

describe.each(DIALECTS)('WooCommerce card holds (%s)', (dialect) => {
  let gw: TestGateway;
  let store: FakeWooCommerce;
  let connector: TestConnector;
  let merchant: TestMerchant;
  let token: string;

  const plugin = <T = Json>(method: string, path: string, body?: unknown) =>
    connector.call<T>(method, path, { token, ...(body === undefined ? {} : { body }) });
  const holdCheckout = async (orderId: number) => {
    const created = await plugin<OrderPaymentResponse>('POST', `/v1/orders/${orderId}/payment`, {
      return_url: `${store.url}/?wc-api=wc_armenian_gateway&order_id=${orderId}`,
      cancel_url: `${store.url}/cart/`,
      capture_method: 'manual',
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    // The plugin keeps the payment as the order's transaction id (process_payment).
    (store.order(orderId) as { transaction_id: string }).transaction_id = created.body.payment_uuid;
    return created.body;
  };
  const pay = async (uuid: string, card = APPROVED) => {
    const paid = await gw.call<Json>('POST', `/api/v1/test_helpers/payments/${uuid}/pay`, {
      key: merchant.testKey,
      body: { card_number: card },
    });
    expect(paid.status, paid.text).toBe(200);
    return paid.body;
  };
  const notesWith = (orderId: number, text: string) => store.notes(orderId).filter((n) => n.note.includes(text));
  const captures = async (uuid: string) =>
    (await listPaymentHoldOperations(gw.gateway.deps.db, uuid)).filter((op) => op.kind === 'capture');
  const panel = async (orderId: number) => (await plugin<Json>('GET', `/v1/orders/${orderId}/payment`)).body;
  /** An order whose buyer's card is held: on hold with its one note. */
  const heldOrder = async (total: string, card = APPROVED) => {
    const order = store.addOrder({ total });
    const payment = await holdCheckout(order.id);
    const paid = await pay(payment.payment_uuid, card);
    expect(paid).toMatchObject({ status: 'authorized', capture_method: 'manual' });
    await eventually(() => notesWith(order.id, 'Card hold of').length === 1, 'the hold note');
    return { order, uuid: payment.payment_uuid, paid };
  };

  /**
   * When set, the gateway's answer to the connector's next payment creation: the gateway refuses a
   * hold on a live domain whose only method is a wallet, which a test connection cannot reach (its
   * payments are sandbox payments, which hold), so its real refusal is taken from a live merchant.
   */
  let creationAnswer: { status: number; body: unknown } | null = null;
  const gatewayFetch: typeof fetch = async (input, init) => {
    const request = new Request(input, init);
    if (request.method === 'POST' && new URL(request.url).pathname === '/api/v1/payments' && creationAnswer) {
      const { status, body } = creationAnswer;
      creationAnswer = null;
      return Response.json(body, { status });
    }
    return fetch(input, init);
  };

  beforeAll(async () => {
    ({ gw, store, connector, merchant, token } = await startConnectedWooStore(dialect, { gatewayFetch }));
  }, 60_000);

  afterAll(async () => closeConnectedWooStore({ connector, store, gw }));

  it('holds the card, puts the order on hold with one note, and captures it once when the owner completes it', async () => {
    const { order, uuid, paid } = await heldOrder('40000.00');
    const stored = store.order(order.id);
    expect(stored?.status).toBe('on-hold');
    expect(stored?.date_paid_gmt).toBeNull();
    const [note] = notesWith(order.id, 'Card hold of');
    const before = String(paid.capture_before);
    expect(note?.note).toBe(
      `Card hold of 40000 AMD placed (gateway payment ${uuid}); capture before ${before.slice(0, 16).replace('T', ' ')} UTC.`,
    );
    // Read back again (the buyer's return, a poll): no second note, nothing marked paid.
    expect(await panel(order.id)).toMatchObject({
      status: 'authorized',
      paid: false,
      hold: { state: 'authorized', payment_uuid: uuid, authorized_amount: 40000, capture_before: expect.any(String) },
    });
    gw.clock.advance(10 * 60_000);
    await connector.runDueWork();
    expect(notesWith(order.id, 'Card hold of')).toHaveLength(1);
    expect(notesWith(order.id, 'Paid with')).toHaveLength(0);

    // The owner sets it Completed: WooCommerce sets the date paid itself, the plugin's hook captures.
    store.adminSetStatus(order.id, 'completed');
    const captured = await plugin<Json>('POST', `/v1/orders/${order.id}/capture`, {});
    expect(captured.status, JSON.stringify(captured.body)).toBe(200);
    expect(captured.body).toMatchObject({
      payment_uuid: uuid,
      capture: 'captured',
      captured_amount: 40000,
      status: 'completed',
    });
    await eventually(async () => (await panel(order.id)).store_sync === 'done', 'the order recorded paid');
    // A second call (the hook again) answers the same capture.
    const again = await plugin<Json>('POST', `/v1/orders/${order.id}/capture`, {});
    expect(again.status).toBe(200);
    expect(again.body).toMatchObject({ capture: 'captured', captured_amount: 40000 });
    expect(await captures(uuid)).toHaveLength(1);
    await eventually(() => notesWith(order.id, 'Paid with').length === 1, 'the paid note');
    expect(store.order(order.id)).toMatchObject({ status: 'completed', transaction_id: uuid });
    expect(notesWith(order.id, 'Paid with the sandbox')).toHaveLength(1);
    expect(await panel(order.id)).toMatchObject({ paid: true, status: 'completed', hold: { state: 'captured' } });
  });

  it('captures a smaller amount from the panel: the order goes Processing, paid once, refunds up to the capture', async () => {
    const { order, uuid } = await heldOrder('30000.00');
    // Refused before the capture: nothing was taken.
    const early = await plugin<Json>('POST', `/v1/orders/${order.id}/refunds`, { amount: 1000, store_refund_id: 41 });
    expect(early.status).toBe(409);
    expect(early.body).toMatchObject({ error: 'payment_not_captured' });
    expect(String(early.body.message)).toContain('only held');

    const tooMuch = await plugin<Json>('POST', `/v1/orders/${order.id}/capture`, { amount: 30001 });
    expect(tooMuch.status).toBe(422);
    expect(tooMuch.body).toMatchObject({ error: 'amount_exceeds_authorized' });
    const bad = await plugin<Json>('POST', `/v1/orders/${order.id}/capture`, { amount: 12.5 });
    expect(bad.status).toBe(422);
    expect(bad.body).toMatchObject({ error: 'validation_failed', errors: { amount: expect.any(Array) } });

    const captured = await plugin<Json>('POST', `/v1/orders/${order.id}/capture`, { amount: 24000 });
    expect(captured.status, JSON.stringify(captured.body)).toBe(200);
    expect(captured.body).toMatchObject({ capture: 'captured', captured_amount: 24000, authorized_amount: 30000 });
    await eventually(() => store.order(order.id)?.status === 'processing', 'the order set Processing');
    await eventually(() => notesWith(order.id, 'Paid with').length === 1, 'the paid note');
    const stored = store.order(order.id);
    expect(stored?.date_paid_gmt).not.toBeNull();
    expect(stored?.transaction_id).toBe(uuid);
    // Asked again with another amount: the same capture, never a second one.
    const again = await plugin<Json>('POST', `/v1/orders/${order.id}/capture`, { amount: 1000 });
    expect(again.body).toMatchObject({ capture: 'captured', captured_amount: 24000 });
    expect(await captures(uuid)).toHaveLength(1);
    expect(notesWith(order.id, 'Paid with')).toHaveLength(1);
    const read = await panel(order.id);
    expect(read).toMatchObject({
      amount: 24000,
      paid: true,
      flag: null,
      hold: { state: 'captured', capture_amount: 24000 },
    });

    // Reconciliation sees a partial capture of the order's hold as the order's payment, not a mismatch.
    const report = await plugin<{ findings: Array<{ store_order_id: string }> }>('POST', '/v1/reconciliation', {
      from: new Date(Date.now() - 60 * 60_000).toISOString(),
      to: new Date(Date.now() + 60_000).toISOString(),
      repair: false,
    });
    expect(report.status).toBe(201);
    expect(report.body.findings.filter((f) => f.store_order_id === String(order.id))).toEqual([]);

    // Refunds: at most what was captured.
    const over = await plugin<Json>('POST', `/v1/orders/${order.id}/refunds`, { amount: 25000, store_refund_id: 42 });
    expect(over.status).toBe(422);
    expect(over.body).toMatchObject({ error: 'refund_exceeds_captured' });
    const refund = await plugin<Json>('POST', `/v1/orders/${order.id}/refunds`, { amount: 4000, store_refund_id: 43 });
    expect(refund.status, JSON.stringify(refund.body)).toBe(201);
    expect(refund.body).toMatchObject({ amount: 4000, status: 'succeeded', refunded_amount: 4000 });
  });

  it('releases the hold when the order is cancelled, with one note, and nothing can be captured after', async () => {
    const { order, uuid } = await heldOrder('15000.00');
    store.adminSetStatus(order.id, 'cancelled');
    const cancelled = await plugin<Json>('POST', `/v1/orders/${order.id}/cancel`);
    expect(cancelled.status, JSON.stringify(cancelled.body)).toBe(200);
    expect(cancelled.body).toEqual({
      order_id: String(order.id),
      payment_uuid: uuid,
      status: 'expired',
      cancelled: true,
    });
    const atGateway = await gw.call<Json>('GET', `/api/v1/payments/${uuid}`, { key: merchant.testKey });
    expect(atGateway.body).toMatchObject({ status: 'expired', failure_code: 'voided' });
    await eventually(() => notesWith(order.id, 'released the card hold').length === 1, 'the release note');
    const again = await plugin<Json>('POST', `/v1/orders/${order.id}/cancel`);
    expect(again.body).toMatchObject({ status: 'expired', cancelled: false });
    expect(notesWith(order.id, 'released the card hold')).toHaveLength(1);
    expect(notesWith(order.id, 'released the card hold')[0]?.note).toContain('15000 AMD');
    const capture = await plugin<Json>('POST', `/v1/orders/${order.id}/capture`, {});
    expect(capture.status).toBe(409);
    expect(capture.body).toMatchObject({ error: 'hold_released' });
    expect(await captures(uuid)).toHaveLength(0);
    expect((await panel(order.id)).hold).toMatchObject({ state: 'voided' });
  });

  it('releases once a hold whose release the processor left unanswered: one release at the gateway, one note', async () => {
    const { order, uuid } = await heldOrder('12000.00', CAPTURE_UNANSWERED);
    store.adminSetStatus(order.id, 'cancelled');
    const cancelled = await plugin<Json>('POST', `/v1/orders/${order.id}/cancel`);
    expect(cancelled.status, JSON.stringify(cancelled.body)).toBe(200);
    // The release is in doubt: the payment is still held as far as anyone knows.
    expect(cancelled.body).toMatchObject({ order_id: String(order.id), payment_uuid: uuid, status: 'authorized' });
    // Asked again while the outcome is unknown: nothing sent as a second release.
    await plugin<Json>('POST', `/v1/orders/${order.id}/cancel`);
    const releases = async () =>
      (await listPaymentHoldOperations(gw.gateway.deps.db, uuid)).filter((op) => op.kind === 'release');
    expect(await releases()).toHaveLength(1);
    expect(notesWith(order.id, 'released the card hold')).toHaveLength(0);

    // The gateway's status check a minute later finds it released; its webhook reaches the order once.
    for (let i = 0; i < 3; i++) {
      gw.clock.advance(2 * 60_000);
      await gw.gateway.scheduler.runDueNow();
      await connector.runDueWork();
    }
    await eventually(() => notesWith(order.id, 'released the card hold').length === 1, 'the release note');
    const atGateway = await gw.call<Json>('GET', `/api/v1/payments/${uuid}`, { key: merchant.testKey });
    expect(atGateway.body).toMatchObject({ status: 'expired', failure_code: 'voided' });
    const ops = await releases();
    expect(ops).toHaveLength(1);
    expect(ops[0]).toMatchObject({ status: 'succeeded' });
    expect(await captures(uuid)).toHaveLength(0);
    expect((await panel(order.id)).hold).toMatchObject({ state: 'voided' });
    expect(notesWith(order.id, 'released the card hold')).toHaveLength(1);
    expect(notesWith(order.id, 'Paid with')).toHaveLength(0);
  });

  it('settles a capture the gateway left unknown once, with the same key: one capture at the gateway, paid once', async () => {
    const { order, uuid } = await heldOrder('20000.00', CAPTURE_UNANSWERED);
    store.adminSetStatus(order.id, 'completed');
    const first = await plugin<Json>('POST', `/v1/orders/${order.id}/capture`, {});
    expect(first.status, JSON.stringify(first.body)).toBe(202);
    expect(first.body).toMatchObject({ capture: 'pending', captured_amount: 20000, status: 'authorized' });
    // The hook again meanwhile: the same capture in doubt, nothing sent as a new one.
    const second = await plugin<Json>('POST', `/v1/orders/${order.id}/capture`, {});
    expect(second.status).toBe(202);
    expect(await captures(uuid)).toHaveLength(1);
    expect((await panel(order.id)).hold).toMatchObject({ state: 'capture_unknown' });
    expect(notesWith(order.id, 'Paid with')).toHaveLength(0);

    // The gateway's status check finds it captured; the connector's due work asks with the same key.
    gw.clock.advance(2 * 60_000);
    await gw.gateway.scheduler.runDueNow();
    await connector.runDueWork();
    await eventually(async () => (await panel(order.id)).store_sync === 'done', 'the order recorded paid');
    for (let i = 0; i < 3; i++) {
      gw.clock.advance(10 * 60_000);
      await gw.gateway.scheduler.runDueNow();
      await connector.runDueWork();
    }
    const ops = await captures(uuid);
    expect(ops).toHaveLength(1);
    expect(ops[0]).toMatchObject({ status: 'succeeded', amount: 20000 });
    expect(notesWith(order.id, 'Paid with')).toHaveLength(1);
    expect(await panel(order.id)).toMatchObject({ status: 'completed', paid: true, hold: { state: 'captured' } });
  });

  it('keeps the hold when the bank declines the capture; the next capture is a capture of its own', async () => {
    const { order, uuid } = await heldOrder('7000.00', CAPTURE_DECLINED);
    const declined = await plugin<Json>('POST', `/v1/orders/${order.id}/capture`, {});
    expect(declined.status).toBe(409);
    expect(declined.body).toMatchObject({ error: 'capture_declined' });
    expect((await panel(order.id)).hold).toMatchObject({ state: 'authorized', capture_amount: null });
    // Pressed again: a new capture (the first one's key is bound to the declined operation).
    const again = await plugin<Json>('POST', `/v1/orders/${order.id}/capture`, { amount: 5000 });
    expect(again.body).toMatchObject({ error: 'capture_declined' });
    const ops = await captures(uuid);
    expect(ops.map((op) => [op.status, op.amount])).toEqual([
      ['failed', 7000],
      ['failed', 5000],
    ]);
    expect(notesWith(order.id, 'Paid with')).toHaveLength(0);
    expect(store.order(order.id)?.status).toBe('on-hold');
    // Still held: cancelling the order releases it.
    store.adminSetStatus(order.id, 'cancelled');
    const cancelled = await plugin<Json>('POST', `/v1/orders/${order.id}/cancel`);
    expect(cancelled.body).toMatchObject({ status: 'expired', cancelled: true });
  });

  it('leaves an order whose hold ran out to its owner: one note, not paid, the panel says so', async () => {
    // This card's hold runs out at once: the gateway may release it before the order is put on hold.
    const order = store.addOrder({ total: '9000.00' });
    const { payment_uuid: uuid } = await holdCheckout(order.id);
    expect(await pay(uuid, HOLD_RUNS_OUT)).toMatchObject({ status: 'authorized' });
    gw.clock.advance(60_000);
    await gw.gateway.scheduler.runDueNow();
    await eventually(() => notesWith(order.id, 'ran out before it was captured').length === 1, 'the ran-out note');
    const read = await panel(order.id);
    expect(read).toMatchObject({ status: 'expired', paid: false, hold: { state: 'expired', payment_uuid: uuid } });
    gw.clock.advance(60 * 60_000);
    await connector.runDueWork();
    expect(notesWith(order.id, 'ran out before it was captured')).toHaveLength(1);
    expect(notesWith(order.id, 'ran out before it was captured')[0]?.note).toContain('9000 AMD');
    expect(['on-hold', 'pending']).toContain(store.order(order.id)?.status);
    expect(store.order(order.id)?.date_paid_gmt).toBeNull();
    expect(notesWith(order.id, 'Card hold of').length).toBeLessThanOrEqual(1);
    const capture = await plugin<Json>('POST', `/v1/orders/${order.id}/capture`, {});
    expect(capture.status).toBe(409);
    expect(capture.body).toMatchObject({ error: 'hold_released' });
    const refund = await plugin<Json>('POST', `/v1/orders/${order.id}/refunds`, { amount: 100, store_refund_id: 51 });
    expect(refund.status).toBe(409);
    expect(notesWith(order.id, 'Paid with')).toHaveLength(0);
  });

  it('tells the plugin that no method can hold when the gateway refuses a hold for a wallets-only domain', async () => {
    const host = `wallets-${dialect}.example.am`;
    const live = await gw.liveMerchant(host);
    const refused = await gw.call<Json>('POST', '/api/v1/payments', {
      key: live.liveKey,
      body: {
        amount: 5000,
        order_id: `wallets-${dialect}`,
        return_url: `https://${host}/done`,
        capture_method: 'manual',
      },
    });
    expect(refused.status, refused.text).toBe(422);
    creationAnswer = { status: refused.status, body: refused.body };
    const order = store.addOrder({ total: '5000.00' });
    const created = await plugin<Json>('POST', `/v1/orders/${order.id}/payment`, {
      return_url: `${store.url}/?wc-api=wc_armenian_gateway&order_id=${order.id}`,
      cancel_url: `${store.url}/cart/`,
      capture_method: 'manual',
    });
    expect(created.status).toBe(422);
    expect(created.body).toMatchObject({ error: 'hold_not_supported', errors: { capture_method: expect.any(Array) } });
    expect(String(created.body.message)).toContain('wallets cannot');
    // Nothing half-made: no payment at the gateway, the order untouched.
    expect((await panel(order.id)).payment_uuid).toBeNull();
    expect(store.order(order.id)?.status).toBe('pending');
    expect(store.notes(order.id)).toEqual([]);
    // A payment method the field does not know is the connector's validation error.
    const unknown = await plugin<Json>('POST', `/v1/orders/${order.id}/payment`, {
      return_url: `${store.url}/done`,
      cancel_url: `${store.url}/cart/`,
      capture_method: 'later',
    });
    expect(unknown.status).toBe(422);
    expect(unknown.body).toMatchObject({ error: 'validation_failed', errors: { capture_method: expect.any(Array) } });
  });

  it('marks paid a hold captured at the gateway itself, and answers the plugin’s capture after it without a second one', async () => {
    const { order, uuid } = await heldOrder('6000.00');
    const direct = await gw.call<Json>('POST', `/api/v1/payments/${uuid}/capture`, {
      key: merchant.testKey,
      body: { amount: 5500 },
      headers: { 'Idempotency-Key': `dashboard-${order.id}` },
    });
    expect(direct.status, direct.text).toBe(200);
    await eventually(() => notesWith(order.id, 'Paid with').length === 1, 'the paid note');
    expect(store.order(order.id)?.status).toBe('processing');
    // The owner then sets it Completed: the hook's capture answers the capture made.
    store.adminSetStatus(order.id, 'completed');
    const captured = await plugin<Json>('POST', `/v1/orders/${order.id}/capture`, {});
    expect(captured.status, JSON.stringify(captured.body)).toBe(200);
    expect(captured.body).toMatchObject({ capture: 'captured', captured_amount: 5500, status: 'completed' });
    expect(await captures(uuid)).toHaveLength(1);
    expect(notesWith(order.id, 'Paid with')).toHaveLength(1);
  });

  it('refuses to capture an order without a card hold', async () => {
    const order = store.addOrder({ total: '1000.00' });
    const capture = await plugin<Json>('POST', `/v1/orders/${order.id}/capture`, {});
    expect(capture.status).toBe(409);
    expect(capture.body).toMatchObject({ error: 'no_card_hold' });
  });
});
