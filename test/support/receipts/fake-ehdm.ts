/**
 * A local e-HDM (node:https on 127.0.0.1, port 0) that speaks the SRC's wire format and is as
 * strict as the public sources say the real one is. It serves `POST
 * /taxsystem-rs-vcr/api/v1.0/{checkConnection,print,printReturnReceipt,getReturnedReceiptInfo}`
 * over mutual TLS: a client certificate signed by the test CA is required (test/support/receipts/
 * certs/), and its subject (`CN=<TIN> Tin`) binds it to the register.
 *
 * What it enforces, and where each answer comes from ([pub]: named by public sources, see
 * docs/receipts.md; [ours]: no public source gives the real answer, so the fake picks one, and the
 * adapter never relies on it except where docs/receipts.md says so):
 *
 * - Transport: another HTTP method 405, another content type 415, an unreadable body 400, another
 *   path 404, each as a JSON error page (the shape a public proxy copies from the service), not
 *   an envelope. Every other answer is HTTP 200 with `{code, message, result, errorMessage}`.
 * - A `crn` other than the certificate's register: 403 UNAUTHORIZED_CONNECTION ([pub] for a call
 *   from an unregistered address; [ours] that a foreign CRN answers the same).
 * - `seq` not above the last one seen for the register: 104 INVALID_SEQ [pub]. Any request that
 *   passes this check moves the register's last seq, whatever comes after ([ours]).
 * - `print`: mode 2 or 3, cashierId, amounts (>= 0, 2 decimals), partnerTin (null or 8 digits),
 *   items (adgCode, a configured dep, goodCode/goodName/unit of 1-50 characters, quantity > 0 with
 *   3 decimals, price > 0 with 2 decimals): 160 INVALID_FIELD naming the field [ours]; a dep the
 *   register has not configured 164 [ours]; mode 3 with items 187 INVALID_ITEMS [pub]; paid
 *   (card + cash + partial + prepayment) below the total 152 PAID_AMOUNT_LESS_THAN_TOTAL [pub].
 *   Discounts are not simulated (160 on the field).
 * - `printReturnReceipt`: the sale must exist (404 [ours]) and be a sale (163 [ours]); each line's
 *   quantity not above what is left of it (161 [ours]); card + cash given back equal to the value
 *   of the quantities returned, half-up at 2 decimals (162 [ours]), and each not above what was
 *   paid that way less what was given back before (165 [ours]).
 * - `getReturnedReceiptInfo` for a receipt the register has not issued: 404 RECEIPT_NOT_FOUND
 *   [ours; the adapter's RECEIPT_NOT_FOUND_CODE].
 *
 * Receipt ids are sequential per register from 1. Totals are the exact sum of price x quantity,
 * rounded half-up to 2 decimals once per receipt [ours]. The QR text has the shape of the public
 * example; its time is Yerevan's (UTC+4), as in that example.
 *
 * Faults for the next request of a method: a late answer (handled, answered after a delay), an
 * HTML 500 page, HTTP 200 with an error envelope, a connection dropped before handling, and one
 * dropped after handling (the receipt IS issued, its answer lost). Every request is recorded.
 */
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createServer, type Server } from 'node:https';
import type { AddressInfo, Socket } from 'node:net';
import type { TLSSocket } from 'node:tls';
import { fileURLToPath } from 'node:url';
import type { EhdmConfig } from '../../../gateway/receipts/ehdm/adapter.js';

export const FAKE_PATH_PREFIX = '/taxsystem-rs-vcr/api/v1.0/';

export type FakeEhdmMethod = 'checkConnection' | 'print' | 'printReturnReceipt' | 'getReturnedReceiptInfo';
const METHODS: readonly FakeEhdmMethod[] = ['checkConnection', 'print', 'printReturnReceipt', 'getReturnedReceiptInfo'];

/** The fake's own codes ([ours]): no public source names the real ones. */
export const FAKE_CODES = {
  INVALID_FIELD: 160,
  RETURN_QUANTITY_EXCEEDED: 161,
  RETURN_AMOUNT_MISMATCH: 162,
  NOT_A_SALE_RECEIPT: 163,
  UNKNOWN_DEPARTMENT: 164,
  RETURN_EXCEEDS_PAID: 165,
  RECEIPT_NOT_FOUND: 404,
} as const;

export type FakeEhdmFault =
  /** Handle the request, then answer after `ms` (an answer the caller may no longer wait for). */
  | { readonly kind: 'delay'; readonly ms: number }
  /** Do not handle it: HTTP 500 with an HTML page (a proxy or the container in front of the service). */
  | { readonly kind: 'html500' }
  /** Do not handle it: HTTP 200 with this error envelope. */
  | { readonly kind: 'error'; readonly code: number; readonly message: string; readonly errorMessage?: string }
  /** Do not handle it: close the connection without an answer. */
  | { readonly kind: 'drop' }
  /** Handle it (a receipt is issued), then close the connection without an answer. */
  | { readonly kind: 'processThenDrop' };

export interface FakeEhdmRequest {
  readonly httpMethod: string;
  readonly path: string;
  /** The e-HDM method, or null for another path. */
  readonly method: FakeEhdmMethod | null;
  readonly headers: IncomingMessage['headers'];
  /** The client certificate's subject CN. */
  readonly clientCn: string | null;
  readonly raw: string;
  // biome-ignore lint/suspicious/noExplicitAny: tests read whatever the adapter sent
  readonly body: any;
}

export interface FakeLine {
  readonly adgCode: string;
  readonly dep: number;
  readonly goodCode: string;
  readonly goodName: string;
  readonly unit: string;
  /** Hundredths of AMD. */
  readonly priceLuma: number;
  readonly quantityMilli: number;
  /** For a sale: thousandths returned so far. */
  returnedMilli: number;
}

export interface FakeReceipt {
  readonly receiptId: number;
  readonly type: 'sale' | 'return';
  /** For a return: the sale's receipt id. */
  readonly saleReceiptId: number | null;
  readonly seq: number;
  readonly time: number;
  readonly cashierId: number;
  /** Paid (a sale) or given back (a return), in hundredths of AMD. */
  readonly cardLuma: number;
  readonly cashLuma: number;
  readonly partialLuma: number;
  readonly prepaymentLuma: number;
  readonly totalLuma: number;
  readonly lines: FakeLine[];
  /** For a sale: given back so far by returns, in hundredths of AMD. */
  returnedCardLuma: number;
  returnedCashLuma: number;
  readonly fiscal: string;
  readonly qr: string;
}

export interface FakeEhdmOptions {
  readonly crn?: string;
  /** The TIN in the client certificate's subject (`CN=<TIN> Tin`). */
  readonly tin?: string;
  readonly sn?: string;
  readonly taxpayer?: string;
  readonly address?: string;
  /** The departments the register configured, with their tax regimes. */
  readonly departments?: Readonly<Record<number, 1 | 2 | 3 | 7>>;
  /** The register's clock, which dates the receipts (default the machine's; tests set it behind). */
  readonly now?: () => number;
}

const CERTS = fileURLToPath(new URL('./certs/', import.meta.url));

/** The committed test certificates (README.md beside them). */
export const TEST_CERTS = {
  ca: readFileSync(`${CERTS}ca.pem`, 'utf8'),
  server: readFileSync(`${CERTS}server.pem`, 'utf8'),
  serverKey: readFileSync(`${CERTS}server-key.pem`, 'utf8'),
  client: readFileSync(`${CERTS}client.pem`, 'utf8'),
  clientKey: readFileSync(`${CERTS}client-key.pem`, 'utf8'),
  clientKeyEncrypted: readFileSync(`${CERTS}client-key-encrypted.pem`, 'utf8'),
  clientPkcs12: readFileSync(`${CERTS}client.p12`).toString('base64'),
  passphrase: 'test-only-passphrase',
  otherClient: readFileSync(`${CERTS}other-client.pem`, 'utf8'),
  otherClientKey: readFileSync(`${CERTS}other-client-key.pem`, 'utf8'),
  /** The TIN in the client certificates' subject. */
  tin: '02512345',
} as const;

class Refusal {
  constructor(
    readonly code: number,
    readonly message: string,
    readonly errorMessage: string,
  ) {}
}

function invalid(field: string, why: string): Refusal {
  return new Refusal(FAKE_CODES.INVALID_FIELD, 'INVALID_FIELD', `${field}: ${why}`);
}

/** A JSON number or decimal string with at most `places` decimals, in units of 10^-places; else undefined. */
function toUnits(value: unknown, places: number): number | undefined {
  if (typeof value !== 'number' && typeof value !== 'string') return undefined;
  const text = String(value);
  const match = /^(\d+)(?:\.(\d+))?$/.exec(text);
  if (match === null) return undefined;
  const fraction = (match[2] ?? '').replace(/0+$/, '');
  if (fraction.length > places) return undefined;
  const units = Number(match[1]) * 10 ** places + Number(fraction.padEnd(places, '0') || '0');
  return Number.isSafeInteger(units) ? units : undefined;
}

function money(body: Record<string, unknown>, field: string, required: boolean): number {
  const value = body[field];
  if (value === undefined || value === null) {
    if (required) throw invalid(field, 'FIELD_REQUIRED');
    return 0;
  }
  const luma = toUnits(value, 2);
  if (luma === undefined) throw invalid(field, 'must be an amount >= 0 with at most 2 decimals');
  return luma;
}

function text(item: Record<string, unknown>, field: string, max: number | null): string {
  const value = item[field];
  if (typeof value !== 'string' || value.trim() === '') throw invalid(field, 'FIELD_REQUIRED');
  if (max !== null && [...value].length > max) throw invalid(field, `must be at most ${max} characters`);
  return value;
}

function positiveInteger(value: unknown, field: string): number {
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 1) {
    throw invalid(field, 'must be a positive integer');
  }
  return value;
}

/** Exact sum of price (luma) x quantity (milli), rounded half-up to luma. */
function valueLuma(parts: readonly { readonly priceLuma: number; readonly quantityMilli: number }[]): number {
  let exact = 0n;
  for (const part of parts) exact += BigInt(part.priceLuma) * BigInt(part.quantityMilli);
  return Number((exact + 500n) / 1000n);
}

/** Hundredths of AMD as the service writes amounts: 40000, 1500.5, 0.01. */
function amount(luma: number): number {
  return luma / 100;
}

function pad(n: number): string {
  return String(n).padStart(2, '0');
}

/** `7/16/24 6:34 PM`, in Yerevan's time (UTC+4, no daylight saving). */
function qrTime(ms: number): string {
  const d = new Date(ms + 4 * 3600_000);
  const hours = d.getUTCHours();
  const hour12 = hours % 12 === 0 ? 12 : hours % 12;
  return `${d.getUTCMonth() + 1}/${d.getUTCDate()}/${pad(d.getUTCFullYear() % 100)} ${hour12}:${pad(d.getUTCMinutes())} ${hours < 12 ? 'AM' : 'PM'}`;
}

export class FakeEhdm {
  readonly crn: string;
  readonly tin: string;
  readonly sn: string;
  readonly taxpayer: string;
  readonly address: string;
  readonly departments: Readonly<Record<number, 1 | 2 | 3 | 7>>;
  readonly requests: FakeEhdmRequest[] = [];
  /** Every receipt issued, oldest first (the receipt id is its position + 1). */
  readonly receipts: FakeReceipt[] = [];
  /** The last seq the register accepted; 0 before any. */
  lastSeq = 0;
  /** `https://127.0.0.1:<port>/taxsystem-rs-vcr/api/v1.0/`, as the adapter's `base_url`. */
  baseUrl = '';
  readonly #server: Server;
  readonly #sockets = new Set<Socket>();
  readonly #faults = new Map<FakeEhdmMethod, FakeEhdmFault[]>();
  readonly #timers = new Set<NodeJS.Timeout>();
  /** The register's clock, which dates the receipts (tests may move it). */
  now: () => number;

  private constructor(options: FakeEhdmOptions) {
    this.now = options.now ?? (() => Date.now());
    this.crn = options.crn ?? '51000001';
    this.tin = options.tin ?? TEST_CERTS.tin;
    this.sn = options.sn ?? '7C3AE91F';
    this.taxpayer = options.taxpayer ?? '«ՓՈՐՁ» ՍՊԸ';
    this.address = options.address ?? 'ԵՐԵՎԱՆ ԿԵՆՏՐՈՆ ԹԱՂԱՄԱՍ ԱԲՈՎՅԱՆ Փ. 1';
    this.departments = options.departments ?? { 1: 3 };
    this.#server = createServer(
      {
        key: TEST_CERTS.serverKey,
        cert: TEST_CERTS.server,
        ca: TEST_CERTS.ca,
        requestCert: true,
        rejectUnauthorized: true,
      },
      (req, res) => {
        const chunks: Buffer[] = [];
        req.on('data', (chunk: Buffer) => chunks.push(chunk));
        req.on('end', () => this.#route(req, res, Buffer.concat(chunks).toString('utf8')));
      },
    );
    this.#server.on('connection', (socket: Socket) => {
      this.#sockets.add(socket);
      socket.on('close', () => this.#sockets.delete(socket));
    });
    // A refused client certificate is the TLS layer's business: nothing to answer.
    this.#server.on('tlsClientError', () => {});
  }

  static async start(options: FakeEhdmOptions = {}): Promise<FakeEhdm> {
    const fake = new FakeEhdm(options);
    fake.#server.listen(0, '127.0.0.1');
    await once(fake.#server, 'listening');
    fake.baseUrl = `https://127.0.0.1:${(fake.#server.address() as AddressInfo).port}${FAKE_PATH_PREFIX}`;
    return fake;
  }

  /** Valid settings for this fake: the PEM client certificate, the test CA as `server_ca`. */
  get config(): EhdmConfig {
    return {
      crn: this.crn,
      tin: this.tin,
      cashier_id: 1,
      department: 1,
      tax_regime: this.departments[1] ?? 3,
      classification_code: '9205',
      good_code: '001',
      unit: 'հատ',
      certificate: TEST_CERTS.client,
      private_key: TEST_CERTS.clientKey,
      server_ca: TEST_CERTS.ca,
      base_url: this.baseUrl,
      language: 'hy',
    };
  }

  /** The next request of `method` meets `fault` (queued: one fault per request). */
  failNext(method: FakeEhdmMethod, fault: FakeEhdmFault): void {
    const queue = this.#faults.get(method) ?? [];
    queue.push(fault);
    this.#faults.set(method, queue);
  }

  /** Requests recorded for `method`, oldest first. */
  calls(method: FakeEhdmMethod): FakeEhdmRequest[] {
    return this.requests.filter((request) => request.method === method);
  }

  receipt(receiptId: number | string): FakeReceipt | undefined {
    const id = Number(receiptId);
    return Number.isSafeInteger(id) && id >= 1 ? this.receipts[id - 1] : undefined;
  }

  async close(): Promise<void> {
    for (const timer of this.#timers) clearTimeout(timer);
    for (const socket of this.#sockets) socket.destroy();
    this.#server.close();
    await once(this.#server, 'close');
  }

  #route(req: IncomingMessage, res: ServerResponse, raw: string): void {
    const path = new URL(req.url ?? '/', 'https://fake.invalid').pathname;
    const name = path.startsWith(FAKE_PATH_PREFIX) ? path.slice(FAKE_PATH_PREFIX.length) : '';
    const method = METHODS.includes(name as FakeEhdmMethod) ? (name as FakeEhdmMethod) : null;
    let body: unknown;
    try {
      body = JSON.parse(raw);
    } catch {
      body = undefined;
    }
    const peer = (req.socket as TLSSocket).getPeerCertificate();
    const clientCn = typeof peer?.subject?.CN === 'string' ? peer.subject.CN : null;
    this.requests.push({ httpMethod: req.method ?? '', path, method, headers: req.headers, clientCn, raw, body });

    if (method === null) {
      this.#errorPage(res, 404, 'Not Found', 'No static resource', path);
      return;
    }
    if (req.method !== 'POST') {
      this.#errorPage(res, 405, 'Method Not Allowed', `Request method '${req.method}' is not supported`, path);
      return;
    }
    if (!String(req.headers['content-type'] ?? '').startsWith('application/json')) {
      this.#errorPage(res, 415, 'Unsupported Media Type', 'Content-Type is not supported', path);
      return;
    }
    if (body === null || typeof body !== 'object' || Array.isArray(body)) {
      this.#errorPage(res, 400, 'Bad Request', 'Failed to read request', path);
      return;
    }
    const fault = this.#faults.get(method)?.shift();
    switch (fault?.kind) {
      case 'html500':
        this.#send(res, 500, 'text/html;charset=utf-8', '<html><body><h1>500 Internal Server Error</h1></body></html>');
        return;
      case 'error':
        this.#envelope(res, {
          code: fault.code,
          message: fault.message,
          result: null,
          errorMessage: fault.errorMessage ?? null,
        });
        return;
      case 'drop':
        req.socket.destroy();
        return;
      default:
        break;
    }
    const answer = this.#handle(method, body as Record<string, unknown>, clientCn);
    if (fault?.kind === 'processThenDrop') {
      req.socket.destroy();
      return;
    }
    if (fault?.kind === 'delay') {
      const timer = setTimeout(() => {
        this.#timers.delete(timer);
        this.#envelope(res, answer);
      }, fault.ms);
      this.#timers.add(timer);
      return;
    }
    this.#envelope(res, answer);
  }

  #handle(method: FakeEhdmMethod, body: Record<string, unknown>, clientCn: string | null): Record<string, unknown> {
    try {
      if (clientCn !== `${this.tin} Tin` || body.crn !== this.crn) {
        throw new Refusal(403, 'UNAUTHORIZED_CONNECTION', 'The connection is not authorized for this cash register');
      }
      if (body.seq !== undefined || method !== 'checkConnection') {
        const seq = positiveInteger(body.seq, 'seq');
        if (seq <= this.lastSeq) throw new Refusal(104, 'INVALID_SEQ', 'Invalid sequence number');
        this.lastSeq = seq;
      }
      const result = this.#method(method, body);
      return { code: 0, message: 'OK', result, errorMessage: null };
    } catch (error) {
      if (!(error instanceof Refusal)) throw error;
      return { code: error.code, message: error.message, result: null, errorMessage: error.errorMessage };
    }
  }

  #method(method: FakeEhdmMethod, body: Record<string, unknown>): unknown {
    switch (method) {
      case 'checkConnection':
        return 'Connection is successful';
      case 'print':
        return this.#answerOf(this.#print(body));
      case 'printReturnReceipt':
        return this.#answerOf(this.#return(body));
      case 'getReturnedReceiptInfo':
        return this.#info(body);
    }
  }

  #print(body: Record<string, unknown>): FakeReceipt {
    const mode = body.mode;
    if (mode !== 2 && mode !== 3) throw invalid('mode', 'must be 2 or 3');
    const cashierId = positiveInteger(body.cashierId, 'cashierId');
    const cardLuma = money(body, 'cardAmount', false);
    const cashLuma = money(body, 'cashAmount', false);
    const partialLuma = money(body, 'partialAmount', false);
    const prepaymentLuma = money(body, 'prePaymentAmount', false);
    const partnerTin = body.partnerTin;
    if (
      partnerTin !== undefined &&
      partnerTin !== null &&
      (typeof partnerTin !== 'string' || !/^\d{8}$/.test(partnerTin))
    ) {
      throw invalid('partnerTin', 'must be null or 8 digits');
    }
    const items = body.items;
    if (mode === 3) {
      if (Array.isArray(items) && items.length > 0) {
        throw new Refusal(187, 'INVALID_ITEMS', 'Items are not allowed for a prepayment receipt');
      }
      throw invalid('mode', 'prepayment receipts are not simulated');
    }
    if (!Array.isArray(items) || items.length === 0) throw invalid('items', 'FIELD_REQUIRED');
    const lines = items.map((item, index) => this.#line(item, index));
    const totalLuma = valueLuma(lines);
    if (cardLuma + cashLuma + partialLuma + prepaymentLuma < totalLuma) {
      throw new Refusal(152, 'PAID_AMOUNT_LESS_THAN_TOTAL', 'The paid amount is less than the total amount');
    }
    return this.#issue({
      type: 'sale',
      saleReceiptId: null,
      seq: body.seq as number,
      cashierId,
      cardLuma,
      cashLuma,
      partialLuma,
      prepaymentLuma,
      totalLuma,
      lines,
    });
  }

  #line(raw: unknown, index: number): FakeLine {
    if (raw === null || typeof raw !== 'object') throw invalid(`items[${index}]`, 'must be an object');
    const item = raw as Record<string, unknown>;
    for (const field of ['discount', 'discountType', 'additionalDiscount', 'additionalDiscountType']) {
      if (item[field] !== undefined) throw invalid(`items[${index}].${field}`, 'discounts are not simulated');
    }
    const adgCode = text(item, 'adgCode', null);
    const dep = item.dep;
    if (typeof dep !== 'number' || !Number.isSafeInteger(dep) || dep < 0) {
      throw invalid(`items[${index}].dep`, 'must be an integer');
    }
    if (this.departments[dep] === undefined) {
      throw new Refusal(FAKE_CODES.UNKNOWN_DEPARTMENT, 'UNKNOWN_DEPARTMENT', `Department ${dep} is not configured`);
    }
    const goodCode = text(item, 'goodCode', 50);
    const goodName = text(item, 'goodName', 50);
    const unit = text(item, 'unit', 50);
    const quantityMilli = toUnits(item.quantity, 3);
    if (quantityMilli === undefined || quantityMilli === 0) {
      throw invalid(`items[${index}].quantity`, 'must be above 0 with at most 3 decimals');
    }
    const priceLuma = toUnits(item.price, 2);
    if (priceLuma === undefined || priceLuma === 0) {
      throw invalid(`items[${index}].price`, 'must be above 0 with at most 2 decimals');
    }
    return { adgCode, dep, goodCode, goodName, unit, priceLuma, quantityMilli, returnedMilli: 0 };
  }

  #sale(receiptId: unknown): FakeReceipt {
    const id = typeof receiptId === 'string' && /^\d+$/.test(receiptId) ? Number(receiptId) : receiptId;
    const receipt = typeof id === 'number' ? this.receipt(id) : undefined;
    if (receipt === undefined)
      throw new Refusal(FAKE_CODES.RECEIPT_NOT_FOUND, 'RECEIPT_NOT_FOUND', 'Receipt not found');
    return receipt;
  }

  #return(body: Record<string, unknown>): FakeReceipt {
    const sale = this.#sale(body.receiptId);
    if (sale.type !== 'sale') {
      throw new Refusal(FAKE_CODES.NOT_A_SALE_RECEIPT, 'NOT_A_SALE_RECEIPT', 'Only a sale receipt can be returned');
    }
    const cardLuma = money(body, 'cardAmountForReturn', false);
    const cashLuma = money(body, 'cashAmountForReturn', false);
    const prepaymentLuma = money(body, 'prePaymentAmountForReturn', false);
    if (prepaymentLuma !== 0) throw invalid('prePaymentAmountForReturn', 'prepayments are not simulated');
    const list = body.returnItemList;
    if (!Array.isArray(list) || list.length === 0) throw invalid('returnItemList', 'FIELD_REQUIRED');
    const returned = new Map<number, number>();
    for (const [index, raw] of list.entries()) {
      const entry = (raw ?? {}) as Record<string, unknown>;
      const line = entry.receiptProductId;
      if (typeof line !== 'number' || !Number.isSafeInteger(line) || sale.lines[line] === undefined) {
        throw invalid(`returnItemList[${index}].receiptProductId`, 'is not a line of the receipt');
      }
      const milli = toUnits(entry.quantity, 3);
      if (milli === undefined || milli === 0) {
        throw invalid(`returnItemList[${index}].quantity`, 'must be above 0 with at most 3 decimals');
      }
      returned.set(line, (returned.get(line) ?? 0) + milli);
    }
    const lines: FakeLine[] = [];
    for (const [index, milli] of returned) {
      const line = sale.lines[index] as FakeLine;
      if (milli > line.quantityMilli - line.returnedMilli) {
        throw new Refusal(
          FAKE_CODES.RETURN_QUANTITY_EXCEEDED,
          'RETURN_QUANTITY_EXCEEDED',
          `Line ${index}: the quantity is above what is left to return`,
        );
      }
      lines.push({ ...line, quantityMilli: milli, returnedMilli: 0 });
    }
    const totalLuma = valueLuma(lines);
    if (cardLuma + cashLuma !== totalLuma) {
      throw new Refusal(
        FAKE_CODES.RETURN_AMOUNT_MISMATCH,
        'RETURN_AMOUNT_MISMATCH',
        'The amounts for return differ from the value of the returned items',
      );
    }
    if (cardLuma > sale.cardLuma - sale.returnedCardLuma || cashLuma > sale.cashLuma - sale.returnedCashLuma) {
      throw new Refusal(
        FAKE_CODES.RETURN_EXCEEDS_PAID,
        'RETURN_EXCEEDS_PAID',
        'The amount for return is above what was paid that way',
      );
    }
    for (const [index, milli] of returned) (sale.lines[index] as FakeLine).returnedMilli += milli;
    sale.returnedCardLuma += cardLuma;
    sale.returnedCashLuma += cashLuma;
    return this.#issue({
      type: 'return',
      saleReceiptId: sale.receiptId,
      seq: body.seq as number,
      cashierId: sale.cashierId,
      cardLuma,
      cashLuma,
      partialLuma: 0,
      prepaymentLuma: 0,
      totalLuma,
      lines,
    });
  }

  #issue(
    receipt: Omit<FakeReceipt, 'receiptId' | 'time' | 'fiscal' | 'qr' | 'returnedCardLuma' | 'returnedCashLuma'>,
  ): FakeReceipt {
    const receiptId = this.receipts.length + 1;
    const time = this.now();
    const fiscal = String(70_000_000 + receiptId * 13);
    const qr =
      `TIN: ${this.tin}, CRN: ${this.crn}, SERIAL: ${this.sn}, Receipt_ID: ${receiptId}, ` +
      `Receipt_Time: ${qrTime(time)}, FISCAL: ${fiscal}, TOTAL_CASH: ${amount(receipt.cashLuma)}, ` +
      `TOTAL_NONCASH: ${amount(receipt.cardLuma)}, PREP_USAGE: ${amount(receipt.prepaymentLuma)}, ` +
      `PARTIAL: ${amount(receipt.partialLuma)}, TOTAL: ${amount(receipt.totalLuma)}`;
    const issued: FakeReceipt = { ...receipt, receiptId, time, fiscal, qr, returnedCardLuma: 0, returnedCashLuma: 0 };
    this.receipts.push(issued);
    return issued;
  }

  #answerOf(receipt: FakeReceipt): Record<string, unknown> {
    const paid = receipt.cardLuma + receipt.cashLuma + receipt.partialLuma + receipt.prepaymentLuma;
    return {
      receiptId: String(receipt.receiptId),
      crn: this.crn,
      sn: this.sn,
      tin: this.tin,
      taxpayer: this.taxpayer,
      address: this.address,
      time: receipt.time,
      fiscal: receipt.fiscal,
      total: amount(receipt.totalLuma),
      change: amount(Math.max(0, paid - receipt.totalLuma)),
      qr: receipt.qr,
      emarkCount: 0,
      emarkVerificationCode: '',
    };
  }

  #info(body: Record<string, unknown>): Record<string, unknown> {
    const receipt = this.#sale(body.receiptId);
    return {
      cashierId: receipt.cashierId,
      cardAmount: amount(receipt.cardLuma),
      cashAmount: amount(receipt.cashLuma),
      partnerTin: null,
      partialAmount: amount(receipt.partialLuma),
      prePayment: amount(receipt.prepaymentLuma),
      saleType: 2,
      receiptType: receipt.type === 'sale' ? 0 : 2,
      receiptSubType: receipt.type === 'sale' ? 1 : 4,
      totalAmount: amount(receipt.totalLuma),
      time: receipt.time,
      items: receipt.lines.map((line, index) => {
        const regime = this.departments[line.dep] ?? 3;
        const total = valueLuma([line]);
        return {
          receiptProductId: index,
          quantity: line.quantityMilli / 1000,
          dep: line.dep,
          vat: regime === 1 ? 16.67 : 0,
          taxRegime: regime,
          goodCode: line.goodCode,
          goodName: line.goodName,
          adgCode: line.adgCode,
          unit: line.unit,
          price: amount(line.priceLuma),
          totalWithoutTaxes: amount(regime === 1 ? Math.round((total * 100) / 120) : total),
          totalWithTaxes: amount(total),
        };
      }),
      emarks: [],
    };
  }

  #errorPage(res: ServerResponse, status: number, error: string, message: string, path: string): void {
    const body = { timestamp: new Date().toISOString(), status, error, message, path };
    this.#send(res, status, 'application/json', JSON.stringify(body));
  }

  #envelope(res: ServerResponse, body: Record<string, unknown>): void {
    this.#send(res, 200, 'application/json;charset=UTF-8', JSON.stringify(body));
  }

  #send(res: ServerResponse, status: number, contentType: string, body: string): void {
    if (res.destroyed || res.writableEnded) return;
    res.writeHead(status, { 'Content-Type': contentType, 'Content-Length': String(Buffer.byteLength(body)) });
    res.end(body);
  }
}

/** Starts a fake e-HDM; close it in afterAll. */
export function startFakeEhdm(options: FakeEhdmOptions = {}): Promise<FakeEhdm> {
  return FakeEhdm.start(options);
}
