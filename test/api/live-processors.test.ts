/**
 * Live processors through the whole gateway, over real HTTP, against local fakes that speak each
 * processor's wire format (test/support/processors/): the settings sealed at rest, the checkout's
 * list, the handoff to the processor's page, the buyer paying or declining there, the processor's
 * callback read back (FastShift) or verified (Idram), the buyer's return, the poll job ending a
 * payment whose callback was lost, a confirmation after the gateway expired the payment, a
 * processor that cannot start the payment, refunds a processor cannot make, and the merchant's
 * signed webhook. The gateway listens on a port chosen in advance so that PUBLIC_URL is its real
 * origin: the fakes call it back there.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UNKNOWN_FIELD } from '../../gateway/api/schemas/validation.js';
import { MINUTE_MS } from '../../gateway/domain/clock.js';
import { createApiKey } from '../../gateway/merchants/api-keys.service.js';
import { setProcessorEnabled } from '../../gateway/merchants/domain-processors.service.js';
import { addDomain } from '../../gateway/merchants/domains.service.js';
import { POLL_AFTER_MS } from '../../gateway/payments/processor-polls.js';
import { DIALECTS } from '../support/databases.js';
import { paymentBody, type TestGateway, uniqueHost } from '../support/gateway.js';
import { FakeFastShift } from '../support/processors/fake-fastshift.js';
import { FakeIdram } from '../support/processors/fake-idram.js';
import { type FakeTelcell, startFakeTelcell } from '../support/processors/fake-telcell.js';
import {
  handoffHref,
  paymentEvents,
  processorSession,
  startLiveGateway,
  visit,
} from '../support/processors/live-gateway.js';
import { WebhookReceiver } from '../support/webhook-receiver.js';

type Json = Record<string, unknown>;

const IDRAM_ACCOUNT = '110000601';
const IDRAM_SECRET = 'idram-secret-key-for-tests';
const TELCELL_ISSUER = 'shop@yerevan-tea.example';
const TELCELL_KEY = 'telcell-shop-key-for-tests';

describe.each(DIALECTS)('live processors through the gateway (%s)', (dialect) => {
  let t: TestGateway;
  let fastshift: FakeFastShift;
  let idram: FakeIdram;
  let telcell: FakeTelcell;
  let receiver: WebhookReceiver;
  let liveKey: string;
  let host: string;
  let domainId: string;

  beforeAll(async () => {
    t = await startLiveGateway(dialect);
    receiver = await WebhookReceiver.start();
    fastshift = await FakeFastShift.start({ now: () => t.clock.nowMs() });
    idram = await FakeIdram.start({
      recAccount: IDRAM_ACCOUNT,
      secretKey: IDRAM_SECRET,
      resultUrl: `${t.url}/processors/idram/callback`,
      successUrl: `${t.url}/processors/idram/return`,
      failUrl: `${t.url}/processors/idram/return`,
    });
    telcell = await startFakeTelcell({
      shops: [
        {
          issuer: TELCELL_ISSUER,
          shopKey: TELCELL_KEY,
          resultUrl: `${t.url}/processors/telcell/callback`,
          redirectUrl: `${t.url}/processors/telcell/callback`,
        },
      ],
    });
    const deps = t.gateway.deps;
    const merchant = await t.merchant({ name: 'Yerevan Tea', verifyBusiness: true, unlimited: true });
    host = uniqueHost('tea');
    await addDomain(deps, {
      merchantId: merchant.merchantId,
      host,
      verified: true,
      webhookUrl: `${receiver.url}/hooks`,
    });
    const domain = await deps.db.selectFrom('domains').select('id').where('host', '=', host).executeTakeFirstOrThrow();
    domainId = domain.id;
    await setProcessorEnabled(deps, {
      merchantId: merchant.merchantId,
      host,
      processor: 'fastshift',
      enabled: true,
      config: JSON.stringify({ token: fastshift.token, base_url: fastshift.baseUrl }),
      position: 2,
    });
    await setProcessorEnabled(deps, {
      merchantId: merchant.merchantId,
      host,
      processor: 'idram',
      enabled: true,
      config: JSON.stringify({ rec_account: IDRAM_ACCOUNT, secret_key: IDRAM_SECRET, form_url: idram.formUrl }),
      position: 1,
    });
    await setProcessorEnabled(deps, {
      merchantId: merchant.merchantId,
      host,
      processor: 'telcell',
      enabled: true,
      config: JSON.stringify({ issuer: TELCELL_ISSUER, shop_key: TELCELL_KEY, base_url: telcell.baseUrl }),
      position: 3,
    });
    liveKey = (await createApiKey(deps, { merchantId: merchant.merchantId, environment: 'live', access: 'full' })).key;
  });

  afterAll(async () => {
    await t?.close();
    await fastshift?.close();
    await idram?.close();
    await telcell?.close();
    await receiver?.close();
  });

  async function create(overrides: Json = {}): Promise<Json> {
    const created = await t.call('POST', '/api/v1/payments', {
      key: liveKey,
      body: paymentBody({ return_url: `https://${host}/done`, order_id: `o-${randomUUID()}`, ...overrides }),
    });
    expect(created.status, created.text).toBe(201);
    return created.body;
  }

  async function read(uuid: unknown): Promise<Json> {
    const res = await t.call('GET', `/api/v1/payments/${String(uuid)}`, { key: liveKey });
    expect(res.status, res.text).toBe(200);
    return res.body;
  }

  const goHref = handoffHref;
  const session = (uuid: unknown) => processorSession(t, uuid);
  const eventsOf = async (uuid: unknown) => (await paymentEvents(t, uuid)).map(({ status }) => status);

  it('keeps each processor’s settings sealed and lists the enabled processors in their order, with their marks', async () => {
    const rows = await t.gateway.deps.db
      .selectFrom('domain_processors')
      .select(['processor', 'config'])
      .where('domain_id', '=', domainId)
      .execute();
    expect(rows.map((row) => row.processor).sort()).toEqual(['fastshift', 'idram', 'telcell']);
    const stored = rows.map((row) => String(row.config)).join('\n');
    expect(stored).not.toContain(fastshift.token);
    expect(stored).not.toContain(IDRAM_SECRET);
    expect(stored).not.toContain(TELCELL_KEY);
    expect(rows.filter((row) => row.processor !== 'sandbox').every((row) => String(row.config).startsWith('v1.'))).toBe(
      true,
    );

    const payment = await create();
    const page = await visit(String(payment.checkout_url));
    expect(page.status).toBe(200);
    const order = [...page.text.matchAll(/name="processor" value="([a-z]+)"/g)].map((m) => m[1]);
    expect(order).toEqual(['idram', 'fastshift', 'telcell']);
    expect(page.text).toMatch(/value="idram" required><span class="logo"><svg /);
    expect(page.text).toContain('FastShift');
  });

  describe('FastShift (redirect, unsigned webhook read back)', () => {
    it('hands the buyer over, completes on the webhook, brings the buyer back and signs the merchant’s webhook', async () => {
      const payment = await create({ processor: 'fastshift', redirect_mode: 'direct', amount: 2500 });
      const handoff = await visit(String(payment.checkout_url));
      expect(handoff.status).toBe(200);
      const href = goHref(handoff.text);
      expect(href.startsWith(fastshift.origin)).toBe(true);
      // FastShift gives its id of the order at registration: nothing waits for a callback to name it.
      expect(await read(payment.uuid)).toMatchObject({
        status: 'processing',
        processor: 'fastshift',
        awaiting_processor_reference: false,
      });
      const registered = await session(payment.uuid);
      expect(registered).toMatchObject({ processor: 'fastshift', order_number: payment.uuid });
      expect(registered?.reference).toEqual(expect.any(String));
      expect(fastshift.order(String(payment.uuid))?.amount).toBe(2500);

      const delivered = receiver.received.length;
      const back = await fastshift.press(href, 'pay');
      const paid = await read(payment.uuid);
      expect(paid).toMatchObject({ status: 'completed', processor: 'fastshift' });
      expect(paid.rrn).toBe(registered?.reference);

      // The browser comes back to the payment's own return address, then its page.
      expect(back.startsWith(`${t.url}/checkout/`)).toBe(true);
      const returned = await visit(back);
      expect(returned.status).toBe(303);
      expect(returned.location).toMatch(/\/checkout\/[^/]+$/);
      const result = await visit(String(returned.location));
      expect(result.text).toContain('data-status="ok"');

      await t.gateway.scheduler.runDueNow();
      const [hook] = (await receiver.waitFor(delivered + 1)).slice(delivered);
      expect(hook?.json).toMatchObject({ transaction: { uuid: payment.uuid, status: 'completed' } });
      expect(hook?.headers['x-service-signature']).toEqual(expect.any(String));
    });

    it('fails a payment the buyer declines, after reading the status back', async () => {
      const payment = await create({ processor: 'fastshift', redirect_mode: 'direct' });
      const href = goHref((await visit(String(payment.checkout_url))).text);
      await fastshift.press(href, 'decline');
      expect(await read(payment.uuid)).toMatchObject({ status: 'failed', processor: 'fastshift' });
    });

    it('ignores what an unsigned webhook says: a forged "completed" changes nothing', async () => {
      const payment = await create({ processor: 'fastshift', redirect_mode: 'direct' });
      await visit(String(payment.checkout_url));
      const forged = await fetch(`${t.url}/processors/fastshift/callback`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ order_number: payment.uuid, status: 'completed' }),
      });
      expect(forged.status).toBe(200);
      expect(await read(payment.uuid)).toMatchObject({ status: 'processing' });
    });

    it('answers a webhook naming no payment as FastShift expects, and an unknown processor with the spec’s 404', async () => {
      const unknown = await fetch(`${t.url}/processors/fastshift/callback`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ order_number: randomUUID(), status: 'completed' }),
      });
      expect(unknown.status).toBe(404);
      expect(await unknown.json()).toMatchObject({ status: 'NOT_FOUND' });
      const nowhere = await fetch(`${t.url}/processors/nowhere/callback`, { method: 'POST' });
      expect(nowhere.status).toBe(404);
      expect(await nowhere.json()).toMatchObject({ error: 'not_found' });
    });

    it('completes a payment whose webhook was lost when the poll job reads it back', async () => {
      const payment = await create({ processor: 'fastshift', redirect_mode: 'direct' });
      await visit(String(payment.checkout_url));
      await fastshift.settle(String(payment.uuid), 'completed', { webhook: false });
      expect(await read(payment.uuid)).toMatchObject({ status: 'processing' });
      t.clock.advance((POLL_AFTER_MS[0] ?? MINUTE_MS) + 1_000);
      await t.gateway.scheduler.runDueNow();
      expect(await read(payment.uuid)).toMatchObject({ status: 'completed' });
      expect(await session(payment.uuid)).toMatchObject({ next_check_at: null, checks: 1 });
    });

    it('completes late a payment confirmed after the gateway expired it, with both events', async () => {
      // FastShift's own order outlives the gateway's 20 minutes.
      fastshift.configure({ orderLifetimeMs: 60 * MINUTE_MS });
      const payment = await create({ processor: 'fastshift', redirect_mode: 'direct' });
      await visit(String(payment.checkout_url));
      t.clock.advance(21 * MINUTE_MS);
      await t.gateway.scheduler.runDueNow();
      expect(await read(payment.uuid)).toMatchObject({ status: 'expired' });
      // The buyer pays there now.
      const order = fastshift.order(String(payment.uuid));
      expect(order?.status).toBe('pending');
      await fastshift.settle(String(payment.uuid), 'completed', { webhook: false });
      t.clock.advance(10 * MINUTE_MS);
      await t.gateway.scheduler.runDueNow();
      expect(await read(payment.uuid)).toMatchObject({ status: 'completed' });
      expect(await eventsOf(payment.uuid)).toEqual(['expired', 'completed']);
    });

    it('leaves the payment pending and says so when FastShift cannot start it; the next try goes through', async () => {
      const payment = await create({ processor: 'fastshift', redirect_mode: 'direct' });
      fastshift.failNext({ kind: 'http500' });
      const refused = await visit(String(payment.checkout_url));
      expect(refused.status).toBe(503);
      expect(refused.text).toContain('This payment method is not available right now.');
      expect(await read(payment.uuid)).toMatchObject({ status: 'pending' });
      const again = await visit(String(payment.checkout_url));
      expect(again.status).toBe(200);
      expect(goHref(again.text).startsWith(fastshift.origin)).toBe(true);
    });

    it('refuses to refund a FastShift payment: 422 refund_not_supported', async () => {
      const payment = await create({ processor: 'fastshift', redirect_mode: 'direct' });
      await fastshift.press(goHref((await visit(String(payment.checkout_url))).text), 'pay');
      const refund = await t.call('POST', `/api/v1/payments/${String(payment.uuid)}/refund`, {
        key: liveKey,
        body: { amount: 100 },
      });
      expect(refund.status, refund.text).toBe(422);
      expect(refund.body.error).toBe('refund_not_supported');
    });
  });

  describe('Idram (form post, signed confirmation)', () => {
    async function handoffForm(payment: Json): Promise<{ action: string; fields: URLSearchParams; csp: string }> {
      const page = await visit(String(payment.checkout_url));
      expect(page.status).toBe(200);
      const action = /<form id="go" method="post" action="([^"]+)"/.exec(page.text)?.[1] ?? '';
      const fields = new URLSearchParams();
      for (const [, name, value] of page.text.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g)) {
        fields.append(String(name), String(value).replaceAll('&amp;', '&'));
      }
      return { action, fields, csp: page.csp };
    }

    /** The buyer's browser posts the form to Idram and presses a button there: where Idram sends it. */
    async function payAtIdram(form: { action: string; fields: URLSearchParams }, button: 'Pay' | 'Decline') {
      const shown = await fetch(form.action, {
        method: 'POST',
        headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
        body: form.fields.toString(),
      });
      const html = await shown.text();
      const visitId = /name="visit" value="([^"]+)"/.exec(html)?.[1];
      expect(visitId, html).toBeDefined();
      const pressed = await fetch(`${idram.url}/Payment/${button}`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ visit: String(visitId) }).toString(),
        redirect: 'manual',
      });
      return pressed.headers.get('location') ?? '';
    }

    it('posts the EDP_ form to Idram, completes on the signed confirmation and brings the buyer back', async () => {
      const payment = await create({ processor: 'idram', redirect_mode: 'direct', amount: 1900 });
      const form = await handoffForm(payment);
      expect(form.action).toBe(idram.formUrl);
      expect(form.csp).toContain(`form-action 'self' ${t.url} ${new URL(idram.formUrl).origin}`);
      expect(form.fields.get('EDP_REC_ACCOUNT')).toBe(IDRAM_ACCOUNT);
      expect(form.fields.get('EDP_AMOUNT')).toBe('1900');
      const billNo = form.fields.get('EDP_BILL_NO');
      expect(await session(payment.uuid)).toMatchObject({ processor: 'idram', order_number: billNo });

      const back = await payAtIdram(form, 'Pay');
      const paid = await read(payment.uuid);
      expect(paid).toMatchObject({ status: 'completed', processor: 'idram' });
      expect(paid.rrn).toBe(idram.visit(String(billNo))?.transId);
      expect(idram.visit(String(billNo))?.state).toBe('paid');

      // Idram's SUCCESS_URL is fixed per merchant: the gateway sends the buyer on to the payment.
      expect(back.startsWith(`${t.url}/processors/idram/return`)).toBe(true);
      const routed = await visit(back);
      expect(routed.status).toBe(303);
      expect(routed.location).toBe(`${String(payment.checkout_url)}/return`);
      const returned = await visit(String(routed.location));
      expect((await visit(String(returned.location))).text).toContain('data-status="ok"');
    });

    it('refuses the precheck of an expired payment, so Idram never takes the money', async () => {
      const payment = await create({ processor: 'idram', redirect_mode: 'direct' });
      const form = await handoffForm(payment);
      t.clock.advance(21 * MINUTE_MS);
      await payAtIdram(form, 'Pay');
      const billNo = String(form.fields.get('EDP_BILL_NO'));
      expect(idram.visit(billNo)?.state).toBe('precheck_refused');
      expect(await read(payment.uuid)).toMatchObject({ status: 'expired' });
    });

    it('changes nothing on a confirmation signed with another key, and refuses it so Idram cancels', async () => {
      const payment = await create({ processor: 'idram', redirect_mode: 'direct' });
      const form = await handoffForm(payment);
      idram.confirmationStyle.signWith = 'not-the-merchant-secret';
      try {
        await payAtIdram(form, 'Pay');
      } finally {
        idram.confirmationStyle.signWith = null;
      }
      const billNo = String(form.fields.get('EDP_BILL_NO'));
      expect(idram.visit(billNo)?.state).toBe('cancelled');
      expect(await read(payment.uuid)).toMatchObject({ status: 'processing', rrn: null });
    });

    it('refuses to refund an Idram payment: 422 refund_not_supported', async () => {
      const payment = await create({ processor: 'idram', redirect_mode: 'direct' });
      await payAtIdram(await handoffForm(payment), 'Pay');
      const refund = await t.call('POST', `/api/v1/payments/${String(payment.uuid)}/refund`, {
        key: liveKey,
        body: { amount: 100 },
      });
      expect(refund.status, refund.text).toBe(422);
      expect(refund.body.error).toBe('refund_not_supported');
    });
  });
  describe('Telcell (signed invoice form, signed callback read back with check_bill)', () => {
    /** The buyer's browser posts the handoff form to Telcell: the invoice it opened. */
    async function openInvoice(payment: Json): Promise<string> {
      const page = await visit(String(payment.checkout_url));
      expect(page.status).toBe(200);
      const action = /<form id="go" method="post" action="([^"]+)"/.exec(page.text)?.[1] ?? '';
      expect(action).toBe(telcell.baseUrl);
      expect(page.csp).toContain(new URL(telcell.baseUrl).origin);
      const fields = new URLSearchParams();
      for (const [, name, value] of page.text.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g)) {
        fields.append(String(name), String(value).replaceAll('&amp;', '&').replaceAll('&quot;', '"'));
      }
      const opened = await fetch(action, {
        method: 'POST',
        headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
        body: fields.toString(),
        redirect: 'manual',
      });
      expect([302, 303]).toContain(opened.status);
      const invoice = telcell.invoiceFor(String(payment.uuid).replaceAll('-', ''));
      expect(invoice?.price).toBe(Number(payment.amount));
      return String(invoice?.id);
    }

    it('completes on Telcell’s signed callback after reading the invoice back, and stores the invoice as the reference', async () => {
      const payment = await create({ processor: 'telcell', redirect_mode: 'direct', amount: 3000 });
      const invoiceId = await openInvoice(payment);
      // Until Telcell's callback names the invoice, the gateway cannot ask Telcell: the payment says so.
      expect(await read(payment.uuid)).toMatchObject({
        status: 'processing',
        processor: 'telcell',
        awaiting_processor_reference: true,
      });
      await telcell.pay(invoiceId);
      const paid = await read(payment.uuid);
      expect(paid).toMatchObject({ status: 'completed', processor: 'telcell', awaiting_processor_reference: false });
      expect(await session(payment.uuid)).toMatchObject({ reference: invoiceId });
    });

    it('a paid invoice whose callback was lost is not read (no invoice id), expires, and is settled with the invoice id the merchant gives', async () => {
      const payment = await create({ processor: 'telcell', redirect_mode: 'direct', amount: 3500 });
      const invoiceId = await openInvoice(payment);
      telcell.loseResults(true);
      try {
        await telcell.pay(invoiceId);
      } finally {
        telcell.loseResults(false);
      }
      // No callback: the gateway has no invoice id, so Telcell is not asked, and the buyer's return
      // page says what to do instead of leaving them to wait.
      const checks = telcell.requests.filter((r) => r.fields['check_bill:issuer'] !== undefined).length;
      // The buyer comes back (Telcell's REDIRECT_URL sends them on to the payment's return page).
      const orderNumber = String(payment.uuid).replaceAll('-', '');
      const redirected = await visit(`${t.url}/processors/telcell/callback?order=${orderNumber}`);
      expect(redirected.text).toContain(`${String(payment.checkout_url)}/return`);
      await visit(`${String(payment.checkout_url)}/return`);
      const waiting = await visit(String(payment.checkout_url));
      expect(waiting.text).toContain('data-status="processing"');
      expect(waiting.text).toContain('<h1>Confirming your payment</h1>');
      expect(waiting.text).toContain('Telcell Wallet has not yet told the shop whether you paid.');
      expect(waiting.text).toContain('please do not pay again');
      expect(waiting.text).toContain(
        'If you paid, keep the invoice number that Telcell Wallet shows for this payment.',
      );
      expect(waiting.text).toContain('give that number to the shop');
      // In Armenian and Russian the method has its own name there, never the English one.
      const hy = await visit(`${String(payment.checkout_url)}?lang=hy`);
      expect(hy.text).toContain('<h1>Վճարումը հաստատվում է</h1>');
      expect(hy.text).toContain('Վճարային համակարգը՝ Telcell դրամապանակ, դեռ չի տեղեկացրել խանութին');
      expect(hy.text).not.toContain('Telcell Wallet');
      const ru = await visit(`${String(payment.checkout_url)}?lang=ru`);
      expect(ru.text).toContain('<h1>Подтверждаем платёж</h1>');
      expect(ru.text).toContain('Платёжная система «Кошелёк Telcell» ещё не сообщила магазину');
      expect(ru.text).not.toContain('Telcell Wallet');
      // The API says it too: the payment, the order's payment and the list.
      const orderId = String(payment.order_id);
      expect(await read(payment.uuid)).toMatchObject({ status: 'processing', awaiting_processor_reference: true });
      const ofOrder = await t.call('GET', `/api/v1/orders/${orderId}/payment`, { key: liveKey });
      expect(ofOrder.body).toMatchObject({ uuid: payment.uuid, awaiting_processor_reference: true });
      const listed = await t.call<{ data: Json[] }>('GET', `/api/v1/payments?order_id=${orderId}`, { key: liveKey });
      expect(listed.body.data).toEqual([
        expect.objectContaining({ uuid: payment.uuid, awaiting_processor_reference: true }),
      ]);
      t.clock.advance(21 * MINUTE_MS);
      await t.gateway.scheduler.runDueNow();
      expect(await read(payment.uuid)).toMatchObject({ status: 'expired', awaiting_processor_reference: true });
      expect(telcell.requests.filter((r) => r.fields['check_bill:issuer'] !== undefined)).toHaveLength(checks);
      // The expired page does not say that no money was taken: the buyer may have paid.
      const expired = await visit(String(payment.checkout_url));
      expect(expired.text).toContain('<h1>Payment not confirmed</h1>');
      expect(expired.text).toContain('Telcell Wallet did not tell the shop in time whether you paid.');
      expect(expired.text).toContain('If you paid, do not pay again: give the shop the invoice number');
      expect(expired.text).not.toContain('The time to pay (20 minutes) has run out and no money was taken.');
      expect((await visit(`${String(payment.checkout_url)}?lang=hy`)).text).toContain('<h1>Վճարումը չի հաստատվել</h1>');
      expect((await visit(`${String(payment.checkout_url)}?lang=ru`)).text).toContain('<h1>Платёж не подтверждён</h1>');

      const settle = (reference: string, key = liveKey) =>
        t.call('POST', `/api/v1/payments/${String(payment.uuid)}/processor_reference`, { key, body: { reference } });
      // An invoice of another order never settles this one.
      const other = await create({ processor: 'telcell', redirect_mode: 'direct', amount: 3500 });
      const otherInvoice = await openInvoice(other);
      await telcell.pay(otherInvoice);
      const wrong = await settle(otherInvoice);
      expect(wrong.status, wrong.text).toBe(409);
      expect(wrong.body).toMatchObject({ error: 'processor_unavailable' });
      expect(wrong.body.message).toContain('the invoice is of another order');
      expect(await read(payment.uuid)).toMatchObject({ status: 'expired' });
      const malformed = await settle('12 34; drop');
      expect(malformed.status, malformed.text).toBe(422);
      expect(malformed.body).toMatchObject({ error: 'validation_failed' });
      // The body is read like every other write's: a strict object, each field named in `errors`.
      const refusedBody = async (body: unknown, errors: Json) => {
        const res = await t.call('POST', `/api/v1/payments/${String(payment.uuid)}/processor_reference`, {
          key: liveKey,
          body,
        });
        expect(res.status, res.text).toBe(422);
        expect(res.body).toMatchObject({ error: 'validation_failed', errors });
        expect(Object.keys(res.body.errors as Json).sort()).toEqual(Object.keys(errors).sort());
      };
      await refusedBody({ reference: invoiceId, note: 'paid' }, { note: [UNKNOWN_FIELD] });
      await refusedBody({}, { reference: ['is required'] });
      await refusedBody({ reference: 1234 }, { reference: [expect.stringContaining("must be the processor's id")] });
      await refusedBody([invoiceId], { body: ['must be a JSON object'] });
      expect(await read(payment.uuid)).toMatchObject({ status: 'expired', awaiting_processor_reference: true });

      // The right invoice: Telcell says PAID for this order and amount, and the payment completes late.
      const settled = await settle(invoiceId);
      expect(settled.status, settled.text).toBe(200);
      expect(settled.body).toMatchObject({
        uuid: payment.uuid,
        status: 'completed',
        rrn: invoiceId,
        awaiting_processor_reference: false,
      });
      expect(await session(payment.uuid)).toMatchObject({ reference: invoiceId });
      expect(await eventsOf(payment.uuid)).toEqual(['expired', 'completed']);
      const again = await settle(invoiceId);
      expect(again.status, again.text).toBe(409);
      expect(again.body).toMatchObject({ error: 'conflict' });
    });

    it('refunds a whole Telcell payment by cancelling the invoice, and refuses a partial refund with 422 refund_not_supported', async () => {
      const payment = await create({ processor: 'telcell', redirect_mode: 'direct', amount: 4000 });
      await telcell.pay(await openInvoice(payment));
      const partial = await t.call('POST', `/api/v1/payments/${String(payment.uuid)}/refund`, {
        key: liveKey,
        body: { amount: 1000 },
      });
      expect(partial.status, partial.text).toBe(422);
      expect(partial.body.error).toBe('refund_not_supported');
      const whole = await t.call('POST', `/api/v1/payments/${String(payment.uuid)}/refund`, {
        key: liveKey,
        body: { amount: 4000 },
      });
      expect(whole.status, whole.text).toBe(201);
      expect(await read(payment.uuid)).toMatchObject({ status: 'refunded', refunded_amount: 4000 });
      expect(telcell.invoices.get(String((await session(payment.uuid))?.reference))?.status).toBe('CANCELLED');
    });
  });
});
