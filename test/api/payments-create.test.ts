/**
 * `POST /api/v1/payments` over HTTP on both databases: the created payment, validation, transport
 * errors, the domain rules for test and live keys, the order rule, the amount limit and payment
 * methods, and that a refused request leaves nothing behind.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setProcessorEnabled } from '../../gateway/merchants/domain-processors.service.js';
import { addDomain } from '../../gateway/merchants/domains.service.js';
import { DIALECTS } from '../support/databases.js';
import {
  type ApiResponse,
  enableLiveProcessor,
  expectErrorBody,
  PUBLIC_URL,
  paymentBody,
  startTestGateway,
  type TestGateway,
  type TestMerchant,
  uniqueHost,
} from '../support/gateway.js';
import { ADDITIVE_PAYMENT_KEYS, SPEC_PAYMENT_KEYS } from '../support/payment-shape.js';

type Json = Record<string, unknown>;

const PAYMENT_KEYS = SPEC_PAYMENT_KEYS;
const ADDITIVE_KEYS = ADDITIVE_PAYMENT_KEYS;

const UUID_V7 = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const API_INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\+00:00$/;
const BODY_LIMIT = 64 * 1024;

/** The spec's error body: exactly these keys, `request_id` equal to the header, `docs_url` to our page. */
function expectError(res: ApiResponse, status: number, code: string, extraKeys: string[] = []): Json {
  expectErrorBody(res, status, code, extraKeys);
  expect(res.headers.get('content-type')).toMatch(/^application\/json/);
  expect(typeof res.body.message).toBe('string');
  expect((res.body.message as string).length).toBeGreaterThan(0);
  expect(res.body.request_id).toMatch(/^req_/);
  expect(res.body.request_id).toBe(res.headers.get('x-request-id'));
  expect(res.body.docs_url).toBe(`${PUBLIC_URL}/docs/errors#${code}`);
  return res.body;
}

/** A 422 `validation_failed`; answers its `errors` object. */
function expectValidation(res: ApiResponse): Record<string, string[]> {
  const body = expectError(res, 422, 'validation_failed', ['errors']);
  const errors = body.errors as Record<string, string[]>;
  for (const messages of Object.values(errors)) {
    expect(Array.isArray(messages)).toBe(true);
    expect(messages.length).toBeGreaterThan(0);
    for (const message of messages) expect(typeof message).toBe('string');
  }
  return errors;
}

describe.each(DIALECTS)('POST /api/v1/payments on %s', (dialect) => {
  let t: TestGateway;
  beforeAll(async () => {
    t = await startTestGateway(dialect, { env: { GATEWAY_RATE_LIMIT_PER_MINUTE: '100000' } });
  });
  afterAll(async () => t?.close());

  const create = (key: string, body: unknown, headers?: Record<string, string>) =>
    t.call('POST', '/api/v1/payments', { key, body, ...(headers ? { headers } : {}) });

  async function listTotal(key: string): Promise<number> {
    const res = await t.call<{ meta: { total: number } }>('GET', '/api/v1/payments', { key });
    expect(res.status).toBe(200);
    return res.body.meta.total;
  }

  async function storedCount(merchantId: string): Promise<number> {
    const row = await t.gateway.deps.db
      .selectFrom('payments')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('merchant_id', '=', merchantId)
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  function storedRow(uuid: string) {
    return t.gateway.deps.db.selectFrom('payments').selectAll().where('id', '=', uuid).executeTakeFirstOrThrow();
  }

  /** The host of the domain a payment was bound to. */
  async function boundHost(uuid: string): Promise<string> {
    const row = await t.gateway.deps.db
      .selectFrom('payments')
      .innerJoin('domains', 'domains.id', 'payments.domain_id')
      .select('domains.host')
      .where('payments.id', '=', uuid)
      .executeTakeFirstOrThrow();
    return row.host;
  }

  /** Moves a payment to `status` as the state machine would: failed and expired release the order. */
  async function setStatus(uuid: string, status: 'processing' | 'completed' | 'failed' | 'expired'): Promise<void> {
    const row = await storedRow(uuid);
    const holds = status === 'processing' || status === 'completed';
    await t.gateway.deps.db
      .updateTable('payments')
      .set({ status, active_order_id: holds ? row.order_id : null })
      .where('id', '=', uuid)
      .execute();
  }

  describe('the created payment', () => {
    it('answers 201 with every key of the Payment table, null where there is no value', async () => {
      const m = await t.merchant();
      const body = paymentBody({ amount: 7500, order_id: 'order-shape-1' });
      const res = await create(m.testKey, body);

      expect(res.status, res.text).toBe(201);
      expect(res.headers.get('content-type')).toMatch(/^application\/json/);
      expect(res.headers.get('cache-control')).toBe('no-store');
      expect(Object.keys(res.body).sort()).toEqual([...PAYMENT_KEYS, ...ADDITIVE_KEYS].sort());
      const p = res.body;
      expect(p.uuid).toMatch(UUID_V7);
      expect(p).toMatchObject({
        order_id: 'order-shape-1',
        amount: 7500,
        refunded_amount: 0,
        currency: 'AMD',
        charge: null,
        customer_id: null,
        status: 'pending',
        processor: null,
        completed_at: null,
        refunded_at: null,
        payment_flow: 'redirect',
        qr_code: null,
        rrn: null,
        description: null,
        livemode: false,
      });
      expect(p.created_at).toMatch(API_INSTANT);
      expect(p.created_at).toBe(`${new Date(t.clock.nowMs()).toISOString().slice(0, 19)}+00:00`);
      expect(p.checkout_url).toMatch(new RegExp(`^${PUBLIC_URL}/checkout/[A-Za-z0-9_-]{20,}$`));
      expect(p.redirect_url).toBe(p.checkout_url);
    });

    it('gives every payment its own uuid and checkout_url', async () => {
      const m = await t.merchant();
      const a = await create(m.testKey, paymentBody());
      const b = await create(m.testKey, paymentBody());
      expect(a.status).toBe(201);
      expect(b.status).toBe(201);
      expect(a.body.uuid).not.toBe(b.body.uuid);
      expect(a.body.checkout_url).not.toBe(b.body.checkout_url);
    });

    it('accepts every body field of the spec with a test key and reflects it', async () => {
      const m = await t.merchant();
      const res = await create(m.testKey, {
        amount: 12345,
        order_id: 'order-all-fields',
        return_url: 'https://example.org/return?x=1',
        domain: m.hostedDomain,
        processor: 'sandbox',
        redirect_mode: 'direct',
        currency: 'AMD',
        callback_url: 'https://hooks.shop.invalid/hook',
        cancel_url: 'http://127.0.0.1:3000/cancel',
        customer_email: 'buyer@example.am',
        customer_name: 'Anna Petrosyan',
        customer_id: 'cust-77',
        description: 'Two coffees and a croissant',
      });

      expect(res.status, res.text).toBe(201);
      expect(res.body).toMatchObject({
        order_id: 'order-all-fields',
        amount: 12345,
        currency: 'AMD',
        processor: 'sandbox',
        customer_id: 'cust-77',
        description: 'Two coffees and a croissant',
        status: 'pending',
        livemode: false,
      });
      const row = await storedRow(res.body.uuid as string);
      expect(row).toMatchObject({
        merchant_id: m.merchantId,
        environment: 'test',
        sandbox: 1,
        return_url: 'https://example.org/return?x=1',
        callback_url: 'https://hooks.shop.invalid/hook',
        cancel_url: 'http://127.0.0.1:3000/cancel',
        redirect_mode: 'direct',
        customer_email: 'buyer@example.am',
        customer_name: 'Anna Petrosyan',
      });
      expect(await boundHost(res.body.uuid as string)).toBe(m.hostedDomain);
    });

    it('accepts every body field of the spec with a live key and reflects it', async () => {
      const host = uniqueHost();
      const m = await t.liveMerchant(host);
      const res = await create(m.liveKey, {
        amount: 990,
        order_id: 'live-all-fields',
        return_url: `https://${host}/thanks`,
        domain: host,
        processor: 'sandbox',
        redirect_mode: 'direct',
        currency: 'amd',
        callback_url: `https://api.${host}/gateway/webhook`,
        cancel_url: `https://${host}/cart`,
        customer_email: 'buyer@example.am',
        customer_name: 'Aram',
        customer_id: 42,
        description: 'Book',
      });

      expect(res.status, res.text).toBe(201);
      expect(res.body).toMatchObject({
        order_id: 'live-all-fields',
        amount: 990,
        currency: 'AMD',
        processor: 'sandbox',
        customer_id: '42',
        description: 'Book',
        livemode: false,
      });
      const row = await storedRow(res.body.uuid as string);
      // A test payment from the start, made by a live key.
      expect(row).toMatchObject({
        environment: 'test',
        sandbox: 1,
        key_environment: 'live',
        redirect_mode: 'direct',
        callback_url: `https://api.${host}/gateway/webhook`,
        cancel_url: `https://${host}/cart`,
      });
      expect(await boundHost(res.body.uuid as string)).toBe(host);
    });

    it('makes a live-key payment without processor a live payment', async () => {
      const host = uniqueHost();
      const m = await t.liveMerchant(host);
      const res = await create(m.liveKey, paymentBody({ return_url: `https://${host}/done` }));
      expect(res.status, res.text).toBe(201);
      expect(res.body.livemode).toBe(true);
      expect(res.body.processor).toBeNull();
      expect(await storedRow(res.body.uuid as string)).toMatchObject({
        environment: 'live',
        sandbox: 0,
        key_environment: 'live',
      });
    });

    it('lists a live key’s sandbox payment with the test payments; the live key reads it back alone', async () => {
      const host = uniqueHost();
      const m = await t.liveMerchant(host);
      const orderId = `sandbox-by-live-${host}`;
      const res = await create(
        m.liveKey,
        paymentBody({ return_url: `https://${host}/done`, processor: 'sandbox', order_id: orderId }),
      );
      expect(res.status, res.text).toBe(201);
      const uuid = String(res.body.uuid);
      const listed = async (key: string) => {
        const list = await t.call<{ data: Array<{ uuid: string }> }>('GET', `/api/v1/payments?order_id=${orderId}`, {
          key,
        });
        expect(list.status, list.text).toBe(200);
        return list.body.data.map((p) => p.uuid);
      };
      expect(await listed(m.liveKey)).toEqual([]);
      expect(await listed(m.testKey)).toEqual([uuid]);
      for (const path of [`/api/v1/payments/${uuid}`, `/api/v1/orders/${orderId}/payment`]) {
        const read = await t.call('GET', path, { key: m.liveKey });
        expect(read.status, read.text).toBe(200);
        expect(read.body).toMatchObject({ uuid, livemode: false });
      }
      // A live payment of the same order is another order's environment: it is created, and the
      // live key's order read answers it before the sandbox one.
      const real = await create(m.liveKey, paymentBody({ return_url: `https://${host}/done`, order_id: orderId }));
      expect(real.status, real.text).toBe(201);
      const byOrder = await t.call('GET', `/api/v1/orders/${orderId}/payment`, { key: m.liveKey });
      expect(byOrder.body).toMatchObject({ uuid: real.body.uuid, livemode: true });
      expect(await listed(m.liveKey)).toEqual([real.body.uuid]);
    });

    it('refuses a live key a live payment on a domain where only the sandbox is enabled', async () => {
      const host = uniqueHost();
      const m = await t.liveMerchant(host);
      await setProcessorEnabled(t.gateway.deps, { merchantId: m.merchantId, host, processor: 'idram', enabled: false });
      const refused = await create(m.liveKey, paymentBody({ return_url: `https://${host}/done` }));
      expect(refused.status, refused.text).toBe(422);
      expect(refused.body).toMatchObject({ error: 'no_payment_method_configured', enabled_processors: ['sandbox'] });
      expect(String(refused.body.message)).toContain('"processor": "sandbox"');
      const sandbox = await create(
        m.liveKey,
        paymentBody({ return_url: `https://${host}/done`, processor: 'sandbox' }),
      );
      expect(sandbox.status, sandbox.text).toBe(201);
      expect(sandbox.body.livemode).toBe(false);
    });

    it('never shows customer_email or customer_name in any response', async () => {
      const m = await t.merchant();
      const email = 'secret.buyer@example.am';
      const name = 'Very Private Name';
      const created = await create(
        m.testKey,
        paymentBody({ order_id: 'order-private', customer_email: email, customer_name: name }),
      );
      expect(created.status).toBe(201);
      const reads = [
        created,
        await t.call('GET', `/api/v1/payments/${created.body.uuid}`, { key: m.testKey }),
        await t.call('GET', '/api/v1/orders/order-private/payment', { key: m.testKey }),
        await t.call('GET', '/api/v1/payments', { key: m.testKey }),
      ];
      for (const res of reads) {
        expect(res.status).toBeLessThan(300);
        expect(res.text).not.toContain(email);
        expect(res.text).not.toContain(name);
        expect(res.text).not.toContain('customer_email');
        expect(res.text).not.toContain('customer_name');
      }
      expect(await storedRow(created.body.uuid as string)).toMatchObject({
        customer_email: email,
        customer_name: name,
      });
    });

    it('refuses unknown body keys, naming each, and creates nothing', async () => {
      const m = await t.merchant();
      const res = await create(
        m.testKey,
        paymentBody({ metadata: { cart: [1, 2] }, customer_phone: '+37499000000', status: 'completed' }),
      );
      expect(expectValidation(res)).toEqual({
        metadata: ['is not a field of this request'],
        customer_phone: ['is not a field of this request'],
        status: ['is not a field of this request'],
      });
      expect(await listTotal(m.testKey)).toBe(0);
    });

    it('treats null optional fields as absent', async () => {
      const m = await t.merchant();
      const res = await create(
        m.testKey,
        paymentBody({
          domain: null,
          processor: null,
          redirect_mode: null,
          currency: null,
          callback_url: null,
          cancel_url: null,
          customer_email: null,
          customer_name: null,
          customer_id: null,
          description: null,
        }),
      );
      expect(res.status, res.text).toBe(201);
      expect(res.body).toMatchObject({ currency: 'AMD', processor: null, customer_id: null, description: null });
      expect(await storedRow(res.body.uuid as string)).toMatchObject({
        redirect_mode: 'hosted',
        callback_url: null,
        cancel_url: null,
        customer_email: null,
        customer_name: null,
      });
      expect(await boundHost(res.body.uuid as string)).toBe(m.hostedDomain);
    });

    it.each(['AMD', 'amd', 'Amd'])('accepts currency %s as AMD', async (currency) => {
      const m = await t.merchant();
      const res = await create(m.testKey, paymentBody({ currency }));
      expect(res.status, res.text).toBe(201);
      expect(res.body.currency).toBe('AMD');
    });

    it.each([
      ['a string', 'customer-9', 'customer-9'],
      ['zero', 0, '0'],
      ['a positive integer', 123456789, '123456789'],
    ])('accepts customer_id as %s and answers it as a string', async (_label, customerId, expected) => {
      const m = await t.merchant();
      const res = await create(m.testKey, paymentBody({ customer_id: customerId }));
      expect(res.status, res.text).toBe(201);
      expect(res.body.customer_id).toBe(expected);
    });

    it('keeps non-ASCII text exactly as sent', async () => {
      const m = await t.merchant();
      const body = paymentBody({
        order_id: 'պատվեր-№7-😀',
        description: 'Սուրճ ☕ and 𝄞 «quotes»',
        customer_id: 'клиент-1',
      });
      const res = await create(m.testKey, body);
      expect(res.status, res.text).toBe(201);
      expect(res.body).toMatchObject({
        order_id: body.order_id,
        description: body.description,
        customer_id: body.customer_id,
      });
      const read = await t.call('GET', `/api/v1/payments/${res.body.uuid}`, { key: m.testKey });
      expect(read.body).toEqual(res.body);
    });

    it('accepts the largest lengths the fields allow', async () => {
      const m = await t.merchant();
      const orderId = 'o'.repeat(255);
      const description = 'd'.repeat(1000);
      const res = await create(
        m.testKey,
        paymentBody({ order_id: orderId, description, customer_id: 'c'.repeat(255), customer_name: 'n'.repeat(255) }),
      );
      expect(res.status, res.text).toBe(201);
      expect(res.body.order_id).toBe(orderId);
      expect(res.body.description).toBe(description);
    });
  });

  describe('validation', () => {
    it('reports every missing required field of an empty object', async () => {
      const m = await t.merchant();
      const errors = expectValidation(await create(m.testKey, {}));
      expect(errors).toEqual({
        amount: ['is required'],
        order_id: ['is required'],
        return_url: ['is required'],
      });
    });

    it('reads a request without body as an empty object', async () => {
      const m = await t.merchant();
      const res = await t.call('POST', '/api/v1/payments', { key: m.testKey });
      const errors = expectValidation(res);
      expect(Object.keys(errors).sort()).toEqual(['amount', 'order_id', 'return_url']);
    });

    it.each(['amount', 'order_id', 'return_url'])('refuses a body without %s', async (field) => {
      const m = await t.merchant();
      const body = paymentBody();
      delete body[field];
      const errors = expectValidation(await create(m.testKey, body));
      expect(errors).toEqual({ [field]: ['is required'] });
    });

    const invalid: Array<[field: string, value: unknown, message?: string]> = [
      ['amount', '5000', 'must be an integer (whole AMD)'],
      ['amount', 10.5, 'must be a whole number of AMD (no minor units)'],
      ['amount', 0, 'must be at least 1'],
      ['amount', -100, 'must be at least 1'],
      ['amount', null, 'must be an integer (whole AMD)'],
      ['amount', true],
      ['amount', 1e300],
      ['amount', [5000]],
      ['order_id', 12345, 'must be a string'],
      ['order_id', '', 'must not be empty'],
      ['order_id', 'o'.repeat(256), 'must be at most 255 characters'],
      ['order_id', 'line\nbreak', 'must not contain control characters'],
      ['order_id', null, 'must be a string'],
      ['order_id', 'nul\u0000byte', 'must not contain control characters'],
      ['order_id', 'lone\ud800surrogate', 'must be valid Unicode text'],
      ['order_id', { id: 1 }],
      ['return_url', 'not a url', 'must be an absolute http or https URL'],
      ['return_url', 'ftp://shop.am/done', 'must be an absolute http or https URL'],
      ['return_url', 'javascript:alert(1)', 'must be an absolute http or https URL'],
      ['return_url', '/relative/done', 'must be an absolute http or https URL'],
      ['return_url', `https://example.org/${'p'.repeat(2048)}`, 'must be at most 2048 characters'],
      ['return_url', 42, 'must be a URL string'],
      ['return_url', 'https://example.org/done\u0000', 'must be an absolute http or https URL'],
      ['return_url', 'https://example.org/a\r\nSet-Cookie: x=1', 'must be an absolute http or https URL'],
      ['return_url', 'https://example.org/done?q=\ud800', 'must be valid Unicode text'],
      ['domain', 'not a domain', 'must be a domain name such as shop.example.am'],
      ['domain', 'https://shop.am', 'must be a domain name such as shop.example.am'],
      ['domain', '127.0.0.1', 'must be a domain name such as shop.example.am'],
      ['domain', 7],
      ['domain', 'shop.am\u0000', 'must be a domain name such as shop.example.am'],
      ['processor', 'paypal', 'is not a known processor'],
      ['processor', 'p'.repeat(51), 'must be at most 50 characters'],
      ['processor', 3],
      ['redirect_mode', 'popup', 'must be "direct" or "hosted"'],
      ['redirect_mode', true],
      ['currency', 'USD', 'is not supported; supported: AMD'],
      ['currency', 'EUR'],
      ['currency', '', 'is not supported; supported: AMD'],
      ['currency', 51],
      ['callback_url', 'hook', 'must be an absolute http or https URL'],
      ['callback_url', 'ftp://shop.am/hook'],
      ['callback_url', 'https://example.org/hook\u0000', 'must be an absolute http or https URL'],
      ['callback_url', 'https://example.org/\udfffhook', 'must be valid Unicode text'],
      ['cancel_url', 'cancel', 'must be an absolute http or https URL'],
      ['cancel_url', false],
      ['cancel_url', 'https://example.org/\tcart', 'must be an absolute http or https URL'],
      ['cancel_url', 'https://example.org/cart#\ud83d', 'must be valid Unicode text'],
      ['customer_email', 'not-an-email', 'must be an email address'],
      ['customer_email', 'a@b', 'must be an email address'],
      ['customer_email', `${'x'.repeat(250)}@b.am`, 'must be at most 254 characters'],
      ['customer_email', 42],
      ['customer_email', 'a\u0000b@example.am', 'must be an email address'],
      ['customer_email', 'anna\ud800@example.am', 'must be valid Unicode text'],
      ['customer_name', '', 'must not be empty'],
      ['customer_name', 'n'.repeat(256), 'must be at most 255 characters'],
      ['customer_name', 5],
      ['customer_name', 'Anna\u0000', 'must not contain control characters'],
      ['customer_name', '\udc00Anna', 'must be valid Unicode text'],
      ['customer_id', -1],
      ['customer_id', 1.5],
      ['customer_id', true],
      ['customer_id', ''],
      ['customer_id', 'c'.repeat(256)],
      ['customer_id', { id: 1 }],
      ['description', '', 'must not be empty'],
      ['description', 'd'.repeat(1001), 'must be at most 1000 characters'],
      ['description', ['a']],
      ['description', 'tea\u007f', 'must not contain control characters'],
      ['description', 'tea\ud83d', 'must be valid Unicode text'],
    ];

    it.each(invalid)('refuses %s = %j', async (field, value, message) => {
      const m = await t.merchant();
      const errors = expectValidation(await create(m.testKey, paymentBody({ [field]: value })));
      expect(Object.keys(errors)).toEqual([field]);
      if (message !== undefined) expect(errors[field]).toContain(message);
    });

    it('reports several invalid fields at once', async () => {
      const m = await t.merchant();
      const res = await create(m.testKey, { amount: 'ten', order_id: 5, return_url: 'nowhere', currency: 'USD' });
      const errors = expectValidation(res);
      expect(Object.keys(errors).sort()).toEqual(['amount', 'currency', 'order_id', 'return_url']);
      expect(res.body.message).toBe('4 fields are invalid: amount, order_id, return_url, currency.');
    });

    it('names the field in the message when one field is invalid', async () => {
      const m = await t.merchant();
      const res = await create(m.testKey, paymentBody({ amount: 0 }));
      expectValidation(res);
      expect(res.body.message).toBe('The amount field is invalid: must be at least 1.');
    });

    it.each([
      ['an array', '[]'],
      ['an array of payments', JSON.stringify([paymentBody()])],
      ['a string', '"pay me"'],
      ['a number', '5000'],
      ['null', 'null'],
    ])('refuses a body that is %s', async (_label, raw) => {
      const m = await t.merchant();
      const res = await t.call('POST', '/api/v1/payments', {
        key: m.testKey,
        rawBody: raw,
        headers: { 'Content-Type': 'application/json' },
      });
      expect(expectValidation(res)).toEqual({ body: ['must be a JSON object'] });
    });

    it('refuses redirect_mode direct without a processor', async () => {
      const m = await t.merchant();
      const errors = expectValidation(await create(m.testKey, paymentBody({ redirect_mode: 'direct' })));
      expect(errors).toEqual({ redirect_mode: ['direct requires a processor'] });
    });

    it('accepts redirect_mode hosted without a processor', async () => {
      const m = await t.merchant();
      const res = await create(m.testKey, paymentBody({ redirect_mode: 'hosted' }));
      expect(res.status, res.text).toBe(201);
    });
  });

  describe('transport errors', () => {
    async function post(m: TestMerchant, rawBody: string | Buffer, headers: Record<string, string>) {
      return t.call('POST', '/api/v1/payments', { key: m.testKey, rawBody, headers });
    }

    it.each([
      ['a truncated object', '{"amount": 5000, "order_id": "x"'],
      ['single quotes', "{'amount': 5000}"],
      ['a trailing comma', '{"amount": 5000,}'],
      ['plain words', 'amount=5000'],
    ])('answers 400 invalid_json to %s', async (_label, raw) => {
      const m = await t.merchant();
      expectError(await post(m, raw, { 'Content-Type': 'application/json' }), 400, 'invalid_json');
    });

    it.each(['text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x', 'application/xml'])(
      'answers 415 unsupported_media_type to a body sent as %s',
      async (contentType) => {
        const m = await t.merchant();
        const res = await post(m, JSON.stringify(paymentBody()), { 'Content-Type': contentType });
        expectError(res, 415, 'unsupported_media_type');
      },
    );

    it('answers 415 to a body sent without Content-Type', async () => {
      const m = await t.merchant();
      const res = await post(m, Buffer.from(JSON.stringify(paymentBody())), {});
      expectError(res, 415, 'unsupported_media_type');
    });

    it.each(['application/json; charset=utf-8', 'Application/JSON', 'application/merge-patch+json'])(
      'accepts the JSON content type %s',
      async (contentType) => {
        const m = await t.merchant();
        const res = await post(m, JSON.stringify(paymentBody()), { 'Content-Type': contentType });
        expect(res.status, res.text).toBe(201);
      },
    );

    /** A valid create body padded with JSON whitespace to exactly `size` bytes. */
    function bodyOfSize(size: number): string {
      const base = JSON.stringify(paymentBody());
      return `${base.slice(0, -1)}${' '.repeat(size - Buffer.byteLength(base))}}`;
    }

    it('accepts a body of exactly 64 KiB', async () => {
      const m = await t.merchant();
      const raw = bodyOfSize(BODY_LIMIT);
      expect(Buffer.byteLength(raw)).toBe(BODY_LIMIT);
      const res = await post(m, raw, { 'Content-Type': 'application/json' });
      expect(res.status, res.text).toBe(201);
    });

    it('answers 413 payload_too_large to a body one byte over 64 KiB', async () => {
      const m = await t.merchant();
      const raw = bodyOfSize(BODY_LIMIT + 1);
      const res = await post(m, raw, { 'Content-Type': 'application/json' });
      expectError(res, 413, 'payload_too_large', ['max_bytes']);
      expect(res.body.max_bytes).toBe(BODY_LIMIT);
      expect(await listTotal(m.testKey)).toBe(0);
    });

    it('answers 413 to a body of several megabytes', async () => {
      const m = await t.merchant();
      const raw = bodyOfSize(4 * 1024 * 1024);
      const res = await post(m, raw, { 'Content-Type': 'application/json' });
      expectError(res, 413, 'payload_too_large', ['max_bytes']);
    });

    it('answers 413 to a chunked body that grows past 64 KiB', async () => {
      const m = await t.merchant();
      const chunk = new TextEncoder().encode(' '.repeat(16 * 1024));
      let sent = 0;
      const stream = new ReadableStream<Uint8Array>({
        pull(controller) {
          if (sent === 0) controller.enqueue(new TextEncoder().encode(JSON.stringify(paymentBody())));
          if (sent >= 8) controller.close();
          else controller.enqueue(chunk);
          sent += 1;
        },
      });
      const response = await fetch(`${t.url}/api/v1/payments`, {
        method: 'POST',
        headers: { 'X-Service-Key': m.testKey, 'Content-Type': 'application/json' },
        body: stream,
        duplex: 'half',
      } as RequestInit & { duplex: 'half' });
      const text = await response.text();
      const res: ApiResponse = { status: response.status, headers: response.headers, body: JSON.parse(text), text };
      expect(response.headers.get('transfer-encoding')).toBeNull();
      expectError(res, 413, 'payload_too_large', ['max_bytes']);
      expect(await listTotal(m.testKey)).toBe(0);
    });

    /** A valid create body with a key `extra` holding `levels` nested arrays. */
    function nestedBody(levels: number): string {
      const base = JSON.stringify(paymentBody());
      return `${base.slice(0, -1)},"extra":${'['.repeat(levels)}${']'.repeat(levels)}}`;
    }

    it('reads a body nested 64 levels deep (then refuses its key that is no field)', async () => {
      const m = await t.merchant();
      const res = await post(m, nestedBody(63), { 'Content-Type': 'application/json' });
      // Past the parser's depth limit: what is left is the unknown key, not the depth.
      expect(expectValidation(res)).toEqual({ extra: ['is not a field of this request'] });
    });

    it.each([
      ['without', {}],
      ['with', { 'Idempotency-Key': 'deeply-nested-body' }],
    ])('refuses a body nested deeper than 64 levels %s Idempotency-Key with 422, not a 500', async (_label, extra) => {
      const m = await t.merchant();
      for (const levels of [64, 30_000]) {
        const res = await post(m, nestedBody(levels), { 'Content-Type': 'application/json', ...extra });
        expect(expectValidation(res)).toEqual({ body: ['must not nest arrays or objects more than 64 levels deep'] });
      }
      expect(await listTotal(m.testKey)).toBe(0);
    });

    it('answers 404 not_found to an unknown route', async () => {
      const m = await t.merchant();
      for (const path of ['/api/v1/paymentz', '/api/v2/payments', '/api/v1/payments/x/y/z', '/nothing-here']) {
        expectError(await t.call('GET', path, { key: m.testKey }), 404, 'not_found');
      }
      expectError(await t.call('POST', '/api/v1/paymentz', { key: m.testKey, body: paymentBody() }), 404, 'not_found');
    });

    it.each([
      ['DELETE', '/api/v1/payments', ['GET', 'POST']],
      ['PUT', '/api/v1/payments', ['GET', 'POST']],
      ['PATCH', '/api/v1/payments/0190b1a2-3c4d-7e5f-8a9b-0c1d2e3f4a5b', ['GET']],
      ['POST', '/api/v1/orders/order-1/payment', ['GET']],
    ])('answers 405 method_not_allowed with Allow to %s %s', async (method, path, allowed) => {
      const m = await t.merchant();
      const res = await t.call(method, path, { key: m.testKey });
      expectError(res, 405, 'method_not_allowed');
      const allow = (res.headers.get('allow') ?? '').split(',').map((s) => s.trim());
      for (const name of allowed) expect(allow).toContain(name);
      expect(allow).not.toContain(method);
    });

    it('points every docs_url at a section of the errors page', async () => {
      const page = await fetch(`${t.url}/docs/errors`);
      expect(page.status).toBe(200);
      const html = await page.text();
      for (const code of [
        'validation_failed',
        'invalid_json',
        'unsupported_media_type',
        'payload_too_large',
        'not_found',
        'method_not_allowed',
        'domain_not_registered',
        'domain_mismatch',
        'amount_limit_exceeded',
        'no_payment_method_configured',
      ]) {
        expect(html).toContain(`id="${code}"`);
      }
    });
  });

  describe('domains with a test key', () => {
    it('binds to the hosted domain and returns the buyer anywhere, localhost included', async () => {
      const m = await t.merchant();
      const res = await create(
        m.testKey,
        paymentBody({
          return_url: 'http://localhost:3000/done',
          cancel_url: 'http://127.0.0.1:8080/cancel',
          callback_url: 'https://somebody-else.example.com/hook',
        }),
      );
      expect(res.status, res.text).toBe(201);
      expect(await boundHost(res.body.uuid as string)).toBe(m.hostedDomain);
    });

    it('binds to a verified domain of the merchant named by the domain field', async () => {
      const host = uniqueHost();
      const m = await t.merchant({ domains: [host], verifyDomains: true });
      const res = await create(m.testKey, paymentBody({ domain: host }));
      expect(res.status, res.text).toBe(201);
      expect(await boundHost(res.body.uuid as string)).toBe(host);
    });

    it('binds to the verified domain of the Origin header', async () => {
      const host = uniqueHost();
      const m = await t.merchant({ domains: [host], verifyDomains: true });
      const res = await create(m.testKey, paymentBody(), { Origin: `https://www.${host}` });
      expect(res.status, res.text).toBe(201);
      expect(await boundHost(res.body.uuid as string)).toBe(host);
    });

    it('falls back to the hosted domain when the named domain is not a verified domain of the merchant', async () => {
      const unverified = uniqueHost();
      const m = await t.merchant({ domains: [unverified] });
      const other = await t.liveMerchant(uniqueHost());
      const otherHost = (
        await t.gateway.deps.db
          .selectFrom('domains')
          .select('host')
          .where('merchant_id', '=', other.merchantId)
          .where('hosted', '=', 0)
          .executeTakeFirstOrThrow()
      ).host;
      for (const domain of [unverified, uniqueHost('unknown'), otherHost]) {
        const res = await create(m.testKey, paymentBody({ domain, return_url: `https://${domain}/done` }));
        expect(res.status, res.text).toBe(201);
        expect(await boundHost(res.body.uuid as string)).toBe(m.hostedDomain);
      }
    });

    it('refuses nothing for the domain of a live merchant test key either', async () => {
      const host = uniqueHost();
      const m = await t.liveMerchant(host);
      const res = await create(m.testKey, paymentBody({ return_url: 'http://localhost/done' }), {
        Origin: 'https://unrelated.example.com',
      });
      expect(res.status, res.text).toBe(201);
      expect(res.body.livemode).toBe(false);
    });
  });

  describe('domains with a live key', () => {
    it('takes the domain from return_url when neither Origin nor domain is sent', async () => {
      const host = uniqueHost();
      const m = await t.liveMerchant(host);
      const res = await create(m.liveKey, paymentBody({ return_url: `https://${host}/done` }));
      expect(res.status, res.text).toBe(201);
      expect(await boundHost(res.body.uuid as string)).toBe(host);
    });

    it('accepts URLs on subdomains of the verified domain', async () => {
      const host = uniqueHost();
      const m = await t.liveMerchant(host);
      const res = await create(
        m.liveKey,
        paymentBody({
          return_url: `https://www.${host}/done`,
          cancel_url: `https://shop.eu.${host}/cart`,
          callback_url: `https://hooks.${host}/payments`,
        }),
      );
      expect(res.status, res.text).toBe(201);
      expect(await boundHost(res.body.uuid as string)).toBe(host);
    });

    it('accepts the Origin header of the verified domain or of its subdomain', async () => {
      const host = uniqueHost();
      const m = await t.liveMerchant(host);
      for (const origin of [`https://${host}`, `https://www.${host}:8443`]) {
        const res = await create(m.liveKey, paymentBody({ return_url: `https://${host}/done` }), { Origin: origin });
        expect(res.status, res.text).toBe(201);
      }
    });

    it('lets the Origin header decide before the domain field and return_url', async () => {
      const host = uniqueHost();
      const m = await t.liveMerchant(host);
      const stranger = uniqueHost('stranger');
      const res = await create(m.liveKey, paymentBody({ return_url: `https://${host}/done` }), {
        Origin: `https://${stranger}`,
      });
      expectError(res, 403, 'domain_not_registered', ['domain']);
      expect(res.body.domain).toBe(stranger);
    });

    it('lets the domain field decide before return_url', async () => {
      const host = uniqueHost();
      const m = await t.liveMerchant(host);
      const stranger = uniqueHost('stranger');
      const res = await create(m.liveKey, paymentBody({ domain: stranger, return_url: `https://${host}/done` }));
      expectError(res, 403, 'domain_not_registered', ['domain']);
      expect(res.body.domain).toBe(stranger);
    });

    it('skips the documentation origin as Origin, so the body decides', async () => {
      const host = uniqueHost();
      const m = await t.liveMerchant(host);
      const docsOrigin = new URL(PUBLIC_URL).origin;
      const ok = await create(m.liveKey, paymentBody({ return_url: `https://${host}/done` }), { Origin: docsOrigin });
      expect(ok.status, ok.text).toBe(201);
      const stranger = uniqueHost('stranger');
      const refused = await create(m.liveKey, paymentBody({ domain: stranger, return_url: `https://${host}/done` }), {
        Origin: docsOrigin,
      });
      expectError(refused, 403, 'domain_not_registered', ['domain']);
      expect(refused.body.domain).toBe(stranger);
    });

    it('skips an opaque Origin (null)', async () => {
      const host = uniqueHost();
      const m = await t.liveMerchant(host);
      const res = await create(m.liveKey, paymentBody({ return_url: `https://${host}/done` }), { Origin: 'null' });
      expect(res.status, res.text).toBe(201);
    });

    it('refuses a host that is no domain of the merchant with 403 domain_not_registered', async () => {
      const m = await t.liveMerchant(uniqueHost());
      const stranger = uniqueHost('stranger');
      const res = await create(m.liveKey, paymentBody({ return_url: `https://${stranger}/done` }));
      expectError(res, 403, 'domain_not_registered', ['domain']);
      expect(res.body.domain).toBe(stranger);
    });

    it('refuses a registered but unverified domain with 403 domain_not_registered', async () => {
      const m = await t.liveMerchant(uniqueHost());
      const pending = uniqueHost('pending');
      await addDomain(t.gateway.deps, { merchantId: m.merchantId, host: pending, verified: false });
      const res = await create(m.liveKey, paymentBody({ return_url: `https://${pending}/done` }));
      expectError(res, 403, 'domain_not_registered', ['domain']);
      expect(res.body.message).toContain('not verified');
    });

    it('takes a domain verified or a processor disabled into account at once', async () => {
      const home = uniqueHost();
      const m = await t.liveMerchant(home);
      const later = uniqueHost('later');
      await addDomain(t.gateway.deps, { merchantId: m.merchantId, host: later, verified: false });
      // A first payment reads (and caches) the merchant's domains.
      expect((await create(m.liveKey, paymentBody({ return_url: `https://${home}/done` }))).status).toBe(201);
      expect((await create(m.liveKey, paymentBody({ return_url: `https://${later}/done` }))).status).toBe(403);

      await addDomain(t.gateway.deps, { merchantId: m.merchantId, host: later, verified: true });
      await enableLiveProcessor(t.gateway.deps, m.merchantId, later);
      expect((await create(m.liveKey, paymentBody({ return_url: `https://${later}/done` }))).status).toBe(201);

      await setProcessorEnabled(t.gateway.deps, {
        merchantId: m.merchantId,
        host: later,
        processor: 'idram',
        enabled: false,
      });
      const refused = await create(m.liveKey, paymentBody({ return_url: `https://${later}/done` }));
      expect(refused.status).toBe(422);
      expect(refused.body.error).toBe('no_payment_method_configured');
    });

    it("refuses another merchant's verified domain with 403 domain_not_registered", async () => {
      const theirs = uniqueHost('theirs');
      await t.liveMerchant(theirs);
      const m = await t.liveMerchant(uniqueHost());
      const res = await create(m.liveKey, paymentBody({ return_url: `https://${theirs}/done` }));
      expectError(res, 403, 'domain_not_registered', ['domain']);
    });

    it('refuses a localhost return_url with 403 domain_not_registered when it decides the domain', async () => {
      const m = await t.liveMerchant(uniqueHost());
      const res = await create(m.liveKey, paymentBody({ return_url: 'http://localhost:3000/done' }));
      expectError(res, 403, 'domain_not_registered', ['domain']);
      expect(res.body.domain).toBe('localhost');
    });

    it.each([
      ['return_url', (h: string) => `http://localhost:3000/done?shop=${h}`],
      ['return_url', (h: string) => `https://evil${h}/done`],
      ['cancel_url', (h: string) => `https://${h}.evil.com/cart`],
      ['cancel_url', () => 'http://127.0.0.1/cart'],
      ['callback_url', (h: string) => `https://hooks.${h}.evil.com/hook`],
      ['callback_url', () => 'https://hooks.example.com/pay'],
    ])('refuses %s off the verified domains with 403 domain_mismatch (%#)', async (field, url) => {
      const host = uniqueHost();
      const m = await t.liveMerchant(host);
      const res = await create(
        m.liveKey,
        paymentBody({ domain: host, return_url: `https://${host}/done`, [field]: url(host) }),
      );
      expectError(res, 403, 'domain_mismatch', ['field']);
      expect(res.body.field).toBe(field);
    });

    it('accepts URLs on any verified domain of the merchant', async () => {
      const host = uniqueHost();
      const m = await t.liveMerchant(host);
      const second = uniqueHost('second');
      await addDomain(t.gateway.deps, { merchantId: m.merchantId, host: second, verified: true });
      const res = await create(
        m.liveKey,
        paymentBody({ return_url: `https://${host}/done`, callback_url: `https://${second}/hook` }),
      );
      expect(res.status, res.text).toBe(201);
      expect(await boundHost(res.body.uuid as string)).toBe(host);
    });

    it('refuses a domain field that disagrees with the Origin with 403 domain_mismatch', async () => {
      const host = uniqueHost();
      const m = await t.liveMerchant(host);
      const second = uniqueHost('second');
      await addDomain(t.gateway.deps, { merchantId: m.merchantId, host: second, verified: true });
      const res = await create(m.liveKey, paymentBody({ domain: second, return_url: `https://${host}/done` }), {
        Origin: `https://${host}`,
      });
      expectError(res, 403, 'domain_mismatch', ['field']);
      expect(res.body.field).toBe('domain');
    });

    it('accepts a domain field naming the Origin domain or its subdomain', async () => {
      const host = uniqueHost();
      const m = await t.liveMerchant(host);
      for (const domain of [host, `www.${host}`, host.toUpperCase()]) {
        const res = await create(m.liveKey, paymentBody({ domain, return_url: `https://${host}/done` }), {
          Origin: `https://${host}`,
        });
        expect(res.status, res.text).toBe(201);
      }
    });

    it('refuses a live payment on a domain without any enabled processor with 422 no_payment_method_configured', async () => {
      const host = uniqueHost();
      const m = await t.liveMerchant(host);
      const bare = uniqueHost('bare');
      await addDomain(t.gateway.deps, { merchantId: m.merchantId, host: bare, verified: true });
      const res = await create(m.liveKey, paymentBody({ return_url: `https://${bare}/done` }));
      expectError(res, 422, 'no_payment_method_configured', ['domain', 'enabled_processors']);
      expect(res.body).toMatchObject({ domain: bare, enabled_processors: [] });
    });

    it('refuses a named processor that is disabled for the domain with 422 no_payment_method_configured', async () => {
      const host = uniqueHost();
      const m = await t.liveMerchant(host);
      await setProcessorEnabled(t.gateway.deps, {
        merchantId: m.merchantId,
        host,
        processor: 'sandbox',
        enabled: false,
      });
      const res = await create(m.liveKey, paymentBody({ processor: 'sandbox', return_url: `https://${host}/done` }));
      expectError(res, 422, 'no_payment_method_configured', ['domain', 'enabled_processors']);
      expect(res.body.domain).toBe(host);
    });

    it('checks the domain before the payment methods', async () => {
      const m = await t.liveMerchant(uniqueHost());
      const res = await create(m.liveKey, paymentBody({ return_url: `https://${uniqueHost('stranger')}/done` }));
      expectError(res, 403, 'domain_not_registered', ['domain']);
    });
  });

  describe('the amount limit', () => {
    it('accepts 5,000,000 AMD and refuses 5,000,001 with 422 amount_limit_exceeded', async () => {
      const host = uniqueHost();
      const m = await t.liveMerchant(host);
      for (const key of [m.testKey, m.liveKey]) {
        const ok = await create(key, paymentBody({ amount: 5_000_000, return_url: `https://${host}/done` }));
        expect(ok.status, ok.text).toBe(201);
        expect(ok.body.amount).toBe(5_000_000);
        const refused = await create(key, paymentBody({ amount: 5_000_001, return_url: `https://${host}/done` }));
        expectError(refused, 422, 'amount_limit_exceeded', ['max_amount']);
        expect(refused.body.max_amount).toBe(5_000_000);
      }
    });

    it('answers a whole number of AMD as a JSON integer on both databases', async () => {
      const m = await t.merchant();
      const res = await create(m.testKey, paymentBody({ amount: 4_999_999 }));
      expect(res.status).toBe(201);
      expect(res.text).toContain('"amount":4999999');
      expect(res.text).toContain('"refunded_amount":0');
    });
  });

  describe('the order rule', () => {
    it('refuses a second payment for an order with a pending payment', async () => {
      const m = await t.merchant();
      const first = await create(m.testKey, paymentBody({ order_id: 'order-twice' }));
      expect(first.status).toBe(201);
      const second = await create(m.testKey, paymentBody({ order_id: 'order-twice', amount: 1 }));
      const errors = expectValidation(second);
      expect(Object.keys(errors)).toEqual(['order_id']);
      expect(errors.order_id?.[0]).toContain('already has a pending, processing or completed payment');

      const order = await t.call('GET', '/api/v1/orders/order-twice/payment', { key: m.testKey });
      expect(order.body).toEqual(first.body);
      expect(await listTotal(m.testKey)).toBe(1);
    });

    it.each(['processing', 'completed'] as const)('refuses a new payment while one is %s', async (status) => {
      const m = await t.merchant();
      const first = await create(m.testKey, paymentBody({ order_id: `order-${status}` }));
      await setStatus(first.body.uuid as string, status);
      const errors = expectValidation(await create(m.testKey, paymentBody({ order_id: `order-${status}` })));
      expect(Object.keys(errors)).toEqual(['order_id']);
    });

    it.each(['failed', 'expired'] as const)('accepts a retry after the payment %s', async (status) => {
      const m = await t.merchant();
      const first = await create(m.testKey, paymentBody({ order_id: `retry-${status}` }));
      await setStatus(first.body.uuid as string, status);
      const retry = await create(m.testKey, paymentBody({ order_id: `retry-${status}` }));
      expect(retry.status, retry.text).toBe(201);
      expect(retry.body.uuid).not.toBe(first.body.uuid);
      expect(await listTotal(m.testKey)).toBe(2);
    });

    it('keeps the order ids of the two environments apart', async () => {
      const host = uniqueHost();
      const m = await t.liveMerchant(host);
      const body = paymentBody({ order_id: 'shared-order', return_url: `https://${host}/done` });
      const test = await create(m.testKey, body);
      const live = await create(m.liveKey, body);
      expect(test.status, test.text).toBe(201);
      expect(live.status, live.text).toBe(201);
      expectValidation(await create(m.testKey, body));
      expectValidation(await create(m.liveKey, body));
    });

    it('keeps the order ids of two merchants apart', async () => {
      const a = await t.merchant();
      const b = await t.merchant();
      expect((await create(a.testKey, paymentBody({ order_id: 'order-42' }))).status).toBe(201);
      expect((await create(b.testKey, paymentBody({ order_id: 'order-42' }))).status).toBe(201);
    });

    it('creates exactly one payment when requests for one order arrive together', async () => {
      const m = await t.merchant();
      const results = await Promise.all(
        Array.from({ length: 6 }, () => create(m.testKey, paymentBody({ order_id: 'order-race' }))),
      );
      const statuses = results.map((r) => r.status).sort();
      expect(statuses).toEqual([201, 422, 422, 422, 422, 422]);
      for (const res of results.filter((r) => r.status === 422)) {
        expect(Object.keys(expectValidation(res))).toEqual(['order_id']);
      }
      expect(await storedCount(m.merchantId)).toBe(1);
    });
  });

  describe('refused requests write nothing', () => {
    it('leaves the list and the table unchanged after every kind of refusal', async () => {
      const host = uniqueHost();
      const m = await t.liveMerchant(host);
      const bare = uniqueHost('bare');
      await addDomain(t.gateway.deps, { merchantId: m.merchantId, host: bare, verified: true });
      const held = await create(m.liveKey, paymentBody({ order_id: 'held', return_url: `https://${host}/done` }));
      expect(held.status).toBe(201);
      const json = { 'Content-Type': 'application/json' };

      const refusals: Array<Promise<ApiResponse>> = [
        create(m.liveKey, paymentBody({ amount: 'lots', return_url: `https://${host}/done` })),
        create(m.liveKey, paymentBody({ amount: 5_000_001, return_url: `https://${host}/done` })),
        create(m.liveKey, paymentBody({ return_url: `https://${uniqueHost('stranger')}/done` })),
        create(
          m.liveKey,
          paymentBody({ return_url: `https://${host}/done`, callback_url: 'https://elsewhere.invalid/h' }),
        ),
        create(m.liveKey, paymentBody({ return_url: `https://${bare}/done` })),
        create(m.liveKey, paymentBody({ order_id: 'held', return_url: `https://${host}/done` })),
        create(m.testKey, paymentBody({ currency: 'USD' })),
        t.call('POST', '/api/v1/payments', { key: m.testKey, rawBody: '{"amount":', headers: json }),
        t.call('POST', '/api/v1/payments', { key: m.testKey, rawBody: JSON.stringify(paymentBody()) }),
        t.call('POST', '/api/v1/payments', { key: m.testKey, rawBody: 'x'.repeat(BODY_LIMIT + 10), headers: json }),
      ];
      const statuses = (await Promise.all(refusals)).map((r) => r.status);
      expect(statuses).toEqual([422, 422, 403, 403, 422, 422, 422, 400, 415, 413]);

      expect(await listTotal(m.liveKey)).toBe(1);
      expect(await listTotal(m.testKey)).toBe(0);
      expect(await storedCount(m.merchantId)).toBe(1);
    });
  });
});
