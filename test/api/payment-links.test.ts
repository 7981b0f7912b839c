/**
 * Payment links (an addition, docs/api.md "Payment links"): create (amount or range, validation,
 * Idempotency-Key), list with the payments list's paging, read, deactivate, scoping, expiry on the
 * manual clock; the buyer's page on the hosted domain; and a single-use link under 20 concurrent
 * opens: one payment, at most one completed; payments started through reusable links limited per
 * address.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DAY_MS, HOUR_MS, MINUTE_MS, toStoredInstant } from '../../gateway/domain/clock.js';
import { LINK_PAYMENTS_PER_MINUTE } from '../../gateway/payment-links/buyer-link.service.js';
import { IDEMPOTENCY_LOCK_MS } from '../../gateway/payments/idempotency.js';
import { canonicalJson, sha256Hex } from '../../gateway/runtime/hashing.js';
import { claimIdempotencyKey } from '../../storage/idempotency-key.repository.js';
import { DIALECTS } from '../support/databases.js';
import {
  expectErrorBody,
  PUBLIC_URL,
  startTestGateway,
  type TestGateway,
  type TestMerchant,
} from '../support/gateway.js';

// biome-ignore lint/suspicious/noExplicitAny: JSON answers read field by field
type Json = Record<string, any>;

describe.each(DIALECTS)('payment links (%s)', (dialect) => {
  let t: TestGateway;

  beforeAll(async () => {
    t = await startTestGateway(dialect, { env: { GATEWAY_CLOCK: 'manual' } });
  });
  afterAll(async () => {
    await t?.close();
  });

  const create = (key: string, body: Json, headers: Record<string, string> = {}) =>
    t.call<Json>('POST', '/api/v1/payment_links', { key, body, headers });

  function expectValidation(res: { status: number; body: unknown; text: string }, field: string): void {
    const body = expectErrorBody(res as never, 422, 'validation_failed', ['errors']);
    expect(Object.keys(body.errors as Json)).toContain(field);
  }

  /** The buyer's page: its form token (from the page) and a POST of the form, not following redirects. */
  async function openPage(id: string): Promise<{ status: number; html: string; token: string }> {
    const res = await fetch(`${t.url}/l/${id}`);
    const html = await res.text();
    const token = /name="form_token" value="([^"]+)"/.exec(html)?.[1] ?? '';
    return { status: res.status, html, token };
  }

  async function pay(id: string, token: string, fields: Record<string, string> = {}) {
    const res = await fetch(`${t.url}/l/${id}`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ form_token: token, ...fields }).toString(),
      redirect: 'manual',
    });
    return { status: res.status, location: res.headers.get('location'), html: await res.text() };
  }

  async function linkPayments(id: string) {
    return t.gateway.deps.db
      .selectFrom('payment_link_payments as lp')
      .innerJoin('payments as p', 'p.id', 'lp.payment_id')
      .select(['p.id', 'p.status', 'p.order_id', 'p.amount', 'p.checkout_token'])
      .where('lp.link_id', '=', id)
      .execute();
  }

  async function payWithTestCard(m: TestMerchant, uuid: string, card = '4111 1111 1111 1111') {
    const paid = await t.call('POST', `/api/v1/test_helpers/payments/${uuid}/pay`, {
      key: m.testKey,
      body: { card_number: card },
    });
    expect(paid.status).toBe(200);
  }

  it('creates a fixed-amount link with a test key and reads it back', async () => {
    const m = await t.merchant();
    const res = await create(m.testKey, { amount: 5000, description: 'Yoga class' });
    expect(res.status, res.text).toBe(201);
    const link = res.body;
    expect(link.id).toMatch(/^plink_[A-Za-z0-9_-]{16}$/);
    expect(link).toMatchObject({
      object: 'payment_link',
      url: `${PUBLIC_URL}/l/${link.id}`,
      status: 'active',
      active: true,
      amount: 5000,
      amount_min: null,
      amount_max: null,
      currency: 'AMD',
      description: 'Yoga class',
      reusable: false,
      expires_at: null,
      livemode: false,
      payments_count: 0,
      completed_payments_count: 0,
    });
    const read = await t.call<Json>('GET', `/api/v1/payment_links/${link.id}`, { key: m.testKey });
    expect(read.status).toBe(200);
    expect(read.body).toMatchObject({ id: link.id, status: 'active', payments: [] });
  });

  it('refuses bad amounts and ranges with 422 naming the field', async () => {
    const m = await t.merchant();
    expectValidation(await create(m.testKey, {}), 'amount');
    expectValidation(await create(m.testKey, { amount: 0 }), 'amount');
    expectValidation(await create(m.testKey, { amount: 10.5 }), 'amount');
    expectValidation(await create(m.testKey, { amount: '100' }), 'amount');
    expectValidation(await create(m.testKey, { amount: 100, amount_min: 1, amount_max: 5 }), 'amount');
    expectValidation(await create(m.testKey, { amount_min: 100 }), 'amount_max');
    expectValidation(await create(m.testKey, { amount_max: 100 }), 'amount_min');
    expectValidation(await create(m.testKey, { amount_min: 500, amount_max: 100 }), 'amount_max');
    expectValidation(await create(m.testKey, { amount: 100, reusable: 'yes' }), 'reusable');
    expectValidation(await create(m.testKey, { amount: 100, expires_at: 'tomorrow' }), 'expires_at');
    expectValidation(await create(m.testKey, { amount: 100, expires_at: '2020-01-01T00:00:00Z' }), 'expires_at');
    expectValidation(await create(m.testKey, { amount: 100, description: 'x'.repeat(501) }), 'description');
    const ranged = await create(m.testKey, { amount_min: 1000, amount_max: 20000, reusable: true });
    expect(ranged.status).toBe(201);
    expect(ranged.body).toMatchObject({ amount: null, amount_min: 1000, amount_max: 20000, reusable: true });
  });

  it('replays a create with the same Idempotency-Key and refuses the key with another body', async () => {
    const m = await t.merchant();
    const headers = { 'Idempotency-Key': `plink-${Math.random()}` };
    const first = await create(m.testKey, { amount: 700 }, headers);
    expect(first.status).toBe(201);
    const again = await create(m.testKey, { amount: 700 }, headers);
    expect(again.status).toBe(200);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.body.id).toBe(first.body.id);
    expectValidation(await create(m.testKey, { amount: 800 }, headers), 'Idempotency-Key');
    const listed = await t.call<Json>('GET', '/api/v1/payment_links', { key: m.testKey });
    expect(listed.body.meta.total).toBe(1);
  });

  it('answers 409 conflict while the first create with the key is still running', async () => {
    const m = await t.merchant();
    const body = { amount: 650 };
    const nowMs = t.clock.nowMs();
    const claimed = await claimIdempotencyKey(t.gateway.deps.db, {
      id: randomUUID(),
      merchant_id: m.merchantId,
      environment: 'test',
      scope: 'payment_links.create',
      idempotency_key: 'plink-in-flight',
      request_hash: sha256Hex(canonicalJson(body)),
      state: 'processing',
      response_status: null,
      response_body: null,
      locked_until: toStoredInstant(nowMs + IDEMPOTENCY_LOCK_MS),
      created_at: toStoredInstant(nowMs),
      expires_at: toStoredInstant(nowMs + DAY_MS),
    });
    expect(claimed).toBe(true);
    const res = await create(m.testKey, body, { 'Idempotency-Key': 'plink-in-flight' });
    expectErrorBody(res, 409, 'conflict');
    expect(res.headers.get('Retry-After')).toBe('1');
    const listed = await t.call<Json>('GET', '/api/v1/payment_links', { key: m.testKey });
    expect(listed.body.meta.total).toBe(0);
  });

  it('lets a payments-only key create, read and deactivate links; no key is 401', async () => {
    const m = await t.merchant();
    const paymentsOnly = await t.key(m.merchantId, 'test', 'payments');
    const made = await create(paymentsOnly, { amount: 300 });
    expect(made.status).toBe(201);
    expect((await t.call('GET', `/api/v1/payment_links/${made.body.id}`, { key: paymentsOnly })).status).toBe(200);
    expect((await t.call('GET', '/api/v1/payment_links', { key: paymentsOnly })).status).toBe(200);
    const off = await t.call<Json>('POST', `/api/v1/payment_links/${made.body.id}/deactivate`, { key: paymentsOnly });
    expect(off.status).toBe(200);
    expectErrorBody(await t.call('GET', '/api/v1/payment_links'), 401, 'missing_credentials');
  });

  it('lists newest first with the payments list paging shape; 422 on bad parameters', async () => {
    const m = await t.merchant();
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) {
      ids.push((await create(m.testKey, { amount: 100 + i })).body.id);
      t.clock.advance(1000);
    }
    const page1 = await t.call<Json>('GET', '/api/v1/payment_links?per_page=2', { key: m.testKey });
    expect(page1.status).toBe(200);
    expect(page1.body.data.map((l: Json) => l.id)).toEqual([ids[2], ids[1]]);
    expect(page1.body.meta).toMatchObject({ current_page: 1, last_page: 2, per_page: 2, total: 3, from: 1, to: 2 });
    expect(page1.body.links.next).toBe(`${PUBLIC_URL}/api/v1/payment_links?per_page=2&page=2`);
    const page2 = await t.call<Json>('GET', '/api/v1/payment_links?per_page=2&page=2', { key: m.testKey });
    expect(page2.body.data.map((l: Json) => l.id)).toEqual([ids[0]]);
    expectValidation(await t.call('GET', '/api/v1/payment_links?per_page=0', { key: m.testKey }), 'per_page');
    expectValidation(await t.call('GET', '/api/v1/payment_links?page=x', { key: m.testKey }), 'page');
  });

  it("answers 404 for another merchant's link and for the other environment", async () => {
    const a = await t.merchant();
    const b = await t.merchant();
    const link = (await create(a.testKey, { amount: 100 })).body;
    expectErrorBody(await t.call('GET', `/api/v1/payment_links/${link.id}`, { key: b.testKey }), 404, 'not_found');
    expectErrorBody(
      await t.call('POST', `/api/v1/payment_links/${link.id}/deactivate`, { key: b.testKey }),
      404,
      'not_found',
    );
    expectErrorBody(await t.call('GET', '/api/v1/payment_links/plink_nothing', { key: a.testKey }), 404, 'not_found');
    const live = await t.liveMerchant(`links-${Math.random().toString(36).slice(2, 8)}.am`);
    const testLink = (await create(live.testKey, { amount: 100 })).body;
    expectErrorBody(
      await t.call('GET', `/api/v1/payment_links/${testLink.id}`, { key: live.liveKey }),
      404,
      'not_found',
    );
    const liveLink = await create(live.liveKey, { amount: 100 });
    expect(liveLink.status).toBe(201);
    expect(liveLink.body.livemode).toBe(true);
    const listed = await t.call<Json>('GET', '/api/v1/payment_links', { key: live.liveKey });
    expect(listed.body.data.map((l: Json) => l.id)).toEqual([liveLink.body.id]);
  });

  it('a deactivated link refuses the buyer (410); deactivating again changes nothing', async () => {
    const m = await t.merchant();
    const link = (await create(m.testKey, { amount: 100 })).body;
    const { token } = await openPage(link.id);
    const off = await t.call<Json>('POST', `/api/v1/payment_links/${link.id}/deactivate`, { key: m.testKey });
    expect(off.body).toMatchObject({ status: 'inactive', active: false });
    expect(off.body.deactivated_at).not.toBeNull();
    const again = await t.call<Json>('POST', `/api/v1/payment_links/${link.id}/deactivate`, { key: m.testKey });
    expect(again.body.deactivated_at).toBe(off.body.deactivated_at);
    expect((await openPage(link.id)).status).toBe(410);
    expect((await pay(link.id, token)).status).toBe(410);
    expect(await linkPayments(link.id)).toEqual([]);
  });

  it('expires at expires_at on the manual clock', async () => {
    const m = await t.merchant();
    const expiresAt = new Date(t.clock.nowMs() + HOUR_MS).toISOString().replace(/\.\d{3}Z$/, 'Z');
    const link = (await create(m.testKey, { amount: 100, expires_at: expiresAt })).body;
    expect(link.expires_at).toBe(expiresAt.replace(/Z$/, '+00:00'));
    const open = await openPage(link.id);
    expect(open.status).toBe(200);
    // The buyer reads the expiry in Yerevan time (UTC+4, four hours ahead of the API's UTC), with
    // the zone named, in the page's language.
    const utc = new Date(Date.parse(expiresAt) + 4 * HOUR_MS).toISOString();
    const yerevan = utc.slice(11, 16);
    const until = /data-testid="valid-until">([^<]+)</.exec(open.html)?.[1] ?? '';
    expect(until).toMatch(/^You can pay with this link until .+ GMT\+4\.$/);
    const russian = await (await fetch(`${t.url}/l/${link.id}?lang=ru`)).text();
    expect(russian).toContain(`в ${yerevan} GMT+4.</p>`);
    expect(russian).toContain('data-testid="valid-until">Оплатить по этой ссылке можно до ');
    t.clock.advance(HOUR_MS);
    const read = await t.call<Json>('GET', `/api/v1/payment_links/${link.id}`, { key: m.testKey });
    expect(read.body).toMatchObject({ status: 'expired', active: false });
    expect((await openPage(link.id)).status).toBe(410);
  });

  it('the buyer pays a single-use link once; then it is completed and refuses', async () => {
    const m = await t.merchant();
    const link = (await create(m.testKey, { amount: 2500, description: 'Consultation' })).body;
    const page = await openPage(link.id);
    expect(page.status).toBe(200);
    expect(page.html).toContain('Consultation');
    expect(page.html).toContain('AMD\u00a02,500');
    expect(page.html).not.toContain('data-testid="valid-until"');
    const first = await pay(link.id, page.token);
    expect(first.status).toBe(303);
    expect(first.location).toMatch(new RegExp(`^${PUBLIC_URL}/checkout/`));
    // Opening again while the attempt is open resumes the same payment.
    const second = await pay(link.id, page.token);
    expect(second.location).toBe(first.location);
    const [payment] = await linkPayments(link.id);
    expect(payment).toMatchObject({ order_id: link.id, amount: 2500, status: 'pending' });
    await payWithTestCard(m, payment?.id as string);
    const read = await t.call<Json>('GET', `/api/v1/payment_links/${link.id}`, { key: m.testKey });
    expect(read.body).toMatchObject({ status: 'completed', payments_count: 1, completed_payments_count: 1 });
    expect(read.body.payments).toEqual([expect.objectContaining({ uuid: payment?.id, status: 'completed' })]);
    const refused = await pay(link.id, page.token);
    expect(refused.status).toBe(410);
    expect(refused.html).toContain('already been paid');
    const thanks = await fetch(`${t.url}/l/${link.id}/thanks?payment_uuid=${payment?.id}&order_id=${link.id}`);
    expect(await thanks.text()).toContain('Thank you');
  });

  it('a failed attempt frees a single-use link for another', async () => {
    const m = await t.merchant();
    const link = (await create(m.testKey, { amount: 900 })).body;
    const { token } = await openPage(link.id);
    await pay(link.id, token);
    const [first] = await linkPayments(link.id);
    await payWithTestCard(m, first?.id as string, '4000 0000 0000 0002');
    const again = await pay(link.id, token);
    expect(again.status).toBe(303);
    const payments = await linkPayments(link.id);
    expect(payments).toHaveLength(2);
    expect(payments.filter((p) => p.status === 'pending')).toHaveLength(1);
  });

  it('a ranged reusable link takes the amount the buyer enters, within the range, and numbers its payments', async () => {
    const m = await t.merchant();
    const link = (await create(m.testKey, { amount_min: 1000, amount_max: 5000, reusable: true })).body;
    const page = await openPage(link.id);
    expect(page.html).toContain('name="amount"');
    expect((await pay(link.id, page.token, { amount: '999' })).status).toBe(422);
    expect((await pay(link.id, page.token, { amount: '5001' })).status).toBe(422);
    expect((await pay(link.id, page.token, { amount: 'abc' })).status).toBe(422);
    expect((await pay(link.id, page.token, { amount: '1500' })).status).toBe(303);
    expect((await pay(link.id, page.token, { amount: '5000' })).status).toBe(303);
    const payments = await linkPayments(link.id);
    expect(payments.map((p) => p.order_id).sort()).toEqual([`${link.id}-1`, `${link.id}-2`]);
    expect(payments.map((p) => p.amount).sort()).toEqual([1500, 5000]);
    for (const p of payments) await payWithTestCard(m, p.id);
    const read = await t.call<Json>('GET', `/api/v1/payment_links/${link.id}`, { key: m.testKey });
    expect(read.body).toMatchObject({ status: 'active', payments_count: 2, completed_payments_count: 2 });
  });

  it(`starts at most ${LINK_PAYMENTS_PER_MINUTE} payments a minute from one address through reusable links`, async () => {
    const m = await t.merchant();
    const link = (await create(m.testKey, { amount: 700, reusable: true })).body;
    const another = (await create(m.testKey, { amount: 800, reusable: true })).body;
    const single = (await create(m.testKey, { amount: 900 })).body;
    // From the start of a minute of its own (earlier tests opened links from this address too).
    t.clock.advance(MINUTE_MS - (t.clock.nowMs() % MINUTE_MS));
    const { token } = await openPage(link.id);
    for (let i = 0; i < LINK_PAYMENTS_PER_MINUTE; i++) expect((await pay(link.id, token)).status).toBe(303);

    const refused = await fetch(`${t.url}/l/${link.id}?lang=hy`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ form_token: token }).toString(),
      redirect: 'manual',
    });
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).toBe('60');
    expect(await refused.text()).toContain('Չափազանց շատ վճարումներ են սկսվել');
    // The limit is the address's, whatever the reusable link; a single-use link is not held by it.
    const other = await openPage(another.id);
    const held = await pay(another.id, other.token);
    expect(held.status).toBe(429);
    expect(held.html).toContain('Too many payments started');
    const once = await openPage(single.id);
    expect((await pay(single.id, once.token)).status).toBe(303);
    expect(await linkPayments(link.id)).toHaveLength(LINK_PAYMENTS_PER_MINUTE);
    expect(await linkPayments(another.id)).toHaveLength(0);

    t.clock.advance(MINUTE_MS);
    expect((await pay(another.id, other.token)).status).toBe(303);
    expect(await linkPayments(another.id)).toHaveLength(1);
  });

  it("a live link's payment is not offered the sandbox: a test card cannot pay it", async () => {
    const live = await t.liveMerchant(`live-links-${Math.random().toString(36).slice(2, 8)}.am`);
    const link = (await create(live.liveKey, { amount: 3000 })).body;
    const { token } = await openPage(link.id);
    const opened = await pay(link.id, token);
    expect(opened.status).toBe(303);
    const [payment] = await linkPayments(link.id);
    expect(payment).toMatchObject({ order_id: link.id, status: 'pending' });
    const checkoutUrl = (opened.location ?? '').replace(PUBLIC_URL, t.url);
    const checkout = await fetch(checkoutUrl);
    const html = await checkout.text();
    expect(html).not.toContain('value="sandbox"');
    expect(html).toContain('No payment method is available');
    const chosen = await fetch(`${checkoutUrl}/method`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        processor: 'sandbox',
        form_token: /name="form_token" value="([^"]+)"/.exec(html)?.[1] ?? '',
      }).toString(),
      redirect: 'manual',
    });
    expect(chosen.status).not.toBe(303);
  });

  it("speaks the checkout's languages and carries the choice to the checkout; a not-paid return says so", async () => {
    const m = await t.merchant();
    const link = (await create(m.testKey, { amount: 1000 })).body;
    const hy = await (await fetch(`${t.url}/l/${link.id}?lang=hy`)).text();
    expect(hy).toContain('<html lang="hy"');
    expect(hy).toContain('Վճարել');
    const ru = await fetch(`${t.url}/l/${link.id}`, { headers: { 'Accept-Language': 'ru-RU,ru;q=0.9' } });
    expect(await ru.text()).toContain('Оплатить');
    expect(ru.headers.get('content-security-policy')).toMatch(/default-src 'none'; script-src 'nonce-/);
    expect(ru.headers.get('x-frame-options')).toBe('DENY');
    const token = /name="form_token" value="([^"]+)"/.exec(hy)?.[1] ?? '';
    const res = await fetch(`${t.url}/l/${link.id}?lang=hy`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ form_token: token }).toString(),
      redirect: 'manual',
    });
    expect(res.headers.get('location')).toMatch(/\/checkout\/[^?]+\?lang=hy$/);
    const [payment] = await linkPayments(link.id);
    const back = await (await fetch(`${t.url}/l/${link.id}/thanks?payment_uuid=${payment?.id}`)).text();
    expect(back).toContain('The payment was not completed');
    expect(back).toContain(`href="/l/${link.id}"`);
  });

  it('refuses a form post without its form token (403)', async () => {
    const m = await t.merchant();
    const link = (await create(m.testKey, { amount: 100 })).body;
    expect((await pay(link.id, 'nope')).status).toBe(403);
    expect((await fetch(`${t.url}/l/plink_unknown`)).status).toBe(404);
  });

  it('20 concurrent opens of a single-use link create one payment, and at most one is completed', async () => {
    const m = await t.merchant();
    const link = (await create(m.testKey, { amount: 4200 })).body;
    const { token } = await openPage(link.id);
    const opens = await Promise.all(Array.from({ length: 20 }, () => pay(link.id, token)));
    expect(opens.map((o) => o.status)).toEqual(Array(20).fill(303));
    expect(new Set(opens.map((o) => o.location)).size).toBe(1);
    const payments = await linkPayments(link.id);
    expect(payments).toHaveLength(1);
    // Paying it while 20 more buyers open the link: still one payment, one completed.
    const [payment] = payments;
    const racing = Promise.all(Array.from({ length: 20 }, () => pay(link.id, token)));
    await payWithTestCard(m, payment?.id as string);
    const after = await racing;
    expect(after.every((o) => o.status === 303 || o.status === 410)).toBe(true);
    const final = await linkPayments(link.id);
    expect(final).toHaveLength(1);
    expect(final.filter((p) => p.status === 'completed')).toHaveLength(1);
    const late = await Promise.all(Array.from({ length: 20 }, () => pay(link.id, token)));
    expect(late.map((o) => o.status)).toEqual(Array(20).fill(410));
  });
});

describe('payment links on three instances sharing one PostgreSQL', () => {
  const instances: TestGateway[] = [];

  beforeAll(async () => {
    const first = await startTestGateway('postgres', { env: { GATEWAY_CLOCK: 'manual' } });
    instances.push(first);
    for (let i = 0; i < 2; i++) {
      instances.push(
        await startTestGateway('postgres', {
          env: { GATEWAY_CLOCK: 'manual' },
          databaseUrl: first.gateway.deps.config.databaseUrl,
        }),
      );
    }
  }, 120_000);
  afterAll(async () => {
    // The first instance drops the database: close it last.
    for (const instance of [...instances].reverse()) await instance.close();
  });

  it('21 concurrent opens of a single-use link across the instances create one payment', async () => {
    const [first] = instances as [TestGateway];
    const m = await first.merchant();
    const link = await first.call<Json>('POST', '/api/v1/payment_links', { key: m.testKey, body: { amount: 1200 } });
    expect(link.status).toBe(201);
    const id = link.body.id as string;
    const tokens = await Promise.all(
      instances.map(async (instance) => {
        const html = await (await fetch(`${instance.url}/l/${id}`)).text();
        return /name="form_token" value="([^"]+)"/.exec(html)?.[1] ?? '';
      }),
    );
    const opens = await Promise.all(
      Array.from({ length: 21 }, (_, i) =>
        fetch(`${instances[i % 3]?.url}/l/${id}`, {
          method: 'POST',
          headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
          body: new URLSearchParams({ form_token: tokens[i % 3] ?? '' }).toString(),
          redirect: 'manual',
        }),
      ),
    );
    expect(opens.map((o) => o.status)).toEqual(Array(21).fill(303));
    expect(new Set(opens.map((o) => o.headers.get('location'))).size).toBe(1);
    const payments = await first.gateway.deps.db
      .selectFrom('payment_link_payments')
      .select('payment_id')
      .where('link_id', '=', id)
      .execute();
    expect(payments).toHaveLength(1);
  });
});
