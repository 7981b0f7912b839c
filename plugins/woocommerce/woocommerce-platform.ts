/**
 * The StorePlatform of a WooCommerce store, over the WooCommerce REST API (wc/v3) with the store's
 * consumer key pair. The official client signs each request: OAuth 1.0a (HMAC-SHA256) over http,
 * HTTP Basic authentication over https.
 *
 * Calls made:
 * - GET  orders/{id}                 read an order
 * - GET  orders?after&before&...     list orders for reconciliation (every page)
 * - PUT  orders/{id}                 `set_paid` + `transaction_id` (the gateway payment uuid); for a
 *                                     captured card hold `status` + `transaction_id` (hold-payment.ts);
 *                                     `status: on-hold` when a card is held for a pending order
 * - GET  orders/{id}/notes           find the payment note again when marking paid is repeated
 * - POST orders/{id}/notes           private notes
 * - GET  orders/{id}/refunds         find a refund recorded before, so recording is safe to repeat
 * - POST orders/{id}/refunds         record a gateway refund with `api_refund: false`
 *
 * Every request goes through the guarded agents of gateway/outbound (rest-client.ts): a store URL
 * (or a name it resolves to) on a private network is refused before a connection is made, unless
 * the connector runs in development mode. No proxy from the environment is used, and redirects are
 * not followed.
 *
 * Errors become PlatformError; their messages never carry the consumer key or secret. They do carry
 * network detail, for the connector's log only: the connector answers callers without it.
 */
import {
  type GatewayRefund,
  OrderNotPayable,
  type OrderRange,
  type PaidWith,
  PlatformError,
  paymentNote,
  type StoreOrder,
  type StorePlatform,
} from '../../connector/platforms/platform.js';
import { capturedHoldUpdate, HOLDABLE_STATUSES } from './hold-payment.js';
import { GATEWAY_REFUND_META_KEY, gmtSeconds, isGatewayRefund, isOrderId, refundReason, toStoreOrder } from './map.js';
import { createWooRestClient, errorCode, isAxiosLikeError, type WooCommercePlatformOptions } from './rest-client.js';
import {
  CHECKOUT_DRAFT_STATUS,
  formatAmd,
  noteListSchema,
  noteSchema,
  orderListSchema,
  orderSchema,
  refundListSchema,
  refundSchema,
  type WooOrder,
} from './wire.js';

/**
 * The statuses in which WooCommerce takes a payment (`WC_Order::needs_payment()`, the filter
 * `woocommerce_valid_order_statuses_for_payment`): `set_paid` on an order in any other is ignored.
 */
const PAYABLE_STATUSES: ReadonlySet<string> = new Set(['pending', 'failed']);

export function createWooCommercePlatform(options: WooCommercePlatformOptions): StorePlatform {
  const { client, failure, callFailure, call, parse, allPages } = createWooRestClient(options);

  function requireOrderId(action: string, orderId: string): void {
    if (!isOrderId(orderId)) throw failure(`WooCommerce ${action}: "${orderId}" is not a WooCommerce order id`, false);
  }

  async function readOrder(orderId: string): Promise<WooOrder | null> {
    if (!isOrderId(orderId)) return null;
    const action = `GET orders/${orderId}`;
    try {
      const answer = await client.get(`orders/${orderId}`);
      return parse(action, orderSchema, answer);
    } catch (error) {
      // Only WooCommerce's own "no such order" means absent; a 404 without it (no REST route, a page
      // that is not WordPress) is a store that does not answer as WooCommerce.
      if (isAxiosLikeError(error) && error.response?.status === 404) {
        const code = errorCode(error.response.data);
        if (code?.endsWith('_invalid_id')) return null;
      }
      throw callFailure(action, error);
    }
  }

  async function addNote(orderId: string, note: string): Promise<void> {
    requireOrderId('POST notes', orderId);
    const action = `POST orders/${orderId}/notes`;
    const answer = await call(action, () => client.post(`orders/${orderId}/notes`, { note, customer_note: false }));
    parse(action, noteSchema, answer);
  }

  return {
    platform: 'woocommerce',

    async getOrder(orderId) {
      const order = await readOrder(orderId);
      return order === null ? null : toStoreOrder(order);
    },

    async listOrders(range: OrderRange, paymentMethod: string) {
      const from = Date.parse(range.from);
      const to = Date.parse(range.to);
      if (Number.isNaN(from) || Number.isNaN(to)) throw new RangeError('the order range needs two ISO 8601 dates');
      if (to <= from) return [];
      // WooCommerce's `after` and `before` are both exclusive and to the second: ask from one second
      // earlier and up to the next whole second, then keep exactly [from, to).
      const params = {
        after: gmtSeconds(Math.floor(from / 1000) * 1000 - 1000),
        before: gmtSeconds(Math.ceil(to / 1000) * 1000),
        dates_are_gmt: true,
        orderby: 'date',
        order: 'asc',
      };
      const orders = await allPages('GET orders', 'orders', orderListSchema, params);
      const seen = new Set<number>();
      const kept: StoreOrder[] = [];
      for (const order of orders) {
        if (seen.has(order.id)) continue;
        seen.add(order.id);
        if (order.payment_method !== paymentMethod) continue;
        // A block checkout draft is a cart, not a placed order: nothing to reconcile yet.
        if (order.status === CHECKOUT_DRAFT_STATUS) continue;
        const storeOrder = toStoreOrder(order);
        const created = Date.parse(storeOrder.createdAt);
        if (created < from || created >= to) continue;
        kept.push(storeOrder);
      }
      return kept;
    },

    async markPaid(orderId: string, payment: PaidWith) {
      requireOrderId('mark paid', orderId);
      const order = await readOrder(orderId);
      if (order === null) throw failure(`WooCommerce has no order ${orderId}`, false, 404);
      const note = paymentNote(payment);

      const holdUpdate = payment.captured === true ? capturedHoldUpdate(order, payment.uuid) : null;
      if (holdUpdate !== null) {
        // A captured card hold: `set_paid` would be ignored (the order does not need payment any more).
        const action = `PUT orders/${orderId}`;
        const answer = await call(action, () => client.put(`orders/${orderId}`, holdUpdate));
        const updated = parse(action, orderSchema, answer);
        if (updated.transaction_id !== payment.uuid) {
          throw failure(`WooCommerce did not record payment ${payment.uuid} on order ${orderId}`, false);
        }
        await addNote(orderId, note);
        return;
      }

      if (order.date_paid_gmt !== null) {
        // Paid by something else: left as it is (the connector compares the transaction id).
        if (order.transaction_id !== payment.uuid) return;
        // Paid with this payment: the note may be missing if an earlier attempt stopped after the update.
        const action = `GET orders/${orderId}/notes`;
        const notes = parse(action, noteListSchema, await call(action, () => client.get(`orders/${orderId}/notes`)));
        if (!notes.some((existing) => existing.note.includes(`Gateway payment ${payment.uuid}`))) {
          await addNote(orderId, note);
        }
        return;
      }

      if (!PAYABLE_STATUSES.has(order.status)) {
        // WooCommerce's `set_paid` completes payment only for an order that needs it (pending or
        // failed): any other status (cancelled, refunded, on-hold, ...) is left as the shop owner set
        // it, without asking, and the connector holds the payment for a person.
        throw new OrderNotPayable(order.status, `WooCommerce order ${orderId} is ${order.status}: it takes no payment`);
      }
      const action = `PUT orders/${orderId}`;
      const answer = await call(action, () =>
        client.put(`orders/${orderId}`, { set_paid: true, transaction_id: payment.uuid }),
      );
      const updated = parse(action, orderSchema, answer);
      if (updated.date_paid_gmt === null) {
        // WooCommerce completes payment only for orders that need it (pending or failed, total above 0).
        throw failure(
          `WooCommerce did not mark order ${orderId} paid: its status "${updated.status}" does not take a payment`,
          false,
        );
      }
      await addNote(orderId, note);
    },

    async placeOnHold(orderId: string) {
      requireOrderId('put on hold', orderId);
      const order = await readOrder(orderId);
      if (order === null) throw failure(`WooCommerce has no order ${orderId}`, false, 404);
      // Only an order still waiting for its payment: any other status is the shop owner's.
      if (!HOLDABLE_STATUSES.has(order.status)) return;
      const action = `PUT orders/${orderId}`;
      parse(action, orderSchema, await call(action, () => client.put(`orders/${orderId}`, { status: 'on-hold' })));
    },

    addNote,

    async recordRefund(orderId: string, refund: GatewayRefund) {
      requireOrderId('record refund', orderId);
      if (!Number.isSafeInteger(refund.amount) || refund.amount <= 0) {
        throw new RangeError(`a refund is a whole positive AMD amount, not ${refund.amount}`);
      }
      const endpoint = `orders/${orderId}/refunds`;
      // Recorded before (an answer lost on the way back)? Answer that refund instead of a second one.
      // An empty list does not say the order exists: WooCommerce answers `[]` for an order it does
      // not have; the POST below then reports the missing order (404, not retryable).
      const existing = await allPages(`GET ${endpoint}`, endpoint, refundListSchema, {});
      const found = existing.find((candidate) => isGatewayRefund(candidate, refund.uuid));
      if (found !== undefined) return { id: String(found.id) };

      const action = `POST ${endpoint}`;
      const answer = await call(action, () =>
        client.post(endpoint, {
          amount: formatAmd(refund.amount),
          reason: refundReason(refund),
          api_refund: false,
          api_restock: false,
          meta_data: [{ key: GATEWAY_REFUND_META_KEY, value: refund.uuid }],
        }),
      );
      const created = parse(action, refundSchema, answer);
      return { id: String(created.id) };
    },

    async deleteRefund(orderId: string, refundId: string) {
      requireOrderId('delete refund', orderId);
      if (!/^\d+$/.test(refundId)) throw new RangeError(`a WooCommerce refund id is digits, not ${refundId}`);
      const action = `DELETE orders/${orderId}/refunds/${refundId}`;
      try {
        // A refund is not trashed: `force` deletes it, and the order's refunded total drops with it.
        await call(action, () => client.delete(`orders/${orderId}/refunds/${refundId}`, { force: true }));
      } catch (error) {
        // Already gone (deleted by hand, or by an earlier attempt whose answer was lost): done.
        if (error instanceof PlatformError && error.status === 404) return;
        throw error;
      }
    },

    async checkAccess() {
      // The answer only has to be WooCommerce's list: the call is about the key, not the orders.
      const answer = await call('GET orders', () => client.get('orders', { per_page: 1 }));
      if (!Array.isArray(answer.data)) {
        throw failure(`WooCommerce GET orders answered ${answer.status} with a body that is not a list`, false);
      }
    },
  };
}
