/**
 * A fake WooCommerce store for tests: a real HTTP server on 127.0.0.1 answering the parts of the
 * WooCommerce REST API (wc/v3) the connector uses, shaped like WooCommerce's documentation and, where
 * a real store (WordPress 6.8, WooCommerce 9.9) answered differently from the documentation, like
 * the real store:
 *
 * - GET/PUT orders/{id} (`set_paid` only when the order needs payment; a status change sets the
 *   date paid on reaching Processing or Completed, as `WC_Order::maybe_set_date_paid()`), GET
 *   orders (after/before/dates_are_gmt/page/per_page/orderby/order/status, with `X-WP-Total` and
 *   `X-WP-TotalPages`); `status=any` lists `checkout-draft` orders too (the
 *   block checkout's drafts, registered as an order status by WooCommerce Blocks)
 * - GET/POST orders/{id}/notes, GET/POST orders/{id}/refunds, GET/DELETE orders/{id}/refunds/{id}
 *   (DELETE with `force=true` only). `GET orders/{missing}/refunds` answers
 *   200 `[]` (the refunds controller only queries refunds whose parent is the id); a refund WooCommerce
 *   cannot create answers HTTP 500 with `data` a plain number, as `new WP_Error(code, message, 500)`
 *   becomes through `rest_convert_error_to_response()`:
 *   `{"code":"woocommerce_rest_cannot_create_order_refund","message":"Invalid refund amount.","data":500}`,
 *   and a refund for a missing order `{"code":"woocommerce_rest_invalid_order_id",...,"data":404}`, also
 *   with HTTP status 500 (WC_REST_Order_Refunds_Controller::prepare_object_for_database).
 * - Notes the store writes itself have the author "WooCommerce" (WC_Order::add_order_note); notes
 *   posted with `added_by_user` the user's display name.
 * - A refund made in the admin with the payment gateway ("Refund via ...") has
 *   `refunded_payment: true`; a manual one false.
 *
 * Requests are authenticated as WooCommerce does over plain http (`WC_REST_Authentication`): OAuth
 * 1.0a one-legged, HMAC-SHA1 or HMAC-SHA256, signature base string from the method, the home URL plus
 * path, and the sorted, twice-encoded parameters; a 15 minute timestamp window and single-use nonces;
 * key permissions (read, write, read_write) checked per method.
 *
 * The key exchange (`/wc-auth/v1/...`) is WooCommerce's: login, the grant screen, `access_granted`
 * with `wc_auth_nonce`, the key POST to the callback under WordPress's rules (https, port 80/443/8080,
 * a public host, a trusted certificate); see ./fake-woocommerce-auth.ts, and its test switch
 * `testCallbacks` for callbacks on 127.0.0.1 over http. `approve(authorizeUrl)` plays the shop owner
 * through those pages.
 *
 * The store's timezone is Asia/Yerevan (+04:00), so `date_*` and `date_*_gmt` differ as on a real shop.
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type CallbackRefusal, createFakeAuth, type FakeAuthOptions } from './fake-woocommerce-auth.js';

export type { CallbackRefusal, FakeAuthOptions } from './fake-woocommerce-auth.js';
export { LOOPBACK_TEST_CALLBACKS } from './fake-woocommerce-auth.js';

const API_PREFIX = '/wp-json/wc/v3/';
const SITE_OFFSET_MS = 4 * 60 * 60 * 1000;
const OAUTH_WINDOW_SECONDS = 15 * 60;

export interface FakeMeta {
  id: number;
  key: string;
  value: unknown;
}

export interface FakeBilling {
  first_name: string;
  last_name: string;
  company: string;
  address_1: string;
  address_2: string;
  city: string;
  state: string;
  postcode: string;
  country: string;
  email: string;
  phone: string;
}

export type FakeShipping = Omit<FakeBilling, 'email' | 'phone'>;

export interface FakeLinks {
  self: { href: string }[];
  collection: { href: string }[];
  up?: { href: string }[];
}

/** An order as WooCommerce answers it (wc/v3, "Order properties"). */
export interface FakeOrder {
  id: number;
  parent_id: number;
  number: string;
  order_key: string;
  created_via: string;
  version: string;
  status: string;
  currency: string;
  date_created: string;
  date_created_gmt: string;
  date_modified: string;
  date_modified_gmt: string;
  discount_total: string;
  discount_tax: string;
  shipping_total: string;
  shipping_tax: string;
  cart_tax: string;
  total: string;
  total_tax: string;
  prices_include_tax: boolean;
  customer_id: number;
  customer_ip_address: string;
  customer_user_agent: string;
  customer_note: string;
  billing: FakeBilling;
  shipping: FakeShipping;
  payment_method: string;
  payment_method_title: string;
  transaction_id: string;
  date_paid: string | null;
  date_paid_gmt: string | null;
  date_completed: string | null;
  date_completed_gmt: string | null;
  cart_hash: string;
  meta_data: FakeMeta[];
  line_items: Record<string, unknown>[];
  tax_lines: Record<string, unknown>[];
  shipping_lines: Record<string, unknown>[];
  fee_lines: Record<string, unknown>[];
  coupon_lines: Record<string, unknown>[];
  /** Newest first; `total` is negative, as WooCommerce writes it. */
  refunds: { id: number; reason: string; total: string }[];
  _links: FakeLinks;
}

export type FakeOrderInput = Partial<Omit<FakeOrder, 'billing' | 'shipping' | 'id' | '_links'>> & {
  total: string;
  billing?: Partial<FakeBilling>;
  shipping?: Partial<FakeShipping>;
};

/** An order note as WooCommerce answers it. */
export interface FakeNote {
  id: number;
  author: string;
  date_created: string;
  date_created_gmt: string;
  note: string;
  customer_note: boolean;
  _links: FakeLinks;
}

/** An order refund as WooCommerce answers it. */
export interface FakeRefund {
  id: number;
  date_created: string;
  date_created_gmt: string;
  amount: string;
  reason: string;
  refunded_by: number;
  refunded_payment: boolean;
  meta_data: FakeMeta[];
  line_items: Record<string, unknown>[];
  _links: FakeLinks;
}

export interface FakeRequest {
  readonly method: string;
  /** The full path (`/wp-json/wc/v3/orders/12`). */
  readonly path: string;
  /** The path after `/wp-json/wc/v3/` (`orders/12`). */
  readonly route: string;
  /** Query parameters other than the OAuth ones. */
  readonly query: Readonly<Record<string, string>>;
  /** The parsed JSON body, or null. */
  readonly body: unknown;
  /** The status the fake answered. */
  status: number;
  /** The JSON body the fake answered. */
  answer: unknown;
}

export interface FakeKeys {
  readonly keyId: number;
  readonly consumerKey: string;
  readonly consumerSecret: string;
  readonly permissions: 'read' | 'write' | 'read_write';
}

export interface FailureMatch {
  readonly method?: string;
  /** Tested against the route (`orders/12/notes`). */
  readonly route?: RegExp;
  /** Tested against the query (without the OAuth parameters), e.g. to leave the key's one-order read alone. */
  readonly query?: (query: Record<string, string>) => boolean;
}

export interface FakeWooCommerce {
  /** The store's home URL (`http://127.0.0.1:<port>`), no trailing slash. */
  readonly url: string;
  /** Every REST API request received, oldest first. */
  readonly requests: FakeRequest[];
  /** Refunds created with `api_refund` true (or left out): WooCommerce would have refunded money. */
  readonly gatewayRefundRequests: number;
  close(): Promise<void>;
  /** Adds an order (currency AMD, payment method `armenian_gateway` unless given); created now or at `createdAt`. */
  addOrder(input: FakeOrderInput, createdAt?: string): FakeOrder;
  /** The stored order itself (changes show in later answers), or undefined. */
  order(id: number | string): FakeOrder | undefined;
  /** The order's notes, oldest first. */
  notes(id: number | string): FakeNote[];
  /** The order's refunds, oldest first. */
  refunds(id: number | string): FakeRefund[];
  /**
   * The next `count` REST API requests (those matching `match`, when given) answer `status` with a
   * WordPress error body.
   */
  failNext(count: number, status: number, match?: FailureMatch): void;
  /**
   * A refund made by the shop owner in the WordPress admin (the refund object WooCommerce creates
   * before it calls the payment gateway's `process_refund`); no REST request is involved. Made with
   * the "Refund via" button it has `refunded_payment: true`; `manual: true` is "Refund manually" (false).
   */
  adminRefund(id: number | string, refund: { amount: string; reason?: string; manual?: boolean }): FakeRefund;
  /**
   * WooCommerce deletes a refund object itself (`$refund->delete(true)`): the payment gateway's
   * `process_refund` refused it, or the plugin's resend was refused. The order's refunded total drops
   * with it; its status stays as it is. No REST request is involved.
   */
  deleteAdminRefund(id: number | string, refundId: number): void;
  /**
   * The shop owner changes the order's status in the WordPress admin (`WC_Order::set_status()`,
   * then save): the status-change note, and the date paid set on reaching Processing or Completed
   * as WooCommerce does. No REST request is involved (the plugin's status hooks are the caller's).
   */
  adminSetStatus(id: number | string, status: string): FakeOrder;
  /** The next `count` REST API requests are answered only after `ms` milliseconds. */
  delayNext(count: number, ms: number): void;
  /** A consumer key pair the store accepts. */
  issueKeys(permissions?: FakeKeys['permissions']): FakeKeys;
  /** Revokes every key pair: later requests answer 401. */
  revokeKeys(): void;
  /**
   * The shop owner opens the authorize URL, logs in, and presses Approve on the grant screen; answers
   * where WooCommerce redirects them (`return_url?success=1&user_id=`). Throws WooCommerce's error
   * page message ("Error: ...") when the store refuses.
   */
  approve(authorizeUrl: string): Promise<string>;
  /** The shop owner presses Deny instead; answers where WooCommerce sends them (`success=0`). */
  deny(authorizeUrl: string): Promise<string>;
  /** Key deliveries WordPress refused or that failed, oldest first, with the reason. */
  readonly callbackRefusals: readonly CallbackRefusal[];
}

class RestError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly extra: Record<string, unknown> = {},
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }
}

/**
 * `new WP_Error(code, message, 500)`: `data` is a plain number, not `{status}`, so WordPress's
 * `rest_convert_error_to_response()` finds no status in it and answers HTTP 500 whatever the number
 * says (the refunds controller does this for a missing order with 404 and a refused refund with 500).
 */
class PlainDataError extends RestError {
  constructor(
    code: string,
    message: string,
    readonly data: number,
  ) {
    super(500, code, message);
  }
}

/** PHP's rawurlencode (RFC 3986). */
function rawUrlEncode(value: string): string {
  return encodeURIComponent(value).replace(/[!'()*]/g, (char) => `%${char.charCodeAt(0).toString(16).toUpperCase()}`);
}

/** PHP's urldecode: `+` is a space; a malformed sequence is left as it is. */
function phpUrlDecode(value: string): string {
  const spaced = value.replace(/\+/g, ' ');
  try {
    return decodeURIComponent(spaced);
  } catch {
    return spaced;
  }
}

/** PHP's rawurldecode. */
function phpRawUrlDecode(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}

function wooDate(epochMs: number): string {
  return new Date(epochMs).toISOString().slice(0, 19);
}

function siteDate(epochMs: number): string {
  return wooDate(epochMs + SITE_OFFSET_MS);
}

/** A date filter value (`after`/`before`) as epoch ms; a value without a zone is GMT or site time. */
function filterDate(value: string, gmt: boolean): number | null {
  const hasZone = /(?:[zZ]|[+-]\d{2}(?::?\d{2})?)$/.test(value);
  const parsed = Date.parse(hasZone ? value : `${value}Z`);
  if (Number.isNaN(parsed)) return null;
  return hasZone || gmt ? parsed : parsed - SITE_OFFSET_MS;
}

function cents(amount: string): number {
  return Math.round(Number.parseFloat(amount) * 100);
}

function money(centsValue: number): string {
  return (centsValue / 100).toFixed(2);
}

function truthy(value: unknown): boolean | null {
  if (typeof value === 'boolean') return value;
  if (value === 'true' || value === '1' || value === 1) return true;
  if (value === 'false' || value === '0' || value === 0 || value === '') return false;
  return null;
}

const STATUS_NAMES: Record<string, string> = {
  pending: 'Pending payment',
  processing: 'Processing',
  'on-hold': 'On hold',
  completed: 'Completed',
  cancelled: 'Cancelled',
  refunded: 'Refunded',
  failed: 'Failed',
  'checkout-draft': 'Draft',
};

const FAILURE_BODIES: Record<number, { code: string; message: string }> = {
  429: { code: 'rest_too_many_requests', message: 'Too many requests. Please try again later.' },
  500: { code: 'internal_server_error', message: 'There has been a critical error on this website.' },
  502: { code: 'bad_gateway', message: 'Bad gateway.' },
  503: {
    code: 'service_unavailable',
    message: 'Briefly unavailable for scheduled maintenance. Check back in a minute.',
  },
};

function readBody(request: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    request.on('error', reject);
  });
}

export type FakeWooCommerceOptions = FakeAuthOptions;

/**
 * Starts the store. `options.testCallbacks` is the test switch of the key exchange: without it the
 * store delivers keys only as WooCommerce does (https, port 80/443/8080, a public host, a trusted
 * certificate); tests whose connector listens on 127.0.0.1 over http pass `LOOPBACK_TEST_CALLBACKS`.
 */
export async function startFakeWooCommerce(options: FakeWooCommerceOptions = {}): Promise<FakeWooCommerce> {
  const orders = new Map<number, FakeOrder>();
  const notes = new Map<number, FakeNote[]>();
  const refunds = new Map<number, FakeRefund[]>();
  const keys = new Map<string, FakeKeys & { nonces: Map<string, number> }>();
  const requests: FakeRequest[] = [];
  const failures: { status: number; match: FailureMatch }[] = [];
  const delays: number[] = [];
  let gatewayRefundRequests = 0;
  // Orders and refunds are posts and share one id sequence; notes are comments; meta has its own.
  let nextPostId = 100;
  let nextCommentId = 500;
  let nextMetaId = 9000;
  let nextKeyId = 1;
  let url = '';

  const orderLinks = (id: number, customerId: number): FakeLinks => ({
    self: [{ href: `${url}${API_PREFIX}orders/${id}` }],
    collection: [{ href: `${url}${API_PREFIX}orders` }],
    ...(customerId > 0 ? { customer: [{ href: `${url}${API_PREFIX}customers/${customerId}` }] } : {}),
  });

  function childLinks(orderId: number, kind: 'notes' | 'refunds', id: number): FakeLinks {
    return {
      self: [{ href: `${url}${API_PREFIX}orders/${orderId}/${kind}/${id}` }],
      collection: [{ href: `${url}${API_PREFIX}orders/${orderId}/${kind}` }],
      up: [{ href: `${url}${API_PREFIX}orders/${orderId}` }],
    };
  }

  /** WC_Order::add_order_note(): the store's own notes are by "WooCommerce". */
  function addNote(orderId: number, note: string, customerNote: boolean, author = 'WooCommerce'): FakeNote {
    const now = Date.now();
    const id = nextCommentId++;
    const created: FakeNote = {
      id,
      author,
      date_created: siteDate(now),
      date_created_gmt: wooDate(now),
      note,
      customer_note: customerNote,
      _links: childLinks(orderId, 'notes', id),
    };
    const list = notes.get(orderId) ?? [];
    list.push(created);
    notes.set(orderId, list);
    return created;
  }

  function touch(order: FakeOrder): void {
    const now = Date.now();
    order.date_modified = siteDate(now);
    order.date_modified_gmt = wooDate(now);
  }

  function setStatus(order: FakeOrder, status: string): void {
    if (order.status === status) return;
    const from = STATUS_NAMES[order.status] ?? order.status;
    const to = STATUS_NAMES[status] ?? status;
    order.status = status;
    // WC_Order::maybe_set_date_paid(), run by set_status() on every change: reaching the
    // payment-complete status (Processing: the fake's orders hold goods, so they need processing)
    // or Completed sets the date paid when none is set yet.
    if ((status === 'processing' || status === 'completed') && order.date_paid_gmt === null) {
      const now = Date.now();
      order.date_paid = siteDate(now);
      order.date_paid_gmt = wooDate(now);
    }
    if (status === 'completed' && order.date_completed_gmt === null) {
      const now = Date.now();
      order.date_completed = siteDate(now);
      order.date_completed_gmt = wooDate(now);
    }
    addNote(order.id, `Order status changed from ${from} to ${to}.`, false);
  }

  function addOrder(input: FakeOrderInput, createdAt?: string): FakeOrder {
    const created = createdAt === undefined ? Date.now() : Date.parse(createdAt);
    if (Number.isNaN(created)) throw new RangeError(`not an ISO date: ${createdAt}`);
    const id = nextPostId++;
    const { billing, shipping, total, ...rest } = input;
    const address: FakeShipping = {
      first_name: 'Anahit',
      last_name: 'Petrosyan',
      company: '',
      address_1: '1 Abovyan St',
      address_2: '',
      city: 'Yerevan',
      state: '',
      postcode: '0001',
      country: 'AM',
    };
    const order: FakeOrder = {
      id,
      parent_id: 0,
      number: String(id),
      order_key: `wc_order_${randomBytes(7).toString('hex').slice(0, 13)}`,
      created_via: 'checkout',
      version: '9.8.5',
      status: 'pending',
      currency: 'AMD',
      date_created: siteDate(created),
      date_created_gmt: wooDate(created),
      date_modified: siteDate(created),
      date_modified_gmt: wooDate(created),
      discount_total: '0.00',
      discount_tax: '0.00',
      shipping_total: '0.00',
      shipping_tax: '0.00',
      cart_tax: '0.00',
      total,
      total_tax: '0.00',
      prices_include_tax: false,
      customer_id: 0,
      customer_ip_address: '127.0.0.1',
      customer_user_agent: 'Mozilla/5.0',
      customer_note: '',
      billing: { ...address, email: 'anahit@example.am', phone: '+37410000000', ...billing },
      shipping: { ...address, ...shipping },
      payment_method: 'armenian_gateway',
      payment_method_title: 'Card or wallet (Armenia)',
      transaction_id: '',
      date_paid: null,
      date_paid_gmt: null,
      date_completed: null,
      date_completed_gmt: null,
      cart_hash: randomBytes(16).toString('hex'),
      meta_data: [],
      line_items: [],
      tax_lines: [],
      shipping_lines: [],
      fee_lines: [],
      coupon_lines: [],
      refunds: [],
      _links: { self: [], collection: [] },
      ...rest,
    };
    order.currency = order.currency.toUpperCase();
    if (input.date_paid_gmt && input.date_paid === undefined) {
      order.date_paid = siteDate(Date.parse(`${input.date_paid_gmt}Z`));
    }
    if (input.line_items === undefined) {
      order.line_items = [
        {
          id: nextCommentId++,
          name: 'Apricot jam',
          product_id: 93,
          variation_id: 0,
          quantity: 1,
          tax_class: '',
          subtotal: order.total,
          subtotal_tax: '0.00',
          total: order.total,
          total_tax: '0.00',
          taxes: [],
          meta_data: [],
          sku: 'JAM-1',
          price: Number.parseFloat(order.total),
        },
      ];
    }
    order._links = orderLinks(id, order.customer_id);
    orders.set(id, order);
    return order;
  }

  function findOrder(id: number | string): FakeOrder | undefined {
    return orders.get(Number(id));
  }

  // --- authentication (WC_REST_Authentication over http) ---

  function oauthParams(query: URLSearchParams, request: IncomingMessage): Map<string, string> {
    const params = new Map<string, string>();
    for (const [key, value] of query) params.set(key, value);
    const header = request.headers.authorization;
    if (typeof header === 'string' && header.trim().startsWith('OAuth ')) {
      for (const match of header.matchAll(/(oauth_[a-z_-]*)=(?:"([^"]*)"|([^,]*))/g)) {
        const [, key = '', quoted, bare] = match;
        params.set(key, phpUrlDecode(quoted || bare || ''));
      }
    }
    return params;
  }

  /** The key that signed the request; null when it carries no OAuth at all. */
  function authenticate(request: IncomingMessage, path: string, query: URLSearchParams): FakeKeys | null {
    const params = oauthParams(query, request);
    const required = [
      'oauth_consumer_key',
      'oauth_timestamp',
      'oauth_nonce',
      'oauth_signature',
      'oauth_signature_method',
    ];
    const missing = required.filter((name) => !params.get(name));
    if (missing.length === required.length) return null;
    if (missing.length > 0) {
      const noun = missing.length === 1 ? 'parameter' : 'parameters';
      throw new RestError(
        401,
        'woocommerce_rest_authentication_missing_parameter',
        `Missing OAuth ${noun} ${missing.join(', ')}`,
      );
    }
    const key = keys.get(params.get('oauth_consumer_key') ?? '');
    if (key === undefined) {
      throw new RestError(401, 'woocommerce_rest_authentication_error', 'Consumer key is invalid.');
    }
    const consumerSignature = phpRawUrlDecode((params.get('oauth_signature') ?? '').replace(/ /g, '+'));
    params.delete('oauth_signature');
    const names = [...params.keys()].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
    const joined = names.map((name) => rawUrlEncode(`${rawUrlEncode(name)}=${rawUrlEncode(params.get(name) ?? '')}`));
    const baseRequestUri = rawUrlEncode(`${url}${path}`);
    const stringToSign = `${(request.method ?? '').toUpperCase()}&${baseRequestUri}&${joined.join('%26')}`;
    const method = params.get('oauth_signature_method');
    if (method !== 'HMAC-SHA1' && method !== 'HMAC-SHA256') {
      throw new RestError(
        401,
        'woocommerce_rest_authentication_error',
        'Invalid signature - signature method is invalid.',
      );
    }
    const algorithm = method === 'HMAC-SHA1' ? 'sha1' : 'sha256';
    const expected = Buffer.from(createHmac(algorithm, `${key.consumerSecret}&`).update(stringToSign).digest('base64'));
    const given = Buffer.from(consumerSignature);
    if (expected.length !== given.length || !timingSafeEqual(expected, given)) {
      throw new RestError(
        401,
        'woocommerce_rest_authentication_error',
        'Invalid signature - provided signature does not match.',
      );
    }
    const timestamp = Number(params.get('oauth_timestamp'));
    const now = Math.floor(Date.now() / 1000);
    if (
      !Number.isFinite(timestamp) ||
      timestamp < now - OAUTH_WINDOW_SECONDS ||
      timestamp > now + OAUTH_WINDOW_SECONDS
    ) {
      throw new RestError(401, 'woocommerce_rest_authentication_error', 'Invalid timestamp.');
    }
    const nonce = params.get('oauth_nonce') ?? '';
    if (key.nonces.has(nonce)) {
      throw new RestError(401, 'woocommerce_rest_authentication_error', 'Invalid nonce - nonce has already been used.');
    }
    key.nonces.set(nonce, timestamp);
    for (const [used, at] of key.nonces) if (at < now - OAUTH_WINDOW_SECONDS) key.nonces.delete(used);
    return key;
  }

  function checkPermissions(key: FakeKeys, method: string): void {
    const reads = key.permissions === 'read' || key.permissions === 'read_write';
    const writes = key.permissions === 'write' || key.permissions === 'read_write';
    if ((method === 'GET' || method === 'HEAD') && !reads) {
      throw new RestError(
        401,
        'woocommerce_rest_authentication_error',
        'The API key provided does not have read permissions.',
      );
    }
    if (['POST', 'PUT', 'PATCH', 'DELETE'].includes(method) && !writes) {
      throw new RestError(
        401,
        'woocommerce_rest_authentication_error',
        'The API key provided does not have write permissions.',
      );
    }
  }

  // --- routes ---

  interface Answer {
    status: number;
    body: unknown;
    headers?: Record<string, string>;
  }

  function requireOrder(id: number, code: string, message: string): FakeOrder {
    const order = orders.get(id);
    if (order === undefined) throw new RestError(404, code, message);
    return order;
  }

  function listOrders(query: URLSearchParams): Answer {
    const perPage = Number(query.get('per_page') ?? '10');
    if (!Number.isInteger(perPage) || perPage < 1 || perPage > 100) {
      throw new RestError(400, 'rest_invalid_param', 'Invalid parameter(s): per_page', {
        params: { per_page: 'per_page must be between 1 (inclusive) and 100 (inclusive)' },
      });
    }
    const page = Number(query.get('page') ?? '1');
    if (!Number.isInteger(page) || page < 1) {
      throw new RestError(400, 'rest_invalid_param', 'Invalid parameter(s): page', {
        params: { page: 'page must be greater than or equal to 1' },
      });
    }
    const gmt = truthy(query.get('dates_are_gmt') ?? 'false') === true;
    const bounds: { after: number | null; before: number | null } = { after: null, before: null };
    for (const name of ['after', 'before'] as const) {
      const value = query.get(name);
      if (value === null) continue;
      const parsed = filterDate(value, gmt);
      if (parsed === null) {
        throw new RestError(400, 'rest_invalid_param', `Invalid parameter(s): ${name}`, {
          params: { [name]: 'Invalid date.' },
        });
      }
      bounds[name] = parsed;
    }
    const status = query.get('status') ?? 'any';
    const order = query.get('order') ?? 'desc';
    const orderby = query.get('orderby') ?? 'date';
    const matching = [...orders.values()].filter((candidate) => {
      const created = Date.parse(`${candidate.date_created_gmt}Z`);
      // WordPress date queries: `after` and `before` are both exclusive.
      if (bounds.after !== null && !(created > bounds.after)) return false;
      if (bounds.before !== null && !(created < bounds.before)) return false;
      if (status === 'any') return candidate.status !== 'trash';
      return status.split(',').includes(candidate.status);
    });
    matching.sort((a, b) => {
      const byDate = orderby === 'id' ? 0 : a.date_created_gmt.localeCompare(b.date_created_gmt);
      return (byDate !== 0 ? byDate : a.id - b.id) * (order === 'asc' ? 1 : -1);
    });
    const total = matching.length;
    const totalPages = Math.ceil(total / perPage);
    return {
      status: 200,
      body: matching.slice((page - 1) * perPage, page * perPage),
      headers: { 'X-WP-Total': String(total), 'X-WP-TotalPages': String(totalPages) },
    };
  }

  function updateOrder(id: number, body: Record<string, unknown>): Answer {
    const order = requireOrder(id, 'woocommerce_rest_shop_order_invalid_id', 'Invalid ID.');
    const setPaid = body.set_paid === undefined ? false : truthy(body.set_paid);
    if (setPaid === null) {
      throw new RestError(400, 'rest_invalid_param', 'Invalid parameter(s): set_paid', {
        params: { set_paid: 'set_paid is not of type boolean.' },
      });
    }
    if (typeof body.transaction_id === 'string') order.transaction_id = body.transaction_id;
    if (typeof body.customer_note === 'string') order.customer_note = body.customer_note;
    if (typeof body.status === 'string') {
      if (!(body.status in STATUS_NAMES)) {
        throw new RestError(400, 'rest_invalid_param', 'Invalid parameter(s): status', {
          params: { status: `status is not one of ${Object.keys(STATUS_NAMES).join(', ')}.` },
        });
      }
      setStatus(order, body.status);
    }
    touch(order);
    // WC_Order::needs_payment(): pending or failed, total above zero; then payment_complete().
    const needsPayment = (order.status === 'pending' || order.status === 'failed') && cents(order.total) > 0;
    if (setPaid && needsPayment) {
      if (typeof body.transaction_id === 'string' && body.transaction_id !== '') {
        order.transaction_id = body.transaction_id;
      }
      if (order.date_paid_gmt === null) {
        const now = Date.now();
        order.date_paid = siteDate(now);
        order.date_paid_gmt = wooDate(now);
      }
      setStatus(order, 'processing');
    }
    return { status: 200, body: order };
  }

  function createNote(id: number, body: Record<string, unknown>): Answer {
    if (body.id !== undefined && body.id !== 0) {
      throw new RestError(400, 'woocommerce_rest_shop_order_exists', 'Cannot create existing shop_order.');
    }
    if (body.note === undefined) {
      throw new RestError(400, 'rest_missing_callback_param', 'Missing parameter(s): note', { params: ['note'] });
    }
    requireOrder(id, 'woocommerce_rest_order_invalid_id', 'Invalid order ID.');
    const customerNote = body.customer_note === undefined ? false : truthy(body.customer_note);
    if (typeof body.note !== 'string' || customerNote === null) {
      const param = typeof body.note !== 'string' ? 'note' : 'customer_note';
      throw new RestError(400, 'rest_invalid_param', `Invalid parameter(s): ${param}`, {
        params: { [param]: `${param} is not of type ${param === 'note' ? 'string' : 'boolean'}.` },
      });
    }
    const author = truthy(body.added_by_user) === true ? 'admin' : 'WooCommerce';
    const note = addNote(id, body.note, customerNote, author);
    return {
      status: 201,
      body: note,
      headers: { Location: `${url}${API_PREFIX}orders/${id}/notes/${note.id}` },
    };
  }

  function remainingCents(order: FakeOrder): number {
    const refunded = order.refunds.reduce((sum, refund) => sum + Math.abs(cents(refund.total)), 0);
    return cents(order.total) - refunded;
  }

  /** wc_create_refund(): the refund object, the order's refund list, `refunded` when nothing remains. */
  function storeRefund(
    order: FakeOrder,
    amount: number,
    reason: string,
    meta: { key: string; value: unknown }[],
    refundedPayment: boolean,
  ): FakeRefund {
    const now = Date.now();
    const refundId = nextPostId++;
    const refund: FakeRefund = {
      id: refundId,
      date_created: siteDate(now),
      date_created_gmt: wooDate(now),
      amount: money(amount),
      reason,
      refunded_by: 1,
      refunded_payment: refundedPayment,
      meta_data: meta.map((item) => ({ id: nextMetaId++, key: item.key, value: item.value })),
      line_items: [],
      _links: childLinks(order.id, 'refunds', refundId),
    };
    const list = refunds.get(order.id) ?? [];
    list.push(refund);
    refunds.set(order.id, list);
    const remainingBefore = remainingCents(order);
    order.refunds.unshift({ id: refundId, reason, total: `-${money(amount)}` });
    touch(order);
    if (amount === remainingBefore) setStatus(order, 'refunded');
    return refund;
  }

  function adminRefund(id: number | string, input: { amount: string; reason?: string; manual?: boolean }): FakeRefund {
    const order = orders.get(Number(id));
    if (order === undefined) throw new Error(`no order ${id}`);
    const amount = cents(input.amount);
    if (!(amount > 0) || amount > remainingCents(order)) throw new Error('Invalid refund amount.');
    // "Refund via <gateway>" calls the gateway's process_refund: refunded_payment true; "Refund manually" false.
    return storeRefund(order, amount, input.reason ?? '', [], input.manual !== true);
  }

  function deleteAdminRefund(id: number | string, refundId: number): void {
    const orderId = Number(id);
    refunds.set(
      orderId,
      (refunds.get(orderId) ?? []).filter((candidate) => candidate.id !== refundId),
    );
    const order = orders.get(orderId);
    if (order !== undefined) {
      order.refunds = order.refunds.filter((candidate) => candidate.id !== refundId);
      touch(order);
    }
  }

  function createRefund(id: number, body: Record<string, unknown>): Answer {
    const order = orders.get(id);
    if (order === undefined) throw new PlainDataError('woocommerce_rest_invalid_order_id', 'Invalid order ID.', 404);
    const amountText = typeof body.amount === 'number' ? String(body.amount) : body.amount;
    if (amountText !== undefined && (typeof amountText !== 'string' || Number.isNaN(Number(amountText)))) {
      throw new RestError(400, 'rest_invalid_param', 'Invalid parameter(s): amount', {
        params: { amount: 'amount is not of type string.' },
      });
    }
    const amount = cents(amountText ?? '0');
    if (amount < 0) {
      throw new RestError(400, 'woocommerce_rest_invalid_order_refund', 'Refund amount must be greater than zero.');
    }
    const apiRefund = body.api_refund === undefined ? true : truthy(body.api_refund);
    const apiRestock = body.api_restock === undefined ? true : truthy(body.api_restock);
    if (apiRefund === null || apiRestock === null) {
      const param = apiRefund === null ? 'api_refund' : 'api_restock';
      throw new RestError(400, 'rest_invalid_param', `Invalid parameter(s): ${param}`, {
        params: { [param]: `${param} is not of type boolean.` },
      });
    }
    if (amount > remainingCents(order)) {
      // wc_create_refund() refuses; the controller wraps its message: `new WP_Error(..., 500)`.
      throw new PlainDataError('woocommerce_rest_cannot_create_order_refund', 'Invalid refund amount.', 500);
    }
    if (apiRefund) gatewayRefundRequests += 1;
    const reason = typeof body.reason === 'string' ? body.reason : '';
    const meta = (Array.isArray(body.meta_data) ? body.meta_data : []).filter(
      (item): item is { key: string; value: unknown } => typeof item?.key === 'string',
    );
    const refund = storeRefund(order, amount, reason, meta, apiRefund);
    return {
      status: 201,
      body: refund,
      headers: { Location: `${url}${API_PREFIX}orders/${id}/refunds/${refund.id}` },
    };
  }

  function routeExists(method: string, routePath: string): boolean {
    if (routePath === 'orders') return method === 'GET';
    if (/^orders\/\d+$/.test(routePath)) return ['GET', 'PUT', 'POST', 'PATCH'].includes(method);
    if (/^orders\/\d+\/(notes|refunds)$/.test(routePath)) return method === 'GET' || method === 'POST';
    if (/^orders\/\d+\/refunds\/\d+$/.test(routePath)) return method === 'GET' || method === 'DELETE';
    return false;
  }

  /**
   * GET and DELETE orders/{id}/refunds/{refund_id} (WC_REST_CRUD_Controller): a refund is no post to
   * trash, so DELETE without `force=true` is 501 `woocommerce_rest_trash_not_supported`; an unknown
   * refund, or one of another order, 404 `woocommerce_rest_shop_order_refund_invalid_id`. Deleting it
   * (`$refund->delete(true)`) takes it off the order, whose refunded total drops with it.
   */
  function refundItem(method: string, orderId: number, refundId: number, query: URLSearchParams): Answer {
    const list = refunds.get(orderId) ?? [];
    const refund = list.find((candidate) => candidate.id === refundId);
    if (method === 'DELETE' && query.get('force') !== 'true') {
      throw new RestError(501, 'woocommerce_rest_trash_not_supported', 'The refund does not support trashing.');
    }
    if (refund === undefined) {
      throw new RestError(404, 'woocommerce_rest_shop_order_refund_invalid_id', 'Invalid ID.');
    }
    if (method === 'DELETE') {
      refunds.set(
        orderId,
        list.filter((candidate) => candidate.id !== refundId),
      );
      const order = orders.get(orderId);
      if (order !== undefined) {
        order.refunds = order.refunds.filter((candidate) => candidate.id !== refundId);
        touch(order);
      }
    }
    return { status: 200, body: refund };
  }

  /** Runs a route routeExists() accepted. */
  function route(method: string, routePath: string, query: URLSearchParams, body: unknown): Answer {
    const payload = (typeof body === 'object' && body !== null ? body : {}) as Record<string, unknown>;
    if (routePath === 'orders') return listOrders(query);
    const item = /^orders\/(\d+)\/refunds\/(\d+)$/.exec(routePath);
    if (item !== null) return refundItem(method, Number(item[1]), Number(item[2]), query);
    const [, idText = '', child = ''] = /^orders\/(\d+)(?:\/(notes|refunds))?$/.exec(routePath) ?? [];
    const id = Number(idText);
    if (child === '') {
      if (method !== 'GET') return updateOrder(id, payload);
      return { status: 200, body: requireOrder(id, 'woocommerce_rest_shop_order_invalid_id', 'Invalid ID.') };
    }
    if (child === 'notes') {
      if (method === 'POST') return createNote(id, payload);
      requireOrder(id, 'woocommerce_rest_shop_order_invalid_id', 'Invalid order ID.');
      // get_comments(): newest first.
      return { status: 200, body: [...(notes.get(id) ?? [])].reverse() };
    }
    if (method === 'POST') return createRefund(id, payload);
    // The refunds collection is a query on refunds whose parent is the id: no order, no refunds, 200.
    const all = [...(refunds.get(id) ?? [])].reverse();
    const perPage = Number(query.get('per_page') ?? '10');
    const page = Number(query.get('page') ?? '1');
    return {
      status: 200,
      body: all.slice((page - 1) * perPage, page * perPage),
      headers: { 'X-WP-Total': String(all.length), 'X-WP-TotalPages': String(Math.ceil(all.length / perPage)) },
    };
  }

  /** What WordPress answers an unauthenticated caller on a route it knows. */
  function unauthenticated(method: string, routePath: string): RestError {
    if (method === 'GET') {
      const collection = routePath === 'orders' || /\/(notes|refunds)$/.test(routePath);
      const message = collection ? 'Sorry, you cannot list resources.' : 'Sorry, you cannot view this resource.';
      return new RestError(401, 'woocommerce_rest_cannot_view', message);
    }
    if (/^orders\/\d+$/.test(routePath)) {
      return new RestError(401, 'woocommerce_rest_cannot_edit', 'Sorry, you are not allowed to edit this resource.');
    }
    return new RestError(401, 'woocommerce_rest_cannot_create', 'Sorry, you are not allowed to create resources.');
  }

  function send(response: ServerResponse, answer: Answer): void {
    const text = JSON.stringify(answer.body);
    response.writeHead(answer.status, {
      'Content-Type': 'application/json; charset=UTF-8',
      'Content-Length': Buffer.byteLength(text),
      ...answer.headers,
    });
    response.end(text);
  }

  function errorAnswer(error: RestError): Answer {
    if (error instanceof PlainDataError) {
      return { status: 500, body: { code: error.code, message: error.message, data: error.data } };
    }
    return {
      status: error.status,
      body: { code: error.code, message: error.message, data: { status: error.status, ...error.extra } },
      headers: error.headers,
    };
  }

  async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const target = new URL(request.url ?? '/', url);
    const path = target.pathname;
    if (path.startsWith('/wc-auth/')) {
      if (await auth.handle(request, response, target, await readBody(request))) return;
    }
    if (!path.startsWith('/wp-json/')) {
      response.writeHead(404, { 'Content-Type': 'text/html; charset=UTF-8' });
      response.end('<!doctype html><title>Page not found</title><h1>Oops! That page can’t be found.</h1>');
      return;
    }
    const method = (request.method ?? 'GET').toUpperCase();
    const routePath = path.startsWith(API_PREFIX) ? path.slice(API_PREFIX.length).replace(/\/+$/, '') : '';
    const rawBody = await readBody(request);
    const query: Record<string, string> = {};
    for (const [key, value] of target.searchParams) if (!key.startsWith('oauth_')) query[key] = value;
    let body: unknown = null;
    let bodyError: RestError | null = null;
    if (rawBody !== '') {
      try {
        body = JSON.parse(rawBody);
      } catch (error) {
        bodyError = new RestError(400, 'rest_invalid_json', 'Invalid JSON body passed.', {
          json_error_code: 4,
          json_error_message: error instanceof Error ? error.message : 'Syntax error',
        });
      }
    }
    const logged: FakeRequest = { method, path, route: routePath, query, body, status: 0, answer: null };
    requests.push(logged);
    const delay = delays.shift();
    if (delay !== undefined) await new Promise((resolve) => setTimeout(resolve, delay));

    let answer: Answer;
    const failureIndex = failures.findIndex(
      ({ match }) =>
        (match.method === undefined || match.method.toUpperCase() === method) &&
        (match.route === undefined || match.route.test(routePath)) &&
        (match.query === undefined || match.query(query)),
    );
    const failing = failureIndex === -1 ? undefined : failures.splice(failureIndex, 1)[0]?.status;
    if (failing !== undefined) {
      const known = FAILURE_BODIES[failing] ?? { code: 'rest_error', message: 'The store failed to answer.' };
      answer = errorAnswer(
        new RestError(failing, known.code, known.message, {}, failing === 429 ? { 'Retry-After': '1' } : {}),
      );
    } else {
      try {
        if (bodyError !== null) throw bodyError;
        const key = authenticate(request, path, target.searchParams);
        if (key !== null) checkPermissions(key, method);
        if (!routeExists(method, routePath)) {
          throw new RestError(404, 'rest_no_route', 'No route was found matching the URL and request method.');
        }
        // Without a key the route's permission check refuses the caller before its handler runs.
        if (key === null) throw unauthenticated(method, routePath);
        answer = route(method, routePath, target.searchParams, body);
      } catch (error) {
        if (!(error instanceof RestError)) throw error;
        answer = errorAnswer(error);
      }
    }
    logged.status = answer.status;
    logged.answer = answer.body;
    send(response, answer);
  }

  const server: Server = createServer((request, response) => {
    handle(request, response).catch((error: unknown) => {
      response.writeHead(500, { 'Content-Type': 'application/json; charset=UTF-8' });
      response.end(
        JSON.stringify({
          code: 'internal_server_error',
          message: error instanceof Error ? error.message : 'There has been a critical error on this website.',
          data: { status: 500 },
        }),
      );
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  function issueKeys(permissions: FakeKeys['permissions'] = 'read_write'): FakeKeys {
    const issued: FakeKeys = {
      keyId: nextKeyId++,
      consumerKey: `ck_${randomBytes(20).toString('hex')}`,
      consumerSecret: `cs_${randomBytes(20).toString('hex')}`,
      permissions,
    };
    keys.set(issued.consumerKey, { ...issued, nonces: new Map() });
    return issued;
  }

  const auth = createFakeAuth(
    { url: () => url, issueKeys, deleteKey: (consumerKey) => keys.delete(consumerKey) },
    options,
  );

  return {
    url,
    requests,
    get gatewayRefundRequests() {
      return gatewayRefundRequests;
    },
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
    addOrder,
    order: findOrder,
    notes: (id) => [...(notes.get(Number(id)) ?? [])],
    refunds: (id) => [...(refunds.get(Number(id)) ?? [])],
    adminSetStatus(id, status) {
      const order = orders.get(Number(id));
      if (order === undefined) throw new RangeError(`no order ${id}`);
      if (!(status in STATUS_NAMES)) throw new RangeError(`not a WooCommerce order status: ${status}`);
      setStatus(order, status);
      touch(order);
      return order;
    },
    failNext(count, status, match = {}) {
      for (let i = 0; i < count; i += 1) failures.push({ status, match });
    },
    delayNext(count, ms) {
      for (let i = 0; i < count; i += 1) delays.push(ms);
    },
    adminRefund,
    deleteAdminRefund,
    issueKeys,
    revokeKeys() {
      keys.clear();
    },
    approve: (authorizeUrl) => auth.approve(authorizeUrl),
    deny: (authorizeUrl) => auth.deny(authorizeUrl),
    callbackRefusals: auth.refusals,
  };
}
