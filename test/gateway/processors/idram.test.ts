/**
 * The Idram adapter against a local Idram (test/support/processors/fake-idram.ts) over real HTTP.
 * A stand-in for the gateway's two Idram routes (RESULT_URL `/processors/idram/callback`, the
 * browser's SUCCESS_URL/FAIL_URL `/processors/idram/return`) turns each request into a
 * `CallbackRequest`, runs the adapter's `identify`/`decide`/`unknown`, and applies an outcome as the
 * core does (paid: processing → completed, failed/expired → completed late, otherwise unchanged; a
 * payment open past its expiry is expired first). The "browser" posts the adapter's form to the
 * fake and presses the page's buttons.
 */
import { randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Payment } from '../../../gateway/domain/payment.js';
import type { ProviderResult } from '../../../gateway/domain/payment-lifecycle.js';
import type { ProcessorHttp } from '../../../gateway/processors/http.js';
import { idramProcessor } from '../../../gateway/processors/idram/adapter.js';
import type { IdramConfig } from '../../../gateway/processors/idram/config.js';
import type {
  BuyerRedirect,
  CallbackHandler,
  CallbackRequest,
  ProcessorLanguage,
  ProcessorSession,
  SessionKey,
} from '../../../gateway/processors/processor.js';
import { InvalidProcessorSettings, parseProcessorSettings } from '../../../gateway/processors/settings.js';
import { loopbackHttp, TEST_PUBLIC_URL, testCall, testPayment } from '../../support/processors/call.js';
import { FakeIdram, idramChecksum } from '../../support/processors/fake-idram.js';

const REC_ACCOUNT = '110000601';
const SECRET_KEY = 'idram-test-secret-7Qx2';

function must<T>(value: T | null | undefined, what: string): T {
  if (value === null || value === undefined) throw new Error(`missing: ${what}`);
  return value;
}

const handler: CallbackHandler<IdramConfig> = must(idramProcessor.callback, 'idramProcessor.callback');

// ---------------------------------------------------------------------------------------------
// The stand-in for the gateway's core.

interface Handled {
  readonly path: string;
  readonly method: string;
  readonly key: SessionKey | null;
  /** 'unknown': no session was found, `unknown` answered. */
  readonly outcome: 'read_back' | ProviderResult | null | 'unknown';
  readonly status: number;
  readonly body: string;
}

class StandInGateway {
  readonly payments = new Map<string, Payment>();
  readonly sessions = new Map<string, ProcessorSession>();
  readonly handled: Handled[] = [];
  /** Transitions applied, per payment: 'complete', 'confirm_late', 'expire'. */
  readonly transitions: Array<{ paymentId: string; transition: string }> = [];
  /** The core's clock. */
  nowMs = Date.parse('2026-11-23T10:05:00.000Z');
  /** Answer confirmations (requests with EDP_CHECKSUM) with this status instead, after deciding (a gateway fault). */
  forceConfirmationStatus: number | null = null;
  config!: IdramConfig;
  url = '';
  #server: Server;
  #http: ProcessorHttp;

  constructor(http: ProcessorHttp) {
    this.#http = http;
    this.#server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        const rawBody = Buffer.concat(chunks);
        const url = new URL(req.url ?? '/', this.url);
        const headers: Record<string, string | undefined> = {};
        for (const [name, value] of Object.entries(req.headers)) {
          headers[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value;
        }
        const isForm = (headers['content-type'] ?? '').startsWith('application/x-www-form-urlencoded');
        const request: CallbackRequest = {
          method: req.method ?? 'GET',
          query: url.searchParams,
          form: isForm ? new URLSearchParams(rawBody.toString('utf8')) : new URLSearchParams(),
          json: undefined,
          rawBody,
          headers,
        };
        const answer = this.#handle(url.pathname, request);
        if (url.pathname === '/processors/idram/return') {
          res.writeHead(303, { Location: `${TEST_PUBLIC_URL}/checkout/tok_test/return` });
          res.end();
          return;
        }
        if (this.forceConfirmationStatus !== null && request.form.has('EDP_CHECKSUM')) {
          res.writeHead(this.forceConfirmationStatus, { 'Content-Type': 'text/plain' });
          res.end('error');
          return;
        }
        res.writeHead(answer.status, { 'Content-Type': answer.contentType });
        res.end(answer.body);
      });
    });
  }

  async start(): Promise<void> {
    this.#server.listen(0, '127.0.0.1');
    await once(this.#server, 'listening');
    this.url = `http://127.0.0.1:${(this.#server.address() as AddressInfo).port}`;
  }

  async close(): Promise<void> {
    this.#server.closeAllConnections();
    this.#server.close();
    await once(this.#server, 'close');
  }

  get resultUrl(): string {
    return `${this.url}/processors/idram/callback`;
  }

  get returnUrl(): string {
    return `${this.url}/processors/idram/return`;
  }

  /** A payment processing with Idram, and its session (order number: the uuid without dashes). */
  add(overrides: Partial<Payment> = {}): { payment: Payment; session: ProcessorSession } {
    const uuid = randomUUID();
    const payment = testPayment({ uuid, status: 'processing', processor: 'idram', ...overrides });
    const session: ProcessorSession = {
      paymentId: uuid,
      processor: 'idram',
      orderNumber: uuid.replaceAll('-', ''),
      reference: null,
    };
    this.payments.set(uuid, payment);
    this.sessions.set(session.orderNumber, session);
    return { payment, session };
  }

  payment(id: string): Payment {
    return must(this.payments.get(id), `payment ${id}`);
  }

  set(id: string, changes: Partial<Payment>): void {
    this.payments.set(id, { ...this.payment(id), ...changes });
  }

  call(payment: Payment, language: ProcessorLanguage = 'hy') {
    return testCall(this.config, this.#http, {
      callbackUrl: this.resultUrl,
      language,
      secondsLeft: Math.max(0, Math.floor((Date.parse(payment.expiresAt) - this.nowMs) / 1000)),
    });
  }

  #handle(path: string, request: CallbackRequest): { status: number; contentType: string; body: string } {
    const key = handler.identify(request);
    const session = key !== null && 'orderNumber' in key ? this.sessions.get(key.orderNumber) : undefined;
    if (session === undefined) {
      const answer = handler.unknown(request);
      this.handled.push({ path, method: request.method, key, outcome: 'unknown', ...answer });
      return answer;
    }
    this.#expireIfDue(session.paymentId);
    const before = this.payment(session.paymentId);
    const decision = handler.decide(this.call(before), before, session, request);
    if (decision.outcome !== null && decision.outcome !== 'read_back') this.#apply(before, decision.outcome);
    const answer = decision.answer(this.payment(session.paymentId));
    this.handled.push({ path, method: request.method, key, outcome: decision.outcome, ...answer });
    return answer;
  }

  #expireIfDue(id: string): void {
    const payment = this.payment(id);
    if (
      (payment.status === 'pending' || payment.status === 'processing') &&
      this.nowMs >= Date.parse(payment.expiresAt)
    ) {
      this.set(id, { status: 'expired' });
      this.transitions.push({ paymentId: id, transition: 'expire' });
    }
  }

  /** As the core's applyProviderResult. */
  #apply(before: Payment, result: ProviderResult): void {
    if (result.kind !== 'paid') throw new Error(`the stand-in applies paid only, got ${result.kind}`);
    const transition =
      before.status === 'processing'
        ? 'complete'
        : before.status === 'failed' || before.status === 'expired'
          ? 'confirm_late'
          : null;
    if (transition === null) return;
    this.set(before.uuid, {
      status: 'completed',
      rrn: result.rrn,
      cardLast4: result.cardLast4 ?? before.cardLast4,
      failureCode: null,
      processor: before.processor ?? result.processor ?? null,
      completedAt: new Date(this.nowMs).toISOString(),
    });
    this.transitions.push({ paymentId: before.uuid, transition });
  }
}

// ---------------------------------------------------------------------------------------------
// The buyer's browser.

interface PageForm {
  readonly action: string;
  readonly method: string;
  readonly fields: URLSearchParams;
  readonly buttons: string[];
}

const decodeHtml = (text: string) => text.replace(/&#(\d+);/g, (_, code: string) => String.fromCharCode(Number(code)));

function formsOf(html: string): PageForm[] {
  return [...html.matchAll(/<form\b([^>]*)>([\s\S]*?)<\/form>/g)].map(([, attributes = '', inner = '']) => {
    const fields = new URLSearchParams();
    for (const [input] of inner.matchAll(/<input\b[^>]*>/g)) {
      const name = /name="([^"]*)"/.exec(input)?.[1];
      if (name !== undefined) fields.append(decodeHtml(name), decodeHtml(/value="([^"]*)"/.exec(input)?.[1] ?? ''));
    }
    return {
      action: decodeHtml(/action="([^"]*)"/.exec(attributes)?.[1] ?? ''),
      method: (/method="([^"]*)"/.exec(attributes)?.[1] ?? 'get').toUpperCase(),
      fields,
      buttons: [...inner.matchAll(/<button\b[^>]*>([\s\S]*?)<\/button>/g)].map(([, label = '']) => label.trim()),
    };
  });
}

interface Visit {
  readonly status: number;
  readonly location: string | null;
  readonly html: string;
}

async function browse(
  url: string,
  init: { method: 'GET' | 'POST'; fields?: Record<string, string> | URLSearchParams },
) {
  const response = await fetch(url, {
    method: init.method,
    redirect: 'manual',
    ...(init.fields === undefined
      ? {}
      : {
          headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
          body: new URLSearchParams(init.fields).toString(),
        }),
  });
  return { status: response.status, location: response.headers.get('location'), html: await response.text() };
}

/** The browser submits the form `start` answered. */
async function submitRedirect(redirect: BuyerRedirect): Promise<Visit> {
  if (redirect.method !== 'POST') throw new Error('Idram is reached by a posted form');
  return browse(redirect.url, { method: 'POST', fields: { ...redirect.fields } });
}

/** The buyer presses a button of the page. */
async function press(base: string, page: Visit, label: 'Pay' | 'Decline'): Promise<Visit> {
  const form = must(
    formsOf(page.html).find((candidate) => candidate.buttons.includes(label)),
    `a "${label}" button on the page`,
  );
  return browse(new URL(form.action, base).toString(), { method: 'POST', fields: form.fields });
}

// ---------------------------------------------------------------------------------------------

let http: ProcessorHttp;
let gateway: StandInGateway;
let fake: FakeIdram;

beforeAll(async () => {
  http = loopbackHttp();
  gateway = new StandInGateway(http);
  await gateway.start();
  fake = await FakeIdram.start({
    recAccount: REC_ACCOUNT,
    secretKey: SECRET_KEY,
    resultUrl: gateway.resultUrl,
    successUrl: `${gateway.returnUrl}?result=success`,
    failUrl: `${gateway.returnUrl}?result=fail`,
  });
  gateway.config = { rec_account: REC_ACCOUNT, secret_key: SECRET_KEY, form_url: fake.formUrl };
});

afterAll(async () => {
  await fake.close();
  await gateway.close();
  http.close();
});

beforeEach(() => {
  gateway.forceConfirmationStatus = null;
  gateway.nowMs = Date.parse('2026-11-23T10:05:00.000Z');
  Object.assign(fake.confirmationStyle, { amount: 'decimal', checksumCase: 'upper', signWith: null });
});

async function started(overrides: Partial<Payment> = {}, language: ProcessorLanguage = 'hy') {
  const { payment, session } = gateway.add(overrides);
  const start = must(idramProcessor.start, 'start');
  const answer = await start(gateway.call(payment, language), payment, session);
  if (answer.kind !== 'redirect') throw new Error(`start answered ${answer.kind}`);
  return { payment, session, redirect: answer.redirect, reference: answer.reference };
}

/** What the stand-in did with the requests that named this bill. */
const handledFor = (orderNumber: string) =>
  gateway.handled.filter(
    (entry) => entry.key !== null && 'orderNumber' in entry.key && entry.key.orderNumber === orderNumber,
  );

const resultCallsFor = (orderNumber: string) =>
  fake.resultCalls.filter((call) => call.fields.EDP_BILL_NO === orderNumber);

/** A confirmation's fields signed with `secret` (the test's own signing, as Idram documents it). */
function signedConfirmation(orderNumber: string, overrides: Record<string, string> = {}, secret = SECRET_KEY) {
  const fields: Record<string, string> = {
    EDP_BILL_NO: orderNumber,
    EDP_REC_ACCOUNT: REC_ACCOUNT,
    EDP_PAYER_ACCOUNT: '100012345',
    EDP_AMOUNT: '1500.00',
    EDP_TRANS_ID: '20000000009001',
    EDP_TRANS_DATE: '23/11/2026',
    ...overrides,
  };
  return { ...fields, EDP_CHECKSUM: idramChecksum(fields, secret) };
}

// ---------------------------------------------------------------------------------------------

describe('start', () => {
  it('answers the payment form for the browser to post to form_url, without calling Idram', async () => {
    const before = fake.requests.length;
    const { session, redirect, reference } = await started();
    expect(reference).toBeNull();
    expect(redirect).toEqual({
      method: 'POST',
      url: fake.formUrl,
      fields: {
        EDP_LANGUAGE: 'AM',
        EDP_REC_ACCOUNT: REC_ACCOUNT,
        EDP_DESCRIPTION: 'Order 1001',
        EDP_AMOUNT: '1500',
        EDP_BILL_NO: session.orderNumber,
      },
    });
    expect(session.orderNumber).toMatch(/^[0-9a-f]{32}$/);
    expect(fake.requests.length).toBe(before);
  });

  it.each([
    ['hy', 'AM'],
    ['ru', 'RU'],
    ['en', 'EN'],
  ] as const)('shows Idram in the buyer language %s as EDP_LANGUAGE=%s', async (language, expected) => {
    const { redirect } = await started({}, language);
    expect(redirect.method === 'POST' && redirect.fields.EDP_LANGUAGE).toBe(expected);
  });

  it('never sends the buyer email as EDP_EMAIL, and names the order when there is no description', async () => {
    const { redirect } = await started({ customerEmail: 'buyer@example.am', description: null, orderId: 'A-77' });
    if (redirect.method !== 'POST') throw new Error('expected a form');
    expect(Object.keys(redirect.fields)).not.toContain('EDP_EMAIL');
    expect(redirect.fields.EDP_DESCRIPTION).toBe('Order A-77');
  });

  it("posts to Idram's own page when form_url is not set", async () => {
    const config = must(idramProcessor.configSchema, 'configSchema').parse({
      rec_account: REC_ACCOUNT,
      secret_key: SECRET_KEY,
    });
    const { payment, session } = gateway.add();
    const answer = await must(idramProcessor.start, 'start')(testCall(config, http), payment, session);
    expect(answer.kind === 'redirect' && answer.redirect.url).toBe('https://banking.idram.am/Payment/GetPayment');
  });

  it('refuses what Idram cannot take: another currency, an amount that is not a positive whole number', async () => {
    const start = must(idramProcessor.start, 'start');
    for (const overrides of [{ currency: 'USD' }, { amount: 0 }, { amount: 10.5 }]) {
      const { payment, session } = gateway.add(overrides);
      const answer = await start(gateway.call(payment), payment, session);
      expect(answer).toMatchObject({ kind: 'refused', failureCode: 'general_failure' });
    }
  });

  it('redirects even when Idram is unreachable: the browser goes there, the gateway never calls it', async () => {
    const closed = await FakeIdram.start({
      recAccount: REC_ACCOUNT,
      secretKey: SECRET_KEY,
      resultUrl: gateway.resultUrl,
      successUrl: gateway.returnUrl,
      failUrl: gateway.returnUrl,
    });
    const unreachable = closed.formUrl;
    await closed.close();
    const { payment, session } = gateway.add();
    const before = fake.requests.length;
    const start = must(idramProcessor.start, 'start');
    for (const formUrl of [unreachable, fake.formUrl]) {
      const answer = await start(testCall({ ...gateway.config, form_url: formUrl }, http), payment, session);
      expect(answer.kind === 'redirect' && answer.redirect.url).toBe(formUrl);
    }
    expect(fake.requests.length).toBe(before);
  });

  it('has no status read-back and no refunds (Idram has no API for them)', () => {
    expect(idramProcessor.status).toBeUndefined();
    expect(idramProcessor.refund).toBeUndefined();
    expect(idramProcessor.refundStatus).toBeUndefined();
    expect(idramProcessor.newOrderNumber).toBeUndefined();
  });
});

describe('a buyer paying with Idram', () => {
  it('pays: precheck OK, signed confirmation applied as paid and answered OK, back to SUCCESS_URL', async () => {
    const { payment, session, redirect } = await started();
    const page = await submitRedirect(redirect);
    expect(page.status).toBe(200);
    expect(formsOf(page.html).flatMap((form) => form.buttons)).toEqual(['Pay', 'Decline']);

    const paid = await press(fake.url, page, 'Pay');
    expect(paid.status).toBe(302);
    const back = new URL(must(paid.location, 'Location'));
    expect(`${back.origin}${back.pathname}`).toBe(gateway.returnUrl);
    expect(back.searchParams.get('result')).toBe('success');
    expect(back.searchParams.get('EDP_BILL_NO')).toBe(session.orderNumber);

    const calls = resultCallsFor(session.orderNumber);
    expect(calls.map((call) => [call.kind, call.status, call.body])).toEqual([
      ['precheck', 200, 'OK'],
      ['confirmation', 200, 'OK'],
    ]);
    expect(calls[0]?.fields).toEqual({
      EDP_PRECHECK: 'YES',
      EDP_BILL_NO: session.orderNumber,
      EDP_REC_ACCOUNT: REC_ACCOUNT,
      EDP_AMOUNT: '1500',
    });
    expect(calls[1]?.fields.EDP_AMOUNT).toBe('1500.00');
    const visit = must(fake.visit(session.orderNumber), 'visit');
    expect(visit.state).toBe('paid');
    expect(visit.transId).toMatch(/^\d{14}$/);

    const handled = handledFor(session.orderNumber);
    expect(handled.map((entry) => entry.outcome)).toEqual([
      null,
      { kind: 'paid', rrn: visit.transId, cardLast4: null, processor: 'idram' },
    ]);
    expect(gateway.payment(payment.uuid)).toMatchObject({ status: 'completed', rrn: visit.transId, cardLast4: null });

    // The browser's return changes nothing.
    await browse(back.toString(), { method: 'GET' });
    const returned = handledFor(session.orderNumber)[2];
    expect(returned).toMatchObject({ path: '/processors/idram/return', method: 'GET', outcome: null });
    expect(returned?.key).toEqual({ orderNumber: session.orderNumber });
  });

  it('pays with the browser sent back by a posted form (the other way integrations read the return)', async () => {
    const posting = await FakeIdram.start({
      recAccount: REC_ACCOUNT,
      secretKey: SECRET_KEY,
      resultUrl: gateway.resultUrl,
      successUrl: gateway.returnUrl,
      failUrl: gateway.returnUrl,
      returnMethod: 'POST',
    });
    try {
      const { payment, session, redirect } = await started();
      const page = await submitRedirect({ ...redirect, url: posting.formUrl } as BuyerRedirect);
      const paid = await press(posting.url, page, 'Pay');
      expect(paid.status).toBe(200);
      const [form] = formsOf(paid.html);
      expect(form?.action).toBe(gateway.returnUrl);
      expect(form?.fields.get('EDP_BILL_NO')).toBe(session.orderNumber);
      const back = await browse(must(form, 'return form').action, { method: 'POST', fields: form?.fields });
      expect(back.status).toBe(303);
      expect(handledFor(session.orderNumber).at(-1)).toMatchObject({ method: 'POST', outcome: null });
      expect(gateway.payment(payment.uuid).status).toBe('completed');
    } finally {
      await posting.close();
    }
  });
});

describe('declines: Idram sends nothing signed, so the payment stays processing until it expires', () => {
  it('the buyer declines: back to FAIL_URL, nothing sent to RESULT_URL, the return changes nothing', async () => {
    const { payment, session, redirect } = await started();
    const declined = await press(fake.url, await submitRedirect(redirect), 'Decline');
    const back = new URL(must(declined.location, 'Location'));
    expect(back.searchParams.get('result')).toBe('fail');
    expect(back.searchParams.get('EDP_BILL_NO')).toBe(session.orderNumber);
    expect(resultCallsFor(session.orderNumber)).toEqual([]);

    await browse(back.toString(), { method: 'GET' });
    expect(handledFor(session.orderNumber)).toMatchObject([{ path: '/processors/idram/return', outcome: null }]);
    expect(gateway.payment(payment.uuid).status).toBe('processing');
  });

  it('a buyer who lowers EDP_AMOUNT in the unsigned form is refused at the precheck', async () => {
    const { payment, session, redirect } = await started();
    if (redirect.method !== 'POST') throw new Error('expected a form');
    const page = await submitRedirect({ ...redirect, fields: { ...redirect.fields, EDP_AMOUNT: '15' } });
    const refused = await press(fake.url, page, 'Pay');
    expect(new URL(must(refused.location, 'Location')).searchParams.get('result')).toBe('fail');
    expect(resultCallsFor(session.orderNumber).map((call) => [call.kind, call.status, call.body])).toEqual([
      ['precheck', 200, 'REFUSED: EDP_AMOUNT does not match'],
    ]);
    expect(must(fake.visit(session.orderNumber), 'visit').state).toBe('precheck_refused');
    expect(gateway.payment(payment.uuid).status).toBe('processing');
  });

  it.each<[string, Partial<Payment>, number | null]>([
    ['expired at the gateway', { status: 'expired' }, null],
    ['past its expiry, not yet expired by the job', {}, Date.parse('2026-11-23T10:20:00.000Z')],
    ['in its last second before expiry', {}, Date.parse('2026-11-23T10:19:59.500Z')],
    ['already completed', { status: 'completed', rrn: '20000000000001' }, null],
    ['failed', { status: 'failed', failureCode: 'declined' }, null],
    ['processing with another processor', { processor: 'ameria' }, null],
  ])('a payment %s is refused at the precheck; no confirmation follows', async (_case, changes, nowMs) => {
    const { payment, session, redirect } = await started();
    const page = await submitRedirect(redirect);
    gateway.set(payment.uuid, changes);
    if (nowMs !== null) gateway.nowMs = nowMs;
    const refused = await press(fake.url, page, 'Pay');
    expect(new URL(must(refused.location, 'Location')).searchParams.get('result')).toBe('fail');
    expect(resultCallsFor(session.orderNumber).map((call) => [call.kind, call.body])).toEqual([
      ['precheck', 'REFUSED: bill not payable'],
    ]);
    expect(handledFor(session.orderNumber).map((entry) => entry.outcome)).toEqual([null]);
    expect(gateway.payment(payment.uuid).rrn).toBe(changes.rrn ?? null);
  });

  it('the precheck compares amounts as numbers and the account exactly', async () => {
    const { session } = await started();
    const precheck = (overrides: Record<string, string>) =>
      fake.postToResultUrl({
        EDP_PRECHECK: 'YES',
        EDP_BILL_NO: session.orderNumber,
        EDP_REC_ACCOUNT: REC_ACCOUNT,
        EDP_AMOUNT: '1500',
        ...overrides,
      });
    expect((await precheck({})).body).toBe('OK');
    expect((await precheck({ EDP_AMOUNT: '1500.00' })).body).toBe('OK');
    expect((await precheck({ EDP_AMOUNT: '1500.5' })).body).toBe('REFUSED: EDP_AMOUNT does not match');
    expect((await precheck({ EDP_AMOUNT: '1,500' })).body).toBe('REFUSED: malformed request');
    expect((await precheck({ EDP_REC_ACCOUNT: '110000602' })).body).toBe('REFUSED: EDP_REC_ACCOUNT does not match');
    expect((await precheck({ EDP_PRECHECK: 'yes' })).body).toBe('REFUSED: malformed request');
    expect(handledFor(session.orderNumber).every((entry) => entry.outcome === null)).toBe(true);
  });

  it('no refusal could pass for OK, however Idram compares', async () => {
    const { session } = await started();
    const bodies = new Set<string>();
    for (const fields of [
      { EDP_BILL_NO: session.orderNumber } as Record<string, string>,
      signedConfirmation(session.orderNumber, {}, 'another-secret'),
      signedConfirmation(session.orderNumber, { EDP_AMOUNT: '1.00' }),
      signedConfirmation('ffffffffffffffffffffffffffffffff'),
      { EDP_PRECHECK: 'YES', EDP_BILL_NO: session.orderNumber },
    ]) {
      const call = await fake.postToResultUrl(fields);
      expect(call.status).toBe(200);
      bodies.add(must(call.body, 'body'));
    }
    expect(bodies.size).toBe(5);
    for (const body of bodies) expect(body.toLowerCase()).not.toContain('ok');
  });
});

describe('the confirmation', () => {
  it('signed with another secret: never a result, refused with 200 so Idram cancels, back to FAIL_URL', async () => {
    fake.confirmationStyle.signWith = 'not-the-merchant-secret';
    const { payment, session, redirect } = await started();
    const result = await press(fake.url, await submitRedirect(redirect), 'Pay');
    expect(new URL(must(result.location, 'Location')).searchParams.get('result')).toBe('fail');
    expect(resultCallsFor(session.orderNumber).map((call) => [call.kind, call.status, call.body])).toEqual([
      ['precheck', 200, 'OK'],
      ['confirmation', 200, 'REFUSED: EDP_CHECKSUM does not match'],
    ]);
    expect(must(fake.visit(session.orderNumber), 'visit').state).toBe('cancelled');
    expect(handledFor(session.orderNumber).map((entry) => entry.outcome)).toEqual([null, null]);
    expect(gateway.payment(payment.uuid)).toMatchObject({ status: 'processing', rrn: null });
  });

  it.each([
    ['EDP_AMOUNT', '15.00'],
    ['EDP_TRANS_ID', '20000000009002'],
    ['EDP_PAYER_ACCOUNT', '100099999'],
    ['EDP_TRANS_DATE', '24/11/2026'],
    ['EDP_REC_ACCOUNT', '110000602'],
  ])('with %s changed after signing: a bad checksum, no result', async (field, value) => {
    const { payment, session } = await started();
    const call = await fake.postToResultUrl({ ...signedConfirmation(session.orderNumber), [field]: value });
    expect([call.status, call.body]).toEqual([200, 'REFUSED: EDP_CHECKSUM does not match']);
    expect(handledFor(session.orderNumber).map((entry) => entry.outcome)).toEqual([null]);
    expect(gateway.payment(payment.uuid).status).toBe('processing');
  });

  it('a checksum that is not 32 hex digits, a missing checksum, a repeated field: no result', async () => {
    const { payment, session } = await started();
    const valid = signedConfirmation(session.orderNumber);
    const { EDP_CHECKSUM: checksum, ...unsigned } = valid;
    const cases: Array<[string, string]> = [
      [new URLSearchParams({ ...valid, EDP_CHECKSUM: checksum.slice(1) }).toString(), 'REFUSED: malformed request'],
      [new URLSearchParams(unsigned).toString(), 'REFUSED: no signed confirmation'],
      [`${new URLSearchParams(valid).toString()}&EDP_AMOUNT=1.00`, 'REFUSED: malformed request'],
    ];
    for (const [body, expected] of cases) {
      const response = await fetch(gateway.resultUrl, {
        method: 'POST',
        headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
        body,
      });
      expect([response.status, await response.text()]).toEqual([200, expected]);
    }
    expect(handledFor(session.orderNumber).map((entry) => entry.outcome)).toEqual([null, null, null]);
    expect(gateway.payment(payment.uuid).status).toBe('processing');
  });

  it('takes the checksum in lower-case hex as well, and EDP_AMOUNT as Idram formats it', async () => {
    fake.confirmationStyle.checksumCase = 'lower';
    fake.confirmationStyle.amount = 'as_sent';
    const { payment, session, redirect } = await started();
    await press(fake.url, await submitRedirect(redirect), 'Pay');
    const confirmation = must(resultCallsFor(session.orderNumber)[1], 'confirmation');
    expect(confirmation.fields.EDP_CHECKSUM).toMatch(/^[0-9a-f]{32}$/);
    expect(confirmation.fields.EDP_AMOUNT).toBe('1500');
    expect(confirmation.body).toBe('OK');
    expect(gateway.payment(payment.uuid).status).toBe('completed');
  });

  it('correctly signed for another account or amount: no result, refused so Idram cancels', async () => {
    const { payment, session } = await started();
    for (const [overrides, expected] of [
      [{ EDP_REC_ACCOUNT: '110000602' }, 'REFUSED: EDP_REC_ACCOUNT does not match'],
      [{ EDP_AMOUNT: '1400.00' }, 'REFUSED: EDP_AMOUNT does not match'],
      [{ EDP_AMOUNT: '1500.01' }, 'REFUSED: EDP_AMOUNT does not match'],
    ] as const) {
      const call = await fake.postToResultUrl(signedConfirmation(session.orderNumber, overrides));
      expect([call.status, call.body]).toEqual([200, expected]);
      expect(FakeIdram.effectOf(call)).toBe('cancelled');
    }
    expect(handledFor(session.orderNumber).map((entry) => entry.outcome)).toEqual([null, null, null]);
    expect(gateway.payment(payment.uuid).status).toBe('processing');
  });

  it('replayed: the same paid result again, answered OK, the payment unchanged', async () => {
    const { payment, session } = await started();
    const confirmation = signedConfirmation(session.orderNumber, { EDP_TRANS_ID: '20000000007777' });
    expect((await fake.postToResultUrl(confirmation)).body).toBe('OK');
    const completed = gateway.payment(payment.uuid);
    gateway.nowMs += 60_000;
    expect((await fake.postToResultUrl(confirmation)).body).toBe('OK');
    const paid = { kind: 'paid', rrn: '20000000007777', cardLast4: null, processor: 'idram' };
    expect(handledFor(session.orderNumber).map((entry) => entry.outcome)).toEqual([paid, paid]);
    expect(gateway.payment(payment.uuid)).toEqual(completed);
    expect(gateway.transitions.filter((entry) => entry.paymentId === payment.uuid)).toEqual([
      { paymentId: payment.uuid, transition: 'complete' },
    ]);
  });

  it('a second transaction for a bill already paid is refused, so Idram cancels it instead of charging twice', async () => {
    const { payment, session } = await started();
    await fake.postToResultUrl(signedConfirmation(session.orderNumber, { EDP_TRANS_ID: '20000000001111' }));
    const second = await fake.postToResultUrl(
      signedConfirmation(session.orderNumber, { EDP_TRANS_ID: '20000000002222' }),
    );
    expect([second.status, second.body]).toEqual([200, 'REFUSED: payment not recorded for this bill']);
    expect(gateway.payment(payment.uuid)).toMatchObject({ status: 'completed', rrn: '20000000001111' });
  });

  it('for a payment the core will not complete (never started): refused, so the money goes back', async () => {
    const { payment, session } = await started();
    gateway.set(payment.uuid, { status: 'pending', processor: null });
    const call = await fake.postToResultUrl(signedConfirmation(session.orderNumber));
    expect([call.status, call.body]).toEqual([200, 'REFUSED: payment not recorded for this bill']);
    expect(gateway.payment(payment.uuid).status).toBe('pending');
  });

  it('after the gateway expired the payment (late confirmation): paid, completed late, answered OK', async () => {
    const { payment, session, redirect } = await started();
    await submitRedirect(redirect);
    const visit = must(fake.visit(session.orderNumber), 'visit');
    expect(await fake.precheck(visit)).toBe(true);
    // The money moves at Idram while the payment's 20 minutes run out at the gateway.
    gateway.nowMs = Date.parse(payment.expiresAt) + 5_000;
    const { effect, transId } = await fake.confirm({ billNo: visit.billNo, amount: visit.amount });
    expect(effect).toBe('accepted');
    expect(handledFor(session.orderNumber).at(-1)?.outcome).toEqual({
      kind: 'paid',
      rrn: transId,
      cardLast4: null,
      processor: 'idram',
    });
    expect(gateway.transitions.filter((entry) => entry.paymentId === payment.uuid).map((e) => e.transition)).toEqual([
      'expire',
      'confirm_late',
    ]);
    expect(gateway.payment(payment.uuid)).toMatchObject({ status: 'completed', rrn: transId });
  });

  it('answered 500, Idram keeps the payment with an alert (2025 rules): the fake sends the buyer to SUCCESS_URL', async () => {
    const { session, redirect } = await started();
    const page = await submitRedirect(redirect);
    gateway.forceConfirmationStatus = 500;
    const result = await press(fake.url, page, 'Pay');
    expect(new URL(must(result.location, 'Location')).searchParams.get('result')).toBe('success');
    expect(resultCallsFor(session.orderNumber).map((call) => [call.kind, call.status])).toEqual([
      ['precheck', 200],
      ['confirmation', 500],
    ]);
    const visit = must(fake.visit(session.orderNumber), 'visit');
    expect([visit.state, visit.alerts.length]).toEqual(['paid', 1]);
    expect(FakeIdram.effectOf({ status: null, body: null })).toBe('kept_with_alert');
    expect(FakeIdram.effectOf({ status: 204, body: '' })).toBe('cancelled');
    expect(FakeIdram.effectOf({ status: 200, body: 'OK ' })).toBe('cancelled');
  });
});

describe('requests that name no payment of ours', () => {
  it('a signed confirmation or a precheck for an unknown bill: unknown, refused', async () => {
    const unknownBill = randomUUID().replaceAll('-', '');
    for (const fields of [
      signedConfirmation(unknownBill),
      { EDP_PRECHECK: 'YES', EDP_BILL_NO: unknownBill, EDP_REC_ACCOUNT: REC_ACCOUNT, EDP_AMOUNT: '1500' },
    ]) {
      const call = await fake.postToResultUrl(fields);
      expect([call.status, call.body]).toEqual([200, 'REFUSED: unknown bill']);
    }
    expect(handledFor(unknownBill).map((entry) => entry.outcome)).toEqual(['unknown', 'unknown']);
  });

  it('a request without EDP_BILL_NO names nothing', async () => {
    const before = gateway.handled.length;
    const call = await fake.postToResultUrl({ EDP_PRECHECK: 'YES', EDP_AMOUNT: '1500' });
    expect([call.status, call.body]).toEqual([200, 'REFUSED: malformed request']);
    expect(gateway.handled.slice(before)).toMatchObject([{ key: null, outcome: 'unknown' }]);
  });
});

describe('the buyer returning to SUCCESS_URL or FAIL_URL', () => {
  it('by GET or POST, even with confirmation fields but no checksum: identified, outcome null', async () => {
    const { payment, session } = await started();
    const { EDP_CHECKSUM: _, ...unsigned } = signedConfirmation(session.orderNumber);
    await browse(`${gateway.returnUrl}?${new URLSearchParams({ EDP_BILL_NO: session.orderNumber })}`, {
      method: 'GET',
    });
    await browse(gateway.returnUrl, { method: 'POST', fields: { EDP_BILL_NO: session.orderNumber } });
    await browse(`${gateway.returnUrl}?${new URLSearchParams(unsigned)}`, { method: 'GET' });
    const handled = handledFor(session.orderNumber);
    expect(handled.map((entry) => [entry.method, entry.outcome])).toEqual([
      ['GET', null],
      ['POST', null],
      ['GET', null],
    ]);
    expect(gateway.payment(payment.uuid).status).toBe('processing');
  });
});

describe('the fake Idram page', () => {
  it('refuses what Idram refuses: a wrong account, missing or malformed fields, GET, another encoding', async () => {
    const { redirect } = await started();
    if (redirect.method !== 'POST') throw new Error('expected a form');
    const fields = redirect.fields;
    const without = (name: string) => Object.fromEntries(Object.entries(fields).filter(([key]) => key !== name));
    for (const [changed, message] of [
      [{ ...fields, EDP_REC_ACCOUNT: '110000602' }, 'Unknown merchant account'],
      [without('EDP_AMOUNT'), 'EDP_AMOUNT must be greater than zero'],
      [{ ...fields, EDP_AMOUNT: '1500,00' }, 'EDP_AMOUNT must be greater than zero'],
      [{ ...fields, EDP_AMOUNT: '0' }, 'EDP_AMOUNT must be greater than zero'],
      [without('EDP_BILL_NO'), 'EDP_BILL_NO is missing'],
      [{ ...fields, EDP_LANGUAGE: 'HY' }, 'EDP_LANGUAGE must be RU, EN or AM'],
      [{ ...fields, EDP_CURRENCY: 'AMD' }, 'Unknown field EDP_CURRENCY'],
    ] as const) {
      const page = await browse(redirect.url, { method: 'POST', fields: changed });
      expect(page.status).toBe(200);
      expect(page.html).toContain(message);
      expect(formsOf(page.html)).toEqual([]);
    }
    expect((await browse(redirect.url, { method: 'GET' })).status).toBe(405);
    const json = await fetch(redirect.url, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify(fields),
    });
    expect(json.status).toBe(415);
  });

  it('takes injected faults: HTTP 500, 200 with an error, a dropped connection, a delay', async () => {
    const { redirect } = await started();
    fake.failNext({ kind: 'http500' });
    expect((await submitRedirect(redirect)).status).toBe(500);
    fake.failNext({ kind: 'error200' });
    const error = await submitRedirect(redirect);
    expect([error.status, formsOf(error.html).length]).toEqual([200, 0]);
    fake.failNext({ kind: 'drop' });
    await expect(submitRedirect(redirect)).rejects.toThrow();
    fake.failNext({ kind: 'delay', ms: 300 });
    const startedAt = performance.now();
    expect((await submitRedirect(redirect)).status).toBe(200);
    expect(performance.now() - startedAt).toBeGreaterThanOrEqual(290);
  });

  it('a page already paid cannot be paid again', async () => {
    const { redirect } = await started();
    const page = await submitRedirect(redirect);
    await press(fake.url, page, 'Pay');
    const again = await press(fake.url, page, 'Pay');
    expect(again.html).toContain('This payment was already processed');
  });
});

describe('settings', () => {
  const parse = (config: unknown) => parseProcessorSettings(idramProcessor, JSON.stringify(config));
  const valid = { rec_account: '110000601', secret_key: 'Sec-Value-Q7', form_url: 'https://idram.example/Pay' };

  it('takes the account, the secret and form_url, with Idram’s page as the default', () => {
    expect(JSON.parse(must(parse(valid), 'settings'))).toEqual(valid);
    const { form_url: _, ...withoutUrl } = valid;
    expect(JSON.parse(must(parse(withoutUrl), 'settings')).form_url).toBe(
      'https://banking.idram.am/Payment/GetPayment',
    );
  });

  it.each<[string, Record<string, unknown>, string, string]>([
    ['a missing secret_key', { rec_account: '110000601' }, 'secret_key', 'Sec-Value-Q7'],
    ['a missing rec_account', { secret_key: 'Sec-Value-Q7' }, 'rec_account', 'Sec-Value-Q7'],
    ['a number for rec_account', { ...valid, rec_account: 987654321 }, 'rec_account', '987654321'],
    ['letters in rec_account', { ...valid, rec_account: 'acct-8827' }, 'rec_account', 'acct-8827'],
    ['an unknown key', { ...valid, password: 'Hunter-Value-55' }, 'password', 'Hunter-Value-55'],
    ['an ftp form_url', { ...valid, form_url: 'ftp://files.example/x' }, 'form_url', 'files.example'],
    ['credentials in form_url', { ...valid, form_url: 'https://u:pw-Zx91@idram.example/' }, 'form_url', 'pw-Zx91'],
    ['a secret with spaces around it', { ...valid, secret_key: ' Sec-Value-Q7 ' }, 'secret_key', 'Sec-Value-Q7'],
    ['a number for secret_key', { ...valid, secret_key: 4455667788 }, 'secret_key', '4455667788'],
  ])('refuses %s, naming the field and never the value', (_case, config, field, value) => {
    let error: unknown;
    try {
      parse(config);
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(InvalidProcessorSettings);
    const message = (error as Error).message;
    expect(message).toContain(field);
    expect(message).not.toContain(value);
  });
});
