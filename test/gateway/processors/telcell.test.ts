/**
 * The Telcell Wallet adapter against a local fake of Telcell over real HTTP: the signed PostInvoice
 * form, the buyer's page, the signed RESULT_URL callback (received by a small stand-in for the
 * gateway's callback route, which reads the status back as the core does), `check_bill` for status,
 * `cancel_bill` for refunds, faults, and the settings.
 */
import { randomUUID } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Payment } from '../../../gateway/domain/payment.js';
import type { ProviderResult } from '../../../gateway/domain/payment-lifecycle.js';
import type { ProcessorHttp, ProcessorRequest } from '../../../gateway/processors/http.js';
import type {
  CallbackAnswer,
  CallbackRequest,
  ProcessorCall,
  ProcessorSession,
  RefundRequest,
  StatusAnswer,
} from '../../../gateway/processors/processor.js';
import { InvalidProcessorSettings, parseProcessorSettings } from '../../../gateway/processors/settings.js';
import {
  createTelcellProcessor,
  TELCELL_REFUND_STATUS_TIMEOUT_MS,
  TELCELL_REFUND_TIMEOUT_MS,
  TELCELL_STATUS_TIMEOUT_MS,
  telcellProcessor,
} from '../../../gateway/processors/telcell/adapter.js';
import {
  TELCELL_DEFAULT_BASE_URL,
  type TelcellConfig,
  telcellConfigSchema,
} from '../../../gateway/processors/telcell/config.js';
import {
  cancelOutcome,
  fromWireSum,
  invoiceOutcome,
  readOrderNumber,
  TELCELL_INVOICE_STATUSES,
} from '../../../gateway/processors/telcell/map.js';
import { decodeBase64Text, md5Hex, parseKeyValueLines } from '../../../gateway/processors/telcell/wire.js';
import { loopbackHttp, TEST_PUBLIC_URL, testCall, testPayment } from '../../support/processors/call.js';
import { type FakeTelcell, startFakeTelcell } from '../../support/processors/fake-telcell.js';

const ISSUER = 'shop@shop.telcell.am';
const SHOP_KEY = 'k3y-telcell-test';
const RETURN_URL = `${TEST_PUBLIC_URL}/checkout/tok_telcell/return`;

/** Short timeouts so that a delayed answer is a timeout within the test's time. */
const processor = createTelcellProcessor({ statusMs: 400, refundMs: 400, refundStatusMs: 400 });
const handler = processor.callback as NonNullable<typeof processor.callback>;
const callStatus = processor.status as NonNullable<typeof processor.status>;
const callRefund = processor.refund as NonNullable<typeof processor.refund>;
const callRefundStatus = processor.refundStatus as NonNullable<typeof processor.refundStatus>;
const callStart = processor.start as NonNullable<typeof processor.start>;

let httpClient: ProcessorHttp;
let fake: FakeTelcell;
let gateway: StandIn;

/** A payment of ours and its session, as the core holds them. */
interface Held {
  payment: Payment;
  session: ProcessorSession;
}

/**
 * A stand-in for the gateway's `/processors/telcell/callback` route: builds the `CallbackRequest`
 * the core builds, identifies the session, lets the adapter decide, stores the decision's
 * `reference` on the session (as the core does, before reading back), reads the status back on
 * `read_back` with that session, applies the outcome as the payment lifecycle does, and answers
 * what the adapter says.
 */
interface StandIn {
  readonly url: string;
  readonly held: Map<string, Held>;
  readonly statusReads: StatusAnswer[];
  readonly outcomes: Array<'read_back' | ProviderResult | null>;
  /** Each decision's `reference` (undefined when it named none). */
  readonly references: Array<string | undefined>;
  close(): Promise<void>;
}

function config(overrides: Partial<TelcellConfig> = {}): TelcellConfig {
  return { issuer: ISSUER, shop_key: SHOP_KEY, base_url: fake.baseUrl, valid_days: 1, ...overrides };
}

function call(overrides: Partial<TelcellConfig> = {}): ProcessorCall<TelcellConfig> {
  return testCall(config(overrides), httpClient, { returnUrl: RETURN_URL, callbackUrl: gateway.url });
}

/** The payment lifecycle's transitions, reduced to what these tests look at. */
function apply(payment: Payment, result: ProviderResult): Payment {
  switch (result.kind) {
    case 'paid':
      return ['processing', 'failed', 'expired'].includes(payment.status)
        ? { ...payment, status: 'completed', rrn: result.rrn, failureCode: null }
        : payment;
    case 'declined':
      return payment.status === 'processing'
        ? { ...payment, status: 'failed', failureCode: result.failureCode }
        : payment;
    case 'pending':
    case 'authorized':
      return payment;
  }
}

async function readBody(request: http.IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

async function startStandIn(): Promise<StandIn> {
  const held = new Map<string, Held>();
  const statusReads: StatusAnswer[] = [];
  const outcomes: Array<'read_back' | ProviderResult | null> = [];
  const references: Array<string | undefined> = [];

  async function answer(request: CallbackRequest): Promise<CallbackAnswer> {
    const key = handler.identify(request);
    const entry = key !== null && 'orderNumber' in key ? held.get(key.orderNumber) : undefined;
    if (entry === undefined) return handler.unknown(request);
    const decision = handler.decide(call(), entry.payment, entry.session, request);
    outcomes.push(decision.outcome);
    references.push(decision.reference);
    if (decision.reference !== undefined) entry.session = { ...entry.session, reference: decision.reference };
    let result: ProviderResult | null = null;
    if (decision.outcome === 'read_back') {
      const status = await callStatus(call(), entry.payment, entry.session);
      statusReads.push(status);
      if (status.kind !== 'unavailable') result = status;
    } else {
      result = decision.outcome;
    }
    if (result !== null) entry.payment = apply(entry.payment, result);
    return decision.answer(entry.payment);
  }

  const server = http.createServer((incoming, outgoing) => {
    void (async () => {
      const rawBody = await readBody(incoming);
      const url = new URL(incoming.url ?? '/', 'http://stand-in');
      const type = incoming.headers['content-type'] ?? '';
      const headers: Record<string, string | undefined> = {};
      for (const [name, value] of Object.entries(incoming.headers)) {
        headers[name] = Array.isArray(value) ? value.join(', ') : value;
      }
      const request: CallbackRequest = {
        method: incoming.method ?? 'GET',
        query: url.searchParams,
        form: type.startsWith('application/x-www-form-urlencoded')
          ? new URLSearchParams(rawBody.toString('utf8'))
          : new URLSearchParams(),
        json: type.startsWith('application/json') ? JSON.parse(rawBody.toString('utf8')) : undefined,
        rawBody,
        headers,
      };
      const reply = await answer(request);
      outgoing.writeHead(reply.status, { 'Content-Type': reply.contentType }).end(reply.body);
    })();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/processors/telcell/callback`;
  return {
    url,
    held,
    statusReads,
    outcomes,
    references,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A new payment in `processing` (the buyer chose Telcell), with its session, held by the stand-in. */
function newPayment(overrides: Partial<Payment> = {}, sessionOverrides: Partial<ProcessorSession> = {}): Held {
  const uuid = randomUUID();
  const payment = testPayment({ uuid, processor: 'telcell', status: 'processing', ...overrides });
  const session: ProcessorSession = {
    paymentId: uuid,
    processor: 'telcell',
    orderNumber: uuid.replaceAll('-', ''),
    reference: null,
    ...sessionOverrides,
  };
  const entry = { payment, session };
  gateway.held.set(session.orderNumber, entry);
  return entry;
}

/** The redirect `start` answers for a payment. */
async function startRedirect(entry: Held, overrides: Partial<ProcessorCall<TelcellConfig>> = {}) {
  const answer = await callStart({ ...call(), ...overrides }, entry.payment, entry.session);
  if (answer.kind !== 'redirect' || answer.redirect.method !== 'POST') throw new Error('expected a POST redirect');
  return answer.redirect;
}

interface BuyerVisit {
  readonly invoiceId: string;
  readonly invoicePage: string;
  /** Where Telcell sent the browser after the choice. */
  readonly backTo: string;
  /** The page the gateway showed there. */
  readonly landing: string;
}

/** The buyer's browser: posts the form, opens the invoice page, presses a button, follows the way back. */
async function buyer(entry: Held, choice: 'pay' | 'decline'): Promise<BuyerVisit> {
  const redirect = await startRedirect(entry);
  const posted = await fetch(redirect.url, {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(redirect.fields).toString(),
    redirect: 'manual',
  });
  expect(posted.status).toBe(302);
  const pageUrl = new URL(posted.headers.get('location') ?? '', fake.origin);
  const invoiceId = pageUrl.searchParams.get('invoice') ?? '';
  const invoicePage = await (await fetch(pageUrl)).text();
  const form = new RegExp(
    `<form method="post" action="([^"]+)"><input type="hidden" name="invoice" value="${invoiceId}"><input type="hidden" name="choice" value="${choice}">`,
  ).exec(invoicePage);
  if (form === null) throw new Error(`no ${choice} button on the invoice page`);
  const chosen = await fetch(new URL(form[1] ?? '', fake.origin), {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ invoice: invoiceId, choice }).toString(),
    redirect: 'manual',
  });
  expect(chosen.status).toBe(302);
  const backTo = chosen.headers.get('location') ?? '';
  const landing = await (await fetch(backTo)).text();
  return { invoiceId, invoicePage, backTo, landing };
}

/** Posts fields to the stand-in as Telcell's server would. */
async function postCallback(fields: Record<string, string>): Promise<{ status: number; body: string }> {
  const response = await fetch(gateway.url, {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(fields).toString(),
  });
  return { status: response.status, body: await response.text() };
}

function signedResult(fields: Record<string, string>, key = SHOP_KEY): Record<string, string> {
  const checksum = md5Hex(
    key +
      (fields.invoice ?? '') +
      (fields.issuer_id ?? '') +
      (fields.payment_id ?? '') +
      (fields.currency ?? '') +
      (fields.sum ?? '') +
      (fields.time ?? '') +
      (fields.status ?? ''),
  );
  return { ...fields, checksum };
}

/** Requests the fake received at its API (check_bill, cancel_bill), by kind. */
function apiRequests(kind: 'check_bill' | 'cancel_bill') {
  return fake.requests.filter((request) => request.fields[`${kind}:issuer`] !== undefined);
}

/** A paid payment: through the buyer's page and the callback. */
async function paidPayment(overrides: Partial<Payment> = {}): Promise<Held & { invoiceId: string }> {
  const entry = newPayment(overrides);
  const visit = await buyer(entry, 'pay');
  expect(entry.payment.status).toBe('completed');
  return { ...entry, invoiceId: visit.invoiceId };
}

function refundRequest(
  entry: Held,
  amount = entry.payment.amount,
  paymentOverrides: Partial<Payment> = {},
): RefundRequest {
  return {
    refundId: randomUUID(),
    payment: { ...entry.payment, ...paymentOverrides },
    session: entry.session,
    amount,
    reason: null,
  };
}

/** An address where nothing listens. */
async function closedPortUrl(): Promise<string> {
  const server = http.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return `http://127.0.0.1:${port}/invoices`;
}

beforeAll(async () => {
  httpClient = loopbackHttp();
  gateway = await startStandIn();
  fake = await startFakeTelcell({
    shops: [{ issuer: ISSUER, shopKey: SHOP_KEY, resultUrl: gateway.url, redirectUrl: gateway.url }],
  });
});

afterAll(async () => {
  await fake.close();
  await gateway.close();
  httpClient.close();
});

afterEach(() => {
  // A fault a test injected but did not use must not leak into the next test.
  fake.clearFaults();
});

describe('settings', () => {
  it('takes the shop id and key, with the live address and one day by default', () => {
    const parsed = telcellConfigSchema.parse({ issuer: ISSUER, shop_key: SHOP_KEY });
    expect(parsed).toEqual({ issuer: ISSUER, shop_key: SHOP_KEY, base_url: TELCELL_DEFAULT_BASE_URL, valid_days: 1 });
    expect(TELCELL_DEFAULT_BASE_URL).toBe('https://telcellmoney.am/invoices');
    const test = telcellConfigSchema.parse({
      issuer: ISSUER,
      shop_key: SHOP_KEY,
      base_url: 'https://telcellmoney.am/proto_test2/invoices',
      valid_days: 3,
    });
    expect(test.base_url).toBe('https://telcellmoney.am/proto_test2/invoices');
    expect(test.valid_days).toBe(3);
  });

  const refused: Array<[what: string, json: Record<string, unknown>, field: string, secret: string]> = [
    ['a missing shop key', { issuer: 'secret-issuer-77' }, 'shop_key', 'secret-issuer-77'],
    ['a missing issuer', { shop_key: 'secret-key-77' }, 'issuer', 'secret-key-77'],
    ['a shop key that is not a string', { issuer: ISSUER, shop_key: 987654321 }, 'shop_key', '987654321'],
    ['an empty issuer', { issuer: '', shop_key: 'secret-key-78' }, 'issuer', 'secret-key-78'],
    [
      'an unknown key',
      { issuer: ISSUER, shop_key: 'secret-key-79', password: 'hunter2-secret' },
      'password',
      'hunter2-secret',
    ],
    [
      'a base URL that is not a URL',
      { issuer: ISSUER, shop_key: 'k', base_url: 'not a url secret-80' },
      'base_url',
      'secret-80',
    ],
    [
      'an ftp base URL',
      { issuer: ISSUER, shop_key: 'k', base_url: 'ftp://secret81.example/invoices' },
      'base_url',
      'secret81',
    ],
    [
      'a base URL with a password',
      { issuer: ISSUER, shop_key: 'k', base_url: 'https://user:secret82@telcellmoney.am/invoices' },
      'base_url',
      'secret82',
    ],
    ['a fractional valid_days', { issuer: ISSUER, shop_key: 'secret-83', valid_days: 1.5 }, 'valid_days', 'secret-83'],
    ['a zero valid_days', { issuer: ISSUER, shop_key: 'secret-84', valid_days: 0 }, 'valid_days', 'secret-84'],
    ['valid_days as text', { issuer: ISSUER, shop_key: 'secret-85', valid_days: '2' }, 'valid_days', 'secret-85'],
  ];

  it.each(refused)('refuses %s, naming the field and never the value', (_what, json, field, secret) => {
    let error: unknown;
    try {
      parseProcessorSettings(telcellProcessor, JSON.stringify(json));
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(InvalidProcessorSettings);
    const message = (error as Error).message;
    expect(message).toContain(field);
    expect(message).not.toContain(secret);
  });
});

describe('start', () => {
  it('sends the buyer to Telcell with the signed PostInvoice form, calling nothing itself', async () => {
    const payment = testPayment({ amount: 1500, description: 'Order 1001' });
    const session = {
      paymentId: payment.uuid,
      processor: 'telcell',
      orderNumber: '0192f5a47b1c7d2e9f001234567890ab',
      reference: null,
    };
    const before = fake.requests.length;
    const answer = await callStart(call(), payment, session);
    expect(answer).toEqual({
      kind: 'redirect',
      reference: null,
      redirect: {
        method: 'POST',
        url: fake.baseUrl,
        fields: {
          action: 'PostInvoice',
          issuer: ISSUER,
          currency: '\u058f',
          price: '1500',
          product: 'T3JkZXIgMTAwMQ==',
          issuer_id: 'MDE5MmY1YTQ3YjFjN2QyZTlmMDAxMjM0NTY3ODkwYWI=',
          valid_days: '1',
          lang: 'am',
          // md5('k3y-telcell-test' . issuer . '֏' . '1500' . product . issuer_id . '1'), computed apart.
          security_code: '8c62701ebbdb6c715b4250681962f6d9',
        },
      },
    });
    expect(fake.requests.length).toBe(before);
  });

  it('answers the same form when the buyer starts again, in the buyer language, with the configured days', async () => {
    const entry = newPayment({ description: null, orderId: 'A-77' });
    const first = await startRedirect(entry, { language: 'ru' });
    const again = await startRedirect(entry, { language: 'ru' });
    expect(again).toEqual(first);
    expect(first.fields.lang).toBe('ru');
    expect(decodeBase64Text(first.fields.product ?? '')).toBe('Order A-77');
    expect(decodeBase64Text(first.fields.issuer_id ?? '')).toBe(entry.session.orderNumber);
    const english = await callStart({ ...call({ valid_days: 3 }), language: 'en' }, entry.payment, entry.session);
    expect(english.kind === 'redirect' && english.redirect.method === 'POST' && english.redirect.fields).toMatchObject({
      lang: 'en',
      valid_days: '3',
    });
  });

  it('works while Telcell cannot be reached (the buyer, not the gateway, posts the form)', async () => {
    const entry = newPayment();
    const answer = await callStart(call({ base_url: await closedPortUrl() }), entry.payment, entry.session);
    expect(answer.kind).toBe('redirect');
  });

  it('refuses a payment in another currency than AMD', async () => {
    const entry = newPayment({ currency: 'USD' });
    const answer = await callStart(call(), entry.payment, entry.session);
    expect(answer).toMatchObject({ kind: 'refused', failureCode: 'general_failure' });
  });

  it('is a form the fake accepts, and the fake refuses it with a wrong security code', async () => {
    const entry = newPayment();
    const redirect = await startRedirect(entry);
    const tampered = { ...redirect.fields, price: '1' };
    const refusedPost = await fetch(redirect.url, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams(tampered).toString(),
      redirect: 'manual',
    });
    expect(refusedPost.status).toBe(200);
    expect(await refusedPost.text()).toContain('Wrong security_code');
    expect(fake.invoiceFor(entry.session.orderNumber)).toBeUndefined();
    // The same form as a link (GET) is accepted too.
    const asLink = await fetch(`${redirect.url}?${new URLSearchParams(redirect.fields)}`, { redirect: 'manual' });
    expect(asLink.status).toBe(302);
    expect(fake.invoiceFor(entry.session.orderNumber)?.price).toBe(entry.payment.amount);
  });
});

describe('paying', () => {
  it('completes a payment the buyer pays: signed callback, check_bill read-back, the buyer sent back', async () => {
    const entry = newPayment({ amount: 24_900 });
    const checksBefore = apiRequests('check_bill').length;
    const visit = await buyer(entry, 'pay');

    expect(visit.invoicePage).toContain('24900');
    expect(entry.payment).toMatchObject({ status: 'completed', rrn: visit.invoiceId });
    // The verified callback named the invoice, and the session now carries it.
    expect(gateway.references).toContain(visit.invoiceId);
    expect(entry.session.reference).toBe(visit.invoiceId);
    const delivery = fake.deliveries.at(-1);
    expect(delivery).toMatchObject({ status: 200, body: 'OK' });
    expect(delivery?.fields.issuer_id).toBe(entry.session.orderNumber);
    // Read back twice: on the server callback, then on the buyer's return.
    const checks = apiRequests('check_bill').slice(checksBefore);
    expect(checks).toHaveLength(2);
    for (const check of checks) {
      expect(check.fields).toEqual({
        'check_bill:issuer': ISSUER,
        invoice: visit.invoiceId,
        checksum: md5Hex(SHOP_KEY + ISSUER + visit.invoiceId),
      });
    }
    expect(checks[0]?.contentType).toBe('application/x-www-form-urlencoded');
    // REDIRECT_URL: the gateway's callback address with the order; the page sends the buyer on.
    expect(new URL(visit.backTo).searchParams.get('order')).toBe(entry.session.orderNumber);
    expect(visit.landing).toContain(`url=${RETURN_URL}`);
    expect(visit.landing).toContain(`href="${RETURN_URL}"`);
  });

  it('fails a payment the buyer declines at Telcell (REJECTED)', async () => {
    const entry = newPayment();
    await buyer(entry, 'decline');
    expect(entry.payment).toMatchObject({ status: 'failed', failureCode: 'declined' });
    expect(gateway.statusReads.at(-1)).toEqual({ kind: 'declined', failureCode: 'declined', cardLast4: null });
  });

  it('reads an unpaid invoice as pending and an expired one as declined', async () => {
    const entry = newPayment();
    const redirect = await startRedirect(entry);
    await fetch(redirect.url, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams(redirect.fields).toString(),
      redirect: 'manual',
    });
    const invoice = fake.invoiceFor(entry.session.orderNumber);
    if (invoice === undefined) throw new Error('no invoice');
    // A session whose reference the core stored reads the invoice without any callback.
    const session = { ...entry.session, reference: invoice.id };
    expect(await callStatus(call(), entry.payment, session)).toEqual({
      kind: 'pending',
      failureCode: 'transaction_expired',
      cardLast4: null,
    });
    fake.expire(invoice.id);
    expect(await callStatus(call(), entry.payment, session)).toEqual({
      kind: 'declined',
      failureCode: 'transaction_expired',
      cardLast4: null,
    });
  });

  it('answers pending without calling Telcell while no callback has named the invoice', async () => {
    const entry = newPayment();
    const before = fake.requests.length;
    expect(await callStatus(call(), entry.payment, entry.session)).toEqual({
      kind: 'pending',
      failureCode: 'processor_timeout',
      cardLast4: null,
    });
    expect(fake.requests.length).toBe(before);
  });

  it('confirms a payment paid at Telcell after it expired at the gateway (late confirmation)', async () => {
    const entry = newPayment();
    const redirect = await startRedirect(entry);
    await fetch(redirect.url, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams(redirect.fields).toString(),
      redirect: 'manual',
    });
    entry.payment = { ...entry.payment, status: 'expired' };
    const invoice = fake.invoiceFor(entry.session.orderNumber);
    if (invoice === undefined) throw new Error('no invoice');
    await fake.pay(invoice.id);
    expect(gateway.outcomes.at(-1)).toBe('read_back');
    expect(entry.payment).toMatchObject({ status: 'completed', rrn: invoice.id });
  });

  it('reads the PAID sum: another sum than the payment is not a payment of it', async () => {
    const entry = await paidPayment({ amount: 3000 });
    const other = { ...entry.payment, amount: 3001, status: 'processing' as const };
    const answer = await callStatus(call(), other, entry.session);
    expect(answer.kind).toBe('unavailable');
  });
});

describe('callbacks', () => {
  it('changes nothing on a bad checksum, and refuses it', async () => {
    const entry = newPayment();
    const redirect = await startRedirect(entry);
    await fetch(`${redirect.url}?${new URLSearchParams(redirect.fields)}`, { redirect: 'manual' });
    const invoice = fake.invoiceFor(entry.session.orderNumber);
    if (invoice === undefined) throw new Error('no invoice');
    const checksBefore = apiRequests('check_bill').length;
    const fields = {
      invoice: invoice.id,
      issuer_id: entry.session.orderNumber,
      payment_id: '1',
      currency: '51',
      sum: `${entry.payment.amount}.00`,
      time: '2026-11-23 10:05:00',
      status: 'PAID',
    };
    for (const forged of [
      signedResult(fields, 'not-the-shop-key'),
      { ...signedResult(fields), status: 'PAID ' },
      { ...fields, checksum: '' },
      { ...fields, checksum: 'a'.repeat(32) },
    ]) {
      const reply = await postCallback(forged);
      expect(reply).toEqual({ status: 403, body: 'bad checksum' });
      expect(gateway.outcomes.at(-1)).toBeNull();
    }
    // A callback with a status and no checksum at all is refused too.
    expect((await postCallback(fields)).status).toBe(403);
    expect(entry.payment.status).toBe('processing');
    expect(apiRequests('check_bill').length).toBe(checksBefore);
    expect(gateway.references.at(-1)).toBeUndefined();
    expect(entry.session.reference).toBeNull();
  });

  it('answers a replayed callback OK without reading anything again', async () => {
    const entry = await paidPayment();
    const delivery = fake.deliveries.at(-1);
    if (delivery === undefined) throw new Error('no delivery');
    const checksBefore = apiRequests('check_bill').length;
    const reply = await postCallback(delivery.fields);
    expect(reply).toEqual({ status: 200, body: 'OK' });
    expect(gateway.outcomes.at(-1)).toBeNull();
    // The paid payment's session already names its invoice: nothing is stored again.
    expect(gateway.references.at(-1)).toBeUndefined();
    expect(entry.session.reference).toBe(entry.invoiceId);
    expect(apiRequests('check_bill').length).toBe(checksBefore);
    expect(entry.payment.status).toBe('completed');
  });

  it('keeps the paying invoice on a paid payment when a signed callback names another invoice of the order', async () => {
    const entry = await paidPayment();
    const checksBefore = apiRequests('check_bill').length;
    const reply = await postCallback(
      signedResult({
        invoice: `${entry.invoiceId}9`,
        issuer_id: entry.session.orderNumber,
        payment_id: '1',
        currency: '51',
        sum: `${entry.payment.amount}.00`,
        time: '2026-11-23 10:05:00',
        status: 'REJECTED',
      }),
    );
    expect(reply).toEqual({ status: 200, body: 'OK' });
    expect(gateway.outcomes.at(-1)).toBeNull();
    expect(gateway.references.at(-1)).toBeUndefined();
    expect(entry.session.reference).toBe(entry.invoiceId);
    expect(apiRequests('check_bill').length).toBe(checksBefore);
    // The refund still cancels the invoice that was paid.
    expect(await callRefund(call(), refundRequest(entry))).toEqual({ kind: 'refunded', reference: entry.invoiceId });
  });

  it('answers a callback for an unknown payment as unknown', async () => {
    const stranger = randomUUID().replaceAll('-', '');
    const reply = await postCallback(
      signedResult({
        invoice: '1',
        issuer_id: stranger,
        payment_id: '1',
        currency: '51',
        sum: '100.00',
        time: '2026-11-23 10:05:00',
        status: 'PAID',
      }),
    );
    expect(reply).toEqual({ status: 404, body: 'unknown order' });
    expect((await postCallback({ issuer_id: 'not an order', status: 'PAID', checksum: 'x' })).status).toBe(404);
    const page = await fetch(`${gateway.url}?order=${stranger}`);
    expect(page.status).toBe(404);
    expect(await page.text()).toContain('not known');
  });

  it('identifies the order plain or base64, and by a return order', () => {
    const orderNumber = randomUUID().replaceAll('-', '');
    const encoded = Buffer.from(orderNumber).toString('base64');
    const request = (query: Record<string, string>): CallbackRequest => ({
      method: 'GET',
      query: new URLSearchParams(query),
      form: new URLSearchParams(),
      json: undefined,
      rawBody: Buffer.alloc(0),
      headers: {},
    });
    expect(handler.identify(request({ issuer_id: orderNumber }))).toEqual({ orderNumber });
    expect(handler.identify(request({ issuer_id: encoded }))).toEqual({ orderNumber });
    expect(handler.identify(request({ order: encoded }))).toEqual({ orderNumber });
    expect(handler.identify(request({ issuer_id: 'MTIz' }))).toBeNull();
    expect(handler.identify(request({ status: 'PAID' }))).toBeNull();
  });

  it('verifies the other callback forms: issuer_id as sent, GET, with buyer, JSON', async () => {
    const variants = [
      { issuerIdInCallback: 'as_sent' as const },
      { callbackMethod: 'GET' as const },
      { callbackWithBuyer: true },
    ];
    for (const variant of variants) {
      const other = await startFakeTelcell({
        shops: [{ issuer: ISSUER, shopKey: SHOP_KEY, resultUrl: gateway.url, redirectUrl: gateway.url }],
        ...variant,
      });
      try {
        const entry = newPayment();
        const redirect = await callStart(call({ base_url: other.baseUrl }), entry.payment, entry.session);
        if (redirect.kind !== 'redirect' || redirect.redirect.method !== 'POST') throw new Error('no redirect');
        await fetch(`${other.baseUrl}?${new URLSearchParams(redirect.redirect.fields)}`, { redirect: 'manual' });
        const invoice = other.invoiceFor(entry.session.orderNumber);
        if (invoice === undefined) throw new Error('no invoice');
        await other.pay(invoice.id);
        expect(other.deliveries.at(-1)).toMatchObject({ status: 200, body: 'OK' });
        expect(gateway.outcomes.at(-1)).toBe('read_back');
        expect(entry.session.reference).toBe(invoice.id);
      } finally {
        await other.close();
      }
    }
    // A JSON body, with `invoice_id` for `invoice` (one client's spelling).
    const entry = newPayment();
    const fields = signedResult({
      invoice: '777001',
      issuer_id: entry.session.orderNumber,
      payment_id: '5',
      currency: '51',
      sum: `${entry.payment.amount}.00`,
      time: '2026-11-23 10:05:00',
      status: 'REJECTED',
    });
    const { invoice, ...rest } = fields;
    const json: CallbackRequest = {
      method: 'POST',
      query: new URLSearchParams(),
      form: new URLSearchParams(),
      json: { ...rest, invoice_id: invoice },
      rawBody: Buffer.alloc(0),
      headers: { 'content-type': 'application/json' },
    };
    const decision = handler.decide(call(), entry.payment, entry.session, json);
    expect(decision.outcome).toBe('read_back');
    expect(decision.answer(entry.payment)).toEqual({
      status: 200,
      contentType: 'text/plain; charset=utf-8',
      body: 'OK',
    });
    expect(decision.reference).toBe('777001');
  });

  it('reads back, never trusts, a buyer return: the status then says pending', async () => {
    const entry = newPayment();
    const page = await fetch(`${gateway.url}?order=${entry.session.orderNumber}`);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain(RETURN_URL);
    expect(gateway.outcomes.at(-1)).toBe('read_back');
    expect(gateway.statusReads.at(-1)?.kind).toBe('pending');
    expect(entry.payment.status).toBe('processing');
  });

  it('reads the status after a restart from the stored reference alone (no memory in the process)', async () => {
    const entry = await paidPayment();
    const stored = entry.session.reference;
    expect(stored).toBe(entry.invoiceId);
    // A restart: the adapter's modules loaded afresh, the session read back from its row.
    vi.resetModules();
    const fresh = (await import('../../../gateway/processors/telcell/adapter.js')).createTelcellProcessor();
    const freshStatus = fresh.status as NonNullable<typeof fresh.status>;
    const row: ProcessorSession = JSON.parse(JSON.stringify(entry.session));
    const processing = { ...entry.payment, status: 'processing' as const };
    const checksBefore = apiRequests('check_bill').length;
    expect(await freshStatus(call(), processing, row)).toEqual({
      kind: 'paid',
      rrn: entry.invoiceId,
      cardLast4: null,
      processor: 'telcell',
    });
    expect(
      apiRequests('check_bill')
        .slice(checksBefore)
        .map((request) => request.fields.invoice),
    ).toEqual([entry.invoiceId]);
    // The session is the only place the invoice id is kept: without it, even this process knows none.
    const before = fake.requests.length;
    expect((await callStatus(call(), processing, { ...row, reference: null })).kind).toBe('pending');
    expect(fake.requests.length).toBe(before);
  });
});

describe('status faults', () => {
  it('answers unavailable on a timeout, a dropped connection, HTTP 500, a 200 error, and when unreachable', async () => {
    const entry = await paidPayment();
    const processing = { ...entry.payment, status: 'processing' as const };
    const faults = [{ kind: 'delay', ms: 900 }, { kind: 'drop' }, { kind: 'http500' }, { kind: 'error200' }] as const;
    for (const fault of faults) {
      fake.inject(fault);
      const answer = await callStatus(call(), processing, entry.session);
      expect(answer.kind, fault.kind).toBe('unavailable');
      expect(JSON.stringify(answer)).not.toContain(SHOP_KEY);
    }
    const unreachable = await callStatus(call({ base_url: await closedPortUrl() }), processing, entry.session);
    expect(unreachable).toMatchObject({ kind: 'unavailable' });
    // Once the faults are spent, the same status reads paid.
    expect((await callStatus(call(), processing, entry.session)).kind).toBe('paid');
  });

  it('answers unavailable when the shop key is wrong (Telcell answers an error text)', async () => {
    const entry = await paidPayment();
    const answer = await callStatus(call({ shop_key: 'wrong-key-secret' }), entry.payment, entry.session);
    expect(answer.kind).toBe('unavailable');
    expect(JSON.stringify(answer)).not.toContain('wrong-key-secret');
  });

  it('gives each call its documented timeout', async () => {
    const timeouts: number[] = [];
    const recording: ProcessorHttp = {
      request: (request: ProcessorRequest) => {
        timeouts.push(request.timeoutMs);
        return httpClient.request(request);
      },
      close: () => {},
    };
    const entry = await paidPayment();
    const live = testCall(config(), recording);
    await (telcellProcessor.status as NonNullable<typeof telcellProcessor.status>)(live, entry.payment, entry.session);
    const request = refundRequest(entry);
    await (telcellProcessor.refund as NonNullable<typeof telcellProcessor.refund>)(live, request);
    await (telcellProcessor.refundStatus as NonNullable<typeof telcellProcessor.refundStatus>)(live, {
      ...request,
      processorReference: null,
    });
    expect(timeouts).toEqual([TELCELL_STATUS_TIMEOUT_MS, TELCELL_REFUND_TIMEOUT_MS, TELCELL_REFUND_STATUS_TIMEOUT_MS]);
    expect(timeouts).toEqual([10_000, 20_000, 10_000]);
  });
});

describe('refunds', () => {
  it('refunds a paid payment in full with cancel_bill, and the status check agrees', async () => {
    const entry = await paidPayment();
    const before = apiRequests('cancel_bill').length;
    const request = refundRequest(entry);
    expect(await callRefund(call(), request)).toEqual({ kind: 'refunded', reference: entry.invoiceId });
    const sent = apiRequests('cancel_bill').slice(before);
    expect(sent).toHaveLength(1);
    const issuerId = Buffer.from(entry.session.orderNumber).toString('base64');
    expect(sent[0]?.fields).toEqual({
      'cancel_bill:issuer': ISSUER,
      invoice: entry.invoiceId,
      issuer_id: issuerId,
      checksum: md5Hex(SHOP_KEY + ISSUER + entry.invoiceId + issuerId),
    });
    expect(fake.invoices.get(entry.invoiceId)?.status).toBe('CANCELLED');
    expect(await callRefundStatus(call(), { ...request, processorReference: entry.invoiceId })).toEqual({
      kind: 'refunded',
      reference: entry.invoiceId,
    });
  });

  it('refuses partial refunds without calling Telcell, even when they would add up to the whole', async () => {
    const entry = await paidPayment({ amount: 1000 });
    const before = apiRequests('cancel_bill').length;
    expect(await callRefund(call(), refundRequest(entry, 400))).toEqual({
      kind: 'declined',
      code: 'refund_not_supported',
    });
    expect(await callRefund(call(), refundRequest(entry, 600))).toEqual({
      kind: 'declined',
      code: 'refund_not_supported',
    });
    // What remains after an earlier partial refund is not the whole invoice either.
    expect(await callRefund(call(), refundRequest(entry, 600, { refundedAmount: 400 }))).toEqual({
      kind: 'declined',
      code: 'refund_not_supported',
    });
    expect(apiRequests('cancel_bill').length).toBe(before);
    expect(fake.invoices.get(entry.invoiceId)?.status).toBe('PAID');
    // The whole amount goes through.
    expect((await callRefund(call(), refundRequest(entry, 1000))).kind).toBe('refunded');
  });

  it('is refused by Telcell when the invoice was already given back (over-refund)', async () => {
    const entry = await paidPayment();
    expect((await callRefund(call(), refundRequest(entry))).kind).toBe('refunded');
    expect(await callRefund(call(), refundRequest(entry))).toEqual({ kind: 'declined', code: 'refund_declined' });
  });

  it('refunds by the order number when no invoice id is known', async () => {
    const entry = await paidPayment();
    const before = apiRequests('cancel_bill').length;
    const request = { ...refundRequest(entry), session: { ...entry.session, reference: null } };
    expect(await callRefund(call(), request)).toEqual({ kind: 'refunded', reference: entry.invoiceId });
    expect(apiRequests('cancel_bill').slice(before)[0]?.fields.invoice).toBeUndefined();
  });

  it('answers unknown when the answer is lost, and the status check finds it refunded', async () => {
    for (const fault of [{ kind: 'delay', ms: 900 }, { kind: 'drop' }] as const) {
      const entry = await paidPayment();
      fake.inject(fault);
      const request = refundRequest(entry);
      expect(await callRefund(call(), request), fault.kind).toEqual({ kind: 'unknown' });
      expect(await callRefundStatus(call(), { ...request, processorReference: null })).toEqual({
        kind: 'refunded',
        reference: entry.invoiceId,
      });
    }
  });

  it('answers unknown on HTTP 500, declined on a 200 error, unavailable when unreachable', async () => {
    const entry = await paidPayment();
    fake.inject({ kind: 'http500' });
    expect(await callRefund(call(), refundRequest(entry))).toEqual({ kind: 'unknown' });
    fake.inject({ kind: 'error200' });
    expect(await callRefund(call(), refundRequest(entry))).toEqual({ kind: 'declined', code: 'refund_declined' });
    expect(await callRefund(call({ base_url: await closedPortUrl() }), refundRequest(entry))).toEqual({
      kind: 'unavailable',
    });
    expect(await callRefund(call({ shop_key: 'wrong' }), refundRequest(entry))).toEqual({
      kind: 'declined',
      code: 'refund_declined',
    });
    // None of these refunded anything.
    expect(fake.invoices.get(entry.invoiceId)?.status).toBe('PAID');
    expect(await callRefundStatus(call(), { ...refundRequest(entry), processorReference: null })).toEqual({
      kind: 'declined',
      code: 'refund_declined',
    });
  });

  it('cannot check a refund without an invoice id or a reachable Telcell', async () => {
    const entry = await paidPayment();
    const request = { ...refundRequest(entry), processorReference: null };
    expect(await callRefundStatus(call({ base_url: await closedPortUrl() }), request)).toEqual({ kind: 'unavailable' });
    fake.inject({ kind: 'delay', ms: 900 });
    expect(await callRefundStatus(call(), request)).toEqual({ kind: 'unavailable' });
    const before = fake.requests.length;
    const noInvoice = { ...request, session: { ...entry.session, reference: null } };
    expect(await callRefundStatus(call(), noInvoice)).toEqual({ kind: 'unavailable' });
    expect(fake.requests.length).toBe(before);
  });
});

describe('mapping', () => {
  it('maps every known invoice status, and an unknown one to pending', () => {
    const table = Object.fromEntries(TELCELL_INVOICE_STATUSES.map((status) => [status, invoiceOutcome(status)]));
    expect(table).toEqual({
      NEW: { kind: 'pending', failureCode: 'transaction_expired' },
      PAID: { kind: 'paid' },
      REJECTED: { kind: 'declined', failureCode: 'declined' },
      EXPIRED: { kind: 'declined', failureCode: 'transaction_expired' },
      CANCELLED: { kind: 'declined', failureCode: 'general_failure' },
      CANCELED: { kind: 'declined', failureCode: 'general_failure' },
      'CANCELLED FOR REPEAT': { kind: 'pending', failureCode: 'transaction_expired' },
      'CANCELED FOR REPEAT': { kind: 'pending', failureCode: 'transaction_expired' },
    });
    expect(invoiceOutcome('PARTIALLY_PAID')).toEqual({ kind: 'pending', failureCode: 'general_failure' });
    expect(invoiceOutcome('paid')).toEqual({ kind: 'pending', failureCode: 'general_failure' });
    expect(cancelOutcome('CANCELLED')).toBe('cancelled');
    expect(cancelOutcome('CANCELED')).toBe('cancelled');
    expect(cancelOutcome('PAID')).toBe('not_cancelled');
    expect(cancelOutcome('SOMETHING')).toBe('unknown');
  });

  it('reads sums in whole AMD and order numbers plain or base64', () => {
    expect(fromWireSum('1500')).toBe(1500);
    expect(fromWireSum('1500.00')).toBe(1500);
    expect(fromWireSum('1500.5')).toBeNull();
    expect(fromWireSum('15,00')).toBeNull();
    const orderNumber = '0192f5a47b1c7d2e9f001234567890ab';
    expect(readOrderNumber(orderNumber)).toBe(orderNumber);
    expect(readOrderNumber('MDE5MmY1YTQ3YjFjN2QyZTlmMDAxMjM0NTY3ODkwYWI=')).toBe(orderNumber);
    expect(readOrderNumber('MDE5MmY1YTQ3YjFjN2QyZTlmMDAxMjM0NTY3ODkwYWI')).toBeNull();
    expect(readOrderNumber('order-1001')).toBeNull();
  });

  it('reads key=value answers on the first equals sign', () => {
    expect(parseKeyValueLines('invoice=12\r\nstatus=PAID\ndescription=T3Jk=\n\nnoise\n')).toEqual({
      invoice: '12',
      status: 'PAID',
      description: 'T3Jk=',
    });
  });
});

describe('the fake', () => {
  it('refuses check_bill with a wrong checksum, an unknown invoice, or the wrong content type', async () => {
    const post = (body: string, type = 'application/x-www-form-urlencoded') =>
      fetch(fake.baseUrl, { method: 'POST', headers: { 'Content-Type': type }, body }).then((r) => r.text());
    const wrong = new URLSearchParams({ 'check_bill:issuer': ISSUER, invoice: '1', checksum: 'a'.repeat(32) });
    expect(await post(wrong.toString())).toBe('Wrong checksum');
    const missing = '1';
    const unknown = new URLSearchParams({
      'check_bill:issuer': ISSUER,
      invoice: missing,
      checksum: md5Hex(SHOP_KEY + ISSUER + missing),
    });
    expect(await post(unknown.toString())).toBe('Invoice not found');
    expect(await post(JSON.stringify({ 'check_bill:issuer': ISSUER }), 'application/json')).toBe('Wrong request');
  });
});
