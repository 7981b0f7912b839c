/**
 * A payment's page in the dashboard, over HTTP: every field, the timeline, the webhook events with
 * their deliveries; Resend queues a delivery seen on the page and through the API's events
 * endpoint, and is not offered when an event has nowhere to go; refunds (partial, then the rest) go through a confirmation and the API's refund service,
 * a double submit refunds once, too much is a 422; viewers read the page without the forms and are
 * refused every POST; another account's payment is a 404. Both databases.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { MINUTE_MS } from '../../gateway/domain/clock.js';
import { setProcessorEnabled } from '../../gateway/merchants/merchant.service.js';
import { formToken } from '../checkout/support.js';
import { DIALECTS } from '../support/databases.js';
import { paymentBody, type TestMerchant, uniqueHost } from '../support/gateway.js';
import { startFakeTelcell } from '../support/processors/fake-telcell.js';
import { WebhookReceiver } from '../support/webhook-receiver.js';
import {
  auditRows,
  type DashboardClient,
  type DashboardGateway,
  locationPath,
  signedInMember,
  signedInOwner,
  startDashboardGateway,
} from './support.js';

// biome-ignore lint/suspicious/noExplicitAny: JSON answers read field by field
type Json = Record<string, any>;

/** The value of the hidden field `name` of a page. */
function hiddenValue(html: string, name: string): string {
  const match = new RegExp(`name="${name}" value="([^"]*)"`).exec(html);
  if (match === null) throw new Error(`the page has no field ${name}`);
  return match[1] as string;
}

describe.each(DIALECTS)('dashboard payment page (%s)', (dialect) => {
  let g: DashboardGateway;
  let receiver: WebhookReceiver;
  let m: TestMerchant;
  let owner: DashboardClient;
  let viewer: DashboardClient;

  beforeAll(async () => {
    g = await startDashboardGateway(dialect, {
      env: { GATEWAY_ALLOW_PRIVATE_WEBHOOKS: '1', GATEWAY_CLOCK: 'manual' },
    });
    receiver = await WebhookReceiver.start();
    m = await g.t.merchant({ name: 'Ararat Books' });
  });
  // Tests move the manual clock past the sessions' idle limit: each signs in afresh.
  beforeEach(async () => {
    owner = await signedInMember(g, m.merchantId, 'owner');
    viewer = await signedInMember(g, m.merchantId, 'viewer');
  });
  afterAll(async () => {
    await g?.close();
    await receiver?.close();
  });

  /** A completed sandbox payment (paid with the test card), its webhook delivered. */
  async function paidPayment(overrides: Json = {}): Promise<Json> {
    const created = await g.t.call<Json>('POST', '/api/v1/payments', {
      key: m.testKey,
      body: paymentBody({ callback_url: `${receiver.url}/hooks`, ...overrides }),
    });
    expect(created.status, created.text).toBe(201);
    const paid = await g.t.call('POST', `/api/v1/test_helpers/payments/${created.body.uuid}/pay`, {
      key: m.testKey,
      body: { card_number: '4111 1111 1111 1111' },
    });
    expect(paid.status, paid.text).toBe(200);
    await g.t.gateway.scheduler.runDueNow();
    return created.body;
  }

  async function apiEvents(uuid: string): Promise<Json[]> {
    const answer = await g.t.call<{ data: Json[] }>('GET', `/api/v1/payments/${uuid}/events`, { key: m.testKey });
    expect(answer.status).toBe(200);
    return answer.body.data;
  }

  const refundsOf = (uuid: string) =>
    g.t.gateway.deps.db.selectFrom('refunds').selectAll().where('payment_id', '=', uuid).execute();

  it('shows every field, the timeline, and the delivered event with its answer', async () => {
    receiver.replyWith({ status: 200 });
    const payment = await paidPayment({
      description: 'Two books <b>',
      amount: 7000,
      items: [{ name: 'Ararat atlas', quantity: 2, unit_price: 3500 }],
    });
    const page = await owner.get(`/dashboard/payments/${payment.uuid}`);
    expect(page.status, page.text).toBe(200);
    expect(page.headers.get('cache-control')).toBe('no-store');
    for (const text of [
      payment.uuid,
      payment.order_id,
      'AMD\u00a07,000',
      'Completed',
      'sandbox',
      'Two books &lt;b&gt;',
      'Test',
      payment.checkout_url,
      'Created (pending)',
      'Status: Completed',
      'transaction.status.updated',
      `${receiver.url}/hooks`,
      'Delivered',
      'HTTP 200',
      'Resend transaction.status.updated',
      'Continue to confirm',
      'Ararat atlas',
      'AMD\u00a03,500',
    ]) {
      expect(page.text, text).toContain(text);
    }
    expect(page.text).not.toContain('<b>');
    // The refund form offers the whole amount.
    expect(page.text).toMatch(/name="amount" type="text"[^>]*value="7000"/);
  });

  it("answers 404 for another account's payment, a payment of the other environment and a non-uuid", async () => {
    const payment = await paidPayment();
    const other = await signedInOwner(g);
    for (const [client, path] of [
      [other.client, `/dashboard/payments/${payment.uuid}`],
      [owner, `/dashboard/payments/${payment.uuid}?environment=live`],
      [owner, '/dashboard/payments/not-a-uuid'],
      [owner, '/dashboard/payments/0193c1a0-0000-7000-8000-000000000000'],
    ] as const) {
      const page = await client.get(path);
      expect(page.status, path).toBe(404);
      expect(page.text).not.toContain(payment.order_id);
    }
    expect((await owner.get(`/dashboard/payments/${payment.uuid}?environment=test`)).status).toBe(200);
    // Nor can another account post to it.
    const [event] = await apiEvents(payment.uuid);
    const token = formToken((await other.client.get('/dashboard')).text);
    const resend = await other.client.post(`/dashboard/payments/${payment.uuid}/events/${event?.id}/resend`, {
      form_token: token,
    });
    expect(resend.status).toBe(404);
    const refund = await other.client.post(`/dashboard/payments/${payment.uuid}/refund`, {
      form_token: token,
      amount: '100',
      confirm: 'yes',
      refund_key: 'k'.repeat(24),
    });
    expect(refund.status).toBe(404);
    expect(await refundsOf(payment.uuid)).toEqual([]);
    expect((await apiEvents(payment.uuid))[0]?.deliveries).toHaveLength(1);
  });

  it('shows a viewer the page without the forms and refuses their POSTs', async () => {
    const payment = await paidPayment();
    const page = await viewer.get(`/dashboard/payments/${payment.uuid}`);
    expect(page.status).toBe(200);
    expect(page.text).toContain(payment.order_id);
    expect(page.text).toContain('transaction.status.updated');
    expect(page.text).not.toContain('/resend"');
    expect(page.text).not.toContain('/refund"');
    const [event] = await apiEvents(payment.uuid);
    const token = formToken(page.text);
    const resend = await viewer.post(`/dashboard/payments/${payment.uuid}/events/${event?.id}/resend`, {
      form_token: token,
    });
    expect(resend.status).toBe(403);
    for (const fields of [{ amount: '100' }, { amount: '100', confirm: 'yes', refund_key: 'v'.repeat(24) }] as Record<
      string,
      string
    >[]) {
      const refund = await viewer.post(`/dashboard/payments/${payment.uuid}/refund`, { form_token: token, ...fields });
      expect(refund.status).toBe(403);
    }
    expect(await refundsOf(payment.uuid)).toEqual([]);
    expect((await apiEvents(payment.uuid))[0]?.deliveries).toHaveLength(1);
  });

  it("shows the webhook target's credentials to owners and admins, and to a viewer only masked", async () => {
    receiver.replyWith({ status: 200 });
    const port = new URL(receiver.url).port;
    const clear = `http://hook-user:hook-pass@127.0.0.1:${port}/hooks?token=abc123&mode=live`;
    const masked = `http://***:***@127.0.0.1:${port}/hooks?token=***&amp;mode=***`;
    const payment = await paidPayment({ callback_url: clear });
    const path = `/dashboard/payments/${payment.uuid}`;
    const admin = await signedInMember(g, m.merchantId, 'admin');
    /** The target cells of the deliveries table and of the attempts table. */
    const targets = (html: string) => [...html.matchAll(/<code class="pd-wrap">([^<]*)<\/code>/g)].map((c) => c[1]);

    for (const reader of [owner, admin]) {
      const page = await reader.get(path);
      expect(page.status, page.text).toBe(200);
      expect(targets(page.text)).toEqual([clear.replace('&', '&amp;'), clear.replace('&', '&amp;')]);
    }
    const page = await viewer.get(path);
    expect(page.status, page.text).toBe(200);
    expect(targets(page.text)).toEqual([masked, masked]);
    for (const secret of ['hook-user', 'hook-pass', 'abc123']) expect(page.text).not.toContain(secret);
    // The rest of what a viewer reads about the delivery is there.
    expect(page.text).toContain('Delivered');
    expect(page.text).toContain('HTTP 200');
  });

  it('resends an event after the receiver failed: failed attempts, then a new delivery, on the page and the API', async () => {
    receiver.replyWith({ status: 500 });
    const payment = await paidPayment();
    for (const wait of [MINUTE_MS, 5 * MINUTE_MS, 30 * MINUTE_MS]) {
      g.t.clock.advance(wait);
      await g.t.gateway.scheduler.runDueNow();
    }
    owner = await signedInMember(g, m.merchantId, 'owner');
    const path = `/dashboard/payments/${payment.uuid}`;
    const failed = await owner.get(path);
    expect(failed.text).toContain('Failed');
    expect(failed.text).toContain('HTTP 500');
    expect(failed.text).toMatch(/<td data-label="Attempts"><span>4<\/span><\/td>/);

    receiver.replyWith({ status: 200 });
    const [event] = await apiEvents(payment.uuid);
    const resent = await owner.submit(path, `${path}/events/${event?.id}/resend`, {});
    expect(resent.status, resent.text).toBe(303);
    expect(locationPath(resent)).toBe(`${path}?notice=resent`);
    await g.t.gateway.scheduler.runDueNow();

    const after = await owner.get(`${path}?notice=resent`);
    expect(after.text).toContain('The event is queued for a new delivery.');
    expect(after.text).toContain('Delivered');
    expect(after.text).toContain('HTTP 200');
    const [logged] = await apiEvents(payment.uuid);
    expect(logged?.deliveries.map((d: Json) => d.status)).toEqual(['failed', 'delivered']);

    // Each attempt is a row under its delivery: time, target, answer, duration, error, outcome.
    const [first, second] = (logged?.deliveries ?? []) as Json[];
    const attemptRows = (deliveryId: string) => {
      const start = after.text.indexOf(`data-attempts-of="${deliveryId}"`);
      expect(start, deliveryId).toBeGreaterThan(0);
      const block = after.text.slice(start, after.text.indexOf('</table>', start));
      return [...block.matchAll(/<tr class="pd-attempt" data-attempt="(\d+)">([\s\S]*?)<\/tr>/g)].map((r) => ({
        attempt: Number(r[1]),
        html: r[2] as string,
      }));
    };
    const failedRows = attemptRows(first?.delivery_id);
    expect(failedRows.map((r) => r.attempt)).toEqual([1, 2, 3, 4]);
    for (const [i, row] of failedRows.entries()) {
      expect(row.html).toContain(`${receiver.url}/hooks`);
      expect(row.html).toContain('HTTP 500');
      expect(row.html).toMatch(/<time datetime="[^"]+"/);
      expect(row.html).toMatch(/>\d[\d,]* ms</);
      expect(row.html).toContain(i < 3 ? 'Will retry' : 'Given up');
    }
    const deliveredRows = attemptRows(second?.delivery_id);
    expect(deliveredRows.map((r) => r.attempt)).toEqual([1]);
    expect(deliveredRows[0]?.html).toContain('HTTP 200');
    expect(deliveredRows[0]?.html).toContain('Delivered');
    expect(after.text).toContain('Delivery 1: attempts');
    expect(after.text).toContain('Delivery 2: attempts');
    const audit = await auditRows(g, m.merchantId, 'webhook.resent');
    expect(audit.at(-1)?.subject).toContain(String(event?.id));
  });

  it('offers no Resend when an event has nowhere to go, says why, and still refuses a posted resend (409)', async () => {
    // No callback_url, and the account's hosted domain has no webhook URL.
    const created = await g.t.call<Json>('POST', '/api/v1/payments', { key: m.testKey, body: paymentBody() });
    expect(created.status, created.text).toBe(201);
    const paid = await g.t.call('POST', `/api/v1/test_helpers/payments/${created.body.uuid}/pay`, {
      key: m.testKey,
      body: { card_number: '4111 1111 1111 1111' },
    });
    expect(paid.status, paid.text).toBe(200);
    const path = `/dashboard/payments/${created.body.uuid}`;
    const page = await owner.get(path);
    expect(page.status).toBe(200);
    expect(page.text).toContain('data-testid="no-webhook-target"');
    expect(page.text).toContain('Nothing to send to');
    expect(page.text).not.toContain('/resend"');
    const [event] = await apiEvents(created.body.uuid);
    const refused = await owner.post(`${path}/events/${event?.id}/resend`, { form_token: formToken(page.text) });
    expect(refused.status).toBe(409);
    expect(refused.text.match(/Nothing to send to/g)).toHaveLength(1);
    // A payment with a target keeps its buttons and no such note.
    const delivered = await owner.get(`/dashboard/payments/${(await paidPayment()).uuid}`);
    expect(delivered.text).toContain('/resend"');
    expect(delivered.text).not.toContain('data-testid="no-webhook-target"');
  });

  it('refunds part after a confirmation, once on a double submit, then the rest', async () => {
    receiver.replyWith({ status: 200 });
    const payment = await paidPayment({ amount: 5000 });
    const path = `/dashboard/payments/${payment.uuid}`;
    const before = (await auditRows(g, m.merchantId, 'refund.created')).length;

    const confirm = await owner.submit(path, `${path}/refund`, { amount: '1,500', reason: 'One book returned' });
    expect(confirm.status, confirm.text).toBe(200);
    expect(confirm.text).toContain(`Refund AMD\u00a01,500 of the payment for order ${payment.order_id}?`);
    expect(confirm.text).toContain('Reason: One book returned');
    expect(await refundsOf(payment.uuid)).toEqual([]);

    const fields = {
      form_token: formToken(confirm.text),
      confirm: 'yes',
      amount: hiddenValue(confirm.text, 'amount'),
      reason: hiddenValue(confirm.text, 'reason'),
      refund_key: hiddenValue(confirm.text, 'refund_key'),
    };
    // A double click: two submits of the confirmation at once, then a third after them.
    const both = await Promise.all([owner.post(`${path}/refund`, fields), owner.post(`${path}/refund`, fields)]);
    for (const answer of both) expect([303, 409], answer.text).toContain(answer.status);
    const done = both.find((answer) => answer.status === 303);
    expect(done && locationPath(done)).toBe(`${path}?notice=refunded`);
    const again = await owner.post(`${path}/refund`, fields);
    expect(again.status, again.text).toBe(303);
    const refunds = await refundsOf(payment.uuid);
    expect(refunds.map((r) => [Number(r.amount), r.status, r.reason])).toEqual([
      [1500, 'succeeded', 'One book returned'],
    ]);
    const audit = await auditRows(g, m.merchantId, 'refund.created');
    expect(audit).toHaveLength(before + 1);
    expect(audit.at(-1)?.subject).toContain('AMD\u00a01,500');

    await g.t.gateway.scheduler.runDueNow();
    const page = await owner.get(`${path}?notice=refunded`);
    expect(page.text).toContain('The refund went through.');
    expect(page.text).toContain('payment.refunded');
    expect(page.text).toContain('Refunded AMD\u00a01,500');
    expect(page.text).toMatch(/name="amount" type="text"[^>]*value="3500"/);
    expect(receiver.received.map((r) => (r.json as Json).event)).toContain('payment.refunded');

    // The rest: the form's default is what remains.
    const rest = await owner.submit(path, `${path}/refund`, { amount: '3500', reason: '' });
    expect(rest.text).toContain('Refund AMD\u00a03,500');
    expect(rest.text).toContain('No reason given.');
    const restDone = await owner.post(`${path}/refund`, {
      form_token: formToken(rest.text),
      confirm: 'yes',
      amount: '3500',
      reason: '',
      refund_key: hiddenValue(rest.text, 'refund_key'),
    });
    expect(restDone.status, restDone.text).toBe(303);
    const refunded = await owner.get(path);
    expect(refunded.text).toContain('This payment cannot be refunded now.');
    expect(refunded.text).not.toContain('Continue to confirm');
    const api = await g.t.call<Json>('GET', `/api/v1/payments/${payment.uuid}`, { key: m.testKey });
    expect([api.body.status, api.body.refunded_amount]).toEqual(['refunded', 5000]);

    // Once refunded, a stale confirmation is refused clearly.
    const stale = await owner.post(`${path}/refund`, { ...fields, refund_key: 'n'.repeat(24) });
    expect(stale.status).toBe(409);
    expect(stale.text).toContain('This payment is already fully refunded.');
  });

  it('refuses a bad or too large amount with 422, naming the field', async () => {
    const payment = await paidPayment({ amount: 2000 });
    const path = `/dashboard/payments/${payment.uuid}`;
    for (const amount of ['abc', '0', '12.5', '']) {
      const page = await owner.submit(path, `${path}/refund`, { amount, reason: '' });
      expect(page.status, amount).toBe(422);
      expect(page.text).toContain('Enter a whole number of AMD, at least 1.');
      expect(page.text).toContain('aria-invalid="true"');
    }
    const tooMuch = await owner.submit(path, `${path}/refund`, { amount: '2001', reason: '' });
    expect(tooMuch.status).toBe(422);
    expect(tooMuch.text).toContain('That is more than the AMD\u00a02,000 that remain refundable.');
    // Past the confirmation too (the service's own check).
    const page = await owner.get(path);
    const forged = await owner.post(`${path}/refund`, {
      form_token: formToken(page.text),
      confirm: 'yes',
      amount: '2001',
      reason: '',
      refund_key: 'f'.repeat(24),
    });
    expect(forged.status).toBe(422);
    expect(forged.text).toContain('That is more than the AMD\u00a02,000 that remain refundable.');
    const long = await owner.submit(path, `${path}/refund`, { amount: '10', reason: 'x'.repeat(501) });
    expect(long.status).toBe(422);
    expect(long.text).toContain('The reason can be at most 500 characters.');
    expect(await refundsOf(payment.uuid)).toEqual([]);
  });

  it('refuses to refund a payment that is not completed, with 409', async () => {
    const created = await g.t.call<Json>('POST', '/api/v1/payments', { key: m.testKey, body: paymentBody() });
    const path = `/dashboard/payments/${created.body.uuid}`;
    const page = await owner.get(path);
    expect(page.status).toBe(200);
    expect(page.text).toContain('Pending');
    expect(page.text).toContain('Expires if not paid');
    expect(page.text).toContain('This payment cannot be refunded now.');
    const refused = await owner.post(`${path}/refund`, { form_token: formToken(page.text), amount: '100' });
    expect(refused.status).toBe(409);
    expect(refused.text).toContain('Only a completed payment can be refunded.');
  });
  it('offers to settle a Telcell payment whose notice never came with the invoice number, and applies only what Telcell confirms', async () => {
    const telcell = await startFakeTelcell({
      shops: [{ issuer: 'shop@dashboard.example', shopKey: 'telcell-dash-key' }],
    });
    try {
      const host = uniqueHost('wallet');
      const shop = await g.t.liveMerchant(host);
      await setProcessorEnabled(g.t.gateway.deps, {
        merchantId: shop.merchantId,
        host,
        processor: 'telcell',
        enabled: true,
        config: JSON.stringify({
          issuer: 'shop@dashboard.example',
          shop_key: 'telcell-dash-key',
          base_url: telcell.baseUrl,
        }),
      });
      const created = await g.t.call<Json>('POST', '/api/v1/payments', {
        key: shop.liveKey,
        body: paymentBody({
          return_url: `https://${host}/done`,
          processor: 'telcell',
          redirect_mode: 'direct',
          amount: 2200,
        }),
      });
      expect(created.status, created.text).toBe(201);
      // The buyer's browser posts the invoice form to Telcell and pays; Telcell's notice never comes.
      const handoff = await fetch(`${g.t.url}${new URL(String(created.body.checkout_url)).pathname}`, {
        redirect: 'manual',
      });
      const html = await handoff.text();
      const fields = new URLSearchParams();
      for (const [, name, value] of html.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g)) {
        fields.append(String(name), String(value).replaceAll('&amp;', '&').replaceAll('&quot;', '"'));
      }
      await (await fetch(telcell.baseUrl, { method: 'POST', body: fields, redirect: 'manual' })).arrayBuffer();
      const invoice = telcell.invoiceFor(String(created.body.uuid).replaceAll('-', ''));
      await telcell.pay(String(invoice?.id));

      const path = `/dashboard/payments/${created.body.uuid}`;
      const shopOwner = await signedInMember(g, shop.merchantId, 'owner');
      const shopViewer = await signedInMember(g, shop.merchantId, 'viewer');
      const page = await shopOwner.get(path);
      expect(page.status, page.text).toBe(200);
      expect(page.text).toContain('Telcell Wallet has not reported this payment');
      expect(page.text).toContain('/processor_reference');
      const viewed = await shopViewer.get(path);
      expect(viewed.text).toContain('Telcell Wallet has not reported this payment');
      expect(viewed.text).not.toContain('/processor_reference');
      // In Armenian and Russian the method is named as those languages name it, never in English.
      const inArmenian = await shopOwner.get(`${path}?lang=hy`);
      expect(inArmenian.text).toContain('Վճարային համակարգը՝ Telcell դրամապանակ, չի տեղեկացրել');
      expect(inArmenian.text).not.toContain('Telcell Wallet');
      expect((await shopOwner.get(`${path}?lang=ru`)).text).toContain(
        'Платёжная система «Кошелёк Telcell» не сообщила',
      );
      await shopOwner.get(`${path}?lang=en`); // the choice is remembered: back to English
      const token = formToken(page.text);

      // A number Telcell does not confirm for this order changes nothing.
      const wrong = await shopOwner.post(`${path}/processor_reference`, { form_token: token, reference: '999999' });
      expect(wrong.status, wrong.text).toBe(409);
      expect(wrong.text).toContain('did not confirm this invoice for this payment');
      expect(
        (await g.t.call<Json>('GET', `/api/v1/payments/${created.body.uuid}`, { key: shop.liveKey })).body.status,
      ).toBe('processing');
      const viewerTry = await shopViewer.post(`${path}/processor_reference`, {
        form_token: formToken(viewed.text),
        reference: String(invoice?.id),
      });
      expect(viewerTry.status).toBe(403);

      // The buyer's invoice number: Telcell says PAID for this order and amount.
      const settled = await shopOwner.post(`${path}/processor_reference`, {
        form_token: token,
        reference: String(invoice?.id),
      });
      expect(settled.status, settled.text).toBe(303);
      expect(locationPath(settled)).toBe(`${path}?notice=settled`);
      const read = await g.t.call<Json>('GET', `/api/v1/payments/${created.body.uuid}`, { key: shop.liveKey });
      expect(read.body).toMatchObject({ status: 'completed', rrn: String(invoice?.id) });
      expect((await shopOwner.get(path)).text).not.toContain('has not reported this payment');
      expect(await auditRows(g, shop.merchantId, 'payment.settled')).toHaveLength(1);
    } finally {
      await telcell.close();
    }
  });
});
