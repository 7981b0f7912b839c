/**
 * A local ArCa iPay (BPC REST) host for tests: node:http on 127.0.0.1, a random port. It speaks the
 * wire format of docs/processors.md "ArCa" and is strict:
 *
 * - only `POST /payment/rest/<op>.do` with an `application/x-www-form-urlencoded` body; parameters
 *   anywhere else (a query string, a JSON body) are not read, so such a call misses its login
 *   (`errorCode` 4); an `Accept: application/json` alone gets the HTTP 406 page some hosts serve;
 * - answers are HTTP 200 with JSON served as `text/plain`, errors included (`errorCode` 1 duplicate
 *   order number, 3 currency, 4 missing parameter, 5 refused value or access denied, 6 unknown
 *   order, 7 wrong state or over-refund); `errorCode` 0 is a number, a string or absent by option;
 * - amounts are minor units: an AMD amount that is not whole drams (not a multiple of 100) is
 *   refused, which catches major units sent as minor ones only by accident, so tests also assert
 *   the amounts recorded;
 * - two-phase orders (holds): `registerPreAuth.do` takes `register.do`'s parameters; paid, the
 *   order is approved (`orderStatus` 1, held). `deposit.do` (`orderId`, `amount` in minor units, at
 *   most the held amount; 0 the whole of it) deposits it once (2); `reverse.do` (`orderId`) releases
 *   it (3) only until the end of the bank day it was paid on, and a reversal refused once is
 *   refused again (BPC's notes). Either on an order in another state: `errorCode` 7 "Payment must be
 *   in a correct state"; on a one-phase order, too. Refunds go up to what was deposited.
 * - the legacy `getOrderStatus.do` is not served (404): the gateway never calls it.
 *
 * It keeps orders, serves the payment page at `formUrl` (plain HTML forms: Pay, Decline with a
 * reason) which sends the browser back to `returnUrl` (or `failUrl`) with `orderId=<mdOrder>`
 * appended to the address's own query, and makes BPC's callback (GET, `checksum` when a key is
 * set) when one is configured. Faults for the next call: a late answer, HTTP 500, HTTP 200 with an
 * error, an arbitrary body, a dropped connection (with or without the call taking effect).
 */
import { createHmac, randomInt, randomUUID } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export type FakeArcaOperation =
  | 'register'
  | 'registerPreAuth'
  | 'getOrderStatusExtended'
  | 'refund'
  | 'deposit'
  | 'reverse';

export type FakeArcaFault =
  /** The call takes effect; the answer comes after `ms`. */
  | { readonly kind: 'delay'; readonly ms: number }
  /** An HTTP 500 page; `apply`: the call took effect all the same (default: it did not). */
  | { readonly kind: 'http500'; readonly apply?: boolean }
  /** HTTP 200 carrying an error; nothing takes effect. */
  | { readonly kind: 'error200'; readonly errorCode: number | string; readonly errorMessage: string }
  /** This exact body (HTTP 200); nothing takes effect. */
  | { readonly kind: 'body'; readonly body: string }
  /** The connection is destroyed; `apply`: after the call took effect (default), else before. */
  | { readonly kind: 'drop'; readonly apply?: boolean };

export interface FakeArcaOptions {
  readonly username?: string;
  readonly password?: string;
  readonly terminalId?: string;
  /** How `errorCode` 0 is written: a number (ArCa), a string, or left out. */
  readonly successCode?: 'number' | 'string' | 'absent';
  /** The masked card's key in `cardAuthInfo`. */
  readonly panField?: 'pan' | 'maskedPan';
  /** Leave `refundedAmount` out of `paymentAmountInfo` (only the `refunds` list says it). */
  readonly omitRefundedAmount?: boolean;
  /** BPC callbacks, when the bank set them up: where, and the checksum key (null: unsigned). */
  readonly callback?: { readonly url: string; readonly secret: string | null };
  /** The bank's clock (milliseconds), for the bank day a reversal must stay within. */
  readonly now?: () => number;
}

export interface RecordedArcaRequest {
  readonly operation: string;
  readonly method: string;
  readonly contentType: string;
  readonly accept: string;
  /** The query string as sent (credentials must never be there). */
  readonly query: string;
  /** The form body's parameters. */
  readonly params: Readonly<Record<string, string>>;
}

export interface FakeArcaRefund {
  readonly amount: number;
  readonly referenceNumber: string;
  readonly date: number;
}

export interface FakeArcaOrder {
  readonly orderId: string;
  readonly orderNumber: string;
  /** Minor units. */
  readonly amount: number;
  readonly currency: string;
  readonly returnUrl: string;
  readonly failUrl: string | null;
  readonly description: string;
  readonly language: string;
  readonly sessionTimeoutSecs: number;
  readonly createdAt: number;
  /** Registered with `registerPreAuth.do`: paying it holds the amount (status 1) until deposited or reversed. */
  readonly twoPhase: boolean;
  status: number;
  actionCode: number;
  /** Minor units deposited (what refunds may give back); 0 until deposited. */
  deposited: number;
  /** When the buyer paid (the bank day a reversal must stay within); null before. */
  paidAt: number | null;
  /** A reversal of this order was refused: BPC refuses every later one. */
  reversalRefused: boolean;
  pan: string | null;
  authRefNum: string | null;
  approvalCode: string | null;
  readonly refunds: FakeArcaRefund[];
}

export interface DeliveredCallback {
  readonly params: Readonly<Record<string, string>>;
  /** The gateway's HTTP status, or null when it could not be reached. */
  readonly status: number | null;
}

/** Decline reasons of the payment page, with the action code BPC records for each. */
export const FAKE_ARCA_DECLINES = {
  declined: 5,
  insufficient_funds: 116,
  '3ds_failed': -2006,
  limit: 121,
  expired_card: 101,
  fraud: -2000,
  processing_timeout: 151019,
} as const;
export type FakeArcaDecline = keyof typeof FAKE_ARCA_DECLINES;

const PAYMENT_STATES: Record<number, string> = {
  0: 'CREATED',
  1: 'APPROVED',
  2: 'DEPOSITED',
  3: 'REVERSED',
  4: 'REFUNDED',
  5: 'CREATED',
  6: 'DECLINED',
};

const ORDER_ID = /^[0-9a-f]{8}(-[0-9a-f]{4}){3}-[0-9a-f]{12}$/i;

class ArcaError extends Error {
  constructor(
    readonly code: number,
    message: string,
  ) {
    super(message);
  }
}

const escapeHtml = (text: string) =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c);

function digits(length: number): string {
  let out = '';
  for (let i = 0; i < length; i++) out += String(randomInt(10));
  return out;
}

function isHttpUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return url.protocol === 'https:' || url.protocol === 'http:';
  } catch {
    return false;
  }
}

/** `url` with `orderId` appended to its own query, as BPC sends the buyer back. */
function withOrderId(url: string, orderId: string): string {
  const hash = url.indexOf('#');
  const base = hash === -1 ? url : url.slice(0, hash);
  const fragment = hash === -1 ? '' : url.slice(hash);
  return `${base}${base.includes('?') ? '&' : '?'}orderId=${orderId}${fragment}`;
}

export class FakeArca {
  readonly requests: RecordedArcaRequest[] = [];
  readonly callbacks: DeliveredCallback[] = [];
  readonly orders = new Map<string, FakeArcaOrder>();
  readonly username: string;
  readonly password: string;
  readonly terminalId: string;
  private readonly faults: Array<{ operation: FakeArcaOperation | null; fault: FakeArcaFault }> = [];
  private readonly timers = new Set<NodeJS.Timeout>();
  private server: http.Server | null = null;
  private port = 0;
  options: FakeArcaOptions;

  constructor(options: FakeArcaOptions = {}) {
    this.options = options;
    this.username = options.username ?? 'shop_api';
    this.password = options.password ?? 'pass-Secr3t!';
    this.terminalId = options.terminalId ?? '22533421';
  }

  async start(): Promise<this> {
    const server = http.createServer((req, res) => {
      this.route(req, res).catch(() => {
        if (!res.headersSent) res.writeHead(500, { 'Content-Type': 'text/plain' });
        res.end('fake failure');
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    this.server = server;
    this.port = (server.address() as AddressInfo).port;
    return this;
  }

  get origin(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  /** The `base_url` setting for this host. */
  get baseUrl(): string {
    return `${this.origin}/payment/rest/`;
  }

  async close(): Promise<void> {
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
    const server = this.server;
    if (server === null) return;
    this.server = null;
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  /** A fault for the next call (of `operation`, or of any operation). */
  failNext(fault: FakeArcaFault, operation: FakeArcaOperation | null = null): void {
    this.faults.push({ operation, fault });
  }

  requestsOf(operation: FakeArcaOperation): RecordedArcaRequest[] {
    return this.requests.filter((request) => request.operation === operation);
  }

  order(orderId: string): FakeArcaOrder {
    const order = this.orders.get(orderId);
    if (order === undefined) throw new Error(`fake ArCa has no order ${orderId}`);
    return order;
  }

  orderByNumber(orderNumber: string): FakeArcaOrder | undefined {
    for (const order of this.orders.values()) if (order.orderNumber === orderNumber) return order;
    return undefined;
  }

  refundedAmount(order: FakeArcaOrder): number {
    return order.refunds.reduce((sum, refund) => sum + refund.amount, 0);
  }

  /** The buyer pays with `card` (what the page's Pay button does): deposited, or held for a two-phase order. */
  async pay(orderId: string, card = '4111111111111111'): Promise<FakeArcaOrder> {
    const order = this.order(orderId);
    this.expireIfDue(order);
    if (order.status !== 0) throw new Error(`order ${orderId} is not waiting for a card (status ${order.status})`);
    order.status = order.twoPhase ? 1 : 2;
    order.deposited = order.twoPhase ? 0 : order.amount;
    order.paidAt = this.now();
    order.actionCode = 0;
    order.pan = `${card.slice(0, 6)}**${card.slice(-4)}`;
    order.authRefNum = digits(12);
    order.approvalCode = digits(6);
    await this.notify(order, order.twoPhase ? 'approved' : 'deposited', 1, order.amount);
    return order;
  }

  private now(): number {
    return this.options.now?.() ?? Date.now();
  }

  /** The buyer's card is declined for `reason` (what the page's Decline button does). */
  async decline(
    orderId: string,
    reason: FakeArcaDecline = 'declined',
    card = '4000000000000002',
  ): Promise<FakeArcaOrder> {
    const order = this.order(orderId);
    this.expireIfDue(order);
    if (order.status !== 0) throw new Error(`order ${orderId} is not waiting for a card (status ${order.status})`);
    order.status = 6;
    order.actionCode = FAKE_ARCA_DECLINES[reason];
    order.pan = `${card.slice(0, 6)}**${card.slice(-4)}`;
    await this.notify(order, 'deposited', 0, order.amount);
    return order;
  }

  /** The time to enter the card runs out (BPC declines the order with action code -2007). */
  async expire(orderId: string): Promise<FakeArcaOrder> {
    const order = this.order(orderId);
    if (order.status !== 0) throw new Error(`order ${orderId} is not waiting for a card (status ${order.status})`);
    order.status = 6;
    order.actionCode = -2007;
    await this.notify(order, 'declinedByTimeout', 1, order.amount);
    return order;
  }

  private expireIfDue(order: FakeArcaOrder): void {
    if (order.status === 0 && Date.now() > order.createdAt + order.sessionTimeoutSecs * 1000) {
      order.status = 6;
      order.actionCode = -2007;
    }
  }

  /** BPC's callback, when configured: GET with the symmetric checksum when a key is set. */
  private async notify(order: FakeArcaOrder, operation: string, status: 0 | 1, amount: number | null): Promise<void> {
    const callback = this.options.callback;
    if (callback === undefined) return;
    const params: Record<string, string> = {
      mdOrder: order.orderId,
      orderNumber: order.orderNumber,
      operation,
      status: String(status),
    };
    if (amount !== null) params.amount = String(amount);
    if (callback.secret !== null) params.checksum = fakeArcaChecksum(params, callback.secret);
    const url = new URL(callback.url);
    for (const [name, value] of Object.entries(params)) url.searchParams.append(name, value);
    let answered: number | null = null;
    try {
      const response = await fetch(url, { signal: AbortSignal.timeout(2000) });
      await response.arrayBuffer();
      answered = response.status;
    } catch {
      answered = null;
    }
    this.callbacks.push({ params, status: answered });
  }

  private async route(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', this.origin);
    const body = await readBody(req);
    const api = /^\/payment\/rest\/([A-Za-z]+)\.do$/.exec(url.pathname);
    if (api !== null) {
      await this.api(api[1] as string, req, res, url, body);
      return;
    }
    const page = /^\/payment\/merchants\/([^/]+)\/payment_([a-z]{2})\.html$/.exec(url.pathname);
    if (page !== null && req.method === 'GET' && page[1] === this.terminalId) {
      this.paymentPage(res, url.searchParams.get('mdOrder') ?? '', page[2] as string);
      return;
    }
    const act = /^\/payment\/merchants\/([^/]+)\/process$/.exec(url.pathname);
    if (act !== null && req.method === 'POST' && act[1] === this.terminalId) {
      await this.buyerAction(req, res, body);
      return;
    }
    html(res, 404, '<h1>404 Not Found</h1>');
  }

  private async api(
    operation: string,
    req: http.IncomingMessage,
    res: http.ServerResponse,
    url: URL,
    body: string,
  ): Promise<void> {
    const contentType = req.headers['content-type'] ?? '';
    const form = contentType.split(';')[0]?.trim().toLowerCase() === 'application/x-www-form-urlencoded';
    const pairs = form ? [...new URLSearchParams(body)] : [];
    const params: Record<string, string> = {};
    let repeated = false;
    for (const [name, value] of pairs) {
      if (Object.hasOwn(params, name)) repeated = true;
      else params[name] = value;
    }
    this.requests.push({
      operation,
      method: req.method ?? '',
      contentType,
      accept: req.headers.accept ?? '',
      query: url.search,
      params,
    });
    const known: readonly string[] = [
      'register',
      'registerPreAuth',
      'getOrderStatusExtended',
      'refund',
      'deposit',
      'reverse',
    ];
    if (!known.includes(operation)) {
      html(res, 404, '<h1>404 Not Found</h1>');
      return;
    }
    if (req.method !== 'POST') {
      html(res, 405, '<h1>405 Method Not Allowed</h1>');
      return;
    }
    if (req.headers.accept?.trim() === 'application/json') {
      html(res, 406, '<h1>HTTP Status 406 - Not Acceptable</h1>');
      return;
    }
    const index = this.faults.findIndex((entry) => entry.operation === null || entry.operation === operation);
    const fault = index === -1 ? undefined : this.faults.splice(index, 1)[0]?.fault;
    if (fault?.kind === 'error200') {
      json(res, { errorCode: fault.errorCode, errorMessage: fault.errorMessage });
      return;
    }
    if (fault?.kind === 'body') {
      res.writeHead(200, { 'Content-Type': 'text/plain;charset=UTF-8' });
      res.end(fault.body);
      return;
    }
    // An HTTP 500 takes no effect unless told; a dropped connection takes effect unless told.
    const takesEffect =
      fault?.kind === 'http500' ? fault.apply === true : fault?.kind === 'drop' ? fault.apply !== false : true;
    if (!takesEffect) {
      if (fault?.kind === 'drop') req.socket.destroy();
      else html(res, 500, '<h1>HTTP Status 500 - Internal Server Error</h1>');
      return;
    }
    let answer: Record<string, unknown>;
    try {
      if (repeated) throw new ArcaError(5, 'Invalid value of one of the parameters.');
      this.authenticate(params);
      answer = await this.operate(operation as FakeArcaOperation, params);
    } catch (error) {
      if (!(error instanceof ArcaError)) throw error;
      answer = this.errorAnswer(error);
    }
    if (fault?.kind === 'drop') {
      req.socket.destroy();
      return;
    }
    if (fault?.kind === 'http500') {
      html(res, 500, '<h1>HTTP Status 500 - Internal Server Error</h1>');
      return;
    }
    if (fault?.kind === 'delay') {
      await new Promise<void>((resolve) => {
        const timer = setTimeout(() => {
          this.timers.delete(timer);
          resolve();
        }, fault.ms);
        this.timers.add(timer);
      });
      if (res.destroyed) return;
    }
    json(res, answer);
  }

  private authenticate(params: Record<string, string>): void {
    if (!params.userName) throw new ArcaError(4, 'Empty merchant user name');
    if (!params.password) throw new ArcaError(4, 'Password cannot be empty');
    if (params.userName !== this.username || params.password !== this.password) {
      throw new ArcaError(5, 'Access denied');
    }
  }

  private operate(operation: FakeArcaOperation, params: Record<string, string>): Promise<Record<string, unknown>> {
    switch (operation) {
      case 'register':
        return Promise.resolve(this.register(params, false));
      case 'registerPreAuth':
        return Promise.resolve(this.register(params, true));
      case 'getOrderStatusExtended':
        return Promise.resolve(this.orderStatus(params));
      case 'refund':
        return this.refund(params);
      case 'deposit':
        return this.deposit(params);
      case 'reverse':
        return this.reverse(params);
    }
  }

  private success(fields: Record<string, unknown>): Record<string, unknown> {
    switch (this.options.successCode ?? 'number') {
      case 'number':
        return { errorCode: 0, errorMessage: 'Success', ...fields };
      case 'string':
        return { errorCode: '0', errorMessage: 'Success', ...fields };
      case 'absent':
        return fields;
    }
  }

  private errorAnswer(error: ArcaError): Record<string, unknown> {
    return (this.options.successCode ?? 'number') === 'number'
      ? { errorCode: error.code, errorMessage: error.message, errorCodeString: String(error.code), error: true }
      : { errorCode: String(error.code), errorMessage: error.message };
  }

  private register(params: Record<string, string>, twoPhase: boolean): Record<string, unknown> {
    const orderNumber = params.orderNumber ?? '';
    if (orderNumber === '') throw new ArcaError(4, 'Order number is empty');
    if (orderNumber.length > 32) throw new ArcaError(5, 'Invalid orderNumber');
    const amount = params.amount ?? '';
    if (amount === '') throw new ArcaError(4, 'Empty amount');
    const currency = params.currency ?? '643';
    if (currency !== '051') throw new ArcaError(3, 'Unknown currency');
    if (!/^[1-9]\d*$/.test(amount) || Number(amount) % 100 !== 0) throw new ArcaError(5, 'Invalid amount');
    const returnUrl = params.returnUrl ?? '';
    if (returnUrl === '') throw new ArcaError(4, 'Return URL cannot be empty');
    if (!isHttpUrl(returnUrl) || returnUrl.length > 512)
      throw new ArcaError(5, 'Invalid value of one of the parameters.');
    const failUrl = params.failUrl ?? null;
    if (failUrl !== null && (!isHttpUrl(failUrl) || failUrl.length > 512)) {
      throw new ArcaError(5, 'Invalid value of one of the parameters.');
    }
    const description = params.description ?? '';
    if (description.length > 512 || /[%+\r\n]/.test(description)) {
      throw new ArcaError(5, 'Invalid value of one of the parameters.');
    }
    const language = params.language ?? 'hy';
    if (!['hy', 'ru', 'en'].includes(language)) throw new ArcaError(5, 'Wrong value of the language parameter');
    const timeout = params.sessionTimeoutSecs ?? '1200';
    if (!/^[1-9]\d*$/.test(timeout)) throw new ArcaError(5, 'Invalid value of one of the parameters.');
    if (params.jsonParams !== undefined) throw new ArcaError(5, 'Invalid [jsonParams]');
    if (this.orderByNumber(orderNumber) !== undefined) {
      throw new ArcaError(1, 'Order number is duplicated, order with given order number is processed already');
    }
    const order: FakeArcaOrder = {
      orderId: randomUUID(),
      orderNumber,
      amount: Number(amount),
      currency,
      returnUrl,
      failUrl,
      description,
      language,
      sessionTimeoutSecs: Number(timeout),
      createdAt: Date.now(),
      twoPhase,
      status: 0,
      actionCode: -100,
      deposited: 0,
      paidAt: null,
      reversalRefused: false,
      pan: null,
      authRefNum: null,
      approvalCode: null,
      refunds: [],
    };
    this.orders.set(order.orderId, order);
    return this.success({ orderId: order.orderId, formUrl: this.formUrl(order) });
  }

  formUrl(order: FakeArcaOrder): string {
    return `${this.origin}/payment/merchants/${this.terminalId}/payment_${order.language}.html?mdOrder=${order.orderId}`;
  }

  private find(params: Record<string, string>): FakeArcaOrder {
    // orderId wins when both are given.
    if (params.orderId !== undefined) {
      const order = ORDER_ID.test(params.orderId) ? this.orders.get(params.orderId) : undefined;
      if (order === undefined) throw new ArcaError(6, 'No such order');
      return order;
    }
    if (params.orderNumber !== undefined) {
      const order = this.orderByNumber(params.orderNumber);
      if (order === undefined) throw new ArcaError(6, 'No such order');
      return order;
    }
    throw new ArcaError(4, 'Expected [orderId] or [orderNumber]');
  }

  private orderStatus(params: Record<string, string>): Record<string, unknown> {
    const order = this.find(params);
    this.expireIfDue(order);
    const refunded = this.refundedAmount(order);
    const deposited = order.status === 2 || order.status === 4;
    const approved = deposited || order.status === 1;
    const amountInfo: Record<string, unknown> = {
      paymentState: PAYMENT_STATES[order.status] ?? 'CREATED',
      approvedAmount: approved ? order.amount : 0,
      depositedAmount: deposited ? order.deposited - refunded : 0,
    };
    if (this.options.omitRefundedAmount !== true) amountInfo.refundedAmount = refunded;
    const answer: Record<string, unknown> = {
      orderNumber: order.orderNumber,
      orderStatus: order.status,
      actionCode: order.actionCode,
      actionCodeDescription: '',
      amount: order.amount,
      currency: order.currency,
      date: order.createdAt,
      orderDescription: order.description,
      merchantOrderParams: [],
      attributes: [{ name: 'mdOrder', value: order.orderId }],
      terminalId: this.terminalId,
      paymentAmountInfo: amountInfo,
      bankInfo: { bankCountryCode: 'AM', bankCountryName: 'Armenia' },
    };
    if (order.pan !== null) {
      answer.cardAuthInfo = {
        [this.options.panField ?? 'pan']: order.pan,
        expiration: '203012',
        cardholderName: 'TEST CARDHOLDER',
        ...(order.approvalCode === null ? {} : { approvalCode: order.approvalCode }),
      };
    }
    if (order.authRefNum !== null) {
      answer.authRefNum = order.authRefNum;
      answer.authDateTime = order.createdAt;
    }
    if (order.refunds.length > 0) {
      answer.refunds = order.refunds.map((refund) => ({ ...refund, actionCode: 0 }));
    }
    return this.success(answer);
  }

  private async refund(params: Record<string, string>): Promise<Record<string, unknown>> {
    if (params.orderId === undefined || params.orderId === '') throw new ArcaError(5, '[orderId] is empty');
    const order = this.find({ orderId: params.orderId });
    const amount = params.amount ?? '';
    if (!/^[1-9]\d*$/.test(amount) || Number(amount) % 100 !== 0) {
      throw new ArcaError(5, 'Deposit amount must be zero, or more than 1 currency unit');
    }
    if (order.status !== 2) throw new ArcaError(7, 'Payment must be in a correct state');
    const refunded = this.refundedAmount(order);
    if (refunded + Number(amount) > order.deposited) throw new ArcaError(7, 'Refund amount exceeds the payment amount');
    order.refunds.push({ amount: Number(amount), referenceNumber: digits(12), date: Date.now() });
    if (refunded + Number(amount) === order.deposited) order.status = 4;
    await this.notify(order, 'refunded', 1, Number(amount));
    return this.success({});
  }

  /** Completes a held order: once, for at most the held amount (0: all of it). */
  private async deposit(params: Record<string, string>): Promise<Record<string, unknown>> {
    if (params.orderId === undefined || params.orderId === '') throw new ArcaError(5, '[orderId] is empty');
    const order = this.find({ orderId: params.orderId });
    const amount = params.amount ?? '';
    if (amount === '') throw new ArcaError(4, 'Empty amount');
    if (!/^\d+$/.test(amount) || Number(amount) % 100 !== 0) {
      throw new ArcaError(5, 'Deposit amount must be zero, or more than 1 currency unit');
    }
    if (!order.twoPhase || order.status !== 1) throw new ArcaError(7, 'Payment must be in a correct state');
    const taken = Number(amount) === 0 ? order.amount : Number(amount);
    if (taken > order.amount) throw new ArcaError(5, 'Incorrect amount');
    order.status = 2;
    order.deposited = taken;
    await this.notify(order, 'deposited', 1, taken);
    return this.success({});
  }

  /** Releases a held order: only on the bank day it was paid, and never after a refused reversal. */
  private async reverse(params: Record<string, string>): Promise<Record<string, unknown>> {
    if (params.orderId === undefined || params.orderId === '') throw new ArcaError(5, '[orderId] is empty');
    const order = this.find({ orderId: params.orderId });
    if (params.amount !== undefined) throw new ArcaError(5, 'Invalid value of one of the parameters.');
    const sameDay =
      order.paidAt !== null &&
      new Date(order.paidAt).toISOString().slice(0, 10) === new Date(this.now()).toISOString().slice(0, 10);
    if (!order.twoPhase || order.status !== 1 || order.reversalRefused || !sameDay) {
      order.reversalRefused = true;
      throw new ArcaError(7, 'Payment must be in a correct state');
    }
    order.status = 3;
    await this.notify(order, 'reversed', 1, null);
    return this.success({});
  }

  private paymentPage(res: http.ServerResponse, mdOrder: string, language: string): void {
    const order = this.orders.get(mdOrder);
    if (order === undefined) {
      html(res, 404, '<h1>Order not found</h1>');
      return;
    }
    this.expireIfDue(order);
    if (order.status !== 0) {
      html(res, 200, `<h1>Order ${escapeHtml(order.orderNumber)} is already processed</h1>`);
      return;
    }
    const action = `/payment/merchants/${this.terminalId}/process`;
    const reasons = Object.keys(FAKE_ARCA_DECLINES)
      .map((reason) => `<option value="${reason}">${reason}</option>`)
      .join('');
    const amd = (order.amount / 100).toFixed(2);
    html(
      res,
      200,
      `<!doctype html><html lang="${escapeHtml(language)}"><head><meta charset="utf-8"><title>ArCa payment</title></head><body>` +
        `<h1>Pay ${amd} AMD</h1><p id="description">${escapeHtml(order.description)}</p>` +
        `<form method="post" action="${action}"><input type="hidden" name="mdOrder" value="${order.orderId}">` +
        '<label>Card number <input name="card" value="4111111111111111" inputmode="numeric"></label>' +
        '<button type="submit" name="action" value="pay">Pay</button></form>' +
        `<form method="post" action="${action}"><input type="hidden" name="mdOrder" value="${order.orderId}">` +
        `<label>Reason <select name="reason">${reasons}</select></label>` +
        '<button type="submit" name="action" value="decline">Decline</button></form>' +
        '</body></html>',
    );
  }

  private async buyerAction(req: http.IncomingMessage, res: http.ServerResponse, body: string): Promise<void> {
    if ((req.headers['content-type'] ?? '').split(';')[0]?.trim() !== 'application/x-www-form-urlencoded') {
      html(res, 415, '<h1>Unsupported form</h1>');
      return;
    }
    const form = new URLSearchParams(body);
    const order = this.orders.get(form.get('mdOrder') ?? '');
    if (order === undefined) {
      html(res, 404, '<h1>Order not found</h1>');
      return;
    }
    this.expireIfDue(order);
    if (order.status !== 0) {
      html(res, 409, `<h1>Order ${escapeHtml(order.orderNumber)} is already processed</h1>`);
      return;
    }
    const action = form.get('action');
    if (action === 'pay') {
      const card = (form.get('card') ?? '').replace(/\s/g, '');
      if (!/^\d{16}$/.test(card)) {
        html(res, 422, '<h1>Wrong card data entered</h1>');
        return;
      }
      await this.pay(order.orderId, card);
      redirect(res, withOrderId(order.returnUrl, order.orderId));
      return;
    }
    const reason = form.get('reason') ?? 'declined';
    if (action !== 'decline' || !Object.hasOwn(FAKE_ARCA_DECLINES, reason)) {
      html(res, 422, '<h1>Unknown action</h1>');
      return;
    }
    await this.decline(order.orderId, reason as FakeArcaDecline);
    redirect(res, withOrderId(order.failUrl ?? order.returnUrl, order.orderId));
  }
}

/** BPC's symmetric callback checksum, computed independently of the adapter's. */
export function fakeArcaChecksum(params: Readonly<Record<string, string>>, secret: string): string {
  const source = Object.keys(params)
    .filter((name) => name !== 'checksum' && name !== 'sign_alias')
    .sort()
    .map((name) => `${name};${params[name]};`)
    .join('');
  return createHmac('sha256', secret).update(source).digest('hex').toUpperCase();
}

export async function startFakeArca(options: FakeArcaOptions = {}): Promise<FakeArca> {
  return new FakeArca(options).start();
}

function readBody(req: http.IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

function json(res: http.ServerResponse, body: unknown): void {
  // ArCa serves its JSON as text/plain.
  res.writeHead(200, { 'Content-Type': 'text/plain;charset=UTF-8' });
  res.end(JSON.stringify(body));
}

function html(res: http.ServerResponse, status: number, body: string): void {
  res.writeHead(status, { 'Content-Type': 'text/html;charset=UTF-8' });
  res.end(body);
}

function redirect(res: http.ServerResponse, location: string): void {
  res.writeHead(302, { Location: location });
  res.end();
}
