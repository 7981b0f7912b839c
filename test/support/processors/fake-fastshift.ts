/**
 * A fake FastShift ("Pay by FastShift" v1.0 vPOS) for tests: a real HTTP server on 127.0.0.1 that
 * speaks the manual's wire format under `/api/en/`:
 *
 * - `POST vpos/order/register` (JSON, `Authorization: Bearer {token}`): 200 `{"status":"OK","data":
 *   {"order":{...},"redirect_url":"..."}}`; 422 `{"status":"INVALID_DATA","errors":{field: message}}`
 *   for a missing, mistyped or malformed field (one message per field, as the manual shows it), an
 *   order number already taken, an amount over the merchant's limit; 401 UNAUTHORIZED for a wrong
 *   token, 403 FORBIDDEN for a server that is not allow-listed.
 * - `GET vpos/order/status/{order_number}`: the order and `fastshift_id`; 404 NOT_FOUND.
 * - The buyer's page at `redirect_url` (`/pay/{order_guid}`): plain HTML with "Pay" and "Decline".
 *   Pressing one settles the order, calls `webhook_url` with `status` and `order_number` (unsigned,
 *   as the manual has it: a JSON POST unless told otherwise), then sends the browser to
 *   `callback_url` with `status` and `order_number` in the query.
 *
 * Where the manual is silent the fake picks the strict reading and says so: a body that is not
 * `application/json` is read as empty (every required field missing); keys the manual does not list
 * are refused; a second register with the same order number is refused (or, with
 * `duplicate: 'same_order'`, answered with the order already registered); the webhook's and
 * callback's `status` are the order's statuses (`completed`, `rejected`). FastShift has no refund
 * API, so there is none here either (any other path answers 404 NOT_FOUND).
 *
 * Faults (`failNext`) apply to the next API call (register or status): a delay, HTTP 500 APP_ERROR,
 * HTTP 200 carrying `{"status":"ERROR"}`, HTTP 400 ERROR, or a dropped connection.
 */
import { randomUUID } from 'node:crypto';
import { once } from 'node:events';
import {
  createServer,
  type IncomingHttpHeaders,
  type IncomingMessage,
  type Server,
  type ServerResponse,
} from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

const API_PREFIX = '/api/en/';
const GUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const REGISTER_FIELDS = [
  'order_number',
  'amount',
  'description',
  'callback_url',
  'webhook_url',
  'username',
  'user_ssn',
  'check_evoca_account',
  'account_guid',
  'external_order_id',
] as const;

export interface FakeFastShiftOptions {
  /** The merchant's bearer token. */
  readonly token?: string;
  /** What a register with an order number already registered answers. */
  readonly duplicate?: 'refuse' | 'same_order';
  /** The merchant's largest amount (AMD). */
  readonly maxAmount?: number;
  /** How the webhook is sent: a JSON POST, a form POST, or a GET with a query. */
  readonly webhook?: 'json' | 'form' | 'query';
  /** How long an order stays payable. */
  readonly orderLifetimeMs?: number;
  /** This server's address is not on FastShift's allow-list: every API call answers 403 FORBIDDEN. */
  readonly forbidden?: boolean;
  readonly now?: () => number;
}

export type FakeFastShiftFault =
  | { readonly kind: 'delay'; readonly ms: number }
  | { readonly kind: 'http500' }
  | { readonly kind: 'error200'; readonly message?: string }
  | { readonly kind: 'logical_error'; readonly message: string }
  | { readonly kind: 'drop' };

export interface FakeFastShiftOrder {
  readonly order_number: string;
  readonly order_guid: string;
  readonly amount: number;
  readonly description: string;
  status: string;
  readonly created_at: string;
  completed_at: string | null;
  readonly expires_at: string;
  readonly expiresAtMs: number;
  readonly external_order_id: string | null;
  readonly callback_url: string;
  readonly webhook_url: string | null;
  fastshift_id: string | null;
}

export interface RecordedFastShiftRequest {
  readonly method: string;
  readonly path: string;
  readonly headers: IncomingHttpHeaders;
  readonly body: string;
  /** The body parsed as JSON; undefined when it is not JSON. */
  readonly json: unknown;
}

export interface FakeFastShiftWebhook {
  readonly url: string;
  readonly method: 'GET' | 'POST';
  readonly contentType: string | null;
  readonly body: string;
  /** The gateway's answer; null when the call failed. */
  readonly status: number | null;
  readonly answer: string;
}

/** `yyyy-mm-dd HH:MM:SS` (the manual names no time zone; the fake writes UTC). */
function fastshiftTime(ms: number): string {
  return new Date(ms).toISOString().slice(0, 19).replace('T', ' ');
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

function isHttpUrl(value: unknown): boolean {
  if (typeof value !== 'string') return false;
  try {
    const url = new URL(value);
    return url.protocol === 'https:' || url.protocol === 'http:';
  } catch {
    return false;
  }
}

function label(field: string): string {
  return field.replaceAll('_', ' ');
}

export class FakeFastShift {
  readonly requests: RecordedFastShiftRequest[] = [];
  readonly webhooks: FakeFastShiftWebhook[] = [];
  readonly #orders = new Map<string, FakeFastShiftOrder>();
  readonly #server: Server;
  readonly #sockets = new Set<Socket>();
  readonly #faults: FakeFastShiftFault[] = [];
  #options: Required<FakeFastShiftOptions>;
  #payerCounter = 10_000_000;
  origin = '';

  private constructor(options: FakeFastShiftOptions) {
    this.#options = {
      token: 'fs_test_token_0001',
      duplicate: 'refuse',
      maxAmount: 5_000_000,
      webhook: 'json',
      orderLifetimeMs: 15 * 60 * 1000,
      forbidden: false,
      now: () => Date.now(),
      ...options,
    };
    this.#server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        this.#handle(req, res, Buffer.concat(chunks).toString('utf8')).catch((error: unknown) => {
          if (!res.headersSent) this.#json(res, 500, { status: 'APP_ERROR', message: String(error) });
        });
      });
    });
    this.#server.on('connection', (socket) => {
      this.#sockets.add(socket);
      socket.on('close', () => this.#sockets.delete(socket));
    });
  }

  static async start(options: FakeFastShiftOptions = {}): Promise<FakeFastShift> {
    const fake = new FakeFastShift(options);
    fake.#server.listen(0, '127.0.0.1');
    await once(fake.#server, 'listening');
    fake.origin = `http://127.0.0.1:${(fake.#server.address() as AddressInfo).port}`;
    return fake;
  }

  /** The `base_url` setting for this fake. */
  get baseUrl(): string {
    return `${this.origin}${API_PREFIX}`;
  }

  get token(): string {
    return this.#options.token;
  }

  /** Changes how the fake behaves from now on (a test's own case). */
  configure(options: Partial<FakeFastShiftOptions>): void {
    this.#options = { ...this.#options, ...options };
  }

  /** The next API call (register or status) meets `fault`. */
  failNext(fault: FakeFastShiftFault): void {
    this.#faults.push(fault);
  }

  order(orderNumber: string): FakeFastShiftOrder | undefined {
    const order = this.#orders.get(orderNumber.toLowerCase());
    if (order !== undefined) this.#expireIfDue(order);
    return order;
  }

  /**
   * Settles an order as the buyer would in the app, without the page (a confirmation that arrives
   * late, or a status FastShift may add later); calls the webhook unless told not to.
   */
  async settle(orderNumber: string, status: string, options: { webhook?: boolean } = {}): Promise<void> {
    const order = this.#mustFind(orderNumber);
    this.#settle(order, status);
    if (options.webhook ?? true) await this.#callWebhook(order);
  }

  /** The order's time runs out now. */
  expire(orderNumber: string): void {
    const order = this.#mustFind(orderNumber);
    if (order.status === 'pending') this.#settle(order, 'expired');
  }

  /** The buyer's browser presses "Pay" or "Decline" on the page: where it is sent next (the Location). */
  async press(redirectUrl: string, action: 'pay' | 'decline'): Promise<string> {
    const response = await fetch(redirectUrl, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ action }).toString(),
      redirect: 'manual',
    });
    const location = response.headers.get('location');
    if (response.status !== 302 || location === null) throw new Error(`the page answered ${response.status}`);
    return location;
  }

  async close(): Promise<void> {
    for (const socket of this.#sockets) socket.destroy();
    this.#server.close();
    await once(this.#server, 'close');
  }

  #mustFind(orderNumber: string): FakeFastShiftOrder {
    const order = this.order(orderNumber);
    if (order === undefined) throw new Error(`the fake has no order ${orderNumber}`);
    return order;
  }

  #settle(order: FakeFastShiftOrder, status: string): void {
    order.status = status;
    order.completed_at = fastshiftTime(this.#options.now());
    if (status === 'completed') {
      this.#payerCounter += 1;
      order.fastshift_id = String(this.#payerCounter);
    }
  }

  #expireIfDue(order: FakeFastShiftOrder): void {
    if (order.status === 'pending' && this.#options.now() >= order.expiresAtMs) this.#settle(order, 'expired');
  }

  async #handle(req: IncomingMessage, res: ServerResponse, body: string): Promise<void> {
    const url = new URL(req.url ?? '/', this.origin);
    if (url.pathname.startsWith('/pay/')) return this.#page(req, res, url, body);
    let json: unknown;
    try {
      json = JSON.parse(body);
    } catch {
      json = undefined;
    }
    this.requests.push({ method: req.method ?? '', path: url.pathname + url.search, headers: req.headers, body, json });
    const fault = this.#faults.shift();
    if (fault !== undefined) {
      switch (fault.kind) {
        case 'delay':
          await new Promise((resolve) => setTimeout(resolve, fault.ms));
          break;
        case 'http500':
          return this.#json(res, 500, { status: 'APP_ERROR', message: 'Server Error' });
        case 'error200':
          return this.#json(res, 200, { status: 'ERROR', message: fault.message ?? 'Service temporarily unavailable' });
        case 'logical_error':
          return this.#json(res, 400, { status: 'ERROR', message: fault.message });
        case 'drop':
          req.socket.destroy();
          return;
      }
    }
    if (req.headers.authorization !== `Bearer ${this.#options.token}`) {
      return this.#json(res, 401, { status: 'UNAUTHORIZED', message: 'Unauthenticated.' });
    }
    if (this.#options.forbidden) return this.#json(res, 403, { status: 'FORBIDDEN', message: 'Access denied.' });
    if (req.method === 'POST' && url.pathname === `${API_PREFIX}vpos/order/register`) {
      const contentType = (req.headers['content-type'] ?? '').split(';')[0]?.trim().toLowerCase();
      return this.#register(res, contentType === 'application/json' ? json : undefined);
    }
    const status = url.pathname.match(/^\/api\/en\/vpos\/order\/status\/([^/]+)$/);
    if (req.method === 'GET' && status !== null) {
      const order = this.order(decodeURIComponent(status[1] ?? ''));
      if (order === undefined) return this.#json(res, 404, { status: 'NOT_FOUND', message: 'Order not found.' });
      return this.#json(res, 200, {
        status: 'OK',
        data: { order: this.#orderJson(order, false), fastshift_id: order.fastshift_id },
      });
    }
    return this.#json(res, 404, { status: 'NOT_FOUND', message: 'Not found.' });
  }

  #register(res: ServerResponse, input: unknown): void {
    const body: Record<string, unknown> =
      typeof input === 'object' && input !== null && !Array.isArray(input) ? (input as Record<string, unknown>) : {};
    const errors: Record<string, string> = {};
    for (const key of Object.keys(body)) {
      if (!(REGISTER_FIELDS as readonly string[]).includes(key)) errors[key] = `The ${label(key)} field is prohibited.`;
    }
    const required = (field: string): boolean => {
      const present = body[field] !== undefined && body[field] !== null && body[field] !== '';
      if (!present) errors[field] = `The ${label(field)} field is required.`;
      return present;
    };
    const orderNumber = body.order_number;
    let existing: FakeFastShiftOrder | undefined;
    if (required('order_number')) {
      if (typeof orderNumber !== 'string' || !GUID.test(orderNumber)) {
        errors.order_number = 'The order number must be a valid UUID.';
      } else {
        existing = this.#orders.get(orderNumber.toLowerCase());
        if (existing !== undefined && this.#options.duplicate === 'refuse') {
          errors.order_number = 'The order number has already been taken.';
        }
      }
    }
    const amount = body.amount;
    if (required('amount')) {
      if (typeof amount !== 'number' || !Number.isInteger(amount)) errors.amount = 'The amount must be an integer.';
      else if (amount < 1) errors.amount = 'The amount must be at least 1.';
      else if (amount > this.#options.maxAmount) {
        errors.amount = `The amount must not be greater than ${this.#options.maxAmount}.`;
      }
    }
    if (required('description') && typeof body.description !== 'string') {
      errors.description = 'The description must be a string.';
    }
    if (required('callback_url') && !isHttpUrl(body.callback_url)) {
      errors.callback_url = 'The callback url must be a valid URL.';
    }
    if (body.webhook_url !== undefined && !isHttpUrl(body.webhook_url)) {
      errors.webhook_url = 'The webhook url must be a valid URL.';
    }
    for (const field of ['username', 'user_ssn', 'external_order_id'] as const) {
      if (body[field] !== undefined && typeof body[field] !== 'string') {
        errors[field] = `The ${label(field)} must be a string.`;
      }
    }
    if (body.check_evoca_account !== undefined && typeof body.check_evoca_account !== 'boolean') {
      errors.check_evoca_account = 'The check evoca account field must be true or false.';
    }
    if (body.account_guid !== undefined && (typeof body.account_guid !== 'string' || !GUID.test(body.account_guid))) {
      errors.account_guid = 'The account guid must be a valid UUID.';
    }
    if (Object.keys(errors).length > 0) {
      this.#json(res, 422, { status: 'INVALID_DATA', errors });
      return;
    }

    let order = existing;
    if (order === undefined) {
      const now = this.#options.now();
      const expiresAtMs = now + this.#options.orderLifetimeMs;
      order = {
        order_number: orderNumber as string,
        order_guid: randomUUID(),
        amount: amount as number,
        description: body.description as string,
        status: 'pending',
        created_at: fastshiftTime(now),
        completed_at: null,
        expires_at: fastshiftTime(expiresAtMs),
        expiresAtMs,
        external_order_id: (body.external_order_id as string | undefined) ?? null,
        callback_url: body.callback_url as string,
        webhook_url: (body.webhook_url as string | undefined) ?? null,
        fastshift_id: null,
      };
      this.#orders.set(order.order_number.toLowerCase(), order);
    }
    this.#json(res, 200, {
      status: 'OK',
      data: { order: this.#orderJson(order, true), redirect_url: `${this.origin}/pay/${order.order_guid}` },
    });
  }

  #orderJson(order: FakeFastShiftOrder, withExternalId: boolean): Record<string, unknown> {
    return {
      order_number: order.order_number,
      order_guid: order.order_guid,
      amount: order.amount,
      description: order.description,
      status: order.status,
      created_at: order.created_at,
      completed_at: order.completed_at,
      expires_at: order.expires_at,
      account_guid: null,
      ...(withExternalId ? { external_order_id: order.external_order_id } : {}),
    };
  }

  async #page(req: IncomingMessage, res: ServerResponse, url: URL, body: string): Promise<void> {
    const guid = url.pathname.slice('/pay/'.length);
    const order = [...this.#orders.values()].find((candidate) => candidate.order_guid === guid);
    if (order === undefined) return this.#html(res, 404, '<h1>Order not found</h1>');
    this.#expireIfDue(order);
    if (req.method === 'POST') {
      const action = new URLSearchParams(body).get('action');
      if (action !== 'pay' && action !== 'decline') return this.#html(res, 400, '<h1>Choose Pay or Decline</h1>');
      if (order.status === 'pending') {
        this.#settle(order, action === 'pay' ? 'completed' : 'rejected');
        await this.#callWebhook(order);
      }
      const back = new URL(order.callback_url);
      back.searchParams.set('status', order.status);
      back.searchParams.set('order_number', order.order_number);
      res.writeHead(302, { Location: back.href, 'Content-Length': '0' });
      res.end();
      return;
    }
    const closed = order.status === 'pending' ? '' : `<p id="closed">This order is ${escapeHtml(order.status)}.</p>`;
    this.#html(
      res,
      200,
      `<h1>Pay by FastShift</h1>` +
        `<p id="description">${escapeHtml(order.description)}</p>` +
        `<p id="amount">${order.amount} AMD</p>${closed}` +
        `<form method="post" action="/pay/${escapeHtml(order.order_guid)}">` +
        `<button type="submit" name="action" value="pay">Pay</button> ` +
        `<button type="submit" name="action" value="decline">Decline</button>` +
        `</form>`,
    );
  }

  async #callWebhook(order: FakeFastShiftOrder): Promise<void> {
    if (order.webhook_url === null) return;
    const fields = { status: order.status, order_number: order.order_number };
    const style = this.#options.webhook;
    let target = order.webhook_url;
    let method: 'GET' | 'POST' = 'POST';
    let contentType: string | null = null;
    let body = '';
    if (style === 'query') {
      const url = new URL(order.webhook_url);
      for (const [name, value] of Object.entries(fields)) url.searchParams.set(name, value);
      target = url.href;
      method = 'GET';
    } else if (style === 'form') {
      contentType = 'application/x-www-form-urlencoded';
      body = new URLSearchParams(fields).toString();
    } else {
      contentType = 'application/json';
      body = JSON.stringify(fields);
    }
    try {
      const response = await fetch(target, {
        method,
        headers: contentType === null ? {} : { 'Content-Type': contentType },
        ...(method === 'POST' ? { body } : {}),
        redirect: 'manual',
        signal: AbortSignal.timeout(5000),
      });
      this.webhooks.push({
        url: target,
        method,
        contentType,
        body,
        status: response.status,
        answer: await response.text(),
      });
    } catch {
      this.webhooks.push({ url: target, method, contentType, body, status: null, answer: '' });
    }
  }

  #json(res: ServerResponse, status: number, body: unknown): void {
    const text = JSON.stringify(body);
    res.writeHead(status, { 'Content-Type': 'application/json', 'Content-Length': String(Buffer.byteLength(text)) });
    res.end(text);
  }

  #html(res: ServerResponse, status: number, content: string): void {
    const text = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>FastShift</title></head><body>${content}</body></html>`;
    res.writeHead(status, {
      'Content-Type': 'text/html; charset=utf-8',
      'Content-Length': String(Buffer.byteLength(text)),
    });
    res.end(text);
  }
}
