/**
 * The StorePlatform of a WooCommerce store, over the WooCommerce REST API (wc/v3) with the store's
 * consumer key pair. The official client signs each request: OAuth 1.0a (HMAC-SHA256) over http,
 * HTTP Basic authentication over https.
 *
 * Calls made:
 * - GET  orders/{id}                 read an order
 * - GET  orders?after&before&...     list orders for reconciliation (every page)
 * - PUT  orders/{id}                 `set_paid` + `transaction_id` (the gateway payment uuid)
 * - GET  orders/{id}/notes           find the payment note again when marking paid is repeated
 * - POST orders/{id}/notes           private notes
 * - GET  orders/{id}/refunds         find a refund recorded before, so recording is safe to repeat
 * - POST orders/{id}/refunds         record a gateway refund with `api_refund: false`
 *
 * Every request goes through the guarded agents of gateway/outbound: a store URL (or a name it
 * resolves to) on a private network is refused before a connection is made, unless the connector
 * runs in development mode. No proxy from the environment is used, and redirects are not followed.
 *
 * Errors become PlatformError; their messages never carry the consumer key or secret. They do carry
 * network detail, for the connector's log only: the connector answers callers without it.
 */
import * as wooCommerceRestApiModule from '@woocommerce/woocommerce-rest-api';
import type { z } from 'zod';
import { refundedAmd, wholeAmd } from '../../connector/platforms/money.js';
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
import type { GuardedAgents } from '../../gateway/outbound/guarded-agents.js';
import {
  CHECKOUT_DRAFT_STATUS,
  errorDataStatus,
  errorSchema,
  formatAmd,
  noteListSchema,
  noteSchema,
  orderListSchema,
  orderSchema,
  refundListSchema,
  refundSchema,
  type WooOrder,
  type WooRefund,
} from './wire.js';

export interface WooCommercePlatformOptions {
  /** The store's home URL (`https://shop.example`, or with the WordPress sub-folder). */
  readonly storeUrl: string;
  readonly consumerKey: string;
  readonly consumerSecret: string;
  /** Per request. */
  readonly timeoutMs?: number;
  /** The agents every store call goes through (gateway/outbound: private addresses refused). */
  readonly agents: Pick<GuardedAgents, 'http' | 'https'>;
}

/** The meta key a recorded gateway refund carries, with the gateway refund uuid as its value. */
export const GATEWAY_REFUND_META_KEY = '_gateway_refund_uuid';

/** WooCommerce answers at most 100 items per page. */
const PAGE_SIZE = 100;
/** A bound on pages followed in one listing (100 000 orders), against a store that never stops paging. */
const MAX_PAGES = 1000;

interface HttpAnswer {
  readonly status: number;
  readonly data: unknown;
  readonly headers: Record<string, unknown>;
}

interface WooClient {
  get(endpoint: string, params?: Record<string, unknown>): Promise<HttpAnswer>;
  post(endpoint: string, data: unknown, params?: Record<string, unknown>): Promise<HttpAnswer>;
  put(endpoint: string, data: unknown, params?: Record<string, unknown>): Promise<HttpAnswer>;
  delete(endpoint: string, params?: Record<string, unknown>): Promise<HttpAnswer>;
}

type WooClientConstructor = new (options: {
  url: string;
  consumerKey: string;
  consumerSecret: string;
  version: 'wc/v3';
  timeout: number;
  axiosConfig: Record<string, unknown>;
}) => WooClient;

/**
 * The client's constructor. The package is CommonJS with `exports.default = class`, so from ESM it
 * sits at `.default.default` (module namespace -> module.exports -> class); a loader that unwraps
 * `__esModule` puts it one level higher.
 */
function clientConstructor(module: unknown): WooClientConstructor {
  let candidate: unknown = module;
  for (let depth = 0; depth < 3 && candidate !== null && candidate !== undefined; depth += 1) {
    if (typeof candidate === 'function') return candidate as WooClientConstructor;
    candidate = (candidate as { default?: unknown }).default;
  }
  throw new Error('@woocommerce/woocommerce-rest-api does not export its client class');
}

const WooCommerceRestApi = clientConstructor(wooCommerceRestApiModule);

/** WooCommerce order ids are positive integers; anything else cannot name an order. */
function isOrderId(orderId: string): boolean {
  return /^[1-9]\d{0,18}$/.test(orderId);
}

/** `2024-05-01T10:00:00` (GMT, whole seconds, no zone) as the `after`/`before` filters take it. */
function gmtSeconds(epochMs: number): string {
  return new Date(epochMs).toISOString().slice(0, 19);
}

/** A GMT date-time as WooCommerce writes it (no zone) as ISO 8601 UTC with `Z`. */
function utcIso(gmt: string): string {
  if (/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?$/.test(gmt)) return `${gmt}Z`;
  const parsed = Date.parse(gmt);
  return Number.isNaN(parsed) ? gmt : new Date(parsed).toISOString();
}

function toStoreOrder(order: WooOrder): StoreOrder {
  const name = [order.billing.first_name.trim(), order.billing.last_name.trim()]
    .filter((part) => part !== '')
    .join(' ');
  const email = order.billing.email.trim();
  return {
    id: String(order.id),
    number: order.number,
    status: order.status,
    paid: order.date_paid_gmt !== null,
    transactionId: order.transaction_id === '' ? null : order.transaction_id,
    paymentMethod: order.payment_method,
    amount: wholeAmd(order.total),
    amountText: order.total,
    currency: order.currency.toUpperCase(),
    refundedAmount: refundedAmd(order.refunds),
    createdAt: utcIso(order.date_created_gmt),
    customerEmail: email === '' ? null : email,
    customerName: name === '' ? null : name,
  };
}

function refundReason(refund: GatewayRefund): string {
  const reason = refund.reason?.trim() ?? '';
  return reason === ''
    ? `Refunded at the gateway (refund ${refund.uuid})`
    : `${reason} (gateway refund ${refund.uuid})`;
}

function isGatewayRefund(refund: WooRefund, uuid: string): boolean {
  const tagged = refund.meta_data.some((meta) => meta.key === GATEWAY_REFUND_META_KEY && meta.value === uuid);
  return tagged || refund.reason.includes(`refund ${uuid})`);
}

interface AxiosLikeError {
  readonly isAxiosError: true;
  readonly code?: string;
  readonly message?: string;
  readonly response?: { readonly status: number; readonly data: unknown; readonly headers?: Record<string, unknown> };
}

function isAxiosLikeError(error: unknown): error is AxiosLikeError {
  return typeof error === 'object' && error !== null && (error as { isAxiosError?: unknown }).isAxiosError === true;
}

/**
 * How an error answer is reported: its status and whether trying again may help. WordPress answers
 * HTTP 500 for any `WP_Error` whose data is a bare number, so a 500 whose body names a 4xx (a refund
 * for an order the store does not have: `woocommerce_rest_invalid_order_id`, `data: 404`) is that
 * 4xx; and a refund WooCommerce refused to create (`woocommerce_rest_cannot_create_order_refund`,
 * e.g. "Invalid refund amount.") is refused again on retry, unless WooCommerce asks to try again.
 */
function errorOutcome(status: number, data: unknown): { status: number; retryable: boolean } {
  const parsed = errorSchema.safeParse(data);
  if (parsed.success && status === 500) {
    const named = errorDataStatus(parsed.data);
    if (named !== null && named >= 400 && named < 500) return { status: named, retryable: false };
    if (parsed.data.code === 'woocommerce_rest_cannot_create_order_refund') {
      return { status, retryable: /try again/i.test(parsed.data.message) };
    }
  }
  return { status, retryable: status === 408 || status === 429 || status >= 500 };
}

/** The WordPress REST error code of an answer, when its body is one. */
function errorCode(data: unknown): string | null {
  const parsed = errorSchema.safeParse(data);
  return parsed.success ? parsed.data.code : null;
}

/**
 * The largest answer read from a store. A page of 100 orders is well under 2 MiB; a store that
 * answers more is refused before the connector holds it all in memory.
 */
export const MAX_STORE_ANSWER_BYTES = 8 * 1024 * 1024;

export function createWooCommercePlatform(options: WooCommercePlatformOptions): StorePlatform {
  const { consumerKey, consumerSecret } = options;
  const timeoutMs = options.timeoutMs ?? 10_000;
  const store = new URL(options.storeUrl);
  if (store.protocol !== 'https:' && store.protocol !== 'http:') {
    throw new TypeError('the WooCommerce store URL must be an http(s) URL');
  }
  if (consumerKey === '' || consumerSecret === '') throw new TypeError('the WooCommerce consumer key pair is empty');
  const storeUrl = `${store.origin}${store.pathname.replace(/\/+$/, '')}`;

  const client = new WooCommerceRestApi({
    url: storeUrl,
    consumerKey,
    consumerSecret,
    version: 'wc/v3',
    timeout: timeoutMs,
    // A redirect (http -> https, another host) would change the signed URL or carry the credentials
    // elsewhere: it is reported instead of followed. The guarded agents decide where a call may
    // connect; a proxy from the environment would connect in their place, so none is used.
    axiosConfig: {
      maxRedirects: 0,
      maxContentLength: MAX_STORE_ANSWER_BYTES,
      proxy: false,
      httpAgent: options.agents.http,
      httpsAgent: options.agents.https,
    },
  });

  /** The text with the key pair blanked out, wherever it came from. */
  function redact(text: string): string {
    return text.replaceAll(consumerSecret, '[redacted]').replaceAll(consumerKey, '[redacted]');
  }

  function failure(message: string, retryable: boolean, status: number | null = null): PlatformError {
    return new PlatformError(redact(message), retryable, status);
  }

  /** A failed call as a PlatformError. */
  function callFailure(action: string, error: unknown): PlatformError {
    if (error instanceof PlatformError) return error;
    if (!isAxiosLikeError(error)) {
      const detail = error instanceof Error ? error.message : String(error);
      return failure(`WooCommerce ${action} failed: ${detail}`, true);
    }
    const response = error.response;
    if (response === undefined) {
      if (/maxContentLength/.test(error.message ?? '')) {
        return failure(`WooCommerce ${action} answered more than ${MAX_STORE_ANSWER_BYTES} bytes`, false);
      }
      const timedOut = error.code === 'ECONNABORTED' || error.code === 'ETIMEDOUT';
      const detail = timedOut ? `no answer within ${timeoutMs} ms` : (error.message ?? error.code ?? 'network error');
      return failure(`WooCommerce ${action} failed: ${detail}`, true);
    }
    const { status, retryable } = errorOutcome(response.status, response.data);
    const parsed = errorSchema.safeParse(response.data);
    let detail = parsed.success ? `${parsed.data.code}: ${parsed.data.message}` : 'no WooCommerce error body';
    if (response.status >= 300 && response.status < 400) {
      const location = response.headers?.location;
      let target = 'another address';
      if (typeof location === 'string') {
        try {
          const url = new URL(location, storeUrl);
          target = `${url.origin}${url.pathname}`;
        } catch {
          // An unreadable Location header: the generic wording stays.
        }
      }
      detail = `redirects to ${target}; configure the store URL WordPress answers at`;
    }
    return failure(`WooCommerce ${action} answered ${response.status} (${detail})`, retryable, status);
  }

  async function call(action: string, run: () => Promise<HttpAnswer>): Promise<HttpAnswer> {
    try {
      return await run();
    } catch (error) {
      throw callFailure(action, error);
    }
  }

  function parse<T extends z.ZodType>(action: string, schema: T, answer: HttpAnswer): z.output<T> {
    const parsed = schema.safeParse(answer.data);
    if (!parsed.success) {
      const field = parsed.error.issues[0]?.path.join('.') ?? '';
      throw failure(
        `WooCommerce ${action} answered ${answer.status} with a body that is not what WooCommerce sends${field === '' ? '' : ` (at ${field})`}`,
        false,
        answer.status,
      );
    }
    return parsed.data;
  }

  function requireOrderId(action: string, orderId: string): void {
    if (!isOrderId(orderId)) throw failure(`WooCommerce ${action}: "${orderId}" is not a WooCommerce order id`, false);
  }

  /** Every page of a collection, following `X-WP-TotalPages`. */
  async function allPages<T extends z.ZodType<unknown[]>>(
    action: string,
    endpoint: string,
    schema: T,
    params: Record<string, unknown>,
  ): Promise<z.output<T>[number][]> {
    const items: z.output<T>[number][] = [];
    for (let page = 1; page <= MAX_PAGES; page += 1) {
      const answer = await call(action, () => client.get(endpoint, { ...params, per_page: PAGE_SIZE, page }));
      const list = parse(action, schema, answer);
      items.push(...list);
      const header = answer.headers['x-wp-totalpages'];
      const totalPages =
        typeof header === 'string' && /^\d+$/.test(header.trim())
          ? Number(header)
          : list.length < PAGE_SIZE
            ? page
            : page + 1;
      if (page >= totalPages || list.length === 0) break;
    }
    return items;
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

      if (order.status === 'cancelled') {
        // Left as the shop owner set it: the connector flags the payment for a person.
        throw new OrderNotPayable('cancelled', `WooCommerce order ${orderId} is cancelled: it takes no payment`);
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
