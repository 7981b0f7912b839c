/**
 * The examples of the OpenAPI document against a real server: every operation is called once, in
 * the order a developer would, each request body example sent as it is. Each answer must be the
 * documented success status, valid under its schema (the contract check, test/support/contract.ts)
 * and shaped as the documented example: the same keys at every depth, so an example never shows a
 * key the server does not write nor leaves one out. The webhook examples are compared with the
 * bodies of the payment's real events.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authorizedDelivery } from '../../gateway/api/openapi/examples/holds.js';
import { createPaymentRequest } from '../../gateway/api/openapi/examples/payments.js';
import { refundedDelivery, statusUpdatedDelivery } from '../../gateway/api/openapi/examples/webhooks.js';
import { type ApiOperation, OPERATIONS } from '../../gateway/api/openapi/operations.js';
import { createConnectToken } from '../../gateway/connect/connect-token.service.js';
import { takeContractViolations } from '../support/contract.js';
import { type ApiResponse, startTestGateway, type TestGateway, type TestMerchant } from '../support/gateway.js';

// biome-ignore lint/suspicious/noExplicitAny: the answers read as plain JSON
type Json = any;

/**
 * Where `example` and `answer` differ in shape: keys one has and the other lacks, and values of
 * different JSON types (null matches anything: nullable fields). Arrays compare their first items.
 */
function shapeDifferences(example: unknown, answer: unknown, at = ''): string[] {
  if (example === null || answer === null) return [];
  const kind = (value: unknown) => (Array.isArray(value) ? 'array' : typeof value);
  if (kind(example) !== kind(answer)) return [`${at || '/'}: example ${kind(example)}, answer ${kind(answer)}`];
  if (Array.isArray(example) && Array.isArray(answer)) {
    return example.length > 0 && answer.length > 0 ? shapeDifferences(example[0], answer[0], `${at}/0`) : [];
  }
  if (typeof example !== 'object' || typeof answer !== 'object') return [];
  const a = example as Record<string, unknown>;
  const b = answer as Record<string, unknown>;
  return [
    ...Object.keys(a)
      .filter((key) => !(key in b))
      .map((key) => `${at}/${key}: in the example, not in the answer`),
    ...Object.keys(b)
      .filter((key) => !(key in a))
      .map((key) => `${at}/${key}: in the answer, not in the example`),
    ...Object.keys(a)
      .filter((key) => key in b)
      .flatMap((key) => shapeDifferences(a[key], b[key], `${at}/${key}`)),
  ];
}

function operation(operationId: string): ApiOperation {
  const found = OPERATIONS.find((o) => o.operationId === operationId);
  if (found === undefined) throw new Error(`no operation ${operationId}`);
  return found;
}

let t: TestGateway;
let m: TestMerchant;
let connectToken: string;

beforeAll(async () => {
  t = await startTestGateway('sqlite', { env: { GATEWAY_CLOCK: 'manual' } });
  m = await t.merchant({ name: 'Ararat Books', verifyBusiness: true });
  connectToken = (
    await createConnectToken(t.gateway.deps, {
      merchantId: m.merchantId,
      domain: m.hostedDomain,
      platform: 'woocommerce',
    })
  ).connect_token;
});

afterAll(async () => {
  await t?.close();
});

interface Call {
  /** Who calls: the merchant's test key (the default), a connect token, or no one. */
  readonly as?: 'key' | 'connect token' | 'anyone';
  readonly idempotencyKey?: boolean;
  /**
   * A status other than the example's, with the reason: the example cannot succeed on a sandbox
   * payment. The answer is still checked against the document.
   */
  readonly expect?: { readonly status: number; readonly why: string };
}

const called = new Set<string>();

/** Calls `operationId` at `path` with its request body example, as it is; checks the answer against the document. */
async function call(operationId: string, path: string, options: Call = {}): Promise<ApiResponse<Json>> {
  const op = operation(operationId);
  called.add(operationId);
  const headers: Record<string, string> = {
    ...(options.idempotencyKey === true ? { 'Idempotency-Key': randomUUID() } : {}),
    ...(options.as === 'connect token' ? { 'X-Service-Connect': connectToken } : {}),
  };
  const res = await t.call<Json>(op.method.toUpperCase(), path, {
    ...((options.as ?? 'key') === 'key' ? { key: m.testKey } : {}),
    headers,
    ...(op.body === undefined ? {} : { body: op.body.example }),
  });
  expect(takeContractViolations(), `${operationId}: the answer differs from the document`).toEqual([]);
  if (options.expect !== undefined) {
    expect(res.status, `${operationId} (${options.expect.why}): ${res.text}`).toBe(options.expect.status);
    return res;
  }
  // The first answer: 201 where a retry answers 200.
  const status = Math.max(...Object.keys(op.responses).map(Number));
  expect(res.status, `${operationId}: ${res.text}`).toBe(status);
  const example = op.responses[status]?.example;
  expect(shapeDifferences(example, res.body), `${operationId}: the example and the answer differ`).toEqual([]);
  return res;
}

describe('the examples of the OpenAPI document, sent to a real server', () => {
  let paid: string;
  let eventId: string;

  it('take and answer a payment: create, read, pay, its events, a resend, a refund, the lists', async () => {
    const created = await call('createPayment', '/api/v1/payments', { idempotencyKey: true });
    paid = created.body.uuid;
    await call('listPayments', '/api/v1/payments');
    await call('getOrderPayment', `/api/v1/orders/${encodeURIComponent(createPaymentRequest.order_id)}/payment`);
    await call('payTestPayment', `/api/v1/test_helpers/payments/${paid}/pay`);
    await call('getPayment', `/api/v1/payments/${paid}`);
    const events = await call('listPaymentEvents', `/api/v1/payments/${paid}/events`);
    eventId = events.body.data[0].id;
    await call('resendPaymentEvent', `/api/v1/payments/${paid}/events/${eventId}/resend`);
    await call('refundPayment', `/api/v1/payments/${paid}/refund`, { idempotencyKey: true });
    await call('listRefunds', `/api/v1/payments/${paid}/refunds`);
    const settled = await call('settlePaymentWithProcessorReference', `/api/v1/payments/${paid}/processor_reference`, {
      expect: {
        status: 409,
        why: 'only a Telcell payment whose callback was lost is settled so (test/api/live-processors.test.ts)',
      },
    });
    // The reference was read as valid: the refusal is the sandbox's, not the body's.
    expect(settled.body.error).toBe('conflict');
  });

  it('cancel a second attempt, confirmed late by the processor afterwards', async () => {
    const second = await t.call<Json>('POST', '/api/v1/payments', {
      key: m.testKey,
      body: { ...createPaymentRequest, order_id: '1043' },
    });
    expect(second.status, second.text).toBe(201);
    await call('cancelPayment', `/api/v1/payments/${second.body.uuid}/cancel`);
    await call('confirmTestPayment', `/api/v1/test_helpers/payments/${second.body.uuid}/confirm`);
  });

  it('show the webhook bodies the payment’s events carry', async () => {
    const events = await t.call<Json>('GET', `/api/v1/payments/${paid}/events`, { key: m.testKey });
    const delivered = (event: string) => {
      const found = events.body.data.find((e: Json) => e.event === event);
      expect(found, event).toBeDefined();
      return { ...found.body, delivery_id: randomUUID(), timestamp: 1795257482 };
    };
    expect(shapeDifferences(statusUpdatedDelivery, delivered('transaction.status.updated'))).toEqual([]);
    expect(shapeDifferences(refundedDelivery, delivered('payment.refunded'))).toEqual([]);
  });

  it('hold a card, capture part of it; hold another and void it; show the authorization webhook', async () => {
    const held = async (orderId: string): Promise<string> => {
      const created = await t.call<Json>('POST', '/api/v1/payments', {
        key: m.testKey,
        body: { ...createPaymentRequest, order_id: orderId, capture_method: 'manual' },
      });
      expect(created.status, created.text).toBe(201);
      const paidHold = await t.call<Json>('POST', `/api/v1/test_helpers/payments/${created.body.uuid}/pay`, {
        key: m.testKey,
        body: { card_number: '4111 1111 1111 1111' },
      });
      expect(paidHold.body.status).toBe('authorized');
      return created.body.uuid;
    };
    const captured = await held('1044');
    await call('capturePayment', `/api/v1/payments/${captured}/capture`, { idempotencyKey: true });
    await call('voidPayment', `/api/v1/payments/${await held('1045')}/void`, { idempotencyKey: true });
    const events = await t.call<Json>('GET', `/api/v1/payments/${captured}/events`, { key: m.testKey });
    const authorization = events.body.data.find((e: Json) => e.event === 'payment.authorized');
    expect(authorization).toBeDefined();
    const delivered = { ...authorization.body, delivery_id: randomUUID(), timestamp: 1795259480 };
    expect(shapeDifferences(authorizedDelivery, delivered)).toEqual([]);
  });

  it('make, list, read and deactivate a payment link', async () => {
    const link = await call('createPaymentLink', '/api/v1/payment_links', { idempotencyKey: true });
    await call('listPaymentLinks', '/api/v1/payment_links');
    await call('getPaymentLink', `/api/v1/payment_links/${link.body.id}`);
    await call('deactivatePaymentLink', `/api/v1/payment_links/${link.body.id}/deactivate`);
  });

  it('read the prices, the balances and the ledger, buy units and set an auto top-up', async () => {
    await call('getPricing', '/api/v1/billing/pricing', { as: 'anyone' });
    await call('getBalances', '/api/v1/billing/balances');
    await call('listLedger', '/api/v1/billing/ledger');
    const purchase = await call('createPurchase', '/api/v1/billing/purchases', { idempotencyKey: true });
    await call('getPurchase', `/api/v1/billing/purchases/${purchase.body.id}`);
    await call('configureAutoTopup', '/api/v1/billing/auto-topup/transactions');
  });

  it('issue, list and read a receipt', async () => {
    const receipt = await call('createReceipt', '/api/v1/receipts', { idempotencyKey: true });
    await call('listReceipts', '/api/v1/receipts');
    await call('getReceipt', `/api/v1/receipts/${receipt.body.id}`);
  });

  it('list and read the customers', async () => {
    const customers = await call('listCustomers', '/api/v1/customers');
    await call('getCustomer', `/api/v1/customers/${encodeURIComponent(customers.body.data[0].id)}`);
  });

  it('read a connect token, move the test clock, and read the service’s health and this document', async () => {
    await call('getConnectToken', '/api/v1/connect_token', { as: 'connect token' });
    await call('advanceTestClock', '/api/v1/test_helpers/clock/advance');
    await call('getHealth', '/health', { as: 'anyone' });
    await call('getReadiness', '/ready', { as: 'anyone' });
    await call('getHealthReady', '/health/ready', { as: 'anyone' });
    const document = await t.call<Json>('GET', '/api/v1/openapi.json');
    called.add('getOpenApiDocument');
    expect(document.status).toBe(200);
    // The example is the document's beginning: its keys are the document's.
    const head = operation('getOpenApiDocument').responses[200]?.example as Record<string, unknown>;
    for (const key of Object.keys(head)) expect(document.body[key], key).toEqual(expect.anything());
    expect(document.body.openapi).toBe(head.openapi);
  });

  it('cover every operation', () => {
    expect([...called].sort()).toEqual(OPERATIONS.map((o) => o.operationId).sort());
  });
});
