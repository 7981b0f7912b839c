/**
 * The StorePlatform of a Shopify shop on the manual-payment bridge, over the Admin GraphQL API with
 * the shop's offline access token. Orders are ours when `paymentGatewayNames` contains the name of
 * the manual payment method the shop owner created for the gateway.
 *
 * Operations sent (names are stable: the fake Admin API and the docs match on them):
 * - query    ShopAccess                 `shop { name }` (checkAccess)
 * - query    OrderForConnector          `order(id:)` (getOrder, markPaid, addNote)
 * - query    OrdersForConnector         `orders(first: 100, after:, query: "created_at:>=... created_at:<...")`
 * - mutation SetGatewayPaymentUuid      `metafieldsSet` (metafield gateway.payment_uuid)
 * - mutation MarkOrderPaid              `orderMarkAsPaid`
 * - mutation UpdateOrderNote            `orderUpdate(input: { id, note })`
 * - query    OrderRefundsForConnector   `order(id:) { transactions refunds }` (recordRefund)
 * - mutation RecordGatewayRefund        `refundCreate` (+ `@idempotent(key:)` from API 2026-01)
 * - mutation TagOrder                   `tagsAdd` (refunds that cannot be recorded as refunds)
 *
 * See docs/shopify.md "Admin API" for the decisions (what "paid" means, the note limit, why a refund
 * is recorded only against a manual gateway's transaction).
 */

import type { z } from 'zod';
import { refundedAmd, wholeAmd } from '../../connector/platforms/money.js';
import {
  type GatewayRefund,
  type OrderRange,
  type PaidWith,
  PlatformError,
  paymentNote,
  type StoreOrder,
  type StorePlatform,
} from '../../connector/platforms/platform.js';
import {
  ADMIN_DOCUMENTS,
  PAYMENT_UUID_KEY,
  PAYMENT_UUID_NAMESPACE,
  refundNeedsIdempotencyKey,
} from './admin-documents.js';
import { appendNoteLine, GATEWAY_REFUND_TAG, refundMarker, refundNote } from './admin-notes.js';
import {
  isOrderId,
  isPaidStatus,
  legacyId,
  markPaidAnswerSchema,
  metafieldsSetAnswerSchema,
  orderAnswerSchema,
  orderGid,
  orderPageSchema,
  orderUpdateAnswerSchema,
  orderWithRefundsAnswerSchema,
  refundCreateAnswerSchema,
  type ShopifyOrder,
  type ShopifyTransaction,
  shopAnswerSchema,
  tagsAddAnswerSchema,
  type UserError,
} from './admin-wire.js';
import { type AdminGraphql, createAdminGraphql, type FetchLike } from './graphql.js';
export interface ShopifyAdminPlatformOptions {
  /** `example-shop.myshopify.com`. */
  readonly shop: string;
  /** The shop's offline access token, read at every call. */
  readonly accessToken: () => Promise<string>;
  /** `2026-04`. */
  readonly apiVersion: string;
  readonly fetch: FetchLike;
  /** The manual payment method's name, exactly as the shop owner wrote it in Shopify. */
  readonly gatewayName: string;
  readonly timeoutMs?: number;
  readonly throttleRetries?: number;
  readonly maxThrottleWaitMs?: number;
  readonly sleep?: (ms: number) => Promise<void>;
  /** Told when Shopify answers with another API version than `apiVersion` (it fell forward). */
  readonly onVersionServed?: (requested: string, served: string) => void;
}

/** Where the manual bridge keeps the gateway checkout link (`{{ order.metafields.gateway.checkout_url }}`). */
export const CHECKOUT_URL_KEY = 'checkout_url';

/** The Admin platform, plus what only the manual-payment bridge needs. */
export interface ShopifyAdminPlatform extends StorePlatform {
  readonly paymentMethod: string;
  /** Sets the order's `gateway.checkout_url` metafield (type `url`); safe to repeat. */
  setCheckoutUrl(orderId: string, url: string): Promise<void>;
}
const PAGE_SIZE = 100;
/** A bound on pages followed in one listing (100 000 orders). */
const MAX_PAGES = 1000;

/** `2024-05-01T10:00:00Z` as Shopify's search syntax takes a date-time. */
function searchInstant(epochMs: number): string {
  return `'${new Date(epochMs).toISOString().replace(/\.\d{3}Z$/, 'Z')}'`;
}

function utcIso(value: string): string {
  const parsed = Date.parse(value);
  return Number.isNaN(parsed) ? value : new Date(parsed).toISOString().replace(/\.000Z$/, 'Z');
}

function userErrorText(errors: readonly UserError[]): string {
  return errors
    .map((error) => (error.field?.length ? `${error.field.join('.')}: ${error.message}` : error.message))
    .join('; ');
}

export function createShopifyAdminPlatform(options: ShopifyAdminPlatformOptions): ShopifyAdminPlatform {
  const gatewayName = options.gatewayName.trim();
  if (gatewayName === '') throw new TypeError('the manual payment method name is empty');
  const graphql: AdminGraphql = createAdminGraphql(options);
  const { shop, apiVersion } = options;

  function isOurs(order: ShopifyOrder): boolean {
    return order.paymentGatewayNames.includes(gatewayName);
  }

  function toStoreOrder(order: ShopifyOrder): StoreOrder {
    const first = order.customer?.firstName?.trim() ?? '';
    const last = order.customer?.lastName?.trim() ?? '';
    const name = [first, last].filter((part) => part !== '').join(' ');
    const email = order.email?.trim() ?? '';
    const total = order.totalPriceSet.shopMoney;
    const uuid = order.paymentUuid?.value.trim() ?? '';
    return {
      id: order.legacyResourceId,
      number: order.name.replace(/^#/, ''),
      status: (order.displayFinancialStatus ?? 'unknown').toLowerCase(),
      paid: isPaidStatus(order.displayFinancialStatus),
      transactionId: uuid === '' ? null : uuid,
      paymentMethod: isOurs(order) ? gatewayName : (order.paymentGatewayNames[0] ?? ''),
      amount: wholeAmd(total.amount),
      amountText: total.amount,
      currency: total.currencyCode.toUpperCase(),
      refundedAmount: refundedAmd([{ total: order.totalRefundedSet.shopMoney.amount }]),
      createdAt: utcIso(order.createdAt),
      customerEmail: email === '' ? null : email,
      customerName: name === '' ? null : name,
    };
  }

  function requireOrderId(action: string, orderId: string): void {
    if (!isOrderId(orderId))
      throw new PlatformError(`Shopify ${action}: "${orderId}" is not a Shopify order id`, false);
  }

  async function readOrder(orderId: string): Promise<ShopifyOrder | null> {
    if (!isOrderId(orderId)) return null;
    const answer = await graphql.request(
      'OrderForConnector',
      ADMIN_DOCUMENTS.OrderForConnector,
      { id: orderGid(orderId) },
      orderAnswerSchema,
    );
    return answer.order;
  }

  async function requireOrder(action: string, orderId: string): Promise<ShopifyOrder> {
    requireOrderId(action, orderId);
    const order = await readOrder(orderId);
    if (order === null) throw new PlatformError(`Shopify ${shop} has no order ${orderId}`, false, 404);
    return order;
  }

  function refused(operation: string, orderId: string, errors: readonly UserError[]): PlatformError {
    return new PlatformError(`Shopify ${operation} refused order ${orderId}: ${userErrorText(errors)}`, false, 422);
  }

  async function writeNote(orderId: string, existing: string | null | undefined, line: string): Promise<void> {
    const answer = await graphql.request(
      'UpdateOrderNote',
      ADMIN_DOCUMENTS.UpdateOrderNote,
      { input: { id: orderGid(orderId), note: appendNoteLine(existing, line) } },
      orderUpdateAnswerSchema,
    );
    const errors = answer.orderUpdate?.userErrors ?? [];
    if (errors.length > 0) throw refused('orderUpdate', orderId, errors);
  }

  async function addNote(orderId: string, note: string): Promise<void> {
    const order = await requireOrder('add note', orderId);
    await writeNote(orderId, order.note, note);
  }

  async function setPaymentUuid(orderId: string, uuid: string): Promise<void> {
    await setMetafield(orderId, PAYMENT_UUID_KEY, 'single_line_text_field', uuid);
  }

  async function setMetafield(orderId: string, key: string, type: string, value: string): Promise<void> {
    const answer = await graphql.request(
      'SetGatewayPaymentUuid',
      ADMIN_DOCUMENTS.SetGatewayPaymentUuid,
      {
        metafields: [{ ownerId: orderGid(orderId), namespace: PAYMENT_UUID_NAMESPACE, key, type, value }],
      },
      metafieldsSetAnswerSchema,
    );
    const errors = answer.metafieldsSet?.userErrors ?? [];
    if (errors.length > 0) throw refused('metafieldsSet', orderId, errors);
  }

  /** The note naming the payment, unless the order note already has it (a repeated markPaid). */
  async function ensurePaymentNote(orderId: string, order: ShopifyOrder, payment: PaidWith): Promise<void> {
    if ((order.note ?? '').includes(`Gateway payment ${payment.uuid}`)) return;
    await writeNote(orderId, order.note, paymentNote(payment));
  }

  return {
    platform: 'shopify',
    paymentMethod: gatewayName,

    async setCheckoutUrl(orderId: string, url: string) {
      requireOrderId('set checkout url', orderId);
      await setMetafield(orderId, CHECKOUT_URL_KEY, 'url', url);
    },

    async getOrder(orderId) {
      const order = await readOrder(orderId);
      return order === null ? null : toStoreOrder(order);
    },

    async listOrders(range: OrderRange, paymentMethod: string) {
      const from = Date.parse(range.from);
      const to = Date.parse(range.to);
      if (Number.isNaN(from) || Number.isNaN(to)) throw new RangeError('the order range needs two ISO 8601 dates');
      if (to <= from) return [];
      // Shopify's search compares to the second: ask from the whole second at or before `from` up
      // to the next whole second, then keep exactly [from, to).
      const query = `created_at:>=${searchInstant(Math.floor(from / 1000) * 1000)} created_at:<${searchInstant(Math.ceil(to / 1000) * 1000)}`;
      const wanted = paymentMethod.trim();
      const seen = new Set<string>();
      const kept: StoreOrder[] = [];
      let after: string | null = null;
      for (let page = 0; page < MAX_PAGES; page += 1) {
        const answer: z.output<typeof orderPageSchema> = await graphql.request(
          'OrdersForConnector',
          ADMIN_DOCUMENTS.OrdersForConnector,
          { first: PAGE_SIZE, after, query },
          orderPageSchema,
        );
        for (const order of answer.orders.nodes) {
          if (seen.has(order.id)) continue;
          seen.add(order.id);
          if (!order.paymentGatewayNames.includes(wanted)) continue;
          const storeOrder = toStoreOrder(order);
          const created = Date.parse(storeOrder.createdAt);
          if (created < from || created >= to) continue;
          kept.push(storeOrder);
        }
        const { hasNextPage, endCursor } = answer.orders.pageInfo;
        if (!hasNextPage || endCursor === null || endCursor === undefined || endCursor === after) break;
        after = endCursor;
      }
      return kept;
    },

    async markPaid(orderId: string, payment: PaidWith) {
      const order = await requireOrder('mark paid', orderId);
      const current = order.paymentUuid?.value ?? '';
      if (isPaidStatus(order.displayFinancialStatus)) {
        // Paid by something else (the shop owner, another payment): left as it is; the connector
        // compares the transaction id. Paid with this payment: the note may be missing if an
        // earlier attempt stopped after orderMarkAsPaid.
        if (current === payment.uuid) await ensurePaymentNote(orderId, order, payment);
        return;
      }
      // The uuid goes on the order first: if marking paid then fails or the answer is lost, the
      // order read back names this payment, so a repeat completes it instead of leaving it paid
      // with no uuid (which would read as "paid by something else").
      if (current !== payment.uuid) await setPaymentUuid(orderId, payment.uuid);
      const answer = await graphql.request(
        'MarkOrderPaid',
        ADMIN_DOCUMENTS.MarkOrderPaid,
        { input: { id: orderGid(orderId) } },
        markPaidAnswerSchema,
      );
      const errors = answer.orderMarkAsPaid?.userErrors ?? [];
      if (errors.length > 0) {
        // Paid in between (a concurrent repeat)? Then this call's work is done.
        const again = await readOrder(orderId);
        if (again === null || !isPaidStatus(again.displayFinancialStatus))
          throw refused('orderMarkAsPaid', orderId, errors);
        if (again.paymentUuid?.value === payment.uuid) await ensurePaymentNote(orderId, again, payment);
        return;
      }
      const after = await readOrder(orderId);
      await ensurePaymentNote(orderId, after ?? order, payment);
    },

    addNote,

    async recordRefund(orderId: string, refund: GatewayRefund) {
      requireOrderId('record refund', orderId);
      if (!Number.isSafeInteger(refund.amount) || refund.amount <= 0) {
        throw new RangeError(`a refund is a whole positive AMD amount, not ${refund.amount}`);
      }
      const answer = await graphql.request(
        'OrderRefundsForConnector',
        ADMIN_DOCUMENTS.OrderRefundsForConnector,
        { id: orderGid(orderId) },
        orderWithRefundsAnswerSchema,
      );
      const order = answer.order;
      if (order === null) throw new PlatformError(`Shopify ${shop} has no order ${orderId}`, false, 404);
      const marker = refundMarker(refund.uuid);

      // Recorded before (an answer lost on the way back)? Answer that record instead of a second one.
      const existing = order.refunds.find((candidate) => (candidate.note ?? '').includes(marker));
      if (existing !== undefined) return { id: existing.legacyResourceId };
      if ((order.note ?? '').includes(marker)) return { id: `note:${refund.uuid}` };

      const parent = paymentTransaction(order.transactions);
      if (parent === null || !parent.manualPaymentGateway) {
        // Not paid through a manual gateway: a Shopify refund could move money again (a payments
        // app or Shopify Payments would refund the buyer). Written down instead, for the shop owner.
        await writeNote(
          orderId,
          order.note,
          `${refundNote(refund)}: ${refund.amount} AMD refunded to the buyer by the payment gateway; not recorded as a Shopify refund.`,
        );
        const tagged = await graphql.request(
          'TagOrder',
          ADMIN_DOCUMENTS.TagOrder,
          { id: orderGid(orderId), tags: [GATEWAY_REFUND_TAG] },
          tagsAddAnswerSchema,
        );
        const errors = tagged.tagsAdd?.userErrors ?? [];
        if (errors.length > 0) throw refused('tagsAdd', orderId, errors);
        return { id: `note:${refund.uuid}` };
      }

      const input = {
        orderId: orderGid(orderId),
        notify: false,
        note: refundNote(refund),
        transactions: [
          {
            orderId: orderGid(orderId),
            parentId: parent.id,
            kind: 'REFUND',
            gateway: parent.gateway ?? gatewayName,
            amount: `${refund.amount}.00`,
          },
        ],
      };
      // Decided by the version Shopify answered the read with, not the one asked for: a version past
      // its support is served by a newer one, which may require the directive.
      const idempotent = refundNeedsIdempotencyKey(graphql.servedVersion() ?? apiVersion);
      const created = await graphql.request(
        'RecordGatewayRefund',
        idempotent ? ADMIN_DOCUMENTS.RecordGatewayRefundIdempotent : ADMIN_DOCUMENTS.RecordGatewayRefund,
        idempotent ? { input, idempotencyKey: `gateway-refund-${refund.uuid}` } : { input },
        refundCreateAnswerSchema,
      );
      const errors = created.refundCreate?.userErrors ?? [];
      if (errors.length > 0) throw refused('refundCreate', orderId, errors);
      const record = created.refundCreate?.refund;
      if (record === null || record === undefined) {
        throw new PlatformError(`Shopify refundCreate answered no refund for order ${orderId}`, false);
      }
      return { id: record.legacyResourceId || (legacyId(record.id) ?? record.id) };
    },

    async checkAccess() {
      await graphql.request('ShopAccess', ADMIN_DOCUMENTS.ShopAccess, {}, shopAnswerSchema);
    },
  };
}

/** The successful SALE or CAPTURE transaction a refund goes against (the latest one). */
function paymentTransaction(transactions: readonly ShopifyTransaction[]): ShopifyTransaction | null {
  const payments = transactions.filter(
    (transaction) =>
      (transaction.kind === 'SALE' || transaction.kind === 'CAPTURE') && transaction.status === 'SUCCESS',
  );
  return payments.at(-1) ?? null;
}
