/**
 * The FastShift adapter against a local fake of FastShift over real HTTP: registering an order and
 * the buyer's redirect, every refusal and fault of register and status, the status mapping, the
 * buyer's page with its unsigned webhook and browser return (always read back), a late
 * confirmation, the absence of refunds, and the settings.
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Payment } from '../../../gateway/domain/payment.js';
import {
  FASTSHIFT_DEFAULT_BASE_URL,
  type FastShiftConfig,
  fastshiftProcessor,
  START_TIMEOUT_MS,
  STATUS_TIMEOUT_MS,
} from '../../../gateway/processors/fastshift/adapter.js';
import { fastshiftCallback } from '../../../gateway/processors/fastshift/callback.js';
import {
  answerStatusOf,
  duplicateOrderFailure,
  orderResult,
  orderStatusOf,
  registerFailure,
  wireAmount,
} from '../../../gateway/processors/fastshift/map.js';
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
import { FakeFastShift, type FakeFastShiftWebhook } from '../../support/processors/fake-fastshift.js';
import { WebhookReceiver } from '../../support/webhook-receiver.js';

const RETURN_URL = 'https://pay.example.am/checkout/tok_test/return';

let fake: FakeFastShift;
let receiver: WebhookReceiver;
let http: ProcessorHttp;
let paymentCounter = 0;

beforeAll(async () => {
  http = loopbackHttp();
  receiver = await WebhookReceiver.start();
});

afterAll(async () => {
  http.close();
  await receiver.close();
});

beforeEach(async () => {
  fake = await FakeFastShift.start();
});

afterEach(async () => {
  await fake.close();
});

function config(overrides: Partial<FastShiftConfig> = {}): FastShiftConfig {
  return { token: fake.token, base_url: fake.baseUrl, ...overrides };
}

function call(overrides: Partial<FastShiftConfig> = {}, via: ProcessorHttp = http): ProcessorCall<FastShiftConfig> {
  return testCall(config(overrides), via, {
    returnUrl: RETURN_URL,
    callbackUrl: `${receiver.url}/processors/fastshift/callback`,
  });
}

/** A payment of its own (a fresh uuid) and its session, as the core would create them. */
async function newPayment(overrides: Partial<Payment> = {}): Promise<{ payment: Payment; session: ProcessorSession }> {
  paymentCounter += 1;
  const uuid = `0192f5a4-7b1c-7d2e-9f00-${String(paymentCounter).padStart(12, '0')}`;
  const payment = testPayment({ uuid, orderId: `order-${1000 + paymentCounter}`, ...overrides });
  const orderNumber = await fastshiftProcessor.newOrderNumber?.(call(), payment);
  if (orderNumber === undefined) throw new Error('newOrderNumber is missing');
  return { payment, session: testSession({ paymentId: uuid, processor: 'fastshift', orderNumber }) };
}

function start(payment: Payment, session: ProcessorSession, on = call()): Promise<StartAnswer> {
  const run = fastshiftProcessor.start;
  if (run === undefined) throw new Error('start is missing');
  return run(on, payment, session);
}

function status(payment: Payment, session: ProcessorSession, on = call()) {
  const run = fastshiftProcessor.status;
  if (run === undefined) throw new Error('status is missing');
  return run(on, payment, session);
}

function redirectUrl(answer: StartAnswer): string {
  if (answer.kind !== 'redirect') throw new Error(`expected a redirect, got ${JSON.stringify(answer)}`);
  return answer.redirect.url;
}

/** A client that records the timeout each call asked for and waits at most `capMs`. */
function cappedHttp(capMs: number): { http: ProcessorHttp; asked: number[] } {
  const asked: number[] = [];
  return {
    asked,
    http: {
      request: (request: ProcessorRequest) => {
        asked.push(request.timeoutMs);
        return http.request({ ...request, timeoutMs: Math.min(request.timeoutMs, capMs) });
      },
      close: () => {},
    },
  };
}

/** The webhook FastShift made, as the gateway's callback route hands it to the adapter. */
async function receivedCallback(webhook: FakeFastShiftWebhook, index: number): Promise<CallbackRequest> {
  await receiver.waitFor(index + 1);
  const received = receiver.received[index];
  if (received === undefined) throw new Error('no webhook arrived');
  const url = new URL(received.path, receiver.url);
  const type = String(received.headers['content-type'] ?? '');
  const headers: Record<string, string | undefined> = {};
  for (const [name, value] of Object.entries(received.headers)) {
    headers[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  return {
    method: webhook.method,
    query: url.searchParams,
    form: type.startsWith('application/x-www-form-urlencoded')
      ? new URLSearchParams(received.raw.toString('utf8'))
      : new URLSearchParams(),
    json: type.startsWith('application/json') ? received.json : undefined,
    rawBody: received.raw,
    headers,
  };
}

function callbackRequest(parts: Partial<CallbackRequest>): CallbackRequest {
  return {
    method: 'POST',
    query: new URLSearchParams(),
    form: new URLSearchParams(),
    json: undefined,
    rawBody: Buffer.alloc(0),
    headers: {},
    ...parts,
  };
}

describe('the adapter', () => {
  it('is FastShift with a 48 x 32 mark of its own and no refunds', () => {
    expect(fastshiftProcessor.slug).toBe('fastshift');
    expect(fastshiftProcessor.displayName).toBe('FastShift wallet');
    expect(fastshiftProcessor.logoSvg).toMatch(/^<svg [^>]*viewBox="0 0 48 32"/);
    expect(fastshiftProcessor.logoSvg).not.toMatch(/<image|href=|<script/);
    expect(fastshiftProcessor.refund).toBeUndefined();
    expect(fastshiftProcessor.refundStatus).toBeUndefined();
    expect(fastshiftProcessor.callback).toBe(fastshiftCallback);
  });

  it('numbers the order with the payment uuid, a GUID as FastShift wants', async () => {
    const payment = testPayment({ uuid: '0192F5A4-7B1C-7D2E-9F00-1234567890AB' });
    expect(await fastshiftProcessor.newOrderNumber?.(call(), payment)).toBe('0192f5a4-7b1c-7d2e-9f00-1234567890ab');
  });
});

describe('start: register order', () => {
  it('registers the order as the manual shows it and sends the buyer to redirect_url', async () => {
    const { payment, session } = await newPayment({ amount: 12_500, description: 'Two books' });
    const answer = await start(payment, session);

    const order = fake.order(session.orderNumber);
    expect(order?.status).toBe('pending');
    expect(answer).toEqual({
      kind: 'redirect',
      reference: order?.order_guid,
      redirect: { method: 'GET', url: `${fake.origin}/pay/${order?.order_guid}` },
    });
    expect(fake.requests).toHaveLength(1);
    const sent = fake.requests[0];
    expect(sent?.method).toBe('POST');
    expect(sent?.path).toBe('/api/en/vpos/order/register');
    expect(sent?.headers.authorization).toBe(`Bearer ${fake.token}`);
    expect(sent?.headers['content-type']).toBe('application/json');
    expect(sent?.json).toEqual({
      order_number: payment.uuid,
      amount: 12_500,
      description: 'Two books',
      callback_url: RETURN_URL,
      webhook_url: `${receiver.url}/processors/fastshift/callback`,
      external_order_id: payment.orderId,
    });
  });

  it('describes a payment without a description by its order id', async () => {
    const { payment, session } = await newPayment({ description: null });
    expect((await start(payment, session)).kind).toBe('redirect');
    expect(fake.requests[0]?.json).toHaveProperty('description', `Order ${payment.orderId}`);
    expect(fake.requests).toHaveLength(1);
  });

  it('refuses an amount over the merchant limit (422 INVALID_DATA on amount) as amount_limit_exceeded', async () => {
    fake.configure({ maxAmount: 10_000 });
    const { payment, session } = await newPayment({ amount: 10_001 });
    const answer = await start(payment, session);
    expect(answer).toMatchObject({ kind: 'refused', failureCode: 'amount_limit_exceeded' });
    expect(answer.kind === 'refused' && answer.detail).toContain('amount: The amount must not be greater than 10000.');
    expect(fake.order(session.orderNumber)).toBeUndefined();
  });

  it('refuses a logical error (400 ERROR) as general_failure with FastShift message', async () => {
    const { payment, session } = await newPayment();
    fake.failNext({ kind: 'logical_error', message: 'Merchant is blocked' });
    const answer = await start(payment, session);
    expect(answer).toMatchObject({ kind: 'refused', failureCode: 'general_failure' });
    expect(answer.kind === 'refused' && answer.detail).toContain('Merchant is blocked');
    // It asked whether the order number was already registered before refusing.
    expect(fake.requests.map((r) => r.method)).toEqual(['POST', 'GET']);
  });

  it('refuses a wrong token (401) without the token in the detail', async () => {
    const { payment, session } = await newPayment();
    const wrong = 'fs_wrong_token_SECRET_42';
    const answer = await start(payment, session, call({ token: wrong }));
    expect(answer).toMatchObject({ kind: 'refused', failureCode: 'processor_unavailable' });
    const detail = answer.kind === 'refused' ? answer.detail : '';
    expect(detail).toContain('HTTP 401 UNAUTHORIZED');
    expect(detail).not.toContain(wrong);
    expect(detail).not.toContain(fake.token);
    expect(fake.requests[0]?.headers.authorization).toBe(`Bearer ${wrong}`);
  });

  it('refuses a base URL that leads nowhere in the API (404) as bad settings', async () => {
    const { payment, session } = await newPayment();
    const answer = await start(payment, session, call({ base_url: `${fake.origin}/api/en/nowhere/api/en/` }));
    expect(answer).toMatchObject({ kind: 'refused', failureCode: 'processor_unavailable' });
  });

  it('answers unavailable on HTTP 500 APP_ERROR', async () => {
    const { payment, session } = await newPayment();
    fake.failNext({ kind: 'http500' });
    const answer = await start(payment, session);
    expect(answer).toMatchObject({ kind: 'unavailable' });
    expect(answer.kind === 'unavailable' && answer.detail).toContain('HTTP 500 APP_ERROR');
  });

  it('reads HTTP 200 carrying {"status":"ERROR"} as the refusal it is, never as a redirect', async () => {
    const { payment, session } = await newPayment();
    fake.failNext({ kind: 'error200', message: 'Order could not be registered' });
    const answer = await start(payment, session);
    expect(answer).toMatchObject({ kind: 'refused', failureCode: 'general_failure' });
    expect(answer.kind === 'refused' && answer.detail).toContain('HTTP 200 ERROR; Order could not be registered');
  });

  it('answers unavailable when the answer does not come within the start timeout (15 s)', async () => {
    const { payment, session } = await newPayment();
    const capped = cappedHttp(200);
    fake.failNext({ kind: 'delay', ms: 1_000 });
    const answer = await start(payment, session, call({}, capped.http));
    expect(answer).toMatchObject({ kind: 'unavailable' });
    expect(answer.kind === 'unavailable' && answer.detail).toContain('no answer');
    expect(capped.asked).toEqual([START_TIMEOUT_MS]);
    expect(START_TIMEOUT_MS).toBe(15_000);
  });

  it('answers unavailable when the connection is dropped', async () => {
    const { payment, session } = await newPayment();
    fake.failNext({ kind: 'drop' });
    expect(await start(payment, session)).toMatchObject({ kind: 'unavailable' });
  });

  it('answers unavailable when FastShift cannot be reached', async () => {
    const { payment, session } = await newPayment();
    const port = await freePort();
    const answer = await start(payment, session, call({ base_url: `http://127.0.0.1:${port}/api/en/` }));
    expect(answer).toEqual({ kind: 'unavailable', detail: 'FastShift register: connection refused' });
  });

  it('a repeated start after a timeout finds the order registered and says the page cannot be reopened', async () => {
    const { payment, session } = await newPayment();
    const capped = cappedHttp(200);
    fake.failNext({ kind: 'delay', ms: 500 });
    expect((await start(payment, session, call({}, capped.http))).kind).toBe('unavailable');
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(fake.order(session.orderNumber)?.status).toBe('pending');

    const again = await start(payment, session);
    expect(again.kind).toBe('unavailable');
    expect(again.kind === 'unavailable' && again.detail).toContain(
      `FastShift already has order ${session.orderNumber} (status pending)`,
    );
    expect(again.kind === 'unavailable' && again.detail).toContain(
      'order_number: The order number has already been taken.',
    );
  });

  it('a repeated start of an order that is over is refused as duplicate_transaction', async () => {
    const { payment, session } = await newPayment();
    expect((await start(payment, session)).kind).toBe('redirect');
    fake.expire(session.orderNumber);
    expect(await start(payment, session)).toMatchObject({ kind: 'refused', failureCode: 'duplicate_transaction' });
  });

  it('where FastShift answers a repeated register with the same order, the buyer goes to the same page', async () => {
    fake.configure({ duplicate: 'same_order' });
    const { payment, session } = await newPayment();
    const first = await start(payment, session);
    const second = await start(payment, session);
    expect(redirectUrl(second)).toBe(redirectUrl(first));
  });

  it('does not send the buyer to pay an order of another amount', async () => {
    fake.configure({ duplicate: 'same_order' });
    const { payment, session } = await newPayment({ amount: 1_000 });
    expect((await start(payment, session)).kind).toBe('redirect');
    const answer = await start({ ...payment, amount: 2_000 }, session);
    expect(answer).toMatchObject({ kind: 'unavailable' });
    expect(answer.kind === 'unavailable' && answer.detail).toContain('of 1000 AMD for 2000 AMD');
  });

  it('refuses a currency or amount FastShift cannot take without calling it', async () => {
    const { payment, session } = await newPayment();
    expect(await start({ ...payment, currency: 'USD' }, session)).toMatchObject({ kind: 'refused' });
    expect(await start({ ...payment, amount: 10.5 }, session)).toMatchObject({ kind: 'refused' });
    expect(fake.requests).toHaveLength(0);
  });
});

describe('the fake is strict', () => {
  it('refuses a missing field, a string amount and a key the manual does not list, in the manual shape', async () => {
    const reply = await http.request({
      method: 'POST',
      url: `${fake.baseUrl}vpos/order/register`,
      headers: { Authorization: `Bearer ${fake.token}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({
        order_number: 'not-a-guid',
        amount: '1000',
        callback_url: RETURN_URL,
        currency: 'AMD',
      }),
      timeoutMs: 5_000,
    });
    expect(reply.status).toBe(422);
    expect(JSON.parse(reply.body)).toEqual({
      status: 'INVALID_DATA',
      errors: {
        currency: 'The currency field is prohibited.',
        order_number: 'The order number must be a valid UUID.',
        amount: 'The amount must be an integer.',
        description: 'The description field is required.',
      },
    });
  });

  it('reads a body that is not application/json as empty', async () => {
    const reply = await http.request({
      method: 'POST',
      url: `${fake.baseUrl}vpos/order/register`,
      headers: { Authorization: `Bearer ${fake.token}`, 'Content-Type': 'application/x-www-form-urlencoded' },
      body: 'order_number=x',
      timeoutMs: 5_000,
    });
    expect(reply.status).toBe(422);
    expect(Object.keys(JSON.parse(reply.body).errors)).toEqual([
      'order_number',
      'amount',
      'description',
      'callback_url',
    ]);
  });

  it('has no refund API (404 NOT_FOUND)', async () => {
    const reply = await http.request({
      method: 'POST',
      url: `${fake.baseUrl}vpos/order/refund`,
      headers: { Authorization: `Bearer ${fake.token}`, 'Content-Type': 'application/json' },
      body: '{}',
      timeoutMs: 5_000,
    });
    expect(reply.status).toBe(404);
    expect(JSON.parse(reply.body).status).toBe('NOT_FOUND');
  });
});

describe('status: read back', () => {
  it('reads a pending order as pending', async () => {
    const { payment, session } = await newPayment();
    await start(payment, session);
    expect(await status(payment, session)).toEqual({
      kind: 'pending',
      failureCode: 'processor_timeout',
      cardLast4: null,
    });
    const asked = fake.requests[1];
    expect(asked?.method).toBe('GET');
    expect(asked?.path).toBe(`/api/en/vpos/order/status/${session.orderNumber}`);
    expect(asked?.headers.authorization).toBe(`Bearer ${fake.token}`);
  });

  it('reads completed as paid, with FastShift order guid as the rrn and no card', async () => {
    const { payment, session } = await newPayment();
    await start(payment, session);
    await fake.settle(session.orderNumber, 'completed', { webhook: false });
    expect(await status(payment, session)).toEqual({
      kind: 'paid',
      rrn: fake.order(session.orderNumber)?.order_guid,
      cardLast4: null,
    });
  });

  it('reads rejected as declined', async () => {
    const { payment, session } = await newPayment();
    await start(payment, session);
    await fake.settle(session.orderNumber, 'rejected', { webhook: false });
    expect(await status(payment, session)).toEqual({ kind: 'declined', failureCode: 'declined', cardLast4: null });
  });

  it('reads expired as declined transaction_expired', async () => {
    const { payment, session } = await newPayment();
    await start(payment, session);
    fake.expire(session.orderNumber);
    expect(await status(payment, session)).toEqual({
      kind: 'declined',
      failureCode: 'transaction_expired',
      cardLast4: null,
    });
  });

  it('reads an order that outlived its expires_at as expired', async () => {
    let now = Date.parse('2026-11-23T10:00:00Z');
    fake.configure({ now: () => now, orderLifetimeMs: 60_000 });
    const { payment, session } = await newPayment();
    await start(payment, session);
    now += 60_000;
    expect(await status(payment, session)).toMatchObject({ kind: 'declined', failureCode: 'transaction_expired' });
  });

  it('keeps asking on a status the manual does not list', async () => {
    const { payment, session } = await newPayment();
    await start(payment, session);
    await fake.settle(session.orderNumber, 'refunded', { webhook: false });
    expect(await status(payment, session)).toMatchObject({ kind: 'pending' });
  });

  it('reads a completed order of another amount as unavailable, never paid', async () => {
    const { payment, session } = await newPayment({ amount: 3_000 });
    await start(payment, session);
    await fake.settle(session.orderNumber, 'completed', { webhook: false });
    const answer = await status({ ...payment, amount: 30_000 }, session);
    expect(answer).toMatchObject({ kind: 'unavailable' });
  });

  it('answers unavailable for an order FastShift does not have (404 NOT_FOUND)', async () => {
    const { payment, session } = await newPayment();
    expect(await status(payment, session)).toEqual({
      kind: 'unavailable',
      detail: `FastShift has no order ${session.orderNumber}`,
    });
  });

  it('answers unavailable on HTTP 500, on HTTP 200 carrying an error, and on a dropped connection', async () => {
    const { payment, session } = await newPayment();
    await start(payment, session);
    await fake.settle(session.orderNumber, 'completed', { webhook: false });
    fake.failNext({ kind: 'http500' });
    expect(await status(payment, session)).toMatchObject({ kind: 'unavailable' });
    fake.failNext({ kind: 'error200' });
    const error200 = await status(payment, session);
    expect(error200).toMatchObject({ kind: 'unavailable' });
    expect(error200.kind === 'unavailable' && error200.detail).toContain('HTTP 200 ERROR');
    fake.failNext({ kind: 'drop' });
    expect(await status(payment, session)).toMatchObject({ kind: 'unavailable' });
    // And once FastShift answers again, the payment is read paid.
    expect(await status(payment, session)).toMatchObject({ kind: 'paid' });
  });

  it('answers unavailable when the status does not come within its timeout (10 s)', async () => {
    const { payment, session } = await newPayment();
    await start(payment, session);
    const capped = cappedHttp(200);
    fake.failNext({ kind: 'delay', ms: 1_000 });
    const answer = await status(payment, session, call({}, capped.http));
    expect(answer).toMatchObject({ kind: 'unavailable' });
    expect(capped.asked).toEqual([STATUS_TIMEOUT_MS]);
    expect(STATUS_TIMEOUT_MS).toBe(10_000);
  });

  it('answers unavailable when FastShift cannot be reached', async () => {
    const { payment, session } = await newPayment();
    const port = await freePort();
    expect(await status(payment, session, call({ base_url: `http://127.0.0.1:${port}/api/en/` }))).toEqual({
      kind: 'unavailable',
      detail: 'FastShift status: connection refused',
    });
  });

  it('answers unavailable, without the token, when the token is refused', async () => {
    const { payment, session } = await newPayment();
    await start(payment, session);
    const answer = await status(payment, session, call({ token: 'fs_revoked_SECRET' }));
    expect(answer).toMatchObject({ kind: 'unavailable' });
    expect(answer.kind === 'unavailable' && answer.detail).toContain('HTTP 401 UNAUTHORIZED');
    expect(answer.kind === 'unavailable' && answer.detail).not.toContain('SECRET');
  });

  it('a payment paid at FastShift after it expired at the gateway is read back paid (late confirmation)', async () => {
    const { payment, session } = await newPayment();
    await start(payment, session);
    const expired: Payment = { ...payment, status: 'expired', failureCode: 'transaction_expired' };
    expect(await status(expired, session)).toMatchObject({ kind: 'pending' });
    await fake.settle(session.orderNumber, 'completed');
    expect(await status(expired, session)).toMatchObject({ kind: 'paid', cardLast4: null });
  });
});

describe('the buyer on FastShift page, the webhook and the return', () => {
  it('Pay: the webhook names the order, is read back, and the browser returns with status and order_number', async () => {
    const { payment, session } = await newPayment({ amount: 7_000, description: 'Tea <set>' });
    const url = redirectUrl(await start(payment, session));
    const page = await fetch(url);
    const html = await page.text();
    expect(page.status).toBe(200);
    expect(html).toContain('<button type="submit" name="action" value="pay">Pay</button>');
    expect(html).toContain('<button type="submit" name="action" value="decline">Decline</button>');
    expect(html).toContain('Tea &#60;set&#62;');
    expect(html).toContain('7000 AMD');

    const before = receiver.received.length;
    const location = await fake.press(url, 'pay');
    expect(location).toBe(`${RETURN_URL}?status=completed&order_number=${session.orderNumber}`);

    const webhook = fake.webhooks.at(-1);
    expect(webhook).toMatchObject({
      method: 'POST',
      contentType: 'application/json',
      body: JSON.stringify({ status: 'completed', order_number: session.orderNumber }),
      status: 200,
    });
    if (webhook === undefined) throw new Error('no webhook');
    const request = await receivedCallback(webhook, before);
    const key = fastshiftCallback.identify(request);
    expect(key).toEqual({ orderNumber: session.orderNumber });
    const decision = fastshiftCallback.decide(call(), payment, session, request);
    expect(decision.outcome).toBe('read_back');
    expect(decision.answer(payment)).toEqual({
      status: 200,
      contentType: 'application/json',
      body: '{"status":"OK"}',
    });
    expect(await status(payment, session)).toMatchObject({ kind: 'paid' });
  });

  it('Decline: the order is rejected and read back declined', async () => {
    const { payment, session } = await newPayment();
    const url = redirectUrl(await start(payment, session));
    const location = await fake.press(url, 'decline');
    expect(new URL(location).searchParams.get('status')).toBe('rejected');
    expect(fake.webhooks.at(-1)?.body).toBe(JSON.stringify({ status: 'rejected', order_number: session.orderNumber }));
    expect(await status(payment, session)).toEqual({ kind: 'declined', failureCode: 'declined', cardLast4: null });
  });

  it('a webhook sent as a form or as a query is identified the same way', async () => {
    for (const style of ['form', 'query'] as const) {
      fake.configure({ webhook: style });
      const { payment, session } = await newPayment();
      const url = redirectUrl(await start(payment, session));
      const before = receiver.received.length;
      await fake.press(url, 'pay');
      const webhook = fake.webhooks.at(-1);
      if (webhook === undefined) throw new Error('no webhook');
      expect(webhook.method).toBe(style === 'form' ? 'POST' : 'GET');
      const request = await receivedCallback(webhook, before);
      expect(fastshiftCallback.identify(request)).toEqual({ orderNumber: session.orderNumber });
    }
  });

  it('a callback claiming completed is never taken as paid: it is read back, and the read-back says pending', async () => {
    const { payment, session } = await newPayment();
    await start(payment, session);
    const forged = callbackRequest({
      json: { status: 'completed', order_number: session.orderNumber },
      rawBody: Buffer.from(JSON.stringify({ status: 'completed', order_number: session.orderNumber })),
      headers: { 'content-type': 'application/json' },
    });
    expect(fastshiftCallback.identify(forged)).toEqual({ orderNumber: session.orderNumber });
    expect(fastshiftCallback.decide(call(), payment, session, forged).outcome).toBe('read_back');
    expect(await status(payment, session)).toMatchObject({ kind: 'pending' });
  });

  it('a replayed webhook is read back again and changes nothing', async () => {
    const { payment, session } = await newPayment();
    const url = redirectUrl(await start(payment, session));
    const before = receiver.received.length;
    await fake.press(url, 'pay');
    const webhook = fake.webhooks.at(-1);
    if (webhook === undefined) throw new Error('no webhook');
    const request = await receivedCallback(webhook, before);
    const first = await status(payment, session);
    const paid: Payment = { ...payment, status: 'completed', rrn: first.kind === 'paid' ? first.rrn : null };

    const replay = fastshiftCallback.decide(call(), paid, session, request);
    expect(replay.outcome).toBe('read_back');
    expect(replay.answer(paid).status).toBe(200);
    expect(await status(paid, session)).toEqual(first);
    // Pressing Pay again on the page (a back button) neither changes the order nor calls again.
    const webhooks = fake.webhooks.length;
    const again = await fake.press(url, 'decline');
    expect(new URL(again).searchParams.get('status')).toBe('completed');
    expect(fake.webhooks).toHaveLength(webhooks);
  });

  it('a callback that names no order, or no GUID, is unknown (404 JSON)', () => {
    for (const request of [
      callbackRequest({}),
      callbackRequest({ json: { status: 'completed' } }),
      callbackRequest({ form: new URLSearchParams({ order_number: '12345' }) }),
      callbackRequest({ query: new URLSearchParams({ order_number: "x' OR 1=1" }) }),
      callbackRequest({ json: { order_number: 42 } }),
    ]) {
      expect(fastshiftCallback.identify(request)).toBeNull();
    }
    expect(fastshiftCallback.unknown(callbackRequest({}))).toEqual({
      status: 404,
      contentType: 'application/json',
      body: '{"status":"NOT_FOUND","message":"No such order"}',
    });
  });

  it('a callback for a well-formed order number the gateway never sent only names where to look', () => {
    const request = callbackRequest({
      query: new URLSearchParams({ order_number: '0192F5A4-0000-7000-8000-00000000FFFF', status: 'completed' }),
    });
    // Lower-cased as we send order numbers; the core finds no session and answers `unknown`.
    expect(fastshiftCallback.identify(request)).toEqual({ orderNumber: '0192f5a4-0000-7000-8000-00000000ffff' });
  });

  it('reads the order number from the JSON body before the form and the query', () => {
    const a = '11111111-1111-4111-8111-111111111111';
    const b = '22222222-2222-4222-8222-222222222222';
    expect(
      fastshiftCallback.identify(
        callbackRequest({ json: { order_number: a }, query: new URLSearchParams({ order_number: b }) }),
      ),
    ).toEqual({ orderNumber: a });
    expect(
      fastshiftCallback.identify(
        callbackRequest({
          form: new URLSearchParams({ order_number: b }),
          query: new URLSearchParams({ order_number: a }),
        }),
      ),
    ).toEqual({ orderNumber: b });
  });
});

describe('settings', () => {
  const parse = (text: string) => parseProcessorSettings(fastshiftProcessor as never, text);
  const SECRET = 'fs_live_VERY_SECRET_token';

  it('takes a token and fills in the production base URL', () => {
    expect(JSON.parse(parse(JSON.stringify({ token: SECRET })) ?? '')).toEqual({
      token: SECRET,
      base_url: FASTSHIFT_DEFAULT_BASE_URL,
    });
    expect(FASTSHIFT_DEFAULT_BASE_URL).toBe('https://merchants.fastshift.am/api/en/');
  });

  it('takes the test host when FastShift gives it', () => {
    const base = 'https://test-merchants.fastshift.am/api/en/';
    expect(JSON.parse(parse(JSON.stringify({ token: SECRET, base_url: base })) ?? '').base_url).toBe(base);
  });

  it.each([
    ['a missing token', {}, 'token: is required'],
    ['a token of the wrong type', { token: 1234567 }, 'token: must be a string'],
    ['an empty token', { token: '' }, 'token: must not be empty'],
    ['a token with spaces', { token: `Bearer ${SECRET}` }, 'token: must be the bearer token'],
    ['an unknown key', { token: SECRET, secret: SECRET }, 'Unrecognized key: "secret"'],
    ['a base URL of the wrong type', { token: SECRET, base_url: 42 }, 'base_url: must be a string'],
    ['a base URL not ending in /api/en/', { token: SECRET, base_url: 'https://merchants.fastshift.am/' }, 'base_url:'],
    [
      'a base URL that is not http(s)',
      { token: SECRET, base_url: 'ftp://merchants.fastshift.am/api/en/' },
      'base_url:',
    ],
    [
      'a base URL with credentials',
      { token: SECRET, base_url: `https://u:${SECRET}@fastshift.am/api/en/` },
      'base_url:',
    ],
  ])('refuses %s, naming the field but never the value', (_case, value, message) => {
    let error: unknown;
    try {
      parse(JSON.stringify(value));
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(InvalidProcessorSettings);
    const text = (error as Error).message;
    expect(text).toContain(message);
    expect(text).not.toContain(SECRET);
    expect(text).not.toContain('1234567');
    expect(text).not.toContain('merchants.fastshift.am');
  });
});

describe('map', () => {
  it('maps every order status the manual lists, and an unknown one to keep asking', () => {
    expect(orderStatusOf('pending')).toBe('pending');
    expect(orderStatusOf('completed')).toBe('completed');
    expect(orderStatusOf('rejected')).toBe('rejected');
    expect(orderStatusOf('expired')).toBe('expired');
    expect(orderStatusOf('COMPLETED')).toBe('unknown');
    expect(orderStatusOf('paid')).toBe('unknown');
    expect(orderResult('unknown', 'g')).toEqual({ kind: 'pending', failureCode: 'processor_timeout', cardLast4: null });
    expect(orderResult('completed', 'g')).toEqual({ kind: 'paid', rrn: 'g', cardLast4: null });
  });

  it('reads the answer status from the body, else from the HTTP code as the manual pairs them', () => {
    expect(answerStatusOf(200, 'ERROR')).toBe('ERROR');
    expect(answerStatusOf(422, undefined)).toBe('INVALID_DATA');
    expect(answerStatusOf(400, 'Bad')).toBe('ERROR');
    expect(answerStatusOf(401, undefined)).toBe('UNAUTHORIZED');
    expect(answerStatusOf(403, undefined)).toBe('FORBIDDEN');
    expect(answerStatusOf(404, undefined)).toBe('NOT_FOUND');
    expect(answerStatusOf(502, undefined)).toBe('APP_ERROR');
    expect(answerStatusOf(302, undefined)).toBe('unknown');
  });

  it('maps register failures to a refusal or unavailable', () => {
    expect(registerFailure('INVALID_DATA', 422, ['amount'])).toEqual({
      kind: 'refused',
      failureCode: 'amount_limit_exceeded',
    });
    expect(registerFailure('INVALID_DATA', 422, ['callback_url'])).toEqual({
      kind: 'refused',
      failureCode: 'general_failure',
    });
    expect(registerFailure('FORBIDDEN', 403, [])).toEqual({ kind: 'refused', failureCode: 'processor_unavailable' });
    expect(registerFailure('APP_ERROR', 500, [])).toEqual({ kind: 'unavailable' });
    expect(registerFailure('unknown', 429, [])).toEqual({ kind: 'unavailable' });
    expect(registerFailure('unknown', 405, [])).toEqual({ kind: 'refused', failureCode: 'general_failure' });
    expect(duplicateOrderFailure('pending')).toEqual({ kind: 'unavailable' });
    expect(duplicateOrderFailure('rejected')).toEqual({ kind: 'refused', failureCode: 'duplicate_transaction' });
  });

  it('sends whole AMD as they are and nothing else', () => {
    expect(wireAmount(1000)).toBe(1000);
    expect(wireAmount(1)).toBe(1);
    expect(wireAmount(0)).toBeNull();
    expect(wireAmount(99.5)).toBeNull();
    expect(wireAmount(Number.MAX_SAFE_INTEGER + 1)).toBeNull();
  });
});

describe('a server FastShift has not allow-listed', () => {
  it('403 FORBIDDEN on register is refused as bad settings, and the status cannot be read', async () => {
    const { payment, session } = await newPayment();
    fake.configure({ forbidden: true });
    const answer = await start(payment, session);
    expect(answer).toMatchObject({ kind: 'refused', failureCode: 'processor_unavailable' });
    expect(answer.kind === 'refused' && answer.detail).toContain('HTTP 403 FORBIDDEN');
    const read = await status(payment, session);
    expect(read).toMatchObject({ kind: 'unavailable' });
    expect(read.kind === 'unavailable' && read.detail).toContain('HTTP 403 FORBIDDEN');
  });
});
