/**
 * The ArCa adapter against a strict local ArCa host (test/support/processors/fake-arca.ts) over
 * real HTTP: registering and the buyer's page, reading the outcome back (paid only on the order's
 * deposited status, never from errorCode), each decline class, timeouts and unreachable hosts, a
 * repeated start after a lost answer, refunds full, partial, refused and unanswered, BPC's signed
 * callbacks, and the settings' schema.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Payment } from '../../../gateway/domain/payment.js';
import { arcaProcessor, START_TIMEOUT_MS, STATUS_TIMEOUT_MS } from '../../../gateway/processors/arca/adapter.js';
import { callbackChecksum, checksumSource } from '../../../gateway/processors/arca/callback.js';
import { type ArcaConfig, arcaConfigSchema } from '../../../gateway/processors/arca/config.js';
import { actionCodeClass, arcaDescription, declineFailureCode } from '../../../gateway/processors/arca/map.js';
import { REFUND_STATUS_TIMEOUT_MS, REFUND_TIMEOUT_MS } from '../../../gateway/processors/arca/refunds.js';
import type { ProcessorHttp, ProcessorRequest } from '../../../gateway/processors/http.js';
import type {
  CallbackRequest,
  ProcessorCall,
  ProcessorSession,
  StartAnswer,
} from '../../../gateway/processors/processor.js';
import { InvalidProcessorSettings, parseProcessorSettings } from '../../../gateway/processors/settings.js';
import { freePort } from '../../support/ports.js';
import { loopbackHttp, testCall, testPayment, testSession } from '../../support/processors/call.js';
import {
  type FakeArca,
  type FakeArcaDecline,
  type FakeArcaOptions,
  fakeArcaChecksum,
  startFakeArca,
} from '../../support/processors/fake-arca.js';

function defined<T>(value: T | undefined, what: string): T {
  if (value === undefined) throw new Error(`the ArCa adapter has no ${what}`);
  return value;
}
const start = defined(arcaProcessor.start, 'start');
const status = defined(arcaProcessor.status, 'status');
const refund = defined(arcaProcessor.refund, 'refund');
const refundStatus = defined(arcaProcessor.refundStatus, 'refundStatus');
const callback = defined(arcaProcessor.callback, 'callback');

const REFUND_ID = '01937a4e-5c1d-7abc-8def-0123456789ab';
const CALLBACK_SECRET = 'cb-Key-0f1e2d3c';

let client: ProcessorHttp;
let fake: FakeArca;

/** The adapter's HTTP client with every wait cut to `capMs`, noting the timeouts it asked for. */
function capped(capMs = 300): { http: ProcessorHttp; asked: number[] } {
  const asked: number[] = [];
  return {
    asked,
    http: {
      request: (request: ProcessorRequest) => {
        asked.push(request.timeoutMs);
        return client.request({ ...request, timeoutMs: Math.min(request.timeoutMs, capMs) });
      },
      close: () => {},
    },
  };
}

function configFor(host: FakeArca, extra: Partial<ArcaConfig> = {}): ArcaConfig {
  return { base_url: host.baseUrl, username: host.username, password: host.password, bank: 'ACBA', ...extra };
}

function callFor(
  overrides: Partial<Omit<ProcessorCall<ArcaConfig>, 'config' | 'http'>> = {},
  config: ArcaConfig = configFor(fake),
  httpClient: ProcessorHttp = client,
): ProcessorCall<ArcaConfig> {
  return testCall(config, httpClient, overrides);
}

const session = (overrides: Partial<ProcessorSession> = {}) => testSession({ processor: 'arca', ...overrides });

function redirectOf(answer: StartAnswer): { reference: string; url: string } {
  if (answer.kind !== 'redirect') throw new Error(`expected a redirect, got ${JSON.stringify(answer)}`);
  if (answer.redirect.method !== 'GET' || answer.reference === null) throw new Error('expected a GET with a reference');
  return { reference: answer.reference, url: answer.redirect.url };
}

/** A payment registered at the fake: its session (with BPC's orderId) and orderId. */
async function registered(
  payment: Payment = testPayment(),
  overrides: Partial<Omit<ProcessorCall<ArcaConfig>, 'config' | 'http'>> = {},
): Promise<{ session: ProcessorSession; orderId: string; formUrl: string }> {
  const base = session({ paymentId: payment.uuid, orderNumber: payment.uuid.replaceAll('-', '') });
  const { reference, url } = redirectOf(await start(callFor(overrides), payment, base));
  return { session: { ...base, reference }, orderId: reference, formUrl: url };
}

/** A payment paid at the fake, as the core then holds it. */
async function paid(amount = 1500): Promise<{ payment: Payment; session: ProcessorSession; orderId: string }> {
  const payment = testPayment({ amount });
  const { session: paidSession, orderId } = await registered(payment);
  await fake.pay(orderId);
  return { payment: { ...payment, status: 'completed', rrn: 'x' }, session: paidSession, orderId };
}

async function restart(options: FakeArcaOptions): Promise<void> {
  await fake.close();
  fake = await startFakeArca(options);
}

async function closedBaseUrl(): Promise<string> {
  return `http://127.0.0.1:${await freePort()}/payment/rest/`;
}

beforeAll(() => {
  client = loopbackHttp();
});
afterAll(() => client.close());
beforeEach(async () => {
  fake = await startFakeArca();
});
afterEach(async () => {
  await fake.close();
});

describe('settings', () => {
  const valid = {
    base_url: 'https://ipay.arca.am/payment/rest/',
    username: 'shop_api',
    password: 'pw',
  };

  it.each([
    'https://ipay.arca.am/payment/rest/',
    'https://ipaytest.arca.am:8445/payment/rest/',
    'https://pg.inecoecom.am/payment/rest/',
    'https://epg.arca.am/payment/rest/',
    'https://testepg.arca.am/payment/rest/',
  ])('accepts the host %s', (base) => {
    expect(arcaConfigSchema.safeParse({ ...valid, base_url: base }).success).toBe(true);
  });

  it('keeps every field, the bank label trimmed, and the optional callback key', () => {
    const parsed = arcaConfigSchema.parse({ ...valid, bank: '  ACBA ', callback_secret: 'k' });
    expect(parsed).toEqual({ ...valid, bank: 'ACBA', callback_secret: 'k' });
  });

  const SECRET = 'Sup3r-Secret-Value-91';
  it.each<[string, Record<string, unknown>, string]>([
    ['a missing password', { base_url: valid.base_url, username: SECRET }, 'password'],
    ['a missing username', { base_url: valid.base_url, password: SECRET }, 'username'],
    ['a missing base_url', { username: 'u', password: SECRET }, 'base_url'],
    ['a password of the wrong type', { ...valid, password: 918273645 }, 'password'],
    ['an unknown key', { ...valid, pasword: SECRET }, 'pasword'],
    ['a base_url not ending in /payment/rest/', { ...valid, base_url: `https://ipay.arca.am/${SECRET}/` }, 'base_url'],
    ['a base_url that is not http(s)', { ...valid, base_url: `ftp://ipay.arca.am/payment/rest/` }, 'base_url'],
    ['a base_url with a query', { ...valid, base_url: `https://ipay.arca.am/payment/rest/?k=${SECRET}` }, 'base_url'],
    ['a login inside base_url', { ...valid, base_url: `https://u:${SECRET}@ipay.arca.am/payment/rest/` }, 'base_url'],
    ['an empty bank label', { ...valid, bank: '   ' }, 'bank'],
  ])('refuses %s, naming the field and never the value', (_label, value, field) => {
    expect(arcaConfigSchema.safeParse(value).success).toBe(false);
    let message = '';
    try {
      parseProcessorSettings(arcaProcessor, JSON.stringify(value));
    } catch (error) {
      expect(error).toBeInstanceOf(InvalidProcessorSettings);
      message = (error as Error).message;
    }
    expect(message).toContain(field);
    expect(message).not.toContain(SECRET);
    expect(message).not.toContain('918273645');
  });
});

describe('start', () => {
  it('registers the order in minor units, form-encoded, and sends the buyer to formUrl', async () => {
    const payment = testPayment({ amount: 1500 });
    const answer = await start(callFor(), payment, session());
    const { reference, url } = redirectOf(answer);
    const order = fake.order(reference);
    expect(url).toBe(fake.formUrl(order));
    expect(order.amount).toBe(150000);

    const [sent] = fake.requestsOf('register');
    expect(sent?.method).toBe('POST');
    expect(sent?.contentType).toBe('application/x-www-form-urlencoded');
    expect(sent?.accept).toBe('*/*');
    expect(sent?.query).toBe('');
    expect(sent?.params).toEqual({
      userName: fake.username,
      password: fake.password,
      orderNumber: '0192f5a47b1c7d2e9f001234567890ab',
      amount: '150000',
      currency: '051',
      returnUrl: 'https://pay.example.am/checkout/tok_test/return',
      failUrl: 'https://pay.example.am/checkout/tok_test/return',
      description: 'Order 1001',
      language: 'hy',
      sessionTimeoutSecs: '1200',
    });
  });

  it.each<[number, string]>([
    [600, '600'],
    [5000, '1200'],
    [1200.9, '1200'],
  ])('with %d seconds left asks for a session of %s seconds', async (secondsLeft, expected) => {
    await start(callFor({ secondsLeft }), testPayment(), session());
    expect(fake.requestsOf('register')[0]?.params.sessionTimeoutSecs).toBe(expected);
  });

  it('refuses a payment with no time left without calling the bank', async () => {
    const answer = await start(callFor({ secondsLeft: 0 }), testPayment(), session());
    expect(answer).toMatchObject({ kind: 'refused', failureCode: 'transaction_expired' });
    expect(fake.requests).toHaveLength(0);
  });

  it.each<[string, Partial<Payment>]>([
    ['a fractional amount', { amount: 10.5 }],
    ['a zero amount', { amount: 0 }],
    ['another currency', { currency: 'USD' }],
  ])('refuses %s without calling the bank', async (_label, change) => {
    const answer = await start(callFor(), testPayment(change), session());
    expect(answer).toMatchObject({ kind: 'refused', failureCode: 'general_failure' });
    expect(fake.requests).toHaveLength(0);
  });

  it.each(['ru', 'en'] as const)('opens the bank page in %s', async (language) => {
    const { url } = redirectOf(await start(callFor({ language }), testPayment(), session()));
    expect(url).toContain(`/payment_${language}.html?mdOrder=`);
    expect(fake.requestsOf('register')[0]?.params.language).toBe(language);
  });

  it('sends a description the host accepts: no % + or line breaks, at most 99 characters', async () => {
    const payment = testPayment({ description: 'Order #5: 10% off\r\nA+B' });
    redirectOf(await start(callFor(), payment, session()));
    expect(fake.requestsOf('register')[0]?.params.description).toBe('Order #5: 10 off A B');
    expect(arcaDescription('Ա'.repeat(150), 'o')).toHaveLength(99);
    expect(arcaDescription(null, 'order-7')).toBe('Order order-7');
  });

  it.each(['string', 'absent'] as const)('takes a success whose errorCode is a %s', async (successCode) => {
    await restart({ successCode });
    const { reference } = redirectOf(await start(callFor(), testPayment(), session()));
    expect(fake.order(reference).status).toBe(0);
  });

  it('is refused (general_failure) on wrong credentials, the password never in the detail', async () => {
    const config = { ...configFor(fake), username: 'other_api', password: 'Wr0ng-Passw0rd' };
    const answer = await start(callFor({}, config), testPayment(), session());
    expect(answer).toMatchObject({ kind: 'refused', failureCode: 'general_failure' });
    expect(JSON.stringify(answer)).not.toContain('Wr0ng-Passw0rd');
    expect(JSON.stringify(answer)).not.toContain('other_api');
    expect(JSON.stringify(answer)).toContain('errorCode 5');
  });

  it.each<[number | string, string]>([
    [3, 'refused'],
    ['4', 'refused'],
    [5, 'refused'],
    ['7', 'unavailable'],
    [99, 'unavailable'],
  ])('HTTP 200 with errorCode %s answers %s', async (errorCode, kind) => {
    fake.failNext({ kind: 'error200', errorCode, errorMessage: 'Error' });
    const answer = await start(callFor(), testPayment(), session());
    expect(answer.kind).toBe(kind);
    expect(fake.orders.size).toBe(0);
  });

  it.each<[string, string]>([
    ['a success without orderId and formUrl', '{"errorCode":0}'],
    ['a formUrl that is not a URL', '{"errorCode":0,"orderId":"32faa424-858a-4f22-92c5-a50a9cfe56dc","formUrl":"x"}'],
    ['an HTML page', '<html><body>Maintenance</body></html>'],
  ])('is unavailable on %s', async (_label, body) => {
    fake.failNext({ kind: 'body', body });
    expect((await start(callFor(), testPayment(), session())).kind).toBe('unavailable');
  });

  it('is unavailable on HTTP 500, a dropped connection, a timeout (15 s asked) and an unreachable host', async () => {
    fake.failNext({ kind: 'http500' });
    expect((await start(callFor(), testPayment(), session())).kind).toBe('unavailable');
    fake.failNext({ kind: 'drop', apply: false });
    expect((await start(callFor(), testPayment(), session())).kind).toBe('unavailable');

    const { http: slow, asked } = capped(200);
    fake.failNext({ kind: 'delay', ms: 1000 });
    const late = await start(callFor({}, configFor(fake), slow), testPayment(), session());
    expect(late).toMatchObject({ kind: 'unavailable', detail: 'register.do: no answer within 200 ms' });
    expect(asked).toEqual([START_TIMEOUT_MS]);

    const away = { ...configFor(fake), base_url: await closedBaseUrl() };
    const answer = await start(callFor({}, away), testPayment(), session());
    expect(answer).toMatchObject({ kind: 'unavailable', detail: 'register.do: connection refused' });
  });

  it('after a lost answer, a repeated start finds the registered order (errorCode 1) and rebuilds its page', async () => {
    const payment = testPayment();
    fake.failNext({ kind: 'drop' }, 'register');
    expect((await start(callFor(), payment, session())).kind).toBe('unavailable');
    const order = fake.orderByNumber(session().orderNumber);
    expect(order?.status).toBe(0);

    const again = redirectOf(await start(callFor(), payment, session()));
    expect(again.reference).toBe(order?.orderId);
    expect(again.url).toBe(fake.formUrl(order as NonNullable<typeof order>));
    expect(fake.orders.size).toBe(1);
    const lookup = fake.requestsOf('getOrderStatusExtended')[0]?.params;
    expect(lookup?.orderNumber).toBe(session().orderNumber);
    expect(lookup?.orderId).toBeUndefined();

    // The rebuilt page is the bank's page: the buyer can pay there.
    const page = await fetch(again.url);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('>Pay</button>');
  });

  it('a repeated start of an order already paid sends the buyer back to our return address to read it', async () => {
    const payment = testPayment();
    const first = await registered(payment);
    await fake.pay(first.orderId);
    const again = redirectOf(await start(callFor(), payment, first.session));
    expect(again).toEqual({
      reference: first.orderId,
      url: `https://pay.example.am/checkout/tok_test/return?orderId=${first.orderId}`,
    });
    expect(fake.requestsOf('getOrderStatusExtended')[0]?.params.orderId).toBe(first.orderId);
  });

  it('a repeated start whose order cannot be read back is unavailable', async () => {
    const payment = testPayment();
    await registered(payment);
    fake.failNext({ kind: 'http500' }, 'getOrderStatusExtended');
    const answer = await start(callFor(), payment, session());
    expect(answer.kind).toBe('unavailable');
  });
});

describe('the bank page', () => {
  /** What a browser does on the page: submit one of its forms, as it is. */
  async function submit(formUrl: string, button: 'pay' | 'decline', extra: Record<string, string> = {}) {
    const page = await (await fetch(formUrl)).text();
    const forms = [...page.matchAll(/<form method="post" action="([^"]+)">(.*?)<\/form>/g)];
    const form = forms.find((match) => (match[2] ?? '').includes(`value="${button}"`));
    if (form === undefined) throw new Error(`no ${button} form`);
    const fields = new URLSearchParams();
    for (const input of (form[2] ?? '').matchAll(/<input (?:type="hidden" )?name="([^"]+)" value="([^"]*)"/g)) {
      fields.set(input[1] as string, input[2] as string);
    }
    for (const [name, value] of Object.entries(extra)) fields.set(name, value);
    fields.set('action', button);
    return fetch(new URL(form[1] as string, formUrl), {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: fields.toString(),
      redirect: 'manual',
    });
  }

  it('Pay sends the browser back with orderId appended to our own query; the read-back finds it paid', async () => {
    const returnUrl = 'https://pay.example.am/checkout/tok_test/return?lang=ru&x=a%20b';
    const payment = testPayment();
    const { session: paying, orderId, formUrl } = await registered(payment, { returnUrl });
    const response = await submit(formUrl, 'pay');
    expect(response.status).toBe(302);
    expect(response.headers.get('location')).toBe(`${returnUrl}&orderId=${orderId}`);
    const result = await status(callFor({ returnUrl }), payment, paying);
    expect(result).toEqual({
      kind: 'paid',
      rrn: fake.order(orderId).authRefNum,
      cardLast4: '1111',
      processor: 'arca',
    });
    expect(result.kind === 'paid' && /^\d{12}$/.test(result.rrn)).toBe(true);
  });

  it('Decline (insufficient funds) sends the browser back the same way; the read-back finds it declined', async () => {
    const payment = testPayment();
    const { session: paying, orderId, formUrl } = await registered(payment);
    const response = await submit(formUrl, 'decline', { reason: 'insufficient_funds' });
    expect(response.headers.get('location')).toBe(`https://pay.example.am/checkout/tok_test/return?orderId=${orderId}`);
    expect(await status(callFor(), payment, paying)).toEqual({
      kind: 'declined',
      failureCode: 'insufficient_funds',
      cardLast4: '0002',
    });
  });

  it('refuses a second action on a processed order', async () => {
    const { orderId, formUrl } = await registered();
    await fake.pay(orderId);
    const page = await (await fetch(formUrl)).text();
    expect(page).toContain('already processed');
  });
});

describe('status', () => {
  it('is paid on orderStatus 2, with the rrn (authRefNum) and the last four digits, read by orderId', async () => {
    const payment = testPayment();
    const { session: paying, orderId } = await registered(payment);
    await fake.pay(orderId, '5555444433331234');
    expect(await status(callFor(), payment, paying)).toEqual({
      kind: 'paid',
      rrn: fake.order(orderId).authRefNum,
      cardLast4: '1234',
      processor: 'arca',
    });
    const read = fake.requestsOf('getOrderStatusExtended')[0];
    expect(read?.params).toEqual({ userName: fake.username, password: fake.password, orderId });
    expect(read?.contentType).toBe('application/x-www-form-urlencoded');
  });

  it.each<FakeArcaOptions>([{ panField: 'maskedPan' }, { successCode: 'string' }, { successCode: 'absent' }])(
    'reads a paid order from a host answering %j',
    async (options) => {
      await restart(options);
      const payment = testPayment();
      const { session: paying, orderId } = await registered(payment);
      await fake.pay(orderId);
      expect(await status(callFor(), payment, paying)).toMatchObject({ kind: 'paid', cardLast4: '1111' });
    },
  );

  it('reads by orderNumber when the session has no orderId yet', async () => {
    const payment = testPayment();
    const { orderId } = await registered(payment);
    await fake.pay(orderId);
    expect(await status(callFor(), payment, session())).toMatchObject({ kind: 'paid' });
    const params = fake.requestsOf('getOrderStatusExtended')[0]?.params;
    expect(params?.orderNumber).toBe(session().orderNumber);
    expect(params?.orderId).toBeUndefined();
  });

  it('is pending while the order waits for the card', async () => {
    const payment = testPayment();
    const { session: paying } = await registered(payment);
    expect(await status(callFor(), payment, paying)).toEqual({
      kind: 'pending',
      failureCode: 'processor_timeout',
      cardLast4: null,
    });
  });

  it.each<[FakeArcaDecline, string]>([
    ['declined', 'declined'],
    ['insufficient_funds', 'insufficient_funds'],
    ['3ds_failed', '3ds_failed'],
    ['limit', 'amount_limit_exceeded'],
    ['expired_card', 'declined'],
    ['fraud', 'declined'],
    ['processing_timeout', 'processor_timeout'],
  ])('a card declined for %s is declined with %s', async (reason, failureCode) => {
    const payment = testPayment();
    const { session: paying, orderId } = await registered(payment);
    await fake.decline(orderId, reason);
    expect(await status(callFor(), payment, paying)).toEqual({ kind: 'declined', failureCode, cardLast4: '0002' });
  });

  it('an order whose time to enter the card ran out (-2007) is declined with transaction_expired', async () => {
    const payment = testPayment();
    const { session: paying, orderId } = await registered(payment);
    await fake.expire(orderId);
    expect(await status(callFor(), payment, paying)).toEqual({
      kind: 'declined',
      failureCode: 'transaction_expired',
      cardLast4: null,
    });
  });

  it.each<[number, number, string]>([
    [1, 0, 'pending'],
    [5, -100, 'pending'],
    [7, 0, 'pending'],
    [42, 0, 'pending'],
    [3, 0, 'declined'],
    [4, 0, 'paid'],
  ])('orderStatus %d (actionCode %d) is %s', async (orderStatus, actionCode, kind) => {
    const payment = testPayment();
    const { session: paying, orderId } = await registered(payment);
    if (orderStatus === 4) {
      await fake.pay(orderId);
      expect(
        await refund(callFor(), { refundId: REFUND_ID, payment, session: paying, amount: 1500, reason: null }),
      ).toMatchObject({ kind: 'refunded' });
    }
    Object.assign(fake.order(orderId), { status: orderStatus, actionCode });
    expect((await status(callFor(), payment, paying)).kind).toBe(kind);
  });

  it('a payment paid at the bank after our expiry is read back as paid (late confirmation)', async () => {
    const payment = testPayment();
    const { session: paying, orderId } = await registered(payment);
    await fake.pay(orderId);
    const expired = { ...payment, status: 'expired' as const, failureCode: 'transaction_expired' };
    expect(await status(callFor(), expired, paying)).toMatchObject({ kind: 'paid', cardLast4: '1111' });
  });

  describe('never pays on errorCode alone (the public plugins bug)', () => {
    it.each<[string, Record<string, unknown>]>([
      ['errorCode 0 alone', { errorCode: 0 }],
      ['errorCode "0" with a message', { errorCode: '0', errorMessage: 'Success' }],
      ['an empty object', {}],
      [
        'the legacy getOrderStatus.do shape (capitalised keys)',
        { ErrorCode: '0', ErrorMessage: 'Success', OrderStatus: 2, OrderNumber: 'x', Amount: 150000 },
      ],
      [
        'paymentState DEPOSITED without orderStatus',
        { errorCode: 0, paymentAmountInfo: { paymentState: 'DEPOSITED' } },
      ],
      ['orderStatus 2 as a word', { errorCode: 0, orderStatus: 'deposited' }],
    ])('%s is not paid', async (_label, body) => {
      const payment = testPayment();
      const { session: paying } = await registered(payment);
      fake.failNext({ kind: 'body', body: JSON.stringify(body) }, 'getOrderStatusExtended');
      expect((await status(callFor(), payment, paying)).kind).toBe('unavailable');
    });

    /** The fake's answer for a paid order, changed by `change`. */
    async function paidAnswer(change: (answer: Record<string, unknown>) => void) {
      const payment = testPayment();
      const { session: paying, orderId } = await registered(payment);
      await fake.pay(orderId);
      const fresh = await fetch(`${fake.baseUrl}getOrderStatusExtended.do`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ userName: fake.username, password: fake.password, orderId }).toString(),
      });
      const answer = (await fresh.json()) as Record<string, unknown>;
      change(answer);
      fake.failNext({ kind: 'body', body: JSON.stringify(answer) }, 'getOrderStatusExtended');
      return status(callFor(), payment, paying);
    }

    it('the unchanged answer is paid (the control)', async () => {
      expect((await paidAnswer(() => {})).kind).toBe('paid');
    });

    it.each<[string, (answer: Record<string, unknown>) => void]>([
      ['another amount', (a) => (a.amount = 1500)],
      ['no amount', (a) => delete a.amount],
      ['another order number', (a) => (a.orderNumber = 'ffffffffffffffffffffffffffffffff')],
      ['another currency', (a) => (a.currency = '840')],
      ['another orderId', (a) => (a.attributes = [{ name: 'mdOrder', value: '32faa424-858a-4f22-92c5-a50a9cfe56dc' }])],
      ['errorCode 7 beside orderStatus 2', (a) => (a.errorCode = 7)],
      ['errorCode 2 beside orderStatus 2', (a) => (a.errorCode = '2')],
    ])('an answer with %s is not paid', async (_label, change) => {
      expect((await paidAnswer(change)).kind).toBe('unavailable');
    });
  });

  it('takes a declined order that comes with errorCode 2', async () => {
    const payment = testPayment();
    const { session: paying, orderId } = await registered(payment);
    await fake.decline(orderId, 'insufficient_funds');
    const order = fake.order(orderId);
    fake.failNext(
      {
        kind: 'body',
        body: JSON.stringify({
          errorCode: '2',
          errorMessage: 'Payment is declined',
          orderNumber: order.orderNumber,
          orderStatus: 6,
          actionCode: 116,
          amount: order.amount,
          currency: '051',
        }),
      },
      'getOrderStatusExtended',
    );
    expect(await status(callFor(), payment, paying)).toEqual({
      kind: 'declined',
      failureCode: 'insufficient_funds',
      cardLast4: null,
    });
  });

  it('is unavailable for an order the bank does not know (errorCode 6)', async () => {
    const answer = await status(
      callFor(),
      testPayment(),
      session({ reference: '32faa424-858a-4f22-92c5-a50a9cfe56dc' }),
    );
    expect(answer).toMatchObject({ kind: 'unavailable' });
    expect(JSON.stringify(answer)).toContain('errorCode 6');
  });

  it('is unavailable on HTTP 200 with an error, HTTP 500, a dropped connection, a timeout (10 s asked), an unreachable host', async () => {
    const payment = testPayment();
    const { session: paying, orderId } = await registered(payment);
    await fake.pay(orderId);
    fake.failNext({ kind: 'error200', errorCode: '7', errorMessage: 'System error' });
    expect((await status(callFor(), payment, paying)).kind).toBe('unavailable');
    fake.failNext({ kind: 'error200', errorCode: 5, errorMessage: 'Access denied' });
    expect((await status(callFor(), payment, paying)).kind).toBe('unavailable');
    fake.failNext({ kind: 'http500' });
    expect((await status(callFor(), payment, paying)).kind).toBe('unavailable');
    fake.failNext({ kind: 'drop' });
    expect((await status(callFor(), payment, paying)).kind).toBe('unavailable');

    const { http: slow, asked } = capped(200);
    fake.failNext({ kind: 'delay', ms: 1000 });
    expect((await status(callFor({}, configFor(fake), slow), payment, paying)).kind).toBe('unavailable');
    expect(asked).toEqual([STATUS_TIMEOUT_MS]);

    const away = { ...configFor(fake), base_url: await closedBaseUrl() };
    expect((await status(callFor({}, away), payment, paying)).kind).toBe('unavailable');
    // And once the bank answers again, the same payment reads as paid.
    expect((await status(callFor(), payment, paying)).kind).toBe('paid');
  });
});

describe('action codes', () => {
  it.each<[number, string]>([
    [116, 'insufficient_funds'],
    [151017, '3ds_failed'],
    [341016, '3ds_failed'],
    [-20010, 'amount_limit_exceeded'],
    [-2007, 'transaction_expired'],
    [1001, 'transaction_expired'],
    [907, 'processor_unavailable'],
    [9001, 'general_failure'],
    [101, 'declined'],
    [123456, 'declined'],
  ])('%d declines with %s', (code, failureCode) => {
    expect(declineFailureCode(actionCodeClass(code))).toBe(failureCode);
  });
});

describe('refunds', () => {
  const refundOf = (payment: Payment, refundSession: ProcessorSession | null, amount: number) => ({
    refundId: REFUND_ID,
    payment,
    session: refundSession,
    amount,
    reason: null,
  });

  it('refunds in full, in minor units by orderId; the order is then refunded at the bank', async () => {
    const { payment, session: paying, orderId } = await paid(1500);
    expect(await refund(callFor(), refundOf(payment, paying, 1500))).toEqual({ kind: 'refunded', reference: orderId });
    const sent = fake.requestsOf('refund')[0];
    expect(sent?.params).toEqual({ userName: fake.username, password: fake.password, orderId, amount: '150000' });
    expect(sent?.contentType).toBe('application/x-www-form-urlencoded');
    expect(sent?.query).toBe('');
    expect(fake.order(orderId).status).toBe(4);
  });

  it('partial refunds add up to the payment; one more is declined', async () => {
    const { payment, session: paying, orderId } = await paid(1500);
    expect(await refund(callFor(), refundOf(payment, paying, 500))).toMatchObject({ kind: 'refunded' });
    expect(fake.order(orderId).status).toBe(2);
    const after = { ...payment, refundedAmount: 500 };
    expect(await refund(callFor(), refundOf(after, paying, 1000))).toMatchObject({ kind: 'refunded' });
    expect(fake.order(orderId).refunds.map((r) => r.amount)).toEqual([50000, 100000]);
    expect(fake.order(orderId).status).toBe(4);
    expect(await refund(callFor(), refundOf({ ...payment, refundedAmount: 1500 }, paying, 1))).toEqual({
      kind: 'declined',
      code: 'arca_error_7',
    });
  });

  it('an over-refund is declined and nothing is refunded', async () => {
    const { payment, session: paying, orderId } = await paid(1500);
    expect(await refund(callFor(), refundOf(payment, paying, 1501))).toEqual({
      kind: 'declined',
      code: 'arca_error_7',
    });
    expect(fake.order(orderId).refunds).toEqual([]);
  });

  it('a refund of an unpaid order, of an unknown order, or with wrong credentials is declined', async () => {
    const payment = testPayment();
    const { session: unpaid } = await registered(payment);
    expect(await refund(callFor(), refundOf(payment, unpaid, 100))).toEqual({ kind: 'declined', code: 'arca_error_7' });
    const unknown = session({ reference: '32faa424-858a-4f22-92c5-a50a9cfe56dc' });
    expect(await refund(callFor(), refundOf(payment, unknown, 100))).toEqual({
      kind: 'declined',
      code: 'arca_error_6',
    });
    const wrong = { ...configFor(fake), password: 'Wr0ng-Passw0rd' };
    expect(await refund(callFor({}, wrong), refundOf(payment, unpaid, 100))).toEqual({
      kind: 'declined',
      code: 'arca_error_5',
    });
  });

  it('a payment without BPC orderId is declined without calling the bank', async () => {
    expect(await refund(callFor(), refundOf(testPayment(), session(), 100))).toMatchObject({ kind: 'declined' });
    expect(await refund(callFor(), refundOf(testPayment(), null, 100))).toMatchObject({ kind: 'declined' });
    expect(fake.requests).toHaveLength(0);
  });

  it('a refund that times out (20 s asked) is unknown, and its status check finds it refunded (10 s asked)', async () => {
    const { payment, session: paying, orderId } = await paid(1500);
    const { http: slow, asked } = capped(200);
    fake.failNext({ kind: 'delay', ms: 1000 }, 'refund');
    const request = refundOf(payment, paying, 700);
    expect(await refund(callFor({}, configFor(fake), slow), request)).toEqual({ kind: 'unknown' });
    expect(asked).toEqual([REFUND_TIMEOUT_MS]);
    expect(fake.order(orderId).refunds.map((r) => r.amount)).toEqual([70000]);

    const check = await refundStatus(callFor({}, configFor(fake), slow), { ...request, processorReference: null });
    expect(check).toEqual({ kind: 'refunded', reference: orderId });
    expect(asked).toEqual([REFUND_TIMEOUT_MS, REFUND_STATUS_TIMEOUT_MS]);
    // Never sent again.
    expect(fake.requestsOf('refund')).toHaveLength(1);
  });

  it('a refund answered by HTTP 500 is unknown; the check finds whether it was made', async () => {
    const { payment, session: paying, orderId } = await paid(1500);
    const request = { ...refundOf(payment, paying, 400), processorReference: null };
    fake.failNext({ kind: 'http500' }, 'refund');
    expect(await refund(callFor(), request)).toEqual({ kind: 'unknown' });
    expect(await refundStatus(callFor(), request)).toEqual({ kind: 'declined', code: 'arca_not_refunded' });

    fake.failNext({ kind: 'http500', apply: true }, 'refund');
    expect(await refund(callFor(), request)).toEqual({ kind: 'unknown' });
    expect(await refundStatus(callFor(), request)).toEqual({ kind: 'refunded', reference: orderId });
  });

  it('a dropped connection or an unknown errorCode is unknown; an unreachable host is unavailable', async () => {
    const { payment, session: paying } = await paid(1500);
    fake.failNext({ kind: 'drop' }, 'refund');
    expect(await refund(callFor(), refundOf(payment, paying, 100))).toEqual({ kind: 'unknown' });
    fake.failNext({ kind: 'error200', errorCode: 99, errorMessage: '?' }, 'refund');
    expect(await refund(callFor(), refundOf(payment, paying, 100))).toEqual({ kind: 'unknown' });
    fake.failNext({ kind: 'body', body: 'Bad Gateway' }, 'refund');
    expect(await refund(callFor(), refundOf(payment, paying, 100))).toEqual({ kind: 'unknown' });
    const away = { ...configFor(fake), base_url: await closedBaseUrl() };
    expect(await refund(callFor({}, away), refundOf(payment, paying, 100))).toEqual({ kind: 'unavailable' });
  });

  it('the check counts from the refunded amount the ledger already has', async () => {
    const { payment, session: paying, orderId } = await paid(1500);
    expect(await refund(callFor(), refundOf(payment, paying, 500))).toMatchObject({ kind: 'refunded' });
    // Had the ledger missed that first refund, it alone would not make a refund of 1000 refunded.
    const missed = { ...refundOf(payment, paying, 1000), processorReference: null };
    expect(await refundStatus(callFor(), missed)).toEqual({ kind: 'unknown' });

    const after = { ...payment, refundedAmount: 500 };
    const request = { ...refundOf(after, paying, 1000), processorReference: null };
    expect(await refundStatus(callFor(), request)).toEqual({ kind: 'declined', code: 'arca_not_refunded' });
    fake.failNext({ kind: 'drop' }, 'refund');
    expect(await refund(callFor(), request)).toEqual({ kind: 'unknown' });
    expect(await refundStatus(callFor(), request)).toEqual({ kind: 'refunded', reference: orderId });
  });

  it('reads the refunds list when the host gives no refundedAmount', async () => {
    await restart({ omitRefundedAmount: true });
    const { payment, session: paying, orderId } = await paid(1500);
    fake.failNext({ kind: 'drop' }, 'refund');
    const request = { ...refundOf(payment, paying, 300), processorReference: null };
    expect(await refund(callFor(), request)).toEqual({ kind: 'unknown' });
    expect(await refundStatus(callFor(), request)).toEqual({ kind: 'refunded', reference: orderId });
  });

  it('a status check that cannot reach the bank is unavailable', async () => {
    const { payment, session: paying } = await paid(1500);
    const request = { ...refundOf(payment, paying, 300), processorReference: null };
    const away = { ...configFor(fake), base_url: await closedBaseUrl() };
    expect(await refundStatus(callFor({}, away), request)).toEqual({ kind: 'unavailable' });
    fake.failNext({ kind: 'error200', errorCode: 7, errorMessage: 'System error' });
    expect(await refundStatus(callFor(), request)).toEqual({ kind: 'unavailable' });
  });
});

describe('callbacks', () => {
  /** A receiver standing for the gateway's callback route: it notes what BPC sent. */
  let receiver: http.Server;
  let received: CallbackRequest[];
  let receiverUrl: string;

  beforeEach(async () => {
    received = [];
    receiver = http.createServer((req, res) => {
      const url = new URL(req.url ?? '/', 'http://127.0.0.1');
      received.push({
        method: req.method ?? '',
        query: url.searchParams,
        form: new URLSearchParams(),
        json: undefined,
        rawBody: Buffer.alloc(0),
        headers: {},
      });
      res.writeHead(200, { 'Content-Type': 'text/plain' });
      res.end('OK');
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/processors/arca/callback`;
  });
  afterEach(async () => {
    receiver.closeAllConnections();
    await new Promise<void>((resolve) => receiver.close(() => resolve()));
  });

  const request = (query: Record<string, string>, form: Record<string, string> = {}): CallbackRequest => ({
    method: Object.keys(form).length > 0 ? 'POST' : 'GET',
    query: new URLSearchParams(query),
    form: new URLSearchParams(form),
    json: undefined,
    rawBody: Buffer.from(new URLSearchParams(form).toString()),
    headers: {},
  });

  const signed = (params: Record<string, string>, secret = CALLBACK_SECRET) => ({
    ...params,
    checksum: fakeArcaChecksum(params, secret),
  });

  /** A payment paid at the fake, whose signed `deposited` callback reached the receiver. */
  async function paidWithCallback(secret: string | null = CALLBACK_SECRET) {
    await restart({ callback: { url: receiverUrl, secret } });
    const payment = testPayment();
    const { session: paying, orderId } = await registered(payment);
    await fake.pay(orderId);
    const sent = received[0];
    if (sent === undefined) throw new Error('no callback reached the receiver');
    return { payment, session: paying, orderId, sent };
  }

  /** A call with the domain's callback key (null: none set). */
  const callWith = (secret: string | null = CALLBACK_SECRET) =>
    callFor({}, { ...configFor(fake), ...(secret === null ? {} : { callback_secret: secret }) });

  it("matches BPC's own example checksum", () => {
    const params = new Map(
      Object.entries({
        status: '1',
        orderNumber: '89312',
        mdOrder: 'ed6f3abf-cea0-427e-afdf-0ba43ead124f',
        operation: 'deposited',
        amount: '1500',
        checksum: 'not signed',
        sign_alias: 'not signed',
      }),
    );
    expect(checksumSource(params)).toBe(
      'amount;1500;mdOrder;ed6f3abf-cea0-427e-afdf-0ba43ead124f;operation;deposited;orderNumber;89312;status;1;',
    );
    expect(callbackChecksum(params, '123')).toBe('9F8253A6BB7777D067DD955751119FA5AAF67B14B9215147190F96B505CDB72C');
  });

  it('a signed deposited callback names our order and makes the core read it back (never decides itself)', async () => {
    const { payment, session: paying, orderId, sent } = await paidWithCallback();
    expect(Object.fromEntries(sent.query)).toMatchObject({ mdOrder: orderId, operation: 'deposited', status: '1' });
    expect(callback.identify(sent)).toEqual({ orderNumber: paying.orderNumber });
    const decision = callback.decide(callWith(), { ...payment, status: 'processing' }, paying, sent);
    expect(decision.outcome).toBe('read_back');
    expect(decision.answer(payment)).toEqual({ status: 200, contentType: 'text/plain; charset=utf-8', body: 'OK' });
    expect(fake.callbacks[0]?.status).toBe(200);
  });

  it('a callback with a wrong, missing or tampered checksum yields nothing', async () => {
    const { payment, session: paying, sent } = await paidWithCallback();
    const params = Object.fromEntries(sent.query);
    const processing = { ...payment, status: 'processing' as const };
    const variants: Array<Record<string, string>> = [
      { ...params, checksum: signed(params, 'another key').checksum },
      Object.fromEntries(Object.entries(params).filter(([name]) => name !== 'checksum')),
      { ...params, amount: '1' },
      { ...params, status: '0' },
      { ...params, checksum: 'zz' },
    ];
    for (const variant of variants) {
      const decision = callback.decide(callWith(), processing, paying, request(variant));
      expect(decision.outcome).toBeNull();
      expect(decision.answer(payment).status).toBe(403);
    }
  });

  it('accepts the checksum in lower case, and from a POSTed form', async () => {
    const { payment, session: paying, sent } = await paidWithCallback();
    const params = Object.fromEntries(sent.query);
    const processing = { ...payment, status: 'processing' as const };
    const lower = { ...params, checksum: (params.checksum as string).toLowerCase() };
    expect(callback.decide(callWith(), processing, paying, request(lower)).outcome).toBe('read_back');
    const posted = request({}, params);
    expect(callback.identify(posted)).toEqual({ orderNumber: paying.orderNumber });
    expect(callback.decide(callWith(), processing, paying, posted).outcome).toBe('read_back');
  });

  it('a replayed callback for a payment already completed changes nothing; for an expired one it reads back', async () => {
    const { payment, session: paying, sent } = await paidWithCallback();
    const completed = callback.decide(callWith(), { ...payment, status: 'completed' }, paying, sent);
    expect(completed.outcome).toBeNull();
    expect(completed.answer(payment).status).toBe(200);
    const refunded = callback.decide(callWith(), { ...payment, status: 'refunded' }, paying, sent);
    expect(refunded.outcome).toBeNull();
    // A late deposit of an expired payment is worth reading back.
    expect(callback.decide(callWith(), { ...payment, status: 'expired' }, paying, sent).outcome).toBe('read_back');
  });

  it('a callback for an order of another session yields nothing', async () => {
    const { payment, session: paying, sent } = await paidWithCallback();
    const other = { ...paying, reference: '32faa424-858a-4f22-92c5-a50a9cfe56dc' };
    expect(callback.decide(callWith(), { ...payment, status: 'processing' }, other, sent).outcome).toBeNull();
    const otherNumber = { ...paying, orderNumber: 'ffffffffffffffffffffffffffffffff' };
    expect(callback.decide(callWith(), { ...payment, status: 'processing' }, otherNumber, sent).outcome).toBeNull();
  });

  it('a callback for an unknown payment is answered 404; one naming nothing is identified as nothing', async () => {
    const unknown = request(
      signed({ mdOrder: '32faa424-858a-4f22-92c5-a50a9cfe56dc', operation: 'deposited', status: '1' }),
    );
    expect(callback.identify(unknown)).toEqual({ reference: '32faa424-858a-4f22-92c5-a50a9cfe56dc' });
    expect(callback.unknown(unknown)).toEqual({
      status: 404,
      contentType: 'text/plain; charset=utf-8',
      body: 'unknown order',
    });
    expect(callback.identify(request({ operation: 'deposited', status: '1' }))).toBeNull();
    expect(callback.identify(request({ orderNumber: '../../etc', mdOrder: 'nope' }))).toBeNull();
    expect(callback.identify(request({ orderNumber: 'a' }, { orderNumber: 'b' }))).toBeNull();
  });

  it('without callback_secret, an unsigned callback is only a hint to read back', async () => {
    const { payment, session: paying, sent } = await paidWithCallback(null);
    expect(sent.query.has('checksum')).toBe(false);
    const decision = callback.decide(callWith(null), { ...payment, status: 'processing' }, paying, sent);
    expect(decision.outcome).toBe('read_back');
    // With a key set, the same unsigned callback is refused.
    expect(callback.decide(callWith(), { ...payment, status: 'processing' }, paying, sent).outcome).toBeNull();
  });

  it('a declined card and a refund are notified too, signed', async () => {
    await restart({ callback: { url: receiverUrl, secret: CALLBACK_SECRET } });
    const payment = testPayment();
    const { session: paying, orderId } = await registered(payment);
    await fake.decline(orderId, 'insufficient_funds');
    expect(Object.fromEntries(received[0]?.query ?? [])).toMatchObject({ operation: 'deposited', status: '0' });
    const decision = callback.decide(
      callWith(),
      { ...payment, status: 'processing' },
      paying,
      received[0] as CallbackRequest,
    );
    expect(decision.outcome).toBe('read_back');
    expect(await status(callFor(), payment, paying)).toMatchObject({
      kind: 'declined',
      failureCode: 'insufficient_funds',
    });
  });
});
