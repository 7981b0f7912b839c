/**
 * A local Telcell Wallet (WEB shop gateway) for tests and the headless browser: node:http on
 * 127.0.0.1, port 0. It keeps invoices in memory and speaks Telcell's wire format as
 * /work/research/telcell.md describes it, computing every checksum itself (it shares no code with
 * the adapter, so a wrong formula on one side fails):
 *
 * - `POST|GET /invoices` with `action=PostInvoice` (the buyer's browser): checks every field and
 *   the security code, issues the invoice (or shows the same one again for an order whose invoice
 *   is still unpaid), and sends the browser to `/payments/invoice/?invoice=<id>`, a page with "Pay"
 *   and "Decline" buttons (plain forms).
 * - Pressing one marks the invoice PAID or REJECTED, calls the shop's RESULT_URL (form POST, or GET)
 *   with the signed result, then sends the browser to the shop's REDIRECT_URL with `?order=<order
 *   id>` (decoded), as HK Digital's plugin reads it. Both addresses are registered per shop, as at
 *   Telcell; without a REDIRECT_URL the page only says how it ended.
 * - `POST /invoices` with `check_bill:issuer` or `cancel_bill:issuer` (form): the invoice's record
 *   as `key=value` lines; `cancel_bill` cancels a PAID invoice, in full.
 *
 * Telcell's error answers are not documented: the fake answers HTTP 200 with one line of text that
 * holds no `key=value` pair (an HTML page for the browser). Faults (`inject`) apply to the next
 * `check_bill`/`cancel_bill`: a delayed or dropped answer comes after the request was carried out;
 * an HTTP 500 or a 200 error answer comes instead of it.
 */
import { createHash } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface FakeTelcellShop {
  readonly issuer: string;
  readonly shopKey: string;
  /** RESULT_URL: where Telcell's server reports an invoice's outcome. */
  readonly resultUrl?: string;
  /** REDIRECT_URL: where the buyer's browser goes after paying or declining. */
  readonly redirectUrl?: string;
}

export interface FakeTelcellOptions {
  readonly shops: readonly FakeTelcellShop[];
  /** How the callback's `issuer_id` comes: decoded (default, as HK Digital reads it) or base64 as sent. */
  readonly issuerIdInCallback?: 'decoded' | 'as_sent';
  /** RESULT_URL's method: a form POST (default) or a GET with the fields in the query. */
  readonly callbackMethod?: 'POST' | 'GET';
  /** The bill API's callback form: a `buyer` field, covered by the checksum. */
  readonly callbackWithBuyer?: boolean;
}

export type FakeTelcellStatus = 'NEW' | 'PAID' | 'REJECTED' | 'EXPIRED' | 'CANCELLED' | 'CANCELLED FOR REPEAT';

export interface FakeTelcellInvoice {
  readonly id: string;
  readonly issuer: string;
  /** As sent (base64). */
  readonly issuerId: string;
  /** Decoded. */
  readonly orderId: string;
  readonly price: number;
  /** As sent (base64). */
  readonly product: string;
  readonly lang: string;
  status: FakeTelcellStatus;
  readonly issueTime: string;
  readonly validTime: string;
  paidTime: string;
  paymentId: string;
  readonly buyer: string;
}

export interface FakeTelcellRequest {
  readonly method: string;
  readonly path: string;
  readonly contentType: string | undefined;
  readonly fields: Readonly<Record<string, string>>;
}

export interface FakeTelcellDelivery {
  readonly url: string;
  readonly method: 'POST' | 'GET';
  readonly fields: Readonly<Record<string, string>>;
  /** The shop's answer; null when it gave none. */
  readonly status: number | null;
  readonly body: string;
}

export type FakeTelcellFault =
  | { readonly kind: 'delay'; readonly ms: number }
  | { readonly kind: 'http500' }
  | { readonly kind: 'error200' }
  | { readonly kind: 'drop' };

export interface FakeTelcell {
  /** The shop's base URL (`.../invoices`). */
  readonly baseUrl: string;
  readonly origin: string;
  readonly requests: FakeTelcellRequest[];
  readonly deliveries: FakeTelcellDelivery[];
  readonly invoices: ReadonlyMap<string, FakeTelcellInvoice>;
  /** The latest invoice issued for an order id (decoded). */
  invoiceFor(orderId: string): FakeTelcellInvoice | undefined;
  /** The next check_bill/cancel_bill answer misbehaves. */
  inject(fault: FakeTelcellFault): void;
  /** Forgets faults injected and not used yet. */
  clearFaults(): void;
  /** The buyer pays (as pressing "Pay"): RESULT_URL is called before this resolves. */
  pay(invoiceId: string): Promise<void>;
  decline(invoiceId: string): Promise<void>;
  /** The invoice's validity ran out (Telcell calls no one). */
  expire(invoiceId: string): void;
  /** From now on RESULT_URL calls are lost on the way (true) or made again (false). */
  loseResults(lose: boolean): void;
  close(): Promise<void>;
}

/** The numeric currency code callbacks and records carry for AMD. */
const AMD_CODE = '51';
const DRAM_SIGN = '\u058f';
const SYSTEM_KEY = 'fake-telcell-system-key';
const BUYER = '37477000000';

const md5 = (text: string) => createHash('md5').update(text, 'utf8').digest('hex');

function decodeCanonicalBase64(value: string): string | null {
  if (value === '' || value.length % 4 !== 0 || !/^[A-Za-z0-9+/]+={0,2}$/.test(value)) return null;
  const bytes = Buffer.from(value, 'base64');
  return bytes.toString('base64') === value ? bytes.toString('utf8') : null;
}

function telcellTime(ms: number): string {
  return new Date(ms).toISOString().slice(0, 19).replace('T', ' ');
}

function escapeHtml(text: string): string {
  return text.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;').replaceAll('"', '&quot;');
}

function page(title: string, body: string): string {
  return `<!doctype html><html><head><meta charset="utf-8"><title>${escapeHtml(title)}</title></head><body>${body}</body></html>`;
}

async function readBody(request: http.IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

class Refusal extends Error {}

export async function startFakeTelcell(options: FakeTelcellOptions): Promise<FakeTelcell> {
  const shops = new Map(options.shops.map((shop) => [shop.issuer, shop]));
  const invoices = new Map<string, FakeTelcellInvoice>();
  const requests: FakeTelcellRequest[] = [];
  const deliveries: FakeTelcellDelivery[] = [];
  const faults: FakeTelcellFault[] = [];
  let nextInvoice = 4_100_000;
  let nextPayment = 900_000;

  const shopOf = (issuer: string | undefined): FakeTelcellShop => {
    const shop = issuer === undefined ? undefined : shops.get(issuer);
    if (shop === undefined) throw new Refusal('Unknown issuer');
    return shop;
  };

  function requireField(fields: Record<string, string>, name: string): string {
    const value = fields[name];
    if (value === undefined || value === '') throw new Refusal(`Missing parameter ${name}`);
    return value;
  }

  // --- PostInvoice (the buyer's browser) ---

  function postInvoice(fields: Record<string, string>): FakeTelcellInvoice {
    const shop = shopOf(fields.issuer);
    const currency = requireField(fields, 'currency');
    if (currency !== DRAM_SIGN) throw new Refusal('Wrong currency');
    const price = requireField(fields, 'price');
    if (!/^[1-9]\d*$/.test(price)) throw new Refusal('Wrong price');
    const product = requireField(fields, 'product');
    if (decodeCanonicalBase64(product) === null) throw new Refusal('Wrong product');
    const issuerId = requireField(fields, 'issuer_id');
    const orderId = decodeCanonicalBase64(issuerId);
    if (orderId === null || orderId === '') throw new Refusal('Wrong issuer_id');
    const validDays = requireField(fields, 'valid_days');
    if (!/^[1-9]\d*$/.test(validDays)) throw new Refusal('Wrong valid_days');
    const lang = requireField(fields, 'lang');
    if (!['am', 'ru', 'en'].includes(lang)) throw new Refusal('Wrong lang');
    const expected = md5(shop.shopKey + shop.issuer + currency + price + product + issuerId + validDays);
    if (requireField(fields, 'security_code') !== expected) throw new Refusal('Wrong security_code');

    const previous = latestFor(shop.issuer, orderId);
    if (previous !== undefined && previous.status === 'PAID') return previous;
    if (previous !== undefined && previous.status === 'NEW') {
      if (previous.price === Number(price)) return previous;
      previous.status = 'CANCELLED FOR REPEAT';
    }
    const now = Date.now();
    nextInvoice += 1;
    const invoice: FakeTelcellInvoice = {
      id: String(nextInvoice),
      issuer: shop.issuer,
      issuerId,
      orderId,
      price: Number(price),
      product,
      lang,
      status: 'NEW',
      issueTime: telcellTime(now),
      validTime: telcellTime(now + Number(validDays) * 86_400_000),
      paidTime: '',
      paymentId: '',
      buyer: BUYER,
    };
    invoices.set(invoice.id, invoice);
    return invoice;
  }

  function latestFor(issuer: string, orderId: string): FakeTelcellInvoice | undefined {
    let latest: FakeTelcellInvoice | undefined;
    for (const invoice of invoices.values()) {
      if (invoice.issuer === issuer && invoice.orderId === orderId) latest = invoice;
    }
    return latest;
  }

  function invoicePage(invoice: FakeTelcellInvoice): string {
    const product = escapeHtml(decodeCanonicalBase64(invoice.product) ?? '');
    const summary =
      `<h1>Telcell Wallet</h1><p>Invoice <span id="invoice">${invoice.id}</span></p>` +
      `<p>${product}</p><p>Amount: <span id="amount">${invoice.price}</span> AMD</p>`;
    if (invoice.status !== 'NEW') return page('Telcell', `${summary}<p id="status">${invoice.status}</p>`);
    const button = (choice: string, label: string) =>
      `<form method="post" action="/payments/invoice/choose">` +
      `<input type="hidden" name="invoice" value="${invoice.id}">` +
      `<input type="hidden" name="choice" value="${choice}">` +
      `<button type="submit" id="${choice}">${label}</button></form>`;
    return page('Telcell', summary + button('pay', 'Pay') + button('decline', 'Decline'));
  }

  // --- The outcome, RESULT_URL and the way back ---

  async function settle(invoice: FakeTelcellInvoice, choice: 'pay' | 'decline'): Promise<void> {
    if (invoice.status !== 'NEW') throw new Refusal('Invoice is not payable');
    if (choice === 'pay') {
      nextPayment += 1;
      invoice.status = 'PAID';
      invoice.paidTime = telcellTime(Date.now());
      invoice.paymentId = String(nextPayment);
    } else {
      invoice.status = 'REJECTED';
    }
    await deliverResult(invoice);
  }

  let losingResults = false;

  async function deliverResult(invoice: FakeTelcellInvoice): Promise<void> {
    const shop = shopOf(invoice.issuer);
    if (shop.resultUrl === undefined || losingResults) return;
    const fields: Record<string, string> = {
      invoice: invoice.id,
      issuer_id: options.issuerIdInCallback === 'as_sent' ? invoice.issuerId : invoice.orderId,
      payment_id: invoice.paymentId,
      currency: AMD_CODE,
      sum: `${invoice.price}.00`,
      time: telcellTime(Date.now()),
      status: invoice.status,
    };
    const withBuyer = options.callbackWithBuyer === true;
    if (withBuyer) fields.buyer = invoice.buyer;
    fields.checksum = md5(
      shop.shopKey +
        fields.invoice +
        fields.issuer_id +
        fields.payment_id +
        (withBuyer ? invoice.buyer : '') +
        fields.currency +
        fields.sum +
        fields.time +
        fields.status,
    );
    const method = options.callbackMethod ?? 'POST';
    const form = new URLSearchParams(fields).toString();
    const url =
      method === 'GET' ? `${shop.resultUrl}${shop.resultUrl.includes('?') ? '&' : '?'}${form}` : shop.resultUrl;
    try {
      const answer = await fetch(url, {
        method,
        ...(method === 'POST' ? { headers: { 'Content-Type': 'application/x-www-form-urlencoded' }, body: form } : {}),
        signal: AbortSignal.timeout(10_000),
      });
      deliveries.push({ url: shop.resultUrl, method, fields, status: answer.status, body: await answer.text() });
    } catch {
      deliveries.push({ url: shop.resultUrl, method, fields, status: null, body: '' });
    }
  }

  function wayBack(invoice: FakeTelcellInvoice): { location: string } | { html: string } {
    const shop = shopOf(invoice.issuer);
    if (shop.redirectUrl === undefined) {
      return { html: page('Telcell', `<p id="status">${invoice.status}</p>`) };
    }
    const separator = shop.redirectUrl.includes('?') ? '&' : '?';
    return { location: `${shop.redirectUrl}${separator}${new URLSearchParams({ order: invoice.orderId })}` };
  }

  // --- check_bill and cancel_bill ---

  function record(invoice: FakeTelcellInvoice, shopKey: string): string {
    const content = [
      `invoice=${invoice.id}`,
      `status=${invoice.status}`,
      `sum=${invoice.price}.00`,
      `currency=${AMD_CODE}`,
      `buyer=${invoice.buyer}`,
      `description=${invoice.product}`,
      `issuer_id=${invoice.issuerId}`,
      `issue_time=${invoice.issueTime}`,
      `valid_time=${invoice.validTime}`,
      `received_time=${invoice.issueTime}`,
      `paid_time=${invoice.paidTime}`,
    ].join('\n');
    const checksum = md5(shopKey + content);
    return `${content}\nchecksum=${checksum}\nchecksum2=${md5(SYSTEM_KEY + checksum)}\n`;
  }

  function checkBill(fields: Record<string, string>): string {
    const shop = shopOf(fields['check_bill:issuer']);
    const id = requireField(fields, 'invoice');
    if (requireField(fields, 'checksum') !== md5(shop.shopKey + shop.issuer + id)) throw new Refusal('Wrong checksum');
    const invoice = invoices.get(id);
    if (invoice === undefined || invoice.issuer !== shop.issuer) throw new Refusal('Invoice not found');
    return record(invoice, shop.shopKey);
  }

  function cancelBill(fields: Record<string, string>): string {
    const shop = shopOf(fields['cancel_bill:issuer']);
    const id = fields.invoice ?? '';
    const issuerId = fields.issuer_id ?? '';
    if (id === '' && issuerId === '') throw new Refusal('Missing parameter invoice');
    if (requireField(fields, 'checksum') !== md5(shop.shopKey + shop.issuer + id + issuerId))
      throw new Refusal('Wrong checksum');
    let invoice: FakeTelcellInvoice | undefined;
    if (id !== '') invoice = invoices.get(id);
    else {
      const orderId = decodeCanonicalBase64(issuerId);
      invoice = orderId === null ? undefined : latestFor(shop.issuer, orderId);
    }
    if (invoice === undefined || invoice.issuer !== shop.issuer) throw new Refusal('Invoice not found');
    if (invoice.status !== 'PAID') throw new Refusal('Invoice is not paid');
    invoice.status = 'CANCELLED';
    return record(invoice, shop.shopKey);
  }

  // --- HTTP ---

  async function api(
    fields: Record<string, string>,
    contentType: string | undefined,
    response: http.ServerResponse,
  ): Promise<void> {
    const fault = faults.shift();
    if (fault?.kind === 'http500') {
      response.writeHead(500, { 'Content-Type': 'text/html' }).end('<h1>500 Internal Server Error</h1>');
      return;
    }
    if (fault?.kind === 'error200') {
      response.writeHead(200, { 'Content-Type': 'text/plain; charset=utf-8' }).end('Service temporarily unavailable');
      return;
    }
    let answer: string;
    try {
      if (!contentType?.startsWith('application/x-www-form-urlencoded')) throw new Refusal('Wrong request');
      if (fields['check_bill:issuer'] !== undefined) answer = checkBill(fields);
      else if (fields['cancel_bill:issuer'] !== undefined) answer = cancelBill(fields);
      else throw new Refusal('Wrong request');
    } catch (error) {
      if (!(error instanceof Refusal)) throw error;
      answer = error.message;
    }
    if (fault?.kind === 'drop') {
      response.socket?.destroy();
      return;
    }
    if (fault?.kind === 'delay') await new Promise((resolve) => setTimeout(resolve, fault.ms));
    if (response.socket?.destroyed) return;
    response.writeHead(200, { 'Content-Type': 'text/plain; charset=utf-8' }).end(answer);
  }

  async function handle(request: http.IncomingMessage, response: http.ServerResponse): Promise<void> {
    const url = new URL(request.url ?? '/', 'http://fake');
    const contentType = request.headers['content-type'];
    const body = await readBody(request);
    const fields: Record<string, string> = Object.fromEntries(url.searchParams);
    if (request.method === 'POST' && contentType?.startsWith('application/x-www-form-urlencoded')) {
      Object.assign(fields, Object.fromEntries(new URLSearchParams(body)));
    }
    requests.push({ method: request.method ?? '', path: url.pathname, contentType, fields });

    if (url.pathname === '/invoices') {
      if (fields.action !== undefined) {
        try {
          if (fields.action !== 'PostInvoice') throw new Refusal('Wrong action');
          const invoice = postInvoice(fields);
          response.writeHead(302, { Location: `/payments/invoice/?invoice=${invoice.id}` }).end();
        } catch (error) {
          if (!(error instanceof Refusal)) throw error;
          response
            .writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' })
            .end(page('Telcell', `<p id="error">${escapeHtml(error.message)}</p>`));
        }
        return;
      }
      if (request.method !== 'POST') {
        response.writeHead(200, { 'Content-Type': 'text/plain; charset=utf-8' }).end('Wrong request');
        return;
      }
      await api(fields, contentType, response);
      return;
    }
    if (url.pathname === '/payments/invoice/' && request.method === 'GET') {
      const invoice = invoices.get(fields.invoice ?? '');
      if (invoice === undefined) {
        response
          .writeHead(404, { 'Content-Type': 'text/html; charset=utf-8' })
          .end(page('Telcell', '<p>No such invoice</p>'));
        return;
      }
      response.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' }).end(invoicePage(invoice));
      return;
    }
    if (url.pathname === '/payments/invoice/choose' && request.method === 'POST') {
      const invoice = invoices.get(fields.invoice ?? '');
      const choice = fields.choice;
      if (invoice === undefined || (choice !== 'pay' && choice !== 'decline')) {
        response
          .writeHead(400, { 'Content-Type': 'text/html; charset=utf-8' })
          .end(page('Telcell', '<p>Bad request</p>'));
        return;
      }
      try {
        await settle(invoice, choice);
      } catch (error) {
        if (!(error instanceof Refusal)) throw error;
        response.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' }).end(invoicePage(invoice));
        return;
      }
      const back = wayBack(invoice);
      if ('location' in back) response.writeHead(302, { Location: back.location }).end();
      else response.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' }).end(back.html);
      return;
    }
    response.writeHead(404, { 'Content-Type': 'text/plain' }).end('Not found');
  }

  const server = http.createServer((request, response) => {
    handle(request, response).catch(() => {
      if (!response.headersSent) response.writeHead(500).end();
      else response.destroy();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  function invoiceById(id: string): FakeTelcellInvoice {
    const invoice = invoices.get(id);
    if (invoice === undefined) throw new Error(`no fake Telcell invoice ${id}`);
    return invoice;
  }

  return {
    baseUrl: `${origin}/invoices`,
    origin,
    requests,
    deliveries,
    invoices,
    invoiceFor: (orderId) => {
      let latest: FakeTelcellInvoice | undefined;
      for (const invoice of invoices.values()) if (invoice.orderId === orderId) latest = invoice;
      return latest;
    },
    inject: (fault) => faults.push(fault),
    loseResults: (lose) => {
      losingResults = lose;
    },
    clearFaults: () => {
      faults.length = 0;
    },
    pay: (id) => settle(invoiceById(id), 'pay'),
    decline: (id) => settle(invoiceById(id), 'decline'),
    expire: (id) => {
      const invoice = invoiceById(id);
      if (invoice.status === 'NEW') invoice.status = 'EXPIRED';
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
