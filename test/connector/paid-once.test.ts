/**
 * An order is marked paid in the store, and noted, exactly once, on both databases, even when every
 * way of learning the payment arrives together while the store is slow: the gateway's webhook, the
 * plugin's read-back (the buyer's return), the job tick and a reconciliation repair.
 */

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { OrderPaymentResponse } from '../../connector/orders/order.service.js';
import { closeConnectedWooStore, startConnectedWooStore } from '../support/connected-woo-store.js';
import type { TestConnector } from '../support/connector.js';
import { DIALECTS } from '../support/databases.js';
import { eventually } from '../support/eventually.js';
import type { FakeWooCommerce } from '../support/fake-woocommerce.js';
import type { TestGateway, TestMerchant } from '../support/gateway.js';

describe.each(DIALECTS)('an order is marked paid once (%s)', (dialect) => {
  let gw: TestGateway;
  let store: FakeWooCommerce;
  let connector: TestConnector;
  let merchant: TestMerchant;
  let token: string;

  const plugin = <T = Record<string, unknown>>(method: string, path: string, body?: unknown) =>
    connector.call<T>(method, path, { token, ...(body === undefined ? {} : { body }) });
  const setPaidCalls = (orderId: number) =>
    store.requests.filter(
      (r) =>
        r.method === 'PUT' && r.route === `orders/${orderId}` && (r.body as { set_paid?: boolean })?.set_paid === true,
    ).length;

  beforeAll(async () => {
    ({ gw, store, connector, merchant, token } = await startConnectedWooStore(dialect));
  }, 60_000);

  afterAll(async () => closeConnectedWooStore({ connector, store, gw }));

  it('marks and notes it once when the webhook, the read-back, the job and a repair arrive together', async () => {
    for (let round = 0; round < 3; round++) {
      const order = store.addOrder({ total: '1800.00' });
      const from = new Date(Date.now() - 60_000).toISOString();
      const created = await plugin<OrderPaymentResponse>('POST', `/v1/orders/${order.id}/payment`, {
        return_url: `${store.url}/?wc-api=wc_armenian_gateway&order_id=${order.id}`,
        cancel_url: `${store.url}/cart/`,
      });
      expect(created.status).toBe(201);
      // Every store call of what follows is slow, so the ways of learning the payment overlap.
      store.delayNext(40, 150);
      const paid = await gw.call('POST', `/api/v1/test_helpers/payments/${created.body.payment_uuid}/pay`, {
        key: merchant.testKey,
        body: { card_number: '4111 1111 1111 1111' },
      });
      expect(paid.body.status).toBe('completed');
      const to = new Date(Date.now() + 60_000).toISOString();
      await Promise.all([
        plugin('GET', `/v1/orders/${order.id}/payment`),
        plugin('GET', `/v1/orders/${order.id}/payment`),
        connector.runDueWork(),
        plugin('POST', '/v1/reconciliation', { from, to, repair: true }),
      ]);
      await eventually(
        () =>
          store.order(order.id)?.date_paid_gmt != null &&
          store.notes(order.id).some((n) => n.note.includes(created.body.payment_uuid)),
        `order ${order.id} to be marked paid`,
      );
      gw.clock.advance(5 * 60_000);
      await connector.runDueWork();
      expect(setPaidCalls(order.id)).toBe(1);
      expect(
        store.notes(order.id).filter((n) => n.note.includes(`Gateway payment ${created.body.payment_uuid}`)),
      ).toHaveLength(1);
    }
  });
});
