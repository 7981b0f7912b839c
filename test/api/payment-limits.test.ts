/**
 * Per-domain payment limits over HTTP on both databases (docs/decisions.md, "Payment limits"):
 * `amount_limit_exceeded` over the domain's largest amount (default: GATEWAY_MAX_PAYMENT_AMOUNT),
 * and `velocity_exceeded` over N payments per buyer per window on one domain (default 10 per 60
 * minutes, 0 = off), with the exact error bodies and the documented order of checks.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MINUTE_MS } from '../../gateway/domain/clock.js';
import { setDomainLimits } from '../../gateway/merchants/domain-limits.service.js';
import { DIALECTS } from '../support/databases.js';
import {
  type ApiResponse,
  expectErrorBody,
  PUBLIC_URL,
  paymentBody,
  startTestGateway,
  type TestGateway,
  uniqueHost,
} from '../support/gateway.js';

type Json = Record<string, unknown>;

const VELOCITY_KEYS = ['velocity_limit', 'velocity_window_minutes', 'retry_after'];

describe.each(DIALECTS)('payment limits on %s', (dialect) => {
  let t: TestGateway;
  beforeAll(async () => {
    t = await startTestGateway(dialect, { env: { GATEWAY_RATE_LIMIT_PER_MINUTE: '100000' } });
  });
  afterAll(async () => t?.close());

  const create = (key: string, body: Json, headers?: Record<string, string>) =>
    t.call('POST', '/api/v1/payments', { key, body, ...(headers ? { headers } : {}) });

  async function storedCount(merchantId: string): Promise<number> {
    const row = await t.gateway.deps.db
      .selectFrom('payments')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('merchant_id', '=', merchantId)
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  function expectError(res: ApiResponse, status: number, code: string, extraKeys: string[] = []): Json {
    const body = expectErrorBody(res, status, code, extraKeys);
    expect(body.request_id).toBe(res.headers.get('x-request-id'));
    expect(body.docs_url).toBe(`${PUBLIC_URL}/docs/errors#${code}`);
    return body as Json;
  }

  /** A test-key merchant with one more verified domain `host`, which test payments name to bind to. */
  async function merchantWithDomain() {
    const host = uniqueHost();
    const m = await t.merchant({ domains: [host], verifyDomains: true });
    return { ...m, host };
  }

  describe('amount_limit_exceeded', () => {
    it('answers the default maximum (GATEWAY_MAX_PAYMENT_AMOUNT) on a domain that set none', async () => {
      const m = await merchantWithDomain();
      const ok = await create(m.testKey, paymentBody({ domain: m.host, amount: 5_000_000 }));
      expect(ok.status, ok.text).toBe(201);
      const refused = await create(m.testKey, paymentBody({ domain: m.host, amount: 5_000_001 }));
      const body = expectError(refused, 422, 'amount_limit_exceeded', ['max_amount']);
      expect(body.max_amount).toBe(5_000_000);
      expect(body.message).toBe('The amount is above the largest amount one payment may carry (5000000 AMD).');
    });

    it("applies a domain's lower maximum to that domain only, and returns to the default", async () => {
      const m = await merchantWithDomain();
      await setDomainLimits(t.gateway.deps, { merchantId: m.merchantId, host: m.host, maxAmount: 20_000 });

      expect((await create(m.testKey, paymentBody({ domain: m.host, amount: 20_000 }))).status).toBe(201);
      const refused = await create(m.testKey, paymentBody({ domain: m.host, amount: 20_001 }));
      const body = expectError(refused, 422, 'amount_limit_exceeded', ['max_amount']);
      expect(body.max_amount).toBe(20_000);
      expect(body.message).toBe(
        `The amount is above the largest amount one payment may carry on ${m.host} (20000 AMD).`,
      );
      // The hosted domain of the same account keeps the default.
      expect((await create(m.testKey, paymentBody({ amount: 20_001 }))).status).toBe(201);

      await setDomainLimits(t.gateway.deps, { merchantId: m.merchantId, host: m.host, maxAmount: null });
      expect((await create(m.testKey, paymentBody({ domain: m.host, amount: 20_001 }))).status).toBe(201);
      expect(await storedCount(m.merchantId)).toBe(3);
    });

    it('applies to live keys as to test keys', async () => {
      const host = uniqueHost();
      const m = await t.liveMerchant(host);
      await setDomainLimits(t.gateway.deps, { merchantId: m.merchantId, host, maxAmount: 1_000 });
      const refused = await create(m.liveKey, paymentBody({ amount: 1_001, return_url: `https://${host}/done` }));
      expect(expectError(refused, 422, 'amount_limit_exceeded', ['max_amount']).max_amount).toBe(1_000);
      const ok = await create(m.liveKey, paymentBody({ amount: 1_000, return_url: `https://${host}/done` }));
      expect(ok.status, ok.text).toBe(201);
    });

    it('checks the service-wide maximum before the domain, and the domain before its own maximum', async () => {
      const host = uniqueHost();
      const m = await t.liveMerchant(host);
      await setDomainLimits(t.gateway.deps, { merchantId: m.merchantId, host, maxAmount: 1_000 });
      const stranger = `https://${uniqueHost('stranger')}/done`;
      expectError(
        await create(m.liveKey, paymentBody({ amount: 5_000_001, return_url: stranger })),
        422,
        'amount_limit_exceeded',
        ['max_amount'],
      );
      expectError(
        await create(m.liveKey, paymentBody({ amount: 2_000, return_url: stranger })),
        403,
        'domain_not_registered',
        ['domain'],
      );
    });
  });

  describe('velocity_exceeded', () => {
    it('allows 10 live payments per buyer per hour by default and answers the 11th with the limit and when to retry', async () => {
      const host = uniqueHost();
      const m = await t.liveMerchant(host);
      const live = (extra: Record<string, unknown>) => paymentBody({ return_url: `https://${host}/done`, ...extra });
      const emails = ['anna@example.am', 'Anna@Example.am', 'ANNA@EXAMPLE.AM'];
      for (let i = 0; i < 10; i += 1) {
        const res = await create(m.liveKey, live({ customer_email: emails[i % 3] }));
        expect(res.status, res.text).toBe(201);
      }
      const refused = await create(m.liveKey, live({ customer_email: 'anna@example.AM' }));
      const body = expectError(refused, 422, 'velocity_exceeded', VELOCITY_KEYS);
      expect(body).toMatchObject({ velocity_limit: 10, velocity_window_minutes: 60, retry_after: 3600 });
      expect(refused.headers.get('retry-after')).toBe('3600');
      expect(body.message).toBe(
        `This buyer (by customer_email) already has 10 payments on ${host} in the last 60 minutes, the most allowed. Another payment fits in 3600 seconds.`,
      );
      expect(refused.text.toLowerCase()).not.toContain('anna@');

      // Another buyer is not affected.
      expect((await create(m.liveKey, live({ customer_email: 'ben@example.am' }))).status).toBe(201);
      expect(await storedCount(m.merchantId)).toBe(11);
    });

    it('spares sandbox payments the default limit: test traffic reuses one test buyer', async () => {
      const m = await merchantWithDomain();
      for (let i = 0; i < 12; i += 1) {
        const res = await create(m.testKey, paymentBody({ domain: m.host, customer_email: 'anna@example.am' }));
        expect(res.status, res.text).toBe(201);
      }
      // A limit the domain sets itself applies to its sandbox payments too, so it can be tried.
      await setDomainLimits(t.gateway.deps, { merchantId: m.merchantId, host: m.host, velocityLimit: 12 });
      expectError(
        await create(m.testKey, paymentBody({ domain: m.host, customer_email: 'anna@example.am' })),
        422,
        'velocity_exceeded',
        VELOCITY_KEYS,
      );
    });

    it('counts over a sliding window: one more fits as soon as the oldest counted payment leaves it', async () => {
      const m = await merchantWithDomain();
      await setDomainLimits(t.gateway.deps, {
        merchantId: m.merchantId,
        host: m.host,
        velocityLimit: 3,
        velocityWindowMinutes: 10,
      });
      const buyer = { domain: m.host, customer_id: `cust-${Math.random()}` };
      for (const gap of [0, 2, 2]) {
        t.clock.advance(gap * MINUTE_MS);
        expect((await create(m.testKey, paymentBody(buyer))).status).toBe(201);
      }
      t.clock.advance(1 * MINUTE_MS); // 5 minutes after the first
      const first = expectError(await create(m.testKey, paymentBody(buyer)), 422, 'velocity_exceeded', VELOCITY_KEYS);
      expect(first).toMatchObject({ velocity_limit: 3, velocity_window_minutes: 10, retry_after: 300 });

      t.clock.advance(300_000 - 1_000);
      const almost = expectError(await create(m.testKey, paymentBody(buyer)), 422, 'velocity_exceeded', VELOCITY_KEYS);
      expect(almost.retry_after).toBe(1);

      t.clock.advance(1_000); // the first payment is now 10 minutes old: out of the window
      expect((await create(m.testKey, paymentBody(buyer))).status).toBe(201);
      const next = expectError(await create(m.testKey, paymentBody(buyer)), 422, 'velocity_exceeded', VELOCITY_KEYS);
      expect(next.retry_after).toBe(120); // the second payment leaves 12 minutes after the first
      expect(await storedCount(m.merchantId)).toBe(4);
    });

    it("identifies the buyer by the merchant's customer_id first, else by the email", async () => {
      const m = await merchantWithDomain();
      await setDomainLimits(t.gateway.deps, { merchantId: m.merchantId, host: m.host, velocityLimit: 2 });
      const ok = async (body: Json) =>
        expect((await create(m.testKey, paymentBody({ domain: m.host, ...body }))).status).toBe(201);
      // One customer id with different emails is one buyer.
      await ok({ customer_id: 'c-1', customer_email: 'one@example.am' });
      await ok({ customer_id: 'c-1', customer_email: 'two@example.am' });
      const refused = await create(
        m.testKey,
        paymentBody({ domain: m.host, customer_id: 'c-1', customer_email: 'three@example.am' }),
      );
      expect(expectError(refused, 422, 'velocity_exceeded', VELOCITY_KEYS).message).toContain('(by customer_id)');
      // The email of that buyer, without a customer id, is counted apart; so is another customer id.
      await ok({ customer_email: 'one@example.am' });
      await ok({ customer_id: 'c-2', customer_email: 'one@example.am' });
      // An integer customer id is the same buyer as its string form.
      await ok({ customer_id: 42 });
      await ok({ customer_id: '42' });
      expectError(
        await create(m.testKey, paymentBody({ domain: m.host, customer_id: 42 })),
        422,
        'velocity_exceeded',
        VELOCITY_KEYS,
      );
    });

    it('does not limit payments that name no buyer', async () => {
      const m = await merchantWithDomain();
      await setDomainLimits(t.gateway.deps, { merchantId: m.merchantId, host: m.host, velocityLimit: 1 });
      for (let i = 0; i < 3; i += 1) {
        expect((await create(m.testKey, paymentBody({ domain: m.host }))).status).toBe(201);
      }
    });

    it('counts failed attempts too', async () => {
      const m = await merchantWithDomain();
      await setDomainLimits(t.gateway.deps, { merchantId: m.merchantId, host: m.host, velocityLimit: 2 });
      const buyer = { domain: m.host, customer_email: 'tester@example.am' };
      const declined = await create(m.testKey, paymentBody(buyer));
      const paid = await t.call('POST', `/api/v1/test_helpers/payments/${declined.body.uuid}/pay`, {
        key: m.testKey,
        body: { card_number: '4000 0000 0000 0002' },
      });
      expect(paid.body.status).toBe('failed');
      expect((await create(m.testKey, paymentBody(buyer))).status).toBe(201);
      expectError(await create(m.testKey, paymentBody(buyer)), 422, 'velocity_exceeded', VELOCITY_KEYS);
    });

    it('is off with a limit of 0, and follows the default again when reset', async () => {
      const host = uniqueHost();
      const m = await t.liveMerchant(host);
      const buyer = paymentBody({ return_url: `https://${host}/done`, customer_id: 'busy-buyer' });
      await setDomainLimits(t.gateway.deps, { merchantId: m.merchantId, host, velocityLimit: 0 });
      for (let i = 0; i < 12; i += 1) {
        const res = await create(m.liveKey, { ...buyer, order_id: `busy-${i}` });
        expect(res.status, res.text).toBe(201);
      }
      await setDomainLimits(t.gateway.deps, {
        merchantId: m.merchantId,
        host,
        velocityLimit: null,
        velocityWindowMinutes: null,
      });
      const refused = expectError(
        await create(m.liveKey, { ...buyer, order_id: 'busy-12' }),
        422,
        'velocity_exceeded',
        VELOCITY_KEYS,
      );
      expect(refused).toMatchObject({ velocity_limit: 10, velocity_window_minutes: 60 });
    });

    it('counts live payments and sandbox payments of one domain apart', async () => {
      const host = uniqueHost();
      const m = await t.liveMerchant(host);
      await setDomainLimits(t.gateway.deps, { merchantId: m.merchantId, host, velocityLimit: 1 });
      const buyer = { customer_id: 'both-worlds', return_url: `https://${host}/done` };
      expect((await create(m.liveKey, paymentBody(buyer))).status).toBe(201);
      expectError(await create(m.liveKey, paymentBody(buyer)), 422, 'velocity_exceeded', VELOCITY_KEYS);
      // A sandbox payment (processor sandbox with the live key, or a test key on the domain) is counted apart.
      expect((await create(m.liveKey, paymentBody({ ...buyer, processor: 'sandbox' }))).status).toBe(201);
      expectError(
        await create(m.testKey, paymentBody({ ...buyer, domain: host })),
        422,
        'velocity_exceeded',
        VELOCITY_KEYS,
      );
    });

    it('is checked before the order rule', async () => {
      const m = await merchantWithDomain();
      await setDomainLimits(t.gateway.deps, { merchantId: m.merchantId, host: m.host, velocityLimit: 1 });
      const body = paymentBody({ domain: m.host, customer_id: 'one-order' });
      expect((await create(m.testKey, body)).status).toBe(201);
      expectError(await create(m.testKey, body), 422, 'velocity_exceeded', VELOCITY_KEYS);
    });

    it('lets exactly the limit through when one buyer sends many requests at once', async () => {
      const m = await merchantWithDomain();
      await setDomainLimits(t.gateway.deps, { merchantId: m.merchantId, host: m.host, velocityLimit: 3 });
      const results = await Promise.all(
        Array.from({ length: 20 }, () => create(m.testKey, paymentBody({ domain: m.host, customer_id: 'racer' }))),
      );
      expect(results.map((r) => r.status).sort()).toEqual([...Array(3).fill(201), ...Array(17).fill(422)]);
      for (const res of results.filter((r) => r.status === 422)) {
        expectError(res, 422, 'velocity_exceeded', VELOCITY_KEYS);
      }
      expect(await storedCount(m.merchantId)).toBe(3);
    });

    it('releases the Idempotency-Key of a refused request, so the same request may be sent again later', async () => {
      const m = await merchantWithDomain();
      await setDomainLimits(t.gateway.deps, {
        merchantId: m.merchantId,
        host: m.host,
        velocityLimit: 1,
        velocityWindowMinutes: 1,
      });
      expect((await create(m.testKey, paymentBody({ domain: m.host, customer_id: 'k' }))).status).toBe(201);
      const body = paymentBody({ domain: m.host, customer_id: 'k' });
      const headers = { 'Idempotency-Key': `velocity-${Math.random()}` };
      expectError(await create(m.testKey, body, headers), 422, 'velocity_exceeded', VELOCITY_KEYS);
      t.clock.advance(MINUTE_MS);
      const retried = await create(m.testKey, body, headers);
      expect(retried.status, retried.text).toBe(201);
    });
  });
});
