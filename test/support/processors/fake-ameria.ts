/**
 * A local Ameriabank vPOS 3.x (node:http on 127.0.0.1, port 0) that speaks the bank's wire format
 * and is strict about it. It serves `{base}api/VPOS/{InitPayment,GetPaymentDetails,RefundPayment,
 * ConfirmPayment,CancelPayment}` and the buyer's page `{base}Payments/Pay?id=…&lang=…` (plain HTML forms, no
 * external assets: a headless browser can drive it), which on Pay or Decline sends the browser to
 * the BackURL exactly as the bank does (GET, `orderID`, `resposneCode` with the bank's typo,
 * lower-case `paymentID`, `opaque`, `description`). There is no server callback: the bank has none.
 *
 * What it enforces, and where each answer comes from ([obs]: seen on the bank's test host and
 * recorded by davit-vardanyan/ameriabank-vpos-php CONVENTIONS.md; [fake]: the bank's answer is not
 * on record, so the fake picks one from the manual's code table):
 *
 * - JSON only: another Content-Type is HTTP 415, an unreadable body the HTTP 500 fault (ASP.NET).
 * - InitPayment: wrong ClientID, Username or Password: HTTP 200, integer 20 [obs]; any amount but
 *   10 AMD on the test host: integer 560 "In test mode amount must be 10 AMD" [obs]; an OrderID
 *   outside the merchant's assigned range: integer 510 [fake; the range rule itself is the bank's
 *   onboarding rule]; a missing field 4, a malformed one 510 [fake]; a Currency other than "051" 3
 *   [fake]. The same OrderID again answers the same PaymentID and overwrites the order's
 *   parameters [obs]. PaymentIDs are upper-case GUIDs [obs].
 * - GetPaymentDetails: a payment registered and never opened answers the HTTP 500 fault whatever
 *   the credentials [obs] (or "550", `unattempted: '550'`, also seen [obs]); a wrong password "550"
 *   with every other string empty [obs]; an unknown PaymentID "550" [fake]. The PaymentID is
 *   matched whatever its case [obs]. A decline carries its code in ResponseCode and ActionCode
 *   [fake: no decline has been recorded].
 * - RefundPayment: major units, repeatable partial refunds moving RefundedAmount up and
 *   DepositedAmount down, OrderStatus "4" after any refund [obs]; more than what is deposited: "07"
 *   "Refund amount exceeds deposited amount" [obs]; zero "0125", wrong credentials "20", unknown
 *   PaymentID "550" [fake].
 * - CancelPayment: reverses an unrefunded deposited payment, or releases a held one (two-stage), to
 *   "3", within 72 hours of the payment (manual) [fake: never seen succeed]; otherwise "07"
 *   "Reversal is impossible for current transaction state" [obs].
 * - Two-stage payments (`twoStage`: the terminal the bank set up so): paying holds the amount,
 *   OrderStatus "1" (payment_approved, manual's Table 2) with ApprovedAmount and no
 *   DepositedAmount. ConfirmPayment (PaymentID, credentials, Amount in major units, manual) deposits
 *   it once, for at most the approved amount, to "2" [fake: never seen succeed]. On a one-stage
 *   terminal it answers "0-2012" Operation not supported [fake: the bank's test client refuses
 *   two-stage calls, its code is not on record]; on a payment that is not held, "07" [fake]; a zero
 *   amount "0125", more than approved "0110" Invalid amount [fake].
 *
 * Faults for the next request of an operation: a late answer (the request is handled, the answer
 * waits), the HTTP 500 fault, an HTML error page, HTTP 200 with an error code, a dropped connection
 * before or after handling. Every request is recorded.
 */
import { randomInt, randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

export type FakeOperation = 'InitPayment' | 'GetPaymentDetails' | 'RefundPayment' | 'ConfirmPayment' | 'CancelPayment';
const OPERATIONS: readonly FakeOperation[] = [
  'InitPayment',
  'GetPaymentDetails',
  'RefundPayment',
  'ConfirmPayment',
  'CancelPayment',
];

/** CancelPayment "works within 72 hours after the payment" (manual). */
const CANCEL_WINDOW_MS = 72 * 60 * 60 * 1000;

export interface FakeAmeriaOptions {
  readonly clientId?: string;
  readonly username?: string;
  readonly password?: string;
  /** The OrderID range the bank assigned to the merchant. */
  readonly orderIdMin?: number;
  readonly orderIdMax?: number;
  /** The test host's rule that every payment is exactly 10 AMD (default true). */
  readonly testAmountRule?: boolean;
  /** What GetPaymentDetails answers for a payment registered and never opened (default the HTTP 500 fault). */
  readonly unattempted?: 'fault' | '550';
  /** The fake's clock (milliseconds), for a payment page past its Timeout and CancelPayment's 72 hours. */
  readonly now?: () => number;
  /** The bank set the terminal up for two-stage payments: paying holds the amount until ConfirmPayment. */
  readonly twoStage?: boolean;
}

export type FakeFault =
  /** Handle the request, then answer after `ms` (an answer the caller may no longer wait for). */
  | { readonly kind: 'delay'; readonly ms: number }
  /** Do not handle it: HTTP 500 `{"Message":"An error has occurred."}`. */
  | { readonly kind: 'fault500' }
  /** Do not handle it: an HTML error page (a proxy in front of the bank). */
  | { readonly kind: 'html502' }
  /** Do not handle it: HTTP 200 with this business code, in the operation's answer shape. */
  | { readonly kind: 'error200'; readonly code: string; readonly message?: string }
  /** Do not handle it: close the connection without an answer. */
  | { readonly kind: 'drop' }
  /** Handle the request, then close the connection without an answer (a refund made, its answer lost). */
  | { readonly kind: 'dropAfter' };

export interface RecordedRequest {
  readonly method: string;
  readonly path: string;
  /** The operation, for API calls; null for the buyer's page. */
  readonly operation: FakeOperation | null;
  readonly headers: IncomingMessage['headers'];
  readonly raw: string;
  // biome-ignore lint/suspicious/noExplicitAny: tests read whatever the adapter sent
  readonly json: any;
}

export type FakeOrderStatus = '0' | '1' | '2' | '3' | '4' | '6';

export interface FakeOrder {
  readonly paymentId: string;
  readonly orderId: number;
  amount: number;
  currency: string;
  description: string;
  backUrl: string;
  opaque: string;
  timeoutSeconds: number;
  registeredAt: number;
  registrations: number;
  /** The buyer opened the payment page. */
  opened: boolean;
  status: FakeOrderStatus;
  responseCode: string;
  actionCode: string;
  approvedAmount: number;
  depositedAmount: number;
  refundedAmount: number;
  cardNumber: string;
  rrn: string;
  approvalCode: string;
  processorText: string;
  dateTime: string;
  /** When the buyer paid (CancelPayment's 72 hours run from it); 0 before. */
  paidAt: number;
}

const FAULT_BODY = JSON.stringify({ Message: 'An error has occurred.' });
const TEST_CARD_MASK = '408306**1818';

/** Decline codes the buyer's page offers, with the bank's words for them (manual's Table 1). */
export const FAKE_DECLINES: Readonly<Record<string, string>> = {
  '0100': 'Card declined',
  '0116': 'Not enough money',
  '0-2006': '3-D Secure declined by the issuer',
  '0121': 'Exceeds withdrawal amount limit',
  '0-2007': 'Payment time limit expired',
  '0999': 'Declined by fraud',
};

function isInteger(value: unknown): value is number {
  return typeof value === 'number' && Number.isInteger(value);
}

/** The .NET decimal reader: a JSON number, or a string of digits with up to two decimals. */
function readDecimal(value: unknown): number | undefined {
  if (typeof value === 'number' && Number.isFinite(value)) return value;
  if (typeof value === 'string' && /^\d+(\.\d{1,2})?$/.test(value)) return Number(value);
  return undefined;
}

function pad(n: number): string {
  return String(n).padStart(2, '0');
}

/** `26/08/2026 17:29:07`, as the bank writes dates. */
function bankDateTime(ms: number): string {
  const d = new Date(ms);
  return `${pad(d.getUTCDate())}/${pad(d.getUTCMonth() + 1)}/${d.getUTCFullYear()} ${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}`;
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

export class FakeAmeria {
  readonly clientId: string;
  readonly username: string;
  readonly password: string;
  readonly orderIdMin: number;
  readonly orderIdMax: number;
  readonly testAmountRule: boolean;
  readonly twoStage: boolean;
  unattempted: 'fault' | '550';
  readonly requests: RecordedRequest[] = [];
  /** By upper-case PaymentID. */
  readonly orders = new Map<string, FakeOrder>();
  /** Base URL as the adapter's `base_url`: `http://127.0.0.1:<port>/VPOS/`. */
  baseUrl = '';
  readonly #now: () => number;
  readonly #server: Server;
  readonly #sockets = new Set<Socket>();
  readonly #faults = new Map<FakeOperation, FakeFault[]>();
  readonly #timers = new Set<NodeJS.Timeout>();

  private constructor(options: FakeAmeriaOptions) {
    this.clientId = options.clientId ?? '0b4ac7f2-3e1d-4c55-9a6e-7d2f11c0a9b3';
    this.username = options.username ?? 'merchant-api';
    this.password = options.password ?? 'vpos-test-secret';
    this.orderIdMin = options.orderIdMin ?? 2350301;
    this.orderIdMax = options.orderIdMax ?? 2350400;
    this.testAmountRule = options.testAmountRule ?? true;
    this.twoStage = options.twoStage ?? false;
    this.unattempted = options.unattempted ?? 'fault';
    this.#now = options.now ?? (() => Date.now());
    this.#server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        this.#route(req, res, Buffer.concat(chunks).toString('utf8'));
      });
    });
    this.#server.on('connection', (socket) => {
      this.#sockets.add(socket);
      socket.on('close', () => this.#sockets.delete(socket));
    });
  }

  static async start(options: FakeAmeriaOptions = {}): Promise<FakeAmeria> {
    const fake = new FakeAmeria(options);
    fake.#server.listen(0, '127.0.0.1');
    await once(fake.#server, 'listening');
    fake.baseUrl = `http://127.0.0.1:${(fake.#server.address() as AddressInfo).port}/VPOS/`;
    return fake;
  }

  /** The adapter's settings for this fake. */
  settings(): {
    base_url: string;
    client_id: string;
    username: string;
    password: string;
    order_id_min: number;
    order_id_max: number;
    two_stage?: boolean;
  } {
    return {
      base_url: this.baseUrl,
      client_id: this.clientId,
      username: this.username,
      password: this.password,
      order_id_min: this.orderIdMin,
      order_id_max: this.orderIdMax,
      ...(this.twoStage ? { two_stage: true } : {}),
    };
  }

  /** The next request of `operation` meets `fault` (queued: one fault per request). */
  failNext(operation: FakeOperation, fault: FakeFault): void {
    const queue = this.#faults.get(operation) ?? [];
    queue.push(fault);
    this.#faults.set(operation, queue);
  }

  order(paymentId: string): FakeOrder | undefined {
    return this.orders.get(paymentId.toUpperCase());
  }

  orderByOrderId(orderId: number): FakeOrder | undefined {
    for (const order of this.orders.values()) if (order.orderId === orderId) return order;
    return undefined;
  }

  /** API calls recorded for `operation`, oldest first. */
  calls(operation: FakeOperation): RecordedRequest[] {
    return this.requests.filter((request) => request.operation === operation);
  }

  async close(): Promise<void> {
    for (const timer of this.#timers) clearTimeout(timer);
    for (const socket of this.#sockets) socket.destroy();
    this.#server.close();
    await once(this.#server, 'close');
  }

  #route(req: IncomingMessage, res: ServerResponse, raw: string): void {
    const url = new URL(req.url ?? '/', 'http://fake.invalid');
    const apiMatch = /^\/VPOS\/api\/VPOS\/([A-Za-z]+)$/.exec(url.pathname);
    const operation = apiMatch !== null && OPERATIONS.includes(apiMatch[1] as FakeOperation) ? apiMatch[1] : null;
    let json: unknown;
    try {
      json = JSON.parse(raw);
    } catch {
      json = undefined;
    }
    this.requests.push({
      method: req.method ?? '',
      path: `${url.pathname}${url.search}`,
      operation: operation as FakeOperation | null,
      headers: req.headers,
      raw,
      json,
    });

    if (url.pathname === '/VPOS/Payments/Pay') {
      if (req.method === 'GET') {
        this.#payPage(res, url.searchParams);
        return;
      }
      if (req.method === 'POST') {
        this.#payForm(req, res, new URLSearchParams(raw));
        return;
      }
      this.#json(res, 405, { Message: `The requested resource does not support http method '${req.method}'.` });
      return;
    }
    if (operation === null) {
      this.#json(res, 404, {
        Message: `No HTTP resource was found that matches the request URI '${url.href}'.`,
      });
      return;
    }
    if (req.method !== 'POST') {
      this.#json(res, 405, { Message: `The requested resource does not support http method '${req.method}'.` });
      return;
    }
    const op = operation as FakeOperation;
    const fault = this.#faults.get(op)?.shift();
    if (fault !== undefined) {
      switch (fault.kind) {
        case 'fault500': {
          this.#send(res, 500, 'application/json; charset=utf-8', FAULT_BODY);
          return;
        }
        case 'html502': {
          this.#send(res, 502, 'text/html', '<html><body><h1>502 Bad Gateway</h1></body></html>');
          return;
        }
        case 'error200': {
          this.#json(res, 200, this.#errorBody(op, fault.code, fault.message ?? 'System Error'));
          return;
        }
        case 'drop':
          req.socket.destroy();
          return;
        case 'dropAfter':
        case 'delay':
          break;
      }
    }
    const [status, body] = this.#handle(op, req, json);
    if (fault?.kind === 'dropAfter') {
      req.socket.destroy();
      return;
    }
    if (fault?.kind === 'delay') {
      const timer = setTimeout(() => {
        this.#timers.delete(timer);
        if (!res.destroyed) this.#json(res, status, body);
      }, fault.ms);
      this.#timers.add(timer);
      return;
    }
    this.#json(res, status, body);
  }

  #handle(operation: FakeOperation, req: IncomingMessage, json: unknown): [number, unknown] {
    const type = String(req.headers['content-type'] ?? '');
    if (!/^application\/json(\s*;|$)/i.test(type)) {
      return [
        415,
        {
          Message: `The request entity's media type '${type.split(';')[0] ?? ''}' is not supported for this resource.`,
        },
      ];
    }
    if (json === null || typeof json !== 'object' || Array.isArray(json)) {
      return [500, { Message: 'An error has occurred.' }];
    }
    const body = json as Record<string, unknown>;
    switch (operation) {
      case 'InitPayment':
        return [200, this.#initPayment(body)];
      case 'GetPaymentDetails':
        return this.#paymentDetails(body);
      case 'RefundPayment':
        return [200, this.#refundPayment(body)];
      case 'ConfirmPayment':
        return [200, this.#confirmPayment(body)];
      case 'CancelPayment':
        return [200, this.#cancelPayment(body)];
    }
  }

  #errorBody(operation: FakeOperation, code: string, message: string): unknown {
    switch (operation) {
      case 'InitPayment':
        return { PaymentID: '', ResponseCode: Number.parseInt(code, 10), ResponseMessage: message };
      case 'GetPaymentDetails':
        return this.#emptyDetails(code, message);
      case 'RefundPayment':
      case 'ConfirmPayment':
      case 'CancelPayment':
        return { ResponseCode: code, ResponseMessage: message, Opaque: '' };
    }
  }

  #credentialsOk(body: Record<string, unknown>, withClient: boolean): boolean {
    return (
      (!withClient || body.ClientID === this.clientId) &&
      body.Username === this.username &&
      body.Password === this.password
    );
  }

  #initPayment(body: Record<string, unknown>): unknown {
    const refuse = (code: number, message: string) => ({ PaymentID: '', ResponseCode: code, ResponseMessage: message });
    if (!this.#credentialsOk(body, true)) return refuse(20, 'Incorrect Username and Password');
    for (const field of ['OrderID', 'Amount', 'Description'] as const) {
      if (body[field] === undefined || body[field] === null) return refuse(4, `Required parameter ${field} is missing`);
    }
    if (!isInteger(body.OrderID) || body.OrderID < 1) return refuse(510, 'Incorrect parameters: OrderID');
    const amount = readDecimal(body.Amount);
    if (amount === undefined || amount <= 0) return refuse(510, 'Incorrect parameters: Amount');
    if (body.Currency !== undefined && body.Currency !== '051') return refuse(3, 'Incorrect currency');
    if (typeof body.Description !== 'string' || body.Description.length > 1000) {
      return refuse(510, 'Incorrect parameters: Description');
    }
    for (const field of ['BackURL', 'Opaque'] as const) {
      if (body[field] !== undefined && typeof body[field] !== 'string')
        return refuse(510, `Incorrect parameters: ${field}`);
    }
    if (body.Timeout !== undefined && !isInteger(body.Timeout)) return refuse(510, 'Incorrect parameters: Timeout');
    if (this.testAmountRule && amount !== 10) return refuse(560, 'In test mode amount must be 10 AMD');
    if (body.OrderID < this.orderIdMin || body.OrderID > this.orderIdMax) {
      return refuse(510, 'OrderID is not in the range assigned to the merchant');
    }
    const params = {
      amount,
      currency: '051',
      description: body.Description,
      backUrl: typeof body.BackURL === 'string' ? body.BackURL : '',
      opaque: typeof body.Opaque === 'string' ? body.Opaque : '',
      // The server takes any Timeout; 1200 when absent.
      timeoutSeconds: isInteger(body.Timeout) ? body.Timeout : 1200,
    };
    const existing = this.orderByOrderId(body.OrderID);
    if (existing !== undefined) {
      existing.registrations += 1;
      if (existing.status === '0') {
        Object.assign(existing, params);
        existing.registeredAt = this.#now();
      }
      return { PaymentID: existing.paymentId, ResponseCode: 1, ResponseMessage: 'OK' };
    }
    const order: FakeOrder = {
      paymentId: randomUUID().toUpperCase(),
      orderId: body.OrderID,
      ...params,
      registeredAt: this.#now(),
      registrations: 1,
      opened: false,
      status: '0',
      responseCode: '',
      actionCode: '',
      approvedAmount: 0,
      depositedAmount: 0,
      refundedAmount: 0,
      cardNumber: '',
      rrn: '',
      approvalCode: '',
      processorText: '',
      dateTime: bankDateTime(this.#now()),
      paidAt: 0,
    };
    this.orders.set(order.paymentId, order);
    return { PaymentID: order.paymentId, ResponseCode: 1, ResponseMessage: 'OK' };
  }

  #emptyDetails(code: string, description: string): Record<string, unknown> {
    return {
      Amount: 0.0,
      ApprovedAmount: 0.0,
      ApprovalCode: '',
      CardNumber: '',
      ClientName: '',
      ClientEmail: '',
      Currency: '',
      DateTime: '',
      DepositedAmount: 0.0,
      Description: description,
      MDOrderID: '',
      MerchantId: '',
      TerminalId: '',
      OrderID: '',
      PaymentState: '',
      PaymentType: 0,
      PrimaryRC: '',
      ResponseCode: code,
      ExpDate: '',
      ProcessingIP: '',
      OrderStatus: '',
      CardHolderID: '',
      BindingID: '',
      RefundedAmount: 0.0,
      Opaque: '',
      TrxnDescription: '',
      rrn: '',
      ActionCode: '',
      ExchangeRate: 0.0,
      BankInfo: { BankName: '', BankCountryCode: '', BankCountryName: '' },
    };
  }

  #paymentDetails(body: Record<string, unknown>): [number, unknown] {
    const order = typeof body.PaymentID === 'string' ? this.order(body.PaymentID) : undefined;
    if (order === undefined) return [200, this.#emptyDetails('550', 'System Error')];
    // The fault comes before any verdict on the credentials.
    if (order.status === '0' && !order.opened && this.unattempted === 'fault') {
      return [500, { Message: 'An error has occurred.' }];
    }
    if (!this.#credentialsOk(body, false)) return [200, this.#emptyDetails('550', 'System Error')];
    if (order.status === '0' && !order.opened) return [200, this.#emptyDetails('550', 'System Error')];
    return [200, this.#details(order)];
  }

  #details(order: FakeOrder): Record<string, unknown> {
    const state: Record<FakeOrderStatus, string> = {
      '0': 'payment_started',
      '1': 'payment_approved',
      '2': 'payment_deposited',
      '3': 'payment_void',
      '4': 'payment_refunded',
      '6': 'payment_declined',
    };
    const paid = order.status !== '0';
    return {
      Amount: order.amount,
      ApprovedAmount: order.approvedAmount,
      ApprovalCode: order.approvalCode,
      CardNumber: order.cardNumber,
      ClientName: paid ? 'TEST CARD VPOS' : '',
      ClientEmail: '',
      Currency: order.currency,
      DateTime: order.dateTime,
      DepositedAmount: order.depositedAmount,
      Description: order.processorText,
      MDOrderID: order.rrn,
      MerchantId: paid ? '12345678' : '',
      TerminalId: paid ? '87654321' : '',
      OrderID: String(order.orderId),
      PaymentState: state[order.status],
      PaymentType: 5,
      PrimaryRC: '',
      ResponseCode: order.status === '0' ? '00' : order.responseCode,
      ExpDate: paid ? '202805' : '',
      ProcessingIP: paid ? '203.0.113.7' : '',
      OrderStatus: order.status,
      CardHolderID: '',
      BindingID: '',
      RefundedAmount: order.refundedAmount,
      Opaque: order.opaque,
      TrxnDescription: order.description,
      rrn: order.rrn,
      ActionCode: order.actionCode,
      ExchangeRate: 0.0,
      BankInfo: { BankName: '', BankCountryCode: 'AM', BankCountryName: 'Armenia' },
    };
  }

  #refundPayment(body: Record<string, unknown>): unknown {
    const answer = (code: string, message: string, opaque = '') => ({
      ResponseCode: code,
      ResponseMessage: message,
      Opaque: opaque,
    });
    if (!this.#credentialsOk(body, false)) return answer('20', 'Incorrect Username and Password');
    const order = typeof body.PaymentID === 'string' ? this.order(body.PaymentID) : undefined;
    if (order === undefined) return answer('550', 'System Error');
    if (body.Amount === undefined || body.Amount === null) return answer('04', 'Required parameter Amount is missing');
    const amount = readDecimal(body.Amount);
    if (amount === undefined) return answer('510', 'Incorrect parameters', order.opaque);
    if (amount <= 0) return answer('0125', 'Zero refund amount', order.opaque);
    if ((order.status !== '2' && order.status !== '4') || amount > order.depositedAmount) {
      return answer('07', 'Refund amount exceeds deposited amount', order.opaque);
    }
    order.depositedAmount -= amount;
    order.refundedAmount += amount;
    order.status = '4';
    order.processorText = 'Approved. - Refunded payment back to client card';
    return answer('00', 'Success', order.opaque);
  }

  #cancelPayment(body: Record<string, unknown>): unknown {
    const answer = (code: string, message: string, opaque = '') => ({
      ResponseCode: code,
      ResponseMessage: message,
      Opaque: opaque,
    });
    if (!this.#credentialsOk(body, false)) return answer('20', 'Incorrect Username and Password');
    const order = typeof body.PaymentID === 'string' ? this.order(body.PaymentID) : undefined;
    if (order === undefined) return answer('550', 'System Error');
    const reversible = order.status === '1' || (order.status === '2' && order.refundedAmount === 0);
    if (!reversible || this.#now() > order.paidAt + CANCEL_WINDOW_MS) {
      return answer('07', 'Reversal is impossible for current transaction state', order.opaque);
    }
    order.status = '3';
    order.depositedAmount = 0;
    order.processorText = 'Approved. - Payment reversed';
    return answer('00', 'Success', order.opaque);
  }

  #confirmPayment(body: Record<string, unknown>): unknown {
    const answer = (code: string, message: string, opaque = '') => ({
      ResponseCode: code,
      ResponseMessage: message,
      Opaque: opaque,
    });
    if (!this.#credentialsOk(body, false)) return answer('20', 'Incorrect Username and Password');
    const order = typeof body.PaymentID === 'string' ? this.order(body.PaymentID) : undefined;
    if (order === undefined) return answer('550', 'System Error');
    if (body.Amount === undefined || body.Amount === null) return answer('04', 'Required parameter Amount is missing');
    const amount = readDecimal(body.Amount);
    if (amount === undefined) return answer('510', 'Incorrect parameters', order.opaque);
    if (!this.twoStage) return answer('0-2012', 'Operation not supported', order.opaque);
    if (order.status !== '1')
      return answer('07', 'Confirmation is impossible for current transaction state', order.opaque);
    if (amount <= 0) return answer('0125', 'Zero amount', order.opaque);
    if (amount > order.approvedAmount) return answer('0110', 'Invalid amount', order.opaque);
    order.status = '2';
    order.depositedAmount = amount;
    order.processorText = 'Approved. - Payment post authorized';
    return answer('00', 'Success', order.opaque);
  }

  /** Marks the order paid, as the page's Pay button does. */
  pay(order: FakeOrder): void {
    order.opened = true;
    // A two-stage terminal holds the amount (payment_approved) until ConfirmPayment deposits it.
    order.status = this.twoStage ? '1' : '2';
    order.responseCode = '00';
    order.actionCode = '0';
    order.approvedAmount = order.amount;
    order.depositedAmount = this.twoStage ? 0 : order.amount;
    order.refundedAmount = 0;
    order.cardNumber = TEST_CARD_MASK;
    order.rrn = randomUUID();
    order.approvalCode = String(randomInt(100000, 999999));
    order.processorText = this.twoStage ? 'Approved. - Payment pre-authorized' : 'Approved. - Payment post authorized';
    order.dateTime = bankDateTime(this.#now());
    order.paidAt = this.#now();
  }

  /** Marks the order declined with `code`, as the page's Decline button does. */
  decline(order: FakeOrder, code: string): void {
    order.opened = true;
    order.status = '6';
    order.responseCode = code;
    order.actionCode = code;
    order.cardNumber = TEST_CARD_MASK;
    order.rrn = randomUUID();
    order.processorText = FAKE_DECLINES[code] ?? 'Declined';
    order.dateTime = bankDateTime(this.#now());
  }

  /** Where the bank sends the browser back to after the page. */
  backUrlFor(order: FakeOrder, code: string, description: string): string {
    const url = new URL(order.backUrl);
    url.searchParams.append('orderID', String(order.orderId));
    url.searchParams.append('resposneCode', code);
    url.searchParams.append('paymentID', order.paymentId.toLowerCase());
    url.searchParams.append('opaque', order.opaque);
    url.searchParams.append('description', description);
    return url.href;
  }

  #expired(order: FakeOrder): boolean {
    return this.#now() > order.registeredAt + order.timeoutSeconds * 1000;
  }

  #payPage(res: ServerResponse, query: URLSearchParams): void {
    const order = this.order(query.get('id') ?? '');
    if (order === undefined) {
      this.#html(res, 404, 'Payment not found', '<p>Unknown payment.</p>');
      return;
    }
    const lang = query.get('lang') ?? 'am';
    if (!['am', 'ru', 'en'].includes(lang)) {
      this.#html(res, 400, 'Bad request', '<p>Unknown language.</p>');
      return;
    }
    order.opened = true;
    if (order.status !== '0') {
      this.#html(res, 409, 'Already processed', '<p>This payment has already been processed.</p>');
      return;
    }
    if (this.#expired(order)) {
      this.#finish(res, order, 'decline', '0-2007');
      return;
    }
    const options = Object.entries(FAKE_DECLINES)
      .map(([code, text]) => `<option value="${escapeHtml(code)}">${escapeHtml(code)} ${escapeHtml(text)}</option>`)
      .join('');
    this.#html(
      res,
      200,
      'Ameriabank vPOS (fake)',
      `<h1>Pay ${escapeHtml(String(order.amount))} AMD</h1>` +
        `<p id="description">${escapeHtml(order.description)}</p>` +
        `<p>Order <span id="order-id">${order.orderId}</span></p>` +
        '<form method="post" action="/VPOS/Payments/Pay">' +
        `<input type="hidden" name="id" value="${escapeHtml(order.paymentId)}">` +
        `<input type="hidden" name="lang" value="${escapeHtml(lang)}">` +
        `<label>Decline code <select name="code">${options}</select></label>` +
        '<button type="submit" name="action" value="pay" id="pay">Pay</button>' +
        '<button type="submit" name="action" value="decline" id="decline">Decline</button>' +
        '</form>',
    );
  }

  #payForm(req: IncomingMessage, res: ServerResponse, form: URLSearchParams): void {
    const type = String(req.headers['content-type'] ?? '');
    if (!type.startsWith('application/x-www-form-urlencoded')) {
      this.#html(res, 415, 'Unsupported', '<p>Form posts only.</p>');
      return;
    }
    const order = this.order(form.get('id') ?? '');
    if (order === undefined) {
      this.#html(res, 404, 'Payment not found', '<p>Unknown payment.</p>');
      return;
    }
    if (order.status !== '0') {
      this.#html(res, 409, 'Already processed', '<p>This payment has already been processed.</p>');
      return;
    }
    const action = form.get('action');
    if (this.#expired(order)) {
      this.#finish(res, order, 'decline', '0-2007');
      return;
    }
    if (action === 'pay') {
      this.#finish(res, order, 'pay', '00');
      return;
    }
    if (action === 'decline') {
      const code = form.get('code') ?? '0100';
      this.#finish(res, order, 'decline', code in FAKE_DECLINES ? code : '0100');
      return;
    }
    this.#html(res, 400, 'Bad request', '<p>Choose Pay or Decline.</p>');
  }

  #finish(res: ServerResponse, order: FakeOrder, action: 'pay' | 'decline', code: string): void {
    if (action === 'pay') this.pay(order);
    else this.decline(order, code);
    const description = action === 'pay' ? 'Operation Approved ' : (FAKE_DECLINES[code] ?? 'Declined');
    if (order.backUrl === '') {
      this.#html(res, 200, 'Done', `<p>${escapeHtml(description)}</p>`);
      return;
    }
    res.writeHead(302, { Location: this.backUrlFor(order, code, description), 'Content-Length': '0' });
    res.end();
  }

  #html(res: ServerResponse, status: number, title: string, body: string): void {
    this.#send(
      res,
      status,
      'text/html; charset=utf-8',
      `<!doctype html><html><head><meta charset="utf-8"><title>${escapeHtml(title)}</title></head><body>${body}</body></html>`,
    );
  }

  #json(res: ServerResponse, status: number, body: unknown): void {
    this.#send(res, status, 'application/json; charset=utf-8', JSON.stringify(body));
  }

  #send(res: ServerResponse, status: number, contentType: string, body: string): void {
    res.writeHead(status, { 'Content-Type': contentType, 'Content-Length': String(Buffer.byteLength(body)) });
    res.end(body);
  }
}
