/**
 * The Ameriabank adapter against a local vPOS (test/support/processors/fake-ameria.ts) over real
 * HTTP: settings, OrderIDs from the assigned range, registering and the buyer's page, the status
 * read back (paid, each decline class, never paid, late), refunds and their read-back, and every
 * way a call can fail (timeouts, dropped connections, error pages, HTTP 200 carrying an error).
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Payment } from '../../../gateway/domain/payment.js';
import {
  ameriaProcessor,
  nextOrderId,
  START_TIMEOUT_MS,
  STATUS_TIMEOUT_MS,
} from '../../../gateway/processors/ameria/adapter.js';
import {
  AMERIA_CODES,
  ameriaCode,
  declineFailureCode,
  failureCodeOf,
  refundOutcome,
} from '../../../gateway/processors/ameria/codes.js';
import {
  AMERIA_PRODUCTION_URL,
  type AmeriaConfig,
  ameriaConfigSchema,
} from '../../../gateway/processors/ameria/config.js';
import { cardLast4FromMask, orderOutcome, refundReadBack } from '../../../gateway/processors/ameria/map.js';
import {
  ameriaRefundReference,
  REFUND_STATUS_TIMEOUT_MS,
  REFUND_TIMEOUT_MS,
} from '../../../gateway/processors/ameria/refunds.js';
import {
  initPaymentRequest,
  paymentDetailsRequest,
  refundPaymentRequest,
} from '../../../gateway/processors/ameria/wire.js';
import type { ProcessorHttp, ProcessorRequest } from '../../../gateway/processors/http.js';
import type {
  Processor,
  ProcessorCall,
  ProcessorLanguage,
  ProcessorSession,
  RefundAttempt,
} from '../../../gateway/processors/processor.js';
import { InvalidProcessorSettings, parseProcessorSettings } from '../../../gateway/processors/settings.js';
import { freePort } from '../../support/ports.js';
import { loopbackHttp, memorySequence, testCall, testPayment, testSession } from '../../support/processors/call.js';
import { FakeAmeria, type FakeOrder } from '../../support/processors/fake-ameria.js';

const REFUND_ID = '01937a4e-5c1d-7abc-8def-0123456789ab';

let fake: FakeAmeria;
let http: ProcessorHttp;
let config: AmeriaConfig;
/** One counter for the whole file: the fake keys orders by OrderID, so each test takes new ones. */
const sequence = memorySequence();

beforeAll(async () => {
  fake = await FakeAmeria.start();
  http = loopbackHttp();
  config = ameriaConfigSchema.parse(fake.settings());
});

afterAll(async () => {
  http.close();
  await fake.close();
});

beforeEach(() => {
  fake.unattempted = 'fault';
});

function callWith(
  overrides: Partial<Omit<ProcessorCall<AmeriaConfig>, 'config'>> & { config?: AmeriaConfig } = {},
): ProcessorCall<AmeriaConfig> {
  const { config: own, http: ownHttp, ...rest } = overrides;
  return testCall(own ?? config, ownHttp ?? http, { sequence, ...rest });
}

function payment10(overrides: Partial<Payment> = {}): Payment {
  return testPayment({ amount: 10, description: 'Order 1001', ...overrides });
}

async function newSession(call: ProcessorCall<AmeriaConfig>, payment: Payment): Promise<ProcessorSession> {
  const newOrderNumber = ameriaProcessor.newOrderNumber;
  if (newOrderNumber === undefined) throw new Error('ameria numbers its orders');
  return testSession({
    processor: 'ameria',
    paymentId: payment.uuid,
    orderNumber: await newOrderNumber(call, payment),
  });
}

interface Started {
  readonly call: ProcessorCall<AmeriaConfig>;
  readonly payment: Payment;
  readonly session: ProcessorSession;
  readonly redirectUrl: string;
  readonly order: FakeOrder;
}

/** Registers a 10 AMD payment and answers the session with the bank's PaymentID, as the core keeps it. */
async function started(
  paymentOverrides: Partial<Payment> = {},
  callOverrides: Parameters<typeof callWith>[0] = {},
): Promise<Started> {
  const call = callWith(callOverrides);
  const payment = payment10(paymentOverrides);
  const session = await newSession(call, payment);
  const answer = await start(call, payment, session);
  if (answer.kind !== 'redirect' || answer.redirect.method !== 'GET') {
    throw new Error(`expected a redirect, got ${JSON.stringify(answer)}`);
  }
  const reference = answer.reference ?? '';
  const order = fake.order(reference);
  if (order === undefined) throw new Error('the fake has no such order');
  return { call, payment, session: { ...session, reference }, redirectUrl: answer.redirect.url, order };
}

function start(...args: Parameters<NonNullable<typeof ameriaProcessor.start>>) {
  const fn = ameriaProcessor.start;
  if (fn === undefined) throw new Error('ameria starts payments');
  return fn(...args);
}

function status(...args: Parameters<NonNullable<typeof ameriaProcessor.status>>) {
  const fn = ameriaProcessor.status;
  if (fn === undefined) throw new Error('ameria reads statuses back');
  return fn(...args);
}

function refund(...args: Parameters<NonNullable<typeof ameriaProcessor.refund>>) {
  const fn = ameriaProcessor.refund;
  if (fn === undefined) throw new Error('ameria refunds');
  return fn(...args);
}

function refundStatus(...args: Parameters<NonNullable<typeof ameriaProcessor.refundStatus>>) {
  const fn = ameriaProcessor.refundStatus;
  if (fn === undefined) throw new Error('ameria checks refunds');
  return fn(...args);
}

/** The buyer on the bank's page: opens it, presses Pay or Decline; answers where the browser goes next. */
async function buyer(redirectUrl: string, action: 'pay' | 'decline', code?: string): Promise<URL> {
  const page = await fetch(redirectUrl, { redirect: 'manual' });
  expect(page.status).toBe(200);
  const html = await page.text();
  const id = /name="id" value="([^"]+)"/.exec(html)?.[1];
  const lang = /name="lang" value="([^"]+)"/.exec(html)?.[1];
  const action_ = /<form method="post" action="([^"]+)"/.exec(html)?.[1];
  if (id === undefined || lang === undefined || action_ === undefined) throw new Error('no payment form on the page');
  const form = new URLSearchParams({ id, lang, action, code: code ?? '0100' });
  const posted = await fetch(new URL(action_, redirectUrl), {
    method: 'POST',
    redirect: 'manual',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    body: form.toString(),
  });
  expect(posted.status).toBe(302);
  return new URL(posted.headers.get('location') ?? '');
}

/** The HTTP client with its timeouts cut short (the adapter's own are 10-20 s); records what was asked. */
function shortTimeouts(limitMs = 300): { http: ProcessorHttp; asked: number[] } {
  const asked: number[] = [];
  return {
    asked,
    http: {
      request: (request: ProcessorRequest) => {
        asked.push(request.timeoutMs);
        return http.request({ ...request, timeoutMs: Math.min(request.timeoutMs, limitMs) });
      },
      close: () => {},
    },
  };
}

/** Settings whose base URL nothing listens on. */
async function unreachableConfig(): Promise<AmeriaConfig> {
  return { ...config, base_url: `http://127.0.0.1:${await freePort()}/VPOS/` };
}

describe('settings (processor enable ameria --config)', () => {
  const valid = {
    base_url: 'https://servicestest.ameriabank.am/VPOS/',
    client_id: '6f1d2c3b-4a5e-4f60-8b7c-9d0e1f2a3b4c',
    username: 'shop-user-7781',
    password: 'pw-Zq81-never-printed',
    order_id_min: 2350301,
    order_id_max: 2350400,
  };
  const parse = (value: unknown) => parseProcessorSettings(ameriaProcessor as Processor, JSON.stringify(value));

  function refusal(value: unknown): string {
    try {
      parse(value);
    } catch (error) {
      expect(error).toBeInstanceOf(InvalidProcessorSettings);
      return (error as Error).message;
    }
    throw new Error('the settings were accepted');
  }

  it('accepts the documented settings and defaults base_url to the production host', () => {
    expect(JSON.parse(parse(valid) ?? '')).toEqual(valid);
    const { base_url: _, ...withoutBase } = valid;
    expect(JSON.parse(parse(withoutBase) ?? '').base_url).toBe(AMERIA_PRODUCTION_URL);
  });

  it('refuses a missing field, naming it', () => {
    const { password: _, ...withoutPassword } = valid;
    const message = refusal(withoutPassword);
    expect(message).toContain('password');
    for (const value of Object.values(withoutPassword)) expect(message).not.toContain(String(value));
  });

  it('refuses a wrong type without repeating the value', () => {
    const message = refusal({ ...valid, order_id_min: '2350301', username: 40417 });
    expect(message).toContain('order_id_min');
    expect(message).toContain('username');
    expect(message).not.toContain('2350301');
    expect(message).not.toContain('40417');
    expect(message).not.toContain(valid.password);
  });

  it('refuses an unknown key without repeating its value', () => {
    const message = refusal({ ...valid, secret_key: 'sk-should-not-echo-91' });
    expect(message).toContain('secret_key');
    expect(message).not.toContain('sk-should-not-echo-91');
    expect(message).not.toContain(valid.password);
  });

  it('refuses a base URL that is not the VPOS root, and one carrying credentials', () => {
    for (const base_url of [
      'https://services.ameriabank.am/',
      'https://services.ameriabank.am/VPOS',
      'https://services.ameriabank.am/VPOS/api/VPOS/',
      'https://services.ameriabank.am/VPOS/?token=tok-never-printed',
      'https://user:pw-in-url-9@services.ameriabank.am/VPOS/',
      'ftp://services.ameriabank.am/VPOS/',
    ]) {
      const message = refusal({ ...valid, base_url });
      expect(message).toContain('base_url');
      expect(message).not.toContain(base_url);
      expect(message).not.toContain('never-printed');
      expect(message).not.toContain('pw-in-url-9');
    }
  });

  it('refuses a ClientID that is not a GUID and a range whose minimum is above its maximum', () => {
    const guid = refusal({ ...valid, client_id: 'client-42-not-a-guid' });
    expect(guid).toContain('client_id');
    expect(guid).not.toContain('client-42-not-a-guid');
    expect(refusal({ ...valid, order_id_min: 2350400, order_id_max: 2350301 })).toContain('order_id_max');
    expect(refusal({ ...valid, order_id_min: 0 })).toContain('order_id_min');
    expect(refusal({ ...valid, order_id_max: 2_147_483_648 })).toContain('order_id_max');
    expect(refusal({ ...valid, order_id_min: 1.5 })).toContain('order_id_min');
  });

  it('refuses empty credentials', () => {
    expect(refusal({ ...valid, username: '' })).toContain('username');
    expect(refusal({ ...valid, password: '' })).toContain('password');
  });
});

describe('newOrderNumber', () => {
  it('counts from order_id_min, one OrderID per session', async () => {
    const call = testCall(config, http, { sequence: memorySequence() });
    const numbers = [];
    for (let i = 0; i < 3; i++) numbers.push(await ameriaProcessor.newOrderNumber?.(call, payment10()));
    expect(numbers).toEqual([
      String(config.order_id_min),
      String(config.order_id_min + 1),
      String(config.order_id_min + 2),
    ]);
  });

  it('throws a RangeError once the assigned range is used up; a new range starts at its first OrderID', async () => {
    const counter = memorySequence();
    const inRange = (min: number, max: number) =>
      testCall({ ...config, order_id_min: min, order_id_max: max }, http, { sequence: counter });
    const small = inRange(500, 501);
    expect(await nextOrderId(small)).toBe(500);
    expect(await nextOrderId(small)).toBe(501);
    await expect(ameriaProcessor.newOrderNumber?.(small, payment10())).rejects.toThrow(/OrderID range .* used up/);
    await expect(nextOrderId(small)).rejects.toThrow(RangeError);
    expect(await nextOrderId(inRange(700, 799))).toBe(700);
    // Never an OrderID twice, even when an old range is entered again.
    await expect(nextOrderId(inRange(500, 501))).rejects.toThrow(RangeError);
  });
});

describe('start (InitPayment)', () => {
  it('registers the payment and sends the buyer to the bank page with its PaymentID', async () => {
    const before = fake.calls('InitPayment').length;
    const { call, payment, session, redirectUrl, order } = await started();
    expect(session.reference).toMatch(/^[0-9A-F]{8}-[0-9A-F]{4}-[0-9A-F]{4}-[0-9A-F]{4}-[0-9A-F]{12}$/);
    expect(redirectUrl).toBe(`${fake.baseUrl}Payments/Pay?id=${session.reference}&lang=am`);
    const sent = fake.calls('InitPayment');
    expect(sent).toHaveLength(before + 1);
    const request = sent.at(-1);
    expect(request?.path).toBe('/VPOS/api/VPOS/InitPayment');
    expect(request?.headers['content-type']).toMatch(/^application\/json/);
    expect(request?.json).toEqual({
      ClientID: config.client_id,
      Username: config.username,
      Password: config.password,
      OrderID: Number(session.orderNumber),
      Amount: 10,
      Currency: '051',
      Description: 'Order 1001',
      BackURL: call.returnUrl,
      Opaque: payment.uuid,
      Timeout: 1200,
    });
    expect(() => initPaymentRequest.parse(request?.json)).not.toThrow();
    expect(order.orderId).toBe(Number(session.orderNumber));
  });

  it('asks for the page in the buyer language (hy is am)', async () => {
    const languages: Array<[ProcessorLanguage, string]> = [
      ['hy', 'am'],
      ['ru', 'ru'],
      ['en', 'en'],
    ];
    for (const [language, lang] of languages) {
      const { redirectUrl } = await started({}, { language });
      expect(new URL(redirectUrl).searchParams.get('lang')).toBe(lang);
    }
  });

  it('gives the bank session no more time than the payment has left, at most 1200 s', async () => {
    const short = await started({}, { secondsLeft: 300 });
    expect(short.order.timeoutSeconds).toBe(300);
    const long = await started({}, { secondsLeft: 5000 });
    expect(long.order.timeoutSeconds).toBe(1200);
  });

  it('describes the payment by its order when it has no description, and cuts a long one to 1000 characters', async () => {
    const plain = await started({ description: null, orderId: 'WC-77' });
    expect(plain.order.description).toBe('Order WC-77');
    const long = await started({ description: 'x'.repeat(1500) });
    expect(long.order.description).toHaveLength(1000);
  });

  it('registers the same OrderID again when the buyer starts again: the same PaymentID', async () => {
    const first = await started();
    const again = await start(first.call, first.payment, first.session);
    expect(again).toMatchObject({ kind: 'redirect', reference: first.session.reference });
    expect(first.order.registrations).toBe(2);
    expect([...fake.orders.values()].filter((o) => o.orderId === first.order.orderId)).toHaveLength(1);
  });

  it('is refused for wrong credentials, without the password in the detail', async () => {
    const call = callWith({ config: { ...config, password: 'wrong-pw-never-shown' } });
    const payment = payment10();
    const answer = await start(call, payment, await newSession(call, payment));
    expect(answer).toMatchObject({ kind: 'refused', failureCode: 'processor_unavailable' });
    expect(JSON.stringify(answer)).toContain('20');
    expect(JSON.stringify(answer)).not.toContain('wrong-pw-never-shown');
    expect(JSON.stringify(answer)).not.toContain(config.password);
  });

  it('is refused by the test host for any amount but 10 AMD (the amount goes in drams)', async () => {
    const call = callWith();
    const payment = payment10({ amount: 1500 });
    const answer = await start(call, payment, await newSession(call, payment));
    expect(answer).toMatchObject({ kind: 'refused', failureCode: 'general_failure' });
    expect(answer.kind === 'refused' && answer.detail).toContain('560');
    expect(fake.calls('InitPayment').at(-1)?.json.Amount).toBe(1500);
  });

  it('is refused for an OrderID outside the assigned range', async () => {
    const call = callWith();
    const session = testSession({ processor: 'ameria', orderNumber: String(fake.orderIdMax + 1) });
    const answer = await start(call, payment10(), session);
    expect(answer).toMatchObject({ kind: 'refused' });
    expect(fake.orderByOrderId(fake.orderIdMax + 1)).toBeUndefined();
  });

  it('refuses, without calling the bank, a session whose order number is not an integer OrderID', async () => {
    const before = fake.requests.length;
    const answer = await start(callWith(), payment10(), testSession({ orderNumber: '0192f5a47b1c7d2e9f00' }));
    expect(answer).toMatchObject({ kind: 'refused', failureCode: 'general_failure' });
    expect(fake.requests).toHaveLength(before);
  });

  it('treats HTTP 200 carrying an error code as refused', async () => {
    fake.failNext('InitPayment', { kind: 'error200', code: '500', message: 'Unknown error' });
    const call = callWith();
    const payment = payment10();
    const answer = await start(call, payment, await newSession(call, payment));
    expect(answer).toMatchObject({ kind: 'refused', failureCode: 'general_failure' });
  });

  it('is unavailable on the HTTP 500 fault, an error page, a dropped connection', async () => {
    for (const fault of [{ kind: 'fault500' }, { kind: 'html502' }, { kind: 'drop' }] as const) {
      fake.failNext('InitPayment', fault);
      const call = callWith();
      const payment = payment10();
      const answer = await start(call, payment, await newSession(call, payment));
      expect(answer.kind).toBe('unavailable');
    }
  });

  it('is unavailable when the bank does not answer in time (15 s)', async () => {
    const short = shortTimeouts();
    fake.failNext('InitPayment', { kind: 'delay', ms: 1500 });
    const call = callWith({ http: short.http });
    const payment = payment10();
    const answer = await start(call, payment, await newSession(call, payment));
    expect(answer).toMatchObject({ kind: 'unavailable' });
    expect(short.asked).toEqual([START_TIMEOUT_MS]);
  });

  it('is unavailable when the bank cannot be reached', async () => {
    const call = callWith({ config: await unreachableConfig() });
    const payment = payment10();
    const answer = await start(call, payment, await newSession(call, payment));
    expect(answer).toMatchObject({ kind: 'unavailable' });
    expect(answer.kind === 'unavailable' && answer.detail).toContain('connection refused');
  });
});

describe('the buyer page and the return', () => {
  it('sends the browser back to the return URL with the bank query (typo, lower-case paymentID)', async () => {
    const { call, payment, session, redirectUrl } = await started();
    const back = await buyer(redirectUrl, 'pay');
    expect(`${back.origin}${back.pathname}`).toBe(call.returnUrl);
    expect(back.searchParams.get('orderID')).toBe(session.orderNumber);
    expect(back.searchParams.get('resposneCode')).toBe('00');
    expect(back.searchParams.get('paymentID')).toBe(session.reference?.toLowerCase());
    expect(back.searchParams.get('opaque')).toBe(payment.uuid);
    expect(back.searchParams.get('description')).toBe('Operation Approved ');
  });

  it('has no callback handler: the return is unsigned and the core reads the status back', () => {
    expect(ameriaProcessor.callback).toBeUndefined();
    expect(ameriaProcessor.status).toBeTypeOf('function');
  });

  it('a forged return saying paid changes nothing: the bank says not paid', async () => {
    const { call, payment, session } = await started();
    // Anyone can open the return URL with resposneCode=00; only the read-back decides.
    const answer = await status(call, payment, session);
    expect(answer).toMatchObject({ kind: 'pending' });
    expect(fake.order(session.reference ?? '')?.status).toBe('0');
  });

  it('a replayed return reads the same outcome again', async () => {
    const { call, payment, session, redirectUrl } = await started();
    await buyer(redirectUrl, 'pay');
    const first = await status(call, payment, session);
    const second = await status(call, payment, session);
    expect(first).toMatchObject({ kind: 'paid' });
    expect(second).toEqual(first);
  });

  it('a return naming a PaymentID the bank does not know is never paid', async () => {
    const call = callWith();
    const session = testSession({
      processor: 'ameria',
      orderNumber: String(fake.orderIdMin),
      reference: '7d1e3a1c-0000-4000-8000-000000000000',
    });
    expect(await status(call, payment10(), session)).toMatchObject({ kind: 'pending' });
  });
});

describe('status (GetPaymentDetails)', () => {
  it('reads a paid payment: rrn and the last four digits of the card mask', async () => {
    const { call, payment, session, redirectUrl, order } = await started();
    await buyer(redirectUrl, 'pay');
    const answer = await status(call, payment, session);
    expect(answer).toEqual({ kind: 'paid', rrn: order.rrn, cardLast4: '1818' });
    const request = fake.calls('GetPaymentDetails').at(-1);
    expect(request?.json).toEqual({
      PaymentID: session.reference,
      Username: config.username,
      Password: config.password,
    });
    expect(() => paymentDetailsRequest.parse(request?.json)).not.toThrow();
  });

  it('accepts the lower-case PaymentID the return carries', async () => {
    const { call, payment, session, redirectUrl } = await started();
    await buyer(redirectUrl, 'pay');
    const lower = { ...session, reference: session.reference?.toLowerCase() ?? null };
    expect(await status(call, payment, lower)).toMatchObject({ kind: 'paid' });
  });

  it('reads a payment paid after it expired at the gateway (late confirmation) as paid', async () => {
    const { call, payment, session, redirectUrl } = await started();
    await buyer(redirectUrl, 'pay');
    const expired = { ...payment, status: 'expired' as const };
    expect(await status({ ...call, secondsLeft: 0 }, expired, session)).toMatchObject({ kind: 'paid' });
  });

  it('reads a payment refunded since (OrderStatus 4) as paid', async () => {
    const { call, payment, session, redirectUrl } = await started();
    await buyer(redirectUrl, 'pay');
    await refund(call, { refundId: REFUND_ID, payment, session, amount: 4, reason: null });
    expect(fake.order(session.reference ?? '')?.status).toBe('4');
    expect(await status(call, payment, session)).toMatchObject({ kind: 'paid' });
  });

  it('is pending for a payment registered and never opened (the HTTP 500 fault, or 550)', async () => {
    const { call, payment, session } = await started();
    expect(await status(call, payment, session)).toEqual({
      kind: 'pending',
      failureCode: 'processor_timeout',
      cardLast4: null,
    });
    fake.unattempted = '550';
    expect(await status(call, payment, session)).toMatchObject({ kind: 'pending' });
  });

  it('is pending while the buyer is on the page (OrderStatus 0)', async () => {
    const { call, payment, session, redirectUrl } = await started();
    expect((await fetch(redirectUrl)).status).toBe(200);
    expect(await status(call, payment, session)).toMatchObject({ kind: 'pending' });
  });

  it('is pending, without calling the bank, when the bank never gave a PaymentID', async () => {
    const before = fake.requests.length;
    const session = testSession({ processor: 'ameria', orderNumber: String(fake.orderIdMin) });
    expect(await status(callWith(), payment10(), session)).toMatchObject({ kind: 'pending' });
    expect(fake.requests).toHaveLength(before);
  });

  const declines: Array<[code: string, failureCode: string]> = [
    ['0100', 'declined'],
    ['0116', 'insufficient_funds'],
    ['0-2006', '3ds_failed'],
    ['0121', 'amount_limit_exceeded'],
    ['0-2007', 'transaction_expired'],
    ['0999', 'declined'],
  ];
  for (const [code, failureCode] of declines) {
    it(`maps a decline with code ${code} to ${failureCode}`, async () => {
      const { call, payment, session, redirectUrl } = await started();
      const back = await buyer(redirectUrl, 'decline', code);
      expect(back.searchParams.get('resposneCode')).toBe(code);
      expect(await status(call, payment, session)).toEqual({ kind: 'declined', failureCode, cardLast4: '1818' });
    });
  }

  it('reads a page opened after the bank session ran out as expired', async () => {
    let now = 1_000_000;
    const timed = await FakeAmeria.start({ now: () => now });
    try {
      const call = callWith({ config: ameriaConfigSchema.parse(timed.settings()), secondsLeft: 60 });
      const payment = payment10();
      const session = testSession({ processor: 'ameria', orderNumber: String(timed.orderIdMin) });
      const answer = await start(call, payment, session);
      if (answer.kind !== 'redirect') throw new Error('expected a redirect');
      now += 61_000;
      const page = await fetch(answer.redirect.url, { redirect: 'manual' });
      expect(page.status).toBe(302);
      expect(new URL(page.headers.get('location') ?? '').searchParams.get('resposneCode')).toBe('0-2007');
      expect(await status(call, payment, { ...session, reference: answer.reference })).toMatchObject({
        kind: 'declined',
        failureCode: 'transaction_expired',
      });
    } finally {
      await timed.close();
    }
  });

  it('reads a reversed payment (OrderStatus 3, void) as declined', async () => {
    const { call, payment, session, redirectUrl } = await started();
    await buyer(redirectUrl, 'pay');
    const cancelled = await fetch(`${fake.baseUrl}api/VPOS/CancelPayment`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ PaymentID: session.reference, Username: config.username, Password: config.password }),
    });
    expect(await cancelled.json()).toMatchObject({ ResponseCode: '00' });
    expect(await status(call, payment, session)).toEqual({
      kind: 'declined',
      failureCode: 'declined',
      cardLast4: '1818',
    });
  });

  it('never reads as paid a deposited status whose ResponseCode is not the query success 00', async () => {
    const { call, payment, session, redirectUrl, order } = await started();
    await buyer(redirectUrl, 'pay');
    order.responseCode = '0-9000';
    expect(await status(call, payment, session)).toMatchObject({ kind: 'pending' });
    order.responseCode = '00';
    expect(await status(call, payment, session)).toMatchObject({ kind: 'paid' });
  });

  it('keeps asking about an OrderStatus it does not know', async () => {
    const { call, payment, session, redirectUrl, order } = await started();
    await buyer(redirectUrl, 'pay');
    (order as { status: string }).status = '9';
    expect(await status(call, payment, session)).toMatchObject({ kind: 'pending' });
  });

  it('never reads as paid an answer about another amount or another order', async () => {
    const { call, payment, session, redirectUrl } = await started();
    await buyer(redirectUrl, 'pay');
    const other = await status(call, { ...payment, amount: 20 }, session);
    expect(other).toMatchObject({ kind: 'unavailable' });
    expect(other.kind === 'unavailable' && other.detail).toContain('20');
    const elsewhere = await status(call, payment, { ...session, orderNumber: String(Number(session.orderNumber) + 1) });
    expect(elsewhere).toMatchObject({ kind: 'unavailable' });
  });

  it('treats HTTP 200 carrying an error code as not paid yet', async () => {
    const { call, payment, session, redirectUrl } = await started();
    await buyer(redirectUrl, 'pay');
    fake.failNext('GetPaymentDetails', { kind: 'error200', code: '550' });
    expect(await status(call, payment, session)).toMatchObject({ kind: 'pending' });
    fake.failNext('GetPaymentDetails', { kind: 'error200', code: '20', message: 'Incorrect Username and Password' });
    expect(await status(call, payment, session)).toMatchObject({ kind: 'pending' });
    expect(await status(call, payment, session)).toMatchObject({ kind: 'paid' });
  });

  it('is pending for a wrong password (the bank answers 550), never paid', async () => {
    const { call, payment, session, redirectUrl } = await started();
    await buyer(redirectUrl, 'pay');
    const wrong = { ...call, config: { ...config, password: 'not-the-password' } };
    expect(await status(wrong, payment, session)).toMatchObject({ kind: 'pending' });
  });

  it('is unavailable on an error page or a dropped connection', async () => {
    const { call, payment, session } = await started();
    for (const fault of [{ kind: 'html502' }, { kind: 'drop' }] as const) {
      fake.failNext('GetPaymentDetails', fault);
      expect(await status(call, payment, session)).toMatchObject({ kind: 'unavailable' });
    }
  });

  it('is unavailable when the bank does not answer in time (10 s)', async () => {
    const { call, payment, session, redirectUrl } = await started();
    await buyer(redirectUrl, 'pay');
    const short = shortTimeouts();
    fake.failNext('GetPaymentDetails', { kind: 'delay', ms: 1500 });
    expect(await status({ ...call, http: short.http }, payment, session)).toMatchObject({ kind: 'unavailable' });
    expect(short.asked).toEqual([STATUS_TIMEOUT_MS]);
  });

  it('is unavailable when the bank cannot be reached', async () => {
    const { call, payment, session } = await started();
    const answer = await status({ ...call, config: await unreachableConfig() }, payment, session);
    expect(answer).toMatchObject({ kind: 'unavailable' });
  });
});

describe('refund (RefundPayment)', () => {
  async function paid(): Promise<Started> {
    const run = await started();
    await buyer(run.redirectUrl, 'pay');
    return run;
  }

  it('refunds in full, in drams, with a reference derived from the PaymentID and the refund', async () => {
    const { call, payment, session, order } = await paid();
    const answer = await refund(call, { refundId: REFUND_ID, payment, session, amount: 10, reason: 'returned' });
    expect(answer).toEqual({ kind: 'refunded', reference: `${session.reference}/${REFUND_ID}` });
    const request = fake.calls('RefundPayment').at(-1);
    expect(request?.json).toEqual({
      PaymentID: session.reference,
      Username: config.username,
      Password: config.password,
      Amount: 10,
    });
    expect(() => refundPaymentRequest.parse(request?.json)).not.toThrow();
    expect(order).toMatchObject({ refundedAmount: 10, depositedAmount: 0, status: '4' });
  });

  it('refunds in parts that add up, and refuses what would go over (07)', async () => {
    const { call, payment, session, order } = await paid();
    expect(await refund(call, { refundId: REFUND_ID, payment, session, amount: 4, reason: null })).toMatchObject({
      kind: 'refunded',
    });
    const second = '01937a4e-5c1d-7abc-8def-00000000000b';
    const after = { ...payment, refundedAmount: 4 };
    expect(await refund(call, { refundId: second, payment: after, session, amount: 3, reason: null })).toEqual({
      kind: 'refunded',
      reference: ameriaRefundReference(session.reference ?? '', second),
    });
    expect(order).toMatchObject({ refundedAmount: 7, depositedAmount: 3 });
    const third = { ...payment, refundedAmount: 7 };
    expect(await refund(call, { refundId: REFUND_ID, payment: third, session, amount: 4, reason: null })).toEqual({
      kind: 'declined',
      code: '07',
    });
    expect(order).toMatchObject({ refundedAmount: 7, depositedAmount: 3 });
  });

  it('is declined for more than was paid, and for wrong credentials', async () => {
    const { call, payment, session } = await paid();
    expect(await refund(call, { refundId: REFUND_ID, payment, session, amount: 11, reason: null })).toEqual({
      kind: 'declined',
      code: '07',
    });
    const wrong = { ...call, config: { ...config, password: 'nope' } };
    expect(await refund(wrong, { refundId: REFUND_ID, payment, session, amount: 1, reason: null })).toEqual({
      kind: 'declined',
      code: '20',
    });
  });

  it('answers HTTP 200 carrying a refusal as declined, and a system error as unknown', async () => {
    const { call, payment, session, order } = await paid();
    fake.failNext('RefundPayment', { kind: 'error200', code: '513', message: 'No Refund permission' });
    expect(await refund(call, { refundId: REFUND_ID, payment, session, amount: 1, reason: null })).toEqual({
      kind: 'declined',
      code: '513',
    });
    fake.failNext('RefundPayment', { kind: 'error200', code: '550' });
    expect(await refund(call, { refundId: REFUND_ID, payment, session, amount: 1, reason: null })).toEqual({
      kind: 'unknown',
    });
    expect(order.refundedAmount).toBe(0);
  });

  it('is unknown when the bank does not answer in time (20 s): the status check finds it refunded', async () => {
    const { call, payment, session, order } = await paid();
    const short = shortTimeouts();
    fake.failNext('RefundPayment', { kind: 'delay', ms: 1500 });
    const request = { refundId: REFUND_ID, payment, session, amount: 6, reason: null };
    expect(await refund({ ...call, http: short.http }, request)).toEqual({ kind: 'unknown' });
    expect(order.refundedAmount).toBe(6);
    const found = await refundStatus({ ...call, http: short.http }, { ...request, processorReference: null });
    expect(found).toEqual({ kind: 'refunded', reference: ameriaRefundReference(session.reference ?? '', REFUND_ID) });
    expect(short.asked).toEqual([REFUND_TIMEOUT_MS, REFUND_STATUS_TIMEOUT_MS]);
  });

  it('is unknown when the connection drops after the bank refunded: found refunded later', async () => {
    const { call, payment, session } = await paid();
    fake.failNext('RefundPayment', { kind: 'dropAfter' });
    const request = { refundId: REFUND_ID, payment, session, amount: 10, reason: null };
    expect(await refund(call, request)).toEqual({ kind: 'unknown' });
    expect(await refundStatus(call, { ...request, processorReference: null })).toMatchObject({ kind: 'refunded' });
  });

  it('is unknown when the connection drops before the bank acted: found not refunded later', async () => {
    const { call, payment, session, order } = await paid();
    fake.failNext('RefundPayment', { kind: 'drop' });
    const request = { refundId: REFUND_ID, payment, session, amount: 5, reason: null };
    expect(await refund(call, request)).toEqual({ kind: 'unknown' });
    expect(order.refundedAmount).toBe(0);
    expect(await refundStatus(call, { ...request, processorReference: null })).toMatchObject({ kind: 'declined' });
  });

  it('is unknown on the HTTP 500 fault or an error page', async () => {
    const { call, payment, session } = await paid();
    for (const fault of [{ kind: 'fault500' }, { kind: 'html502' }] as const) {
      fake.failNext('RefundPayment', fault);
      expect(await refund(call, { refundId: REFUND_ID, payment, session, amount: 1, reason: null })).toEqual({
        kind: 'unknown',
      });
    }
  });

  it('is unavailable when the bank cannot be reached (nothing was sent)', async () => {
    const { call, payment, session, order } = await paid();
    const answer = await refund(
      { ...call, config: await unreachableConfig() },
      { refundId: REFUND_ID, payment, session, amount: 1, reason: null },
    );
    expect(answer).toEqual({ kind: 'unavailable' });
    expect(order.refundedAmount).toBe(0);
  });

  it('is unavailable, without calling the bank, for a payment the bank never registered', async () => {
    const before = fake.requests.length;
    const session = testSession({ processor: 'ameria', orderNumber: String(fake.orderIdMin) });
    const answer = await refund(callWith(), {
      refundId: REFUND_ID,
      payment: payment10(),
      session,
      amount: 1,
      reason: null,
    });
    expect(answer).toEqual({ kind: 'unavailable' });
    expect(fake.requests).toHaveLength(before);
  });
});

describe('refundStatus (RefundedAmount read back)', () => {
  async function paidAndRefunded(amount: number): Promise<Started> {
    const run = await started();
    await buyer(run.redirectUrl, 'pay');
    const answer = await refund(run.call, {
      refundId: '01937a4e-5c1d-7abc-8def-0000000000ff',
      payment: run.payment,
      session: run.session,
      amount,
      reason: null,
    });
    expect(answer.kind).toBe('refunded');
    return run;
  }

  it('counts a refund made once the total covers what was refunded before plus it', async () => {
    const { call, payment, session } = await paidAndRefunded(7);
    // The gateway had counted 3 before this refund of 4: the bank's 7 covers both.
    const answer = await refundStatus(call, {
      refundId: REFUND_ID,
      payment: { ...payment, refundedAmount: 3 },
      session,
      amount: 4,
      reason: null,
      processorReference: null,
    });
    expect(answer).toEqual({ kind: 'refunded', reference: ameriaRefundReference(session.reference ?? '', REFUND_ID) });
  });

  it('says not refunded while the total is no more than what was counted before', async () => {
    const { call, payment, session } = await paidAndRefunded(4);
    const answer = await refundStatus(call, {
      refundId: REFUND_ID,
      payment: { ...payment, refundedAmount: 4 },
      session,
      amount: 3,
      reason: null,
      processorReference: null,
    });
    expect(answer).toEqual({ kind: 'declined', code: 'not_refunded' });
  });

  it('asks again while the total is in between (another refund moved it)', async () => {
    const { call, payment, session } = await paidAndRefunded(4);
    const answer = await refundStatus(call, {
      refundId: REFUND_ID,
      payment,
      session,
      amount: 5,
      reason: null,
      processorReference: null,
    });
    expect(answer).toEqual({ kind: 'unknown' });
  });

  it('is unavailable when the read-back fails, times out or cannot reach the bank', async () => {
    const { call, payment, session } = await paidAndRefunded(4);
    const request = { refundId: REFUND_ID, payment, session, amount: 4, reason: null, processorReference: null };
    fake.failNext('GetPaymentDetails', { kind: 'fault500' });
    expect(await refundStatus(call, request)).toEqual({ kind: 'unavailable' });
    fake.failNext('GetPaymentDetails', { kind: 'error200', code: '550' });
    expect(await refundStatus(call, request)).toEqual({ kind: 'unavailable' });
    const short = shortTimeouts();
    fake.failNext('GetPaymentDetails', { kind: 'delay', ms: 1500 });
    expect(await refundStatus({ ...call, http: short.http }, request)).toEqual({ kind: 'unavailable' });
    expect(await refundStatus({ ...call, config: await unreachableConfig() }, request)).toEqual({
      kind: 'unavailable',
    });
    expect(await refundStatus(call, request)).toMatchObject({ kind: 'refunded' });
  });

  it('says not refunded for a payment the bank never registered (no refund was ever sent)', async () => {
    const session = testSession({ processor: 'ameria', orderNumber: String(fake.orderIdMin) });
    const answer: RefundAttempt = await refundStatus(callWith(), {
      refundId: REFUND_ID,
      payment: payment10(),
      session,
      amount: 1,
      reason: null,
      processorReference: null,
    });
    expect(answer).toMatchObject({ kind: 'declined' });
  });
});

describe('map', () => {
  it('maps every code of the table, and an unknown one only through the leading-zero form', () => {
    for (const code of AMERIA_CODES) expect(ameriaCode(code)).toBe(code);
    expect(ameriaCode('116')).toBe('0116');
    expect(ameriaCode('-2007')).toBe('0-2007');
    expect(ameriaCode('0-77777')).toBeUndefined();
    expect(ameriaCode('')).toBeUndefined();
    expect(failureCodeOf('0116')).toBe('insufficient_funds');
  });

  it('takes the decline reason from ResponseCode, else ActionCode, else a plain decline', () => {
    expect(declineFailureCode('0116', '')).toBe('insufficient_funds');
    expect(declineFailureCode('00', '-2006')).toBe('3ds_failed');
    expect(declineFailureCode('00', '')).toBe('declined');
    expect(declineFailureCode('0-99999', '')).toBe('declined');
  });

  it('reads OrderStatus: 2 and 4 paid, 3 and 6 declined, anything else pending', () => {
    expect(['0', '1', '2', '3', '4', '5', '6', '', '7', 'payment_deposited'].map(orderOutcome)).toEqual([
      'pending',
      'pending',
      'paid',
      'declined',
      'paid',
      'pending',
      'declined',
      'pending',
      'pending',
      'pending',
    ]);
  });

  it('declines a refund only on a refusal; an unknown code is an unknown outcome', () => {
    expect(refundOutcome('00')).toBe('refunded');
    expect(refundOutcome('07')).toBe('declined');
    expect(refundOutcome('550')).toBe('unknown');
    expect(refundOutcome('0151019')).toBe('unknown');
    expect(refundOutcome('12345')).toBe('unknown');
  });

  it('compares refunded totals in luma, not floats', () => {
    expect(refundReadBack(0.1 + 0.2 + 6.7, 3, 4)).toBe('refunded');
    expect(refundReadBack(3.0, 3, 4)).toBe('not_made');
    expect(refundReadBack(5.0, 3, 4)).toBe('unclear');
  });

  it('keeps only the last four digits of the card mask', () => {
    expect(cardLast4FromMask('408306**3143')).toBe('3143');
    expect(cardLast4FromMask('')).toBeNull();
    expect(cardLast4FromMask('4083********')).toBeNull();
  });
});

describe('the local vPOS refuses what the bank refuses', () => {
  const init = (body: unknown, contentType = 'application/json') =>
    fetch(`${fake.baseUrl}api/VPOS/InitPayment`, {
      method: 'POST',
      headers: { 'Content-Type': contentType },
      body: typeof body === 'string' ? body : JSON.stringify(body),
    });
  const valid = () => ({
    ClientID: config.client_id,
    Username: config.username,
    Password: config.password,
    OrderID: fake.orderIdMax,
    Amount: 10,
    Currency: '051',
    Description: 'probe',
    BackURL: 'https://pay.example.am/return',
    Opaque: 'x',
    Timeout: 60,
  });

  it('answers a body that is not JSON with 415, and unreadable JSON with the HTTP 500 fault', async () => {
    const form = await init('OrderID=1', 'application/x-www-form-urlencoded');
    expect(form.status).toBe(415);
    const broken = await init('{"OrderID":', 'application/json');
    expect(broken.status).toBe(500);
    expect(await broken.json()).toEqual({ Message: 'An error has occurred.' });
  });

  it('answers HTTP 200 with integer codes: 20 for another ClientID, 4 for a missing OrderID, 510 for a string one', async () => {
    expect(await (await init({ ...valid(), ClientID: '00000000-0000-4000-8000-000000000000' })).json()).toEqual({
      PaymentID: '',
      ResponseCode: 20,
      ResponseMessage: 'Incorrect Username and Password',
    });
    const { OrderID: _, ...withoutOrder } = valid();
    expect(await (await init(withoutOrder)).json()).toMatchObject({ PaymentID: '', ResponseCode: 4 });
    expect(await (await init({ ...valid(), OrderID: String(fake.orderIdMax) })).json()).toMatchObject({
      ResponseCode: 510,
    });
    expect(await (await init({ ...valid(), Amount: '10.00' })).json()).toMatchObject({ ResponseCode: 1 });
  });

  it('offers plain HTML forms on the page and refuses an unknown payment', async () => {
    const { redirectUrl } = await started();
    const html = await (await fetch(redirectUrl)).text();
    expect(html).toContain('<form method="post" action="/VPOS/Payments/Pay">');
    expect(html).not.toMatch(/<script|<link|src=/);
    expect((await fetch(`${fake.baseUrl}Payments/Pay?id=00000000-0000-4000-8000-000000000000&lang=en`)).status).toBe(
      404,
    );
  });
});
