/**
 * A local Idram (node:http on 127.0.0.1, port 0) speaking the wire of "Idram Payment System
 * merchant interface description" (16.10.2025), set up like a merchant's account at Idram: the
 * merchant's IdramID, SECRET_KEY, RESULT_URL, SUCCESS_URL and FAIL_URL are fixed here, not sent per
 * payment.
 *
 * - `POST /Payment/GetPayment` takes the buyer's browser form (strict: method, content type, every
 *   `EDP_` field, the merchant's account) and shows a page with "Pay" and "Decline" (plain HTML forms).
 * - "Pay" sends the precheck to RESULT_URL (`EDP_PRECHECK=YES`); anything but `OK` with HTTP 200 sends
 *   the browser to FAIL_URL. Then the signed confirmation; its answer decides as the 2025 manual says:
 *   `OK` with 200 accepts, 200 with another body or any other 2xx cancels (the browser goes to
 *   FAIL_URL), a non-2xx answer or none leaves the payment made with an alert (SUCCESS_URL).
 * - The browser goes back with `EDP_BILL_NO` and the form's non-`EDP_` fields: a 302 GET by default
 *   (the method is not documented; public integrations read both), or a posted form.
 * - "Decline" sends the browser to FAIL_URL; nothing is sent to RESULT_URL.
 *
 * The checksum is computed here on its own, not with the adapter's code, so that the two agreeing is
 * a test of the format. Error pages are this fake's own (Idram's are not documented); the gateway
 * never reads them, the buyer's browser does. Idram has no status or refund API, so neither has this.
 */
import { createHash, randomBytes } from 'node:crypto';
import { once } from 'node:events';
import {
  createServer,
  type IncomingHttpHeaders,
  type IncomingMessage,
  type Server,
  type ServerResponse,
} from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

export interface FakeIdramOptions {
  /** The merchant's IdramID (EDP_REC_ACCOUNT). */
  readonly recAccount: string;
  readonly secretKey: string;
  readonly resultUrl: string;
  readonly successUrl: string;
  readonly failUrl: string;
  /** How the browser is sent to SUCCESS_URL / FAIL_URL (default GET). */
  readonly returnMethod?: 'GET' | 'POST';
  /** How long the fake waits for RESULT_URL (default 10 s). */
  readonly resultTimeoutMs?: number;
  /** The payer's IdramID in confirmations. */
  readonly payerAccount?: string;
}

/** One fault for the next request the fake receives. */
export type FakeIdramFault =
  | { readonly kind: 'delay'; readonly ms: number }
  | { readonly kind: 'http500' }
  /** HTTP 200 with an error page. */
  | { readonly kind: 'error200' }
  /** The connection is closed without an answer. */
  | { readonly kind: 'drop' };

export interface FakeIdramRequest {
  readonly method: string;
  readonly path: string;
  readonly headers: IncomingHttpHeaders;
  readonly body: string;
}

/** A request the fake made to RESULT_URL, and what it got back (`status` null: no answer). */
export interface ResultCall {
  readonly kind: 'precheck' | 'confirmation' | 'raw';
  readonly fields: Readonly<Record<string, string>>;
  readonly status: number | null;
  readonly body: string | null;
  readonly error: string | null;
}

/** What Idram does with a confirmation's answer (2025 manual, section 5). */
export type ConfirmationEffect = 'accepted' | 'cancelled' | 'kept_with_alert';

/** A visit to the payment page, and what became of it. */
export interface FakeIdramVisit {
  readonly id: string;
  readonly language: string;
  readonly recAccount: string;
  readonly description: string | null;
  readonly amount: string;
  readonly billNo: string;
  readonly email: string | null;
  /** The form's non-`EDP_` fields, posted back to the merchant. */
  readonly echo: Readonly<Record<string, string>>;
  state: 'shown' | 'declined' | 'precheck_refused' | 'paid' | 'cancelled';
  transId: string | null;
  /** Alerts Idram would mail its support (a non-typical confirmation answer). */
  readonly alerts: string[];
}

/** How the next confirmations are made (tests change these). */
export interface ConfirmationStyle {
  /** `EDP_AMOUNT` as "0.00" (documented) or exactly as the form gave it. */
  amount: 'decimal' | 'as_sent';
  checksumCase: 'upper' | 'lower';
  /** Sign with another secret (a misconfigured or forged confirmation). */
  signWith: string | null;
}

export interface ConfirmationInput {
  readonly billNo: string;
  readonly amount: string;
  readonly recAccount?: string;
  readonly payerAccount?: string;
  readonly transId?: string;
  readonly transDate?: string;
  readonly echo?: Readonly<Record<string, string>>;
}

const FORM_CONTENT_TYPE = 'application/x-www-form-urlencoded';
const KNOWN_FIELDS = new Set([
  'EDP_LANGUAGE',
  'EDP_REC_ACCOUNT',
  'EDP_DESCRIPTION',
  'EDP_AMOUNT',
  'EDP_BILL_NO',
  'EDP_EMAIL',
]);

/** The checksum as the manual defines it, upper-case hex unless asked otherwise. */
export function idramChecksum(fields: Readonly<Record<string, string>>, secretKey: string): string {
  const text = [
    fields.EDP_REC_ACCOUNT,
    fields.EDP_AMOUNT,
    secretKey,
    fields.EDP_BILL_NO,
    fields.EDP_PAYER_ACCOUNT,
    fields.EDP_TRANS_ID,
    fields.EDP_TRANS_DATE,
  ].join(':');
  return createHash('md5').update(text, 'utf8').digest('hex').toUpperCase();
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

function page(title: string, body: string): string {
  return `<!doctype html><html><head><meta charset="utf-8"><title>${escapeHtml(title)}</title></head><body>${body}</body></html>`;
}

function today(): string {
  const now = new Date();
  const two = (n: number) => String(n).padStart(2, '0');
  return `${two(now.getUTCDate())}/${two(now.getUTCMonth() + 1)}/${now.getUTCFullYear()}`;
}

export class FakeIdram {
  /** Every request the fake received, in order. */
  readonly requests: FakeIdramRequest[] = [];
  /** Every request the fake made to RESULT_URL, in order. */
  readonly resultCalls: ResultCall[] = [];
  readonly visits: FakeIdramVisit[] = [];
  readonly confirmationStyle: ConfirmationStyle = { amount: 'decimal', checksumCase: 'upper', signWith: null };
  url = '';
  readonly #options: FakeIdramOptions;
  readonly #server: Server;
  readonly #sockets = new Set<Socket>();
  #faults: FakeIdramFault[] = [];
  #transactions = 0;

  private constructor(options: FakeIdramOptions) {
    this.#options = options;
    this.#server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        const body = Buffer.concat(chunks).toString('utf8');
        this.requests.push({ method: req.method ?? '', path: req.url ?? '/', headers: req.headers, body });
        this.#handle(req, res, body).catch((error: unknown) => {
          if (!res.headersSent) this.#html(res, 500, page('Error', `<p>${escapeHtml(String(error))}</p>`));
        });
      });
    });
    this.#server.on('connection', (socket) => {
      this.#sockets.add(socket);
      socket.on('close', () => this.#sockets.delete(socket));
    });
  }

  static async start(options: FakeIdramOptions): Promise<FakeIdram> {
    const fake = new FakeIdram(options);
    fake.#server.listen(0, '127.0.0.1');
    await once(fake.#server, 'listening');
    fake.url = `http://127.0.0.1:${(fake.#server.address() as AddressInfo).port}`;
    return fake;
  }

  /** Where the merchant's form posts (the settings' `form_url`). */
  get formUrl(): string {
    return `${this.url}/Payment/GetPayment`;
  }

  /** A fault for the next request the fake receives (faults queue up). */
  failNext(fault: FakeIdramFault): void {
    this.#faults.push(fault);
  }

  /** The last visit for a bill. */
  visit(billNo: string): FakeIdramVisit | undefined {
    return this.visits.findLast((visit) => visit.billNo === billNo);
  }

  async close(): Promise<void> {
    for (const socket of this.#sockets) socket.destroy();
    this.#server.close();
    await once(this.#server, 'close');
  }

  /** Sends the precheck for a visit; true when the merchant answered `OK` with HTTP 200. */
  async precheck(visit: Pick<FakeIdramVisit, 'billNo' | 'recAccount' | 'amount'>): Promise<boolean> {
    const call = await this.#post('precheck', {
      EDP_PRECHECK: 'YES',
      EDP_BILL_NO: visit.billNo,
      EDP_REC_ACCOUNT: visit.recAccount,
      EDP_AMOUNT: visit.amount,
    });
    return call.status === 200 && call.body === 'OK';
  }

  /** Sends a signed confirmation (as `confirmationStyle` says) and answers what Idram does with the answer. */
  async confirm(input: ConfirmationInput): Promise<{ effect: ConfirmationEffect; call: ResultCall; transId: string }> {
    const style = this.confirmationStyle;
    this.#transactions += 1;
    const transId = input.transId ?? String(20000000000000 + this.#transactions);
    const fields: Record<string, string> = {
      EDP_BILL_NO: input.billNo,
      EDP_REC_ACCOUNT: input.recAccount ?? this.#options.recAccount,
      EDP_PAYER_ACCOUNT: input.payerAccount ?? this.#options.payerAccount ?? '100012345',
      EDP_AMOUNT: style.amount === 'decimal' ? Number(input.amount).toFixed(2) : input.amount,
      EDP_TRANS_ID: transId,
      EDP_TRANS_DATE: input.transDate ?? today(),
    };
    const checksum = idramChecksum(fields, style.signWith ?? this.#options.secretKey);
    fields.EDP_CHECKSUM = style.checksumCase === 'upper' ? checksum : checksum.toLowerCase();
    const call = await this.#post('confirmation', { ...fields, ...input.echo });
    return { effect: FakeIdram.effectOf(call), call, transId };
  }

  /** Posts any fields to RESULT_URL (tests of unsigned or malformed requests). */
  async postToResultUrl(fields: Readonly<Record<string, string>>): Promise<ResultCall> {
    return this.#post('raw', fields);
  }

  /** The 2025 rules: `OK` with 200 accepts; other 2xx cancel; non-2xx (or no answer) keep it paid. */
  static effectOf(call: Pick<ResultCall, 'status' | 'body'>): ConfirmationEffect {
    if (call.status === 200 && call.body === 'OK') return 'accepted';
    if (call.status !== null && call.status >= 200 && call.status < 300) return 'cancelled';
    return 'kept_with_alert';
  }

  async #post(kind: ResultCall['kind'], fields: Readonly<Record<string, string>>): Promise<ResultCall> {
    let call: ResultCall;
    try {
      const response = await fetch(this.#options.resultUrl, {
        method: 'POST',
        headers: { 'Content-Type': FORM_CONTENT_TYPE },
        body: new URLSearchParams(fields).toString(),
        redirect: 'manual',
        signal: AbortSignal.timeout(this.#options.resultTimeoutMs ?? 10_000),
      });
      call = { kind, fields, status: response.status, body: await response.text(), error: null };
    } catch (error) {
      call = { kind, fields, status: null, body: null, error: String(error) };
    }
    this.resultCalls.push(call);
    return call;
  }

  async #handle(req: IncomingMessage, res: ServerResponse, body: string): Promise<void> {
    const fault = this.#faults.shift();
    if (fault !== undefined) {
      switch (fault.kind) {
        case 'delay':
          await new Promise((resolve) => setTimeout(resolve, fault.ms));
          break;
        case 'http500':
          return this.#html(res, 500, page('Server Error', '<h1>Server Error</h1>'));
        case 'error200':
          return this.#html(res, 200, page('Error', '<p class="error">An error occurred. Please try again later.</p>'));
        case 'drop':
          req.socket.destroy();
          return;
      }
    }
    const path = new URL(req.url ?? '/', this.url).pathname;
    if (path === '/Payment/GetPayment') return this.#getPayment(req, res, body);
    if (path === '/Payment/Pay' || path === '/Payment/Decline') {
      if (req.method !== 'POST') return this.#html(res, 405, page('Error', '<p>Method not allowed</p>'));
      const visit = this.visits.find((v) => v.id === new URLSearchParams(body).get('visit'));
      if (visit === undefined) return this.#error(res, 'Unknown payment');
      if (visit.state !== 'shown') return this.#error(res, 'This payment was already processed');
      return path === '/Payment/Pay' ? this.#pay(res, visit) : this.#decline(res, visit);
    }
    this.#html(res, 404, page('Not found', '<p>Not found</p>'));
  }

  /** Idram's refusals of a form are pages for the buyer (HTTP 200). */
  #error(res: ServerResponse, message: string): void {
    this.#html(res, 200, page('Idram', `<p class="error">${escapeHtml(message)}</p>`));
  }

  #getPayment(req: IncomingMessage, res: ServerResponse, body: string): void {
    if (req.method !== 'POST') {
      this.#html(res, 405, page('Error', '<p>Method not allowed</p>'));
      return;
    }
    const type = (req.headers['content-type'] ?? '').split(';')[0]?.trim().toLowerCase();
    if (type !== FORM_CONTENT_TYPE) {
      this.#html(res, 415, page('Error', '<p>Unsupported form encoding</p>'));
      return;
    }
    const visit = this.#readForm(new URLSearchParams(body));
    if (typeof visit === 'string') {
      this.#error(res, visit);
      return;
    }
    this.visits.push(visit);
    const button = (action: string, label: string) =>
      `<form method="post" action="/Payment/${action}"><input type="hidden" name="visit" value="${visit.id}">` +
      `<button type="submit" name="action" value="${action.toLowerCase()}">${label}</button></form>`;
    this.#html(
      res,
      200,
      page(
        'Idram payment',
        `<h1>Idram (fake)</h1><p class="description">${escapeHtml(visit.description ?? '')}</p>` +
          `<p class="amount">${escapeHtml(visit.amount)} AMD</p><p class="bill">${escapeHtml(visit.billNo)}</p>` +
          button('Pay', 'Pay') +
          button('Decline', 'Decline'),
      ),
    );
  }

  /** The visit a payment form opens, or what is wrong with the form. */
  #readForm(form: URLSearchParams): FakeIdramVisit | string {
    const fields = new Map<string, string>();
    const echo: Record<string, string> = {};
    for (const [name, value] of form) {
      if (fields.has(name) || Object.hasOwn(echo, name)) return `Field ${name} is repeated`;
      if (!name.startsWith('EDP_')) echo[name] = value;
      else if (!KNOWN_FIELDS.has(name)) return `Unknown field ${name}`;
      else fields.set(name, value);
    }
    const language = fields.get('EDP_LANGUAGE');
    const recAccount = fields.get('EDP_REC_ACCOUNT');
    const amount = fields.get('EDP_AMOUNT');
    const billNo = fields.get('EDP_BILL_NO');
    const email = fields.get('EDP_EMAIL');
    if (language === undefined || !['RU', 'EN', 'AM'].includes(language)) return 'EDP_LANGUAGE must be RU, EN or AM';
    if (recAccount === undefined || !/^\d+$/.test(recAccount)) return 'EDP_REC_ACCOUNT is invalid';
    if (recAccount !== this.#options.recAccount) return 'Unknown merchant account';
    if (amount === undefined || !/^\d+(\.\d{1,2})?$/.test(amount) || Number(amount) <= 0)
      return 'EDP_AMOUNT must be greater than zero, fraction separated by a dot';
    if (billNo === undefined || billNo === '') return 'EDP_BILL_NO is missing';
    if (email !== undefined && !/^[^@\s]+@[^@\s]+$/.test(email)) return 'EDP_EMAIL is invalid';
    return {
      id: randomBytes(12).toString('hex'),
      language,
      recAccount,
      description: fields.get('EDP_DESCRIPTION') ?? null,
      amount,
      billNo,
      email: email ?? null,
      echo,
      state: 'shown',
      transId: null,
      alerts: [],
    };
  }

  async #pay(res: ServerResponse, visit: FakeIdramVisit): Promise<void> {
    if (!(await this.precheck(visit))) {
      visit.state = 'precheck_refused';
      return this.#sendBack(res, this.#options.failUrl, visit);
    }
    const { effect, transId } = await this.confirm({ billNo: visit.billNo, amount: visit.amount, echo: visit.echo });
    switch (effect) {
      case 'accepted':
        visit.state = 'paid';
        visit.transId = transId;
        return this.#sendBack(res, this.#options.successUrl, visit);
      case 'kept_with_alert':
        visit.state = 'paid';
        visit.transId = transId;
        visit.alerts.push('the merchant did not answer the confirmation with HTTP 2xx');
        return this.#sendBack(res, this.#options.successUrl, visit);
      case 'cancelled':
        visit.state = 'cancelled';
        visit.alerts.push('the merchant refused the confirmation: the transaction was cancelled');
        return this.#sendBack(res, this.#options.failUrl, visit);
    }
  }

  #decline(res: ServerResponse, visit: FakeIdramVisit): void {
    visit.state = 'declined';
    this.#sendBack(res, this.#options.failUrl, visit);
  }

  /** The browser goes to SUCCESS_URL / FAIL_URL with the bill number and the echoed fields. */
  #sendBack(res: ServerResponse, target: string, visit: FakeIdramVisit): void {
    const fields = { EDP_BILL_NO: visit.billNo, ...visit.echo };
    if ((this.#options.returnMethod ?? 'GET') === 'GET') {
      const url = new URL(target);
      for (const [name, value] of Object.entries(fields)) url.searchParams.append(name, value);
      res.writeHead(302, { Location: url.toString(), 'Content-Length': '0' });
      res.end();
      return;
    }
    const inputs = Object.entries(fields)
      .map(([name, value]) => `<input type="hidden" name="${escapeHtml(name)}" value="${escapeHtml(value)}">`)
      .join('');
    this.#html(
      res,
      200,
      page(
        'Idram',
        `<form method="post" action="${escapeHtml(target)}">${inputs}<button type="submit">Return to the shop</button></form>` +
          '<script>document.forms[0].submit()</script>',
      ),
    );
  }

  #html(res: ServerResponse, status: number, html: string): void {
    const bytes = Buffer.from(html, 'utf8');
    res.writeHead(status, { 'Content-Type': 'text/html; charset=utf-8', 'Content-Length': String(bytes.length) });
    res.end(bytes);
  }
}
