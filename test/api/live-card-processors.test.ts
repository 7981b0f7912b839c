/**
 * The two card processors through the whole gateway, over real HTTP, against local fakes of their
 * banks (test/support/processors/): Ameriabank vPOS and ArCa iPay, each on its own domain of one
 * live merchant. Their settings sealed at rest and refused when wrong, the handoff to the bank's
 * page, the buyer paying or declining there and coming back with the bank's unsigned parameters
 * (read back, never believed), a forged return, the poll job ending a payment whose buyer never
 * came back, a confirmation after the gateway expired the payment, a bank that does not answer at
 * start, refunds (full, partial, over what remains, declined by the bank, and one whose answer was
 * lost, settled by the check-refunds job), ArCa's signed callbacks and Ameria's OrderID range.
 * The gateway listens on a port chosen in advance so that PUBLIC_URL is its real origin: the banks'
 * pages send the buyer back there.
 */
import { createHmac, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MINUTE_MS } from '../../gateway/domain/clock.js';
import { createApiKey } from '../../gateway/merchants/api-keys.service.js';
import { setProcessorEnabled } from '../../gateway/merchants/domain-processors.service.js';
import { addDomain } from '../../gateway/merchants/domains.service.js';
import { OperatorError } from '../../gateway/merchants/operator.js';
import { POLL_AFTER_MS } from '../../gateway/payments/processor-polls.js';
import { refundCheckDelayMs } from '../../gateway/refunds/check-schedule.js';
import { DIALECTS } from '../support/databases.js';
import { paymentBody, type TestGateway, uniqueHost } from '../support/gateway.js';
import { FakeAmeria } from '../support/processors/fake-ameria.js';
import { type FakeArca, fakeArcaChecksum, startFakeArca } from '../support/processors/fake-arca.js';
import {
  handoffHref,
  paymentEvents,
  pressAtAmeria,
  processorSession,
  startLiveGateway,
  visit,
} from '../support/processors/live-gateway.js';
import { type ReceivedWebhook, WebhookReceiver } from '../support/webhook-receiver.js';

type Json = Record<string, unknown>;

/**
 * Ameria's fake takes OrderIDs 2350301-2350400: the main domain uses the start, the range domain
 * two near the end (then the two after them, as the bank's next range).
 */
const AMERIA_MIN = 2350301;
const AMERIA_MAX = 2350380;
const RANGE_MIN = 2350391;
const RANGE_MAX = 2350392;
const ARCA_CALLBACK_SECRET = 'arca-callback-key-for-tests';

describe.each(DIALECTS)('live card processors through the gateway (%s)', (dialect) => {
  let t: TestGateway;
  let ameria: FakeAmeria;
  let arca: FakeArca;
  let receiver: WebhookReceiver;
  let merchantId: string;
  let liveKey: string;
  let ameriaHost: string;
  let arcaHost: string;
  let rangeHost: string;
  /** Each domain's webhook secret, by host. */
  const secrets = new Map<string, string>();

  beforeAll(async () => {
    t = await startLiveGateway(dialect);
    receiver = await WebhookReceiver.start();
    // Any amount (the bank's test host takes 10 AMD only); the page's Timeout runs on the gateway's clock.
    ameria = await FakeAmeria.start({ testAmountRule: false, now: () => t.clock.nowMs() });
    arca = await startFakeArca();
    const deps = t.gateway.deps;
    merchantId = (await t.merchant({ name: 'Gyumri Ceramics', verifyBusiness: true, unlimited: true })).merchantId;
    const domain = async (label: string): Promise<string> => {
      const host = uniqueHost(label);
      const added = await addDomain(deps, { merchantId, host, verified: true, webhookUrl: `${receiver.url}/hooks` });
      secrets.set(host, added.webhook_secret);
      return host;
    };
    ameriaHost = await domain('ameria');
    arcaHost = await domain('arca');
    rangeHost = await domain('range');
    await setProcessorEnabled(deps, {
      merchantId,
      host: ameriaHost,
      processor: 'ameria',
      enabled: true,
      config: JSON.stringify({ ...ameria.settings(), order_id_min: AMERIA_MIN, order_id_max: AMERIA_MAX }),
    });
    await setProcessorEnabled(deps, {
      merchantId,
      host: rangeHost,
      processor: 'ameria',
      enabled: true,
      config: JSON.stringify({ ...ameria.settings(), order_id_min: RANGE_MIN, order_id_max: RANGE_MAX }),
    });
    await setProcessorEnabled(deps, {
      merchantId,
      host: arcaHost,
      processor: 'arca',
      enabled: true,
      config: JSON.stringify({
        base_url: arca.baseUrl,
        username: arca.username,
        password: arca.password,
        bank: 'ArCa test host',
        callback_secret: ARCA_CALLBACK_SECRET,
      }),
    });
    liveKey = (await createApiKey(deps, { merchantId, environment: 'live', access: 'full' })).key;
  });

  afterAll(async () => {
    await t?.close();
    await ameria?.close();
    await arca?.close();
    await receiver?.close();
  });

  async function create(host: string, overrides: Json = {}): Promise<Json> {
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

  async function refund(uuid: unknown, body: Json): Promise<{ status: number; body: Json; text: string }> {
    return t.call('POST', `/api/v1/payments/${String(uuid)}/refund`, { key: liveKey, body });
  }

  async function refundsOf(uuid: unknown): Promise<Json[]> {
    const res = await t.call('GET', `/api/v1/payments/${String(uuid)}/refunds`, { key: liveKey });
    expect(res.status, res.text).toBe(200);
    return res.body.data as Json[];
  }

  /** GET without following redirects. */
  /** A form post without following redirects: where it sends the browser. */
  async function post(url: string, fields: Record<string, string>): Promise<{ status: number; location: string }> {
    const res = await fetch(url, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams(fields).toString(),
      redirect: 'manual',
    });
    await res.arrayBuffer();
    return { status: res.status, location: res.headers.get('location') ?? '' };
  }

  const goHref = handoffHref;

  /** The handoff page of a direct payment: where its #go link sends the buyer. */
  async function handoff(payment: Json): Promise<string> {
    const page = await visit(String(payment.checkout_url));
    expect(page.status, page.text).toBe(200);
    return goHref(page.text);
  }

  const session = (uuid: unknown) => processorSession(t, uuid);

  async function paymentRow(uuid: unknown): Promise<Json> {
    return (await t.gateway.deps.db
      .selectFrom('payments')
      .selectAll()
      .where('id', '=', String(uuid))
      .executeTakeFirstOrThrow()) as Json;
  }

  /** The outbox's events of a payment, oldest first: `event:status`. */
  async function eventsOf(uuid: unknown): Promise<string[]> {
    return (await paymentEvents(t, uuid)).map(({ event, status }) => `${event}:${status}`);
  }

  /** Runs the due work, then answers the webhooks of `event` the merchant received about the payment. */
  async function deliveredHooks(uuid: unknown, event: string, atLeast = 1): Promise<ReceivedWebhook[]> {
    await t.gateway.scheduler.runDueNow();
    const deadline = performance.now() + 5_000;
    for (;;) {
      const hooks = receiver.received.filter(
        (hook) => hook.json?.event === event && hook.json?.transaction?.uuid === String(uuid),
      );
      if (hooks.length >= atLeast) return hooks;
      if (performance.now() > deadline) throw new Error(`no ${event} webhook for ${String(uuid)}`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }

  function expectSigned(hook: ReceivedWebhook | undefined, host: string): void {
    const secret = secrets.get(host) ?? '';
    expect(hook?.headers['x-service-signature']).toBe(
      createHmac('sha256', secret)
        .update(hook?.raw ?? '')
        .digest('hex'),
    );
  }

  async function storedConfig(host: string, processor: string): Promise<string> {
    const row = await t.gateway.deps.db
      .selectFrom('domain_processors')
      .innerJoin('domains', 'domains.id', 'domain_processors.domain_id')
      .select(['domain_processors.config'])
      .where('domains.host', '=', host)
      .where('domain_processors.processor', '=', processor)
      .executeTakeFirstOrThrow();
    return String(row.config);
  }

  /** What `processor enable` answers to settings it refuses. */
  async function refusal(host: string, processor: string, config: Json): Promise<string> {
    try {
      await setProcessorEnabled(t.gateway.deps, {
        merchantId,
        host,
        processor,
        enabled: true,
        config: JSON.stringify(config),
      });
    } catch (error) {
      expect(error).toBeInstanceOf(OperatorError);
      return (error as Error).message;
    }
    throw new Error(`${processor} accepted the settings`);
  }

  function advancePastFirstPoll(): void {
    t.clock.advance((POLL_AFTER_MS[0] ?? MINUTE_MS) + 1_000);
  }

  it('keeps both banks’ settings sealed, and refuses bad settings naming the field, never the value', async () => {
    const ameriaStored = await storedConfig(ameriaHost, 'ameria');
    const arcaStored = await storedConfig(arcaHost, 'arca');
    for (const stored of [ameriaStored, arcaStored]) expect(stored.startsWith('v1.')).toBe(true);
    for (const credential of [ameria.clientId, ameria.username, ameria.password]) {
      expect(ameriaStored).not.toContain(credential);
    }
    for (const credential of [arca.username, arca.password, ARCA_CALLBACK_SECRET]) {
      expect(arcaStored).not.toContain(credential);
    }

    const { password: _, ...withoutPassword } = ameria.settings();
    const missing = await refusal(ameriaHost, 'ameria', withoutPassword);
    expect(missing).toContain('password');
    for (const value of Object.values(withoutPassword)) expect(missing).not.toContain(String(value));
    const unknown = await refusal(ameriaHost, 'ameria', { ...ameria.settings(), terminal_pin: 'pin-7731-never-shown' });
    expect(unknown).toContain('terminal_pin');
    expect(unknown).not.toContain('pin-7731-never-shown');
    expect(unknown).not.toContain(ameria.password);

    const arcaSettings = { base_url: arca.baseUrl, username: arca.username, password: arca.password };
    const { base_url: __, ...withoutBase } = arcaSettings;
    const noBase = await refusal(arcaHost, 'arca', withoutBase);
    expect(noBase).toContain('base_url');
    for (const value of Object.values(withoutBase)) expect(noBase).not.toContain(value);
    const extra = await refusal(arcaHost, 'arca', { ...arcaSettings, merchant_secret: 'arca-extra-value-91' });
    expect(extra).toContain('merchant_secret');
    expect(extra).not.toContain('arca-extra-value-91');
    expect(extra).not.toContain(arca.password);

    // Refused settings leave the domain's settings as they were.
    expect(await storedConfig(ameriaHost, 'ameria')).toBe(ameriaStored);
    expect(await storedConfig(arcaHost, 'arca')).toBe(arcaStored);
  });

  describe('Ameriabank vPOS (InitPayment, unsigned return read back with GetPaymentDetails)', () => {
    const paymentIdOf = (href: string) => new URL(href).searchParams.get('id') ?? '';

    /** The buyer opens the bank's page and presses a button there: where the bank sends the browser. */
    const pressAmeria = (href: string, action: 'pay' | 'decline', code = '0100') =>
      pressAtAmeria(new URL(ameria.baseUrl).origin, href, action, code);

    /** A payment the buyer paid at the bank and came back from: completed. */
    async function paid(amount: number): Promise<Json> {
      const payment = await create(ameriaHost, { processor: 'ameria', redirect_mode: 'direct', amount });
      await visit(await pressAmeria(await handoff(payment), 'pay'));
      expect(await read(payment.uuid)).toMatchObject({ status: 'completed', processor: 'ameria' });
      return payment;
    }

    it('hands the buyer to the bank’s page, completes on the return’s read-back and signs the merchant’s webhook', async () => {
      const payment = await create(ameriaHost, {
        processor: 'ameria',
        redirect_mode: 'direct',
        amount: 2500,
        description: 'Two glazed bowls',
      });
      const href = await handoff(payment);
      expect(href.startsWith(`${ameria.baseUrl}Payments/Pay?id=`)).toBe(true);
      expect(await read(payment.uuid)).toMatchObject({ status: 'processing', processor: 'ameria' });
      const registered = await session(payment.uuid);
      const orderId = Number(registered?.order_number);
      expect(orderId).toBeGreaterThanOrEqual(AMERIA_MIN);
      expect(orderId).toBeLessThanOrEqual(AMERIA_MAX);
      expect(String(registered?.reference).toUpperCase()).toBe(paymentIdOf(href).toUpperCase());
      const order = ameria.order(paymentIdOf(href));
      expect(order).toMatchObject({
        orderId,
        amount: 2500,
        description: 'Two glazed bowls',
        backUrl: `${String(payment.checkout_url)}/return`,
        opaque: payment.uuid,
      });

      const back = await pressAmeria(href, 'pay');
      // The bank has no callback: nothing changes until the buyer comes back (or the poll job asks).
      expect(await read(payment.uuid)).toMatchObject({ status: 'processing' });
      const query = new URL(back).searchParams;
      expect(back.startsWith(`${String(payment.checkout_url)}/return?`)).toBe(true);
      expect(query.get('resposneCode')).toBe('00');
      expect(query.get('orderID')).toBe(String(orderId));
      expect(query.get('paymentID')).toBe(paymentIdOf(href).toLowerCase());

      const returned = await visit(back);
      expect(returned.status).toBe(303);
      expect(returned.location).toBe(String(payment.checkout_url));
      expect((await visit(String(returned.location))).text).toContain('data-status="ok"');

      const done = await read(payment.uuid);
      expect(done).toMatchObject({ status: 'completed', processor: 'ameria', failure_code: null });
      expect(done.rrn).toBe(order?.rrn);
      const row = await paymentRow(payment.uuid);
      expect(row.card_last4).toBe('1818');
      // Only the last four digits are kept: not the bank's mask, let alone a card number.
      expect(JSON.stringify(row)).not.toContain(String(order?.cardNumber));

      const [hook, ...more] = await deliveredHooks(payment.uuid, 'transaction.status.updated');
      expect(more).toEqual([]);
      expect(hook?.json).toMatchObject({
        transaction: { uuid: payment.uuid, status: 'completed', processor: 'ameria' },
      });
      expectSigned(hook, ameriaHost);
    });

    it('fails a payment the buyer’s card was declined for, with the mapped failure code', async () => {
      const payment = await create(ameriaHost, { processor: 'ameria', redirect_mode: 'direct' });
      const back = await pressAmeria(await handoff(payment), 'decline', '0116');
      expect(new URL(back).searchParams.get('resposneCode')).toBe('0116');
      const returned = await visit(back);
      expect((await visit(String(returned.location))).text).toContain('data-status="fail"');
      expect(await read(payment.uuid)).toMatchObject({ status: 'failed', failure_code: 'insufficient_funds' });
    });

    it('changes nothing on a forged return claiming success: the bank says it is not paid', async () => {
      const payment = await create(ameriaHost, { processor: 'ameria', redirect_mode: 'direct' });
      const href = await handoff(payment);
      const row = await session(payment.uuid);
      const reads = ameria.calls('GetPaymentDetails').length;
      const forged = new URL(`${String(payment.checkout_url)}/return`);
      forged.searchParams.set('orderID', String(row?.order_number));
      forged.searchParams.set('resposneCode', '00');
      forged.searchParams.set('paymentID', paymentIdOf(href).toLowerCase());
      forged.searchParams.set('opaque', String(payment.uuid));
      forged.searchParams.set('description', 'Operation Approved ');
      const returned = await visit(forged.href);
      expect(returned.status).toBe(303);
      // The status was read back from the bank, which says it is not paid.
      expect(ameria.calls('GetPaymentDetails').length).toBe(reads + 1);
      expect((await visit(String(returned.location))).text).toContain('data-status="processing"');
      expect(await read(payment.uuid)).toMatchObject({ status: 'processing', rrn: null });
      expect(ameria.order(paymentIdOf(href))?.status).toBe('0');
    });

    it('completes a payment whose buyer never came back when the poll job reads it back', async () => {
      const payment = await create(ameriaHost, { processor: 'ameria', redirect_mode: 'direct' });
      await pressAmeria(await handoff(payment), 'pay');
      expect(await read(payment.uuid)).toMatchObject({ status: 'processing' });
      advancePastFirstPoll();
      await t.gateway.scheduler.runDueNow();
      expect(await read(payment.uuid)).toMatchObject({ status: 'completed' });
      expect((await paymentRow(payment.uuid)).card_last4).toBe('1818');
      expect(await session(payment.uuid)).toMatchObject({ next_check_at: null, checks: 1 });
    });

    it('completes late a payment the bank took after the gateway expired it, with both events', async () => {
      const payment = await create(ameriaHost, { processor: 'ameria', redirect_mode: 'direct' });
      const href = await handoff(payment);
      t.clock.advance(21 * MINUTE_MS);
      await t.gateway.scheduler.runDueNow();
      expect(await read(payment.uuid)).toMatchObject({ status: 'expired' });
      // The bank's page is past its Timeout too (it would decline): the bank settles the order itself.
      const order = ameria.order(paymentIdOf(href));
      expect(order?.status).toBe('0');
      if (order === undefined) throw new Error('no order at the bank');
      ameria.pay(order);
      t.clock.advance(10 * MINUTE_MS);
      await t.gateway.scheduler.runDueNow();
      expect(await read(payment.uuid)).toMatchObject({ status: 'completed', rrn: order.rrn });
      expect(await eventsOf(payment.uuid)).toEqual([
        'transaction.status.updated:expired',
        'transaction.status.updated:completed',
      ]);
    });

    it('leaves the payment pending when InitPayment gets no answer; the next try registers the same order', async () => {
      const payment = await create(ameriaHost, { processor: 'ameria', redirect_mode: 'direct' });
      // The bank registers the order, then the connection drops before its answer.
      ameria.failNext('InitPayment', { kind: 'dropAfter' });
      const refused = await visit(String(payment.checkout_url));
      expect(refused.status).toBe(503);
      expect(refused.text).toContain('This payment method is not available right now.');
      expect(await read(payment.uuid)).toMatchObject({ status: 'pending', processor: 'ameria' });

      const href = await handoff(payment);
      const orderId = Number((await session(payment.uuid))?.order_number);
      const order = ameria.order(paymentIdOf(href));
      expect(order).toMatchObject({ orderId, registrations: 2 });
      expect([...ameria.orders.values()].filter((each) => each.orderId === orderId)).toHaveLength(1);
      expect(await read(payment.uuid)).toMatchObject({ status: 'processing' });
    });

    it('refunds a payment in full through the bank', async () => {
      const payment = await paid(1800);
      const calls = ameria.calls('RefundPayment').length;
      const res = await refund(payment.uuid, { amount: 1800 });
      expect(res.status, res.text).toBe(201);
      expect(res.body).toMatchObject({
        status: 'succeeded',
        amount: 1800,
        refunded_amount: 1800,
        payment_status: 'refunded',
      });
      const sent = ameria.calls('RefundPayment').slice(calls);
      expect(sent).toHaveLength(1);
      expect(sent[0]?.json).toMatchObject({ Amount: 1800, Username: ameria.username });
      expect(await read(payment.uuid)).toMatchObject({ status: 'refunded', refunded_amount: 1800 });
      const [hook] = await deliveredHooks(payment.uuid, 'payment.refunded');
      expect(hook?.json).toMatchObject({ refund: { uuid: res.body.uuid, amount: 1800 } });
      expectSigned(hook, ameriaHost);
    });

    it('refunds part twice, adding up to the whole payment', async () => {
      const payment = await paid(3000);
      const first = await refund(payment.uuid, { amount: 1000 });
      expect(first.status, first.text).toBe(201);
      expect(first.body).toMatchObject({ refunded_amount: 1000, payment_status: 'completed' });
      const second = await refund(payment.uuid, { amount: 2000 });
      expect(second.status, second.text).toBe(201);
      expect(second.body).toMatchObject({ refunded_amount: 3000, payment_status: 'refunded' });
      const bank = [...ameria.orders.values()].find((order) => order.opaque === payment.uuid);
      expect(bank).toMatchObject({ refundedAmount: 3000, depositedAmount: 0, status: '4' });
      expect((await eventsOf(payment.uuid)).filter((event) => event.startsWith('payment.refunded'))).toEqual([
        'payment.refunded:completed',
        'payment.refunded:refunded',
      ]);
    });

    it('refuses a refund over what remains without asking the bank, and reports the bank’s own refusal', async () => {
      const payment = await paid(2000);
      const calls = ameria.calls('RefundPayment').length;
      const over = await refund(payment.uuid, { amount: 2001 });
      expect(over.status, over.text).toBe(422);
      expect(over.body).toMatchObject({ error: 'amount_exceeds_remaining', remaining_amount: 2000 });
      expect(ameria.calls('RefundPayment')).toHaveLength(calls);

      // 1500 refunded at the bank outside the gateway: the bank holds less than the gateway thinks.
      const paymentId = String((await session(payment.uuid))?.reference);
      const direct = await fetch(`${ameria.baseUrl}api/VPOS/RefundPayment`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({
          PaymentID: paymentId,
          Username: ameria.username,
          Password: ameria.password,
          Amount: 1500,
        }),
      });
      expect(await direct.json()).toMatchObject({ ResponseCode: '00' });
      const declined = await refund(payment.uuid, { amount: 1000 });
      expect(declined.status, declined.text).toBe(409);
      expect(declined.body).toMatchObject({
        error: 'refund_declined',
        refund: { status: 'failed', failure_code: 'refund_declined', amount: 1000 },
      });
      expect(await read(payment.uuid)).toMatchObject({ status: 'completed', refunded_amount: 0 });
      // Nothing stays reserved: what the bank still holds can be refunded.
      const rest = await refund(payment.uuid, { amount: 500 });
      expect(rest.status, rest.text).toBe(201);
      expect(rest.body).toMatchObject({ refunded_amount: 500, payment_status: 'completed' });
    });

    it('settles a refund whose answer was lost with the check-refunds job, emitting payment.refunded once', async () => {
      const payment = await paid(4000);
      // The bank makes the refund, then the connection drops before its answer.
      ameria.failNext('RefundPayment', { kind: 'dropAfter' });
      const lost = await refund(payment.uuid, { amount: 1500 });
      expect(lost.status, lost.text).toBe(409);
      expect(lost.body).toMatchObject({ error: 'refund_outcome_unknown', refund: { status: 'unknown', amount: 1500 } });
      const refundId = (lost.body.refund as Json).uuid;
      expect(await read(payment.uuid)).toMatchObject({ status: 'completed', refunded_amount: 0 });
      // Its amount stays reserved meanwhile.
      const held = await refund(payment.uuid, { amount: 2600 });
      expect(held.status, held.text).toBe(409);
      expect(held.body).toMatchObject({ error: 'refund_in_progress', in_progress_amount: 1500 });

      t.clock.advance(refundCheckDelayMs(0) + 1_000);
      await t.gateway.scheduler.runDueNow();
      expect(await refundsOf(payment.uuid)).toEqual([
        expect.objectContaining({ uuid: refundId, status: 'succeeded', amount: 1500 }),
      ]);
      expect(await read(payment.uuid)).toMatchObject({ status: 'completed', refunded_amount: 1500 });
      const [hook] = await deliveredHooks(payment.uuid, 'payment.refunded');
      expect(hook?.json).toMatchObject({ refund: { uuid: refundId, amount: 1500 } });

      t.clock.advance(10 * MINUTE_MS);
      await t.gateway.scheduler.runDueNow();
      expect((await eventsOf(payment.uuid)).filter((event) => event.startsWith('payment.refunded'))).toHaveLength(1);
      const bank = [...ameria.orders.values()].find((order) => order.opaque === payment.uuid);
      expect(bank?.refundedAmount).toBe(1500);
    });
  });

  describe('Ameriabank’s OrderID range', () => {
    it('numbers orders from the range in turn, then makes the method unavailable without calling the bank', async () => {
      const first = await create(rangeHost, { processor: 'ameria', redirect_mode: 'direct' });
      const second = await create(rangeHost, { processor: 'ameria', redirect_mode: 'direct' });
      await handoff(first);
      await handoff(second);
      expect((await session(first.uuid))?.order_number).toBe(String(RANGE_MIN));
      expect((await session(second.uuid))?.order_number).toBe(String(RANGE_MIN + 1));
      const sent = ameria.calls('InitPayment').map((call) => call.json?.OrderID);
      expect(sent.slice(-2)).toEqual([RANGE_MIN, RANGE_MIN + 1]);

      const third = await create(rangeHost, { processor: 'ameria', redirect_mode: 'direct' });
      const calls = ameria.calls('InitPayment').length;
      const refused = await visit(String(third.checkout_url));
      expect(refused.status).toBe(503);
      expect(refused.text).toContain('This payment method is not available right now.');
      expect(ameria.calls('InitPayment')).toHaveLength(calls);
      expect(await session(third.uuid)).toBeUndefined();
      expect(await read(third.uuid)).toMatchObject({ status: 'pending' });
    });

    it('numbers orders from the next range the bank assigned, from its first OrderID, and never reuses one', async () => {
      // Carries on from the test above: the range is used up, and buyers keep trying meanwhile.
      const waiting = await create(rangeHost, { processor: 'ameria', redirect_mode: 'direct' });
      expect((await visit(String(waiting.checkout_url))).status).toBe(503);
      expect((await visit(String(waiting.checkout_url))).status).toBe(503);

      const enable = (min: number, max: number) =>
        setProcessorEnabled(t.gateway.deps, {
          merchantId,
          host: rangeHost,
          processor: 'ameria',
          enabled: true,
          config: JSON.stringify({ ...ameria.settings(), order_id_min: min, order_id_max: max }),
        });
      await enable(RANGE_MAX + 1, RANGE_MAX + 2);
      await handoff(waiting);
      expect((await session(waiting.uuid))?.order_number).toBe(String(RANGE_MAX + 1));
      const next = await create(rangeHost, { processor: 'ameria', redirect_mode: 'direct' });
      await handoff(next);
      expect((await session(next.uuid))?.order_number).toBe(String(RANGE_MAX + 2));

      // The old range entered again by mistake: its OrderIDs were given already.
      await enable(RANGE_MIN, RANGE_MAX);
      const again = await create(rangeHost, { processor: 'ameria', redirect_mode: 'direct' });
      expect((await visit(String(again.checkout_url))).status).toBe(503);
      expect(await session(again.uuid)).toBeUndefined();
    });
  });

  describe('ArCa iPay (register.do, unsigned return and callbacks read back with getOrderStatusExtended.do)', () => {
    const orderIdOf = (href: string) => new URL(href).searchParams.get('mdOrder') ?? '';

    /** The buyer opens the bank's page and presses a button there: where the bank sends the browser. */
    async function pressArca(href: string, action: 'pay' | 'decline', reason = 'declined'): Promise<string> {
      const page = await visit(href);
      expect(page.status, page.text).toBe(200);
      const formAction = /<form method="post" action="([^"]+)"/.exec(page.text)?.[1] ?? '';
      const fields: Record<string, string> = { mdOrder: orderIdOf(href), action };
      if (action === 'pay') fields.card = '4111 1111 1111 1111';
      else fields.reason = reason;
      const pressed = await post(`${arca.origin}${formAction}`, fields);
      expect(pressed.status).toBe(302);
      return pressed.location;
    }

    async function paid(amount: number): Promise<Json> {
      const payment = await create(arcaHost, { processor: 'arca', redirect_mode: 'direct', amount });
      await visit(await pressArca(await handoff(payment), 'pay'));
      expect(await read(payment.uuid)).toMatchObject({ status: 'completed', processor: 'arca' });
      return payment;
    }

    it('hands the buyer to the bank’s page, completes on the return’s read-back and signs the merchant’s webhook', async () => {
      const payment = await create(arcaHost, {
        processor: 'arca',
        redirect_mode: 'direct',
        amount: 2500,
        description: 'Tea set',
      });
      const registers = arca.requestsOf('register').length;
      const href = await handoff(payment);
      expect(href.startsWith(`${arca.origin}/payment/merchants/${arca.terminalId}/payment_`)).toBe(true);
      expect(await read(payment.uuid)).toMatchObject({ status: 'processing', processor: 'arca' });
      const registered = await session(payment.uuid);
      expect(registered?.reference).toBe(orderIdOf(href));
      const [sent, ...again] = arca.requestsOf('register').slice(registers);
      expect(again).toEqual([]);
      expect(sent?.params).toMatchObject({
        orderNumber: registered?.order_number,
        amount: '250000',
        currency: '051',
        returnUrl: `${String(payment.checkout_url)}/return`,
        description: 'Tea set',
      });
      expect(sent?.query).toBe('');

      const back = await pressArca(href, 'pay');
      expect(await read(payment.uuid)).toMatchObject({ status: 'processing' });
      expect(back).toBe(`${String(payment.checkout_url)}/return?orderId=${orderIdOf(href)}`);
      const returned = await visit(back);
      expect(returned.status).toBe(303);
      expect(returned.location).toBe(String(payment.checkout_url));
      expect((await visit(String(returned.location))).text).toContain('data-status="ok"');

      const done = await read(payment.uuid);
      const order = arca.order(orderIdOf(href));
      expect(done).toMatchObject({ status: 'completed', processor: 'arca', failure_code: null });
      expect(done.rrn).toBe(order.authRefNum);
      const row = await paymentRow(payment.uuid);
      expect(row.card_last4).toBe('1111');
      expect(JSON.stringify(row)).not.toContain('411111');

      const [hook, ...more] = await deliveredHooks(payment.uuid, 'transaction.status.updated');
      expect(more).toEqual([]);
      expect(hook?.json).toMatchObject({ transaction: { uuid: payment.uuid, status: 'completed', processor: 'arca' } });
      expectSigned(hook, arcaHost);
    });

    it('fails a payment the buyer’s card was declined for, with the mapped failure code', async () => {
      const payment = await create(arcaHost, { processor: 'arca', redirect_mode: 'direct' });
      const back = await pressArca(await handoff(payment), 'decline', '3ds_failed');
      const returned = await visit(back);
      expect((await visit(String(returned.location))).text).toContain('data-status="fail"');
      expect(await read(payment.uuid)).toMatchObject({ status: 'failed', failure_code: '3ds_failed' });
    });

    it('changes nothing on a forged return claiming success: the bank says it is not paid', async () => {
      const payment = await create(arcaHost, { processor: 'arca', redirect_mode: 'direct' });
      const href = await handoff(payment);
      const reads = arca.requestsOf('getOrderStatusExtended').length;
      const returned = await visit(
        `${String(payment.checkout_url)}/return?orderId=${orderIdOf(href)}&orderStatus=2&errorCode=0`,
      );
      expect(returned.status).toBe(303);
      expect(arca.requestsOf('getOrderStatusExtended').length).toBe(reads + 1);
      expect((await visit(String(returned.location))).text).toContain('data-status="processing"');
      expect(await read(payment.uuid)).toMatchObject({ status: 'processing', rrn: null });
      expect(arca.order(orderIdOf(href)).status).toBe(0);
    });

    it('completes a payment whose buyer never came back when the poll job reads it back', async () => {
      const payment = await create(arcaHost, { processor: 'arca', redirect_mode: 'direct' });
      await pressArca(await handoff(payment), 'pay');
      expect(await read(payment.uuid)).toMatchObject({ status: 'processing' });
      advancePastFirstPoll();
      await t.gateway.scheduler.runDueNow();
      expect(await read(payment.uuid)).toMatchObject({ status: 'completed' });
      expect((await paymentRow(payment.uuid)).card_last4).toBe('1111');
      expect(await session(payment.uuid)).toMatchObject({ next_check_at: null, checks: 1 });
    });

    it('completes late a payment the buyer paid after the gateway expired it, with both events', async () => {
      const payment = await create(arcaHost, { processor: 'arca', redirect_mode: 'direct' });
      const href = await handoff(payment);
      t.clock.advance(21 * MINUTE_MS);
      await t.gateway.scheduler.runDueNow();
      expect(await read(payment.uuid)).toMatchObject({ status: 'expired' });
      // The bank's page still takes the card (its session runs on the bank's own clock).
      await pressArca(href, 'pay');
      expect(arca.order(orderIdOf(href)).status).toBe(2);
      t.clock.advance(10 * MINUTE_MS);
      await t.gateway.scheduler.runDueNow();
      expect(await read(payment.uuid)).toMatchObject({ status: 'completed' });
      expect(await eventsOf(payment.uuid)).toEqual([
        'transaction.status.updated:expired',
        'transaction.status.updated:completed',
      ]);
    });

    it('completes at once a payment paid after the gateway expired it when the buyer comes back', async () => {
      const payment = await create(arcaHost, { processor: 'arca', redirect_mode: 'direct' });
      const href = await handoff(payment);
      t.clock.advance(21 * MINUTE_MS);
      await t.gateway.scheduler.runDueNow();
      expect(await read(payment.uuid)).toMatchObject({ status: 'expired' });
      const back = await pressArca(href, 'pay');
      // No poll has run: the buyer's return reads the status back.
      const returned = await visit(back);
      expect(returned.status).toBe(303);
      expect(await read(payment.uuid)).toMatchObject({ status: 'completed' });
      expect((await visit(String(returned.location))).text).toContain('data-status="ok"');
    });

    it('leaves the payment pending when register.do fails; the next try goes through', async () => {
      const payment = await create(arcaHost, { processor: 'arca', redirect_mode: 'direct' });
      arca.failNext({ kind: 'http500' }, 'register');
      const refused = await visit(String(payment.checkout_url));
      expect(refused.status).toBe(503);
      expect(refused.text).toContain('This payment method is not available right now.');
      expect(await read(payment.uuid)).toMatchObject({ status: 'pending' });
      const href = await handoff(payment);
      expect(href).toBe(arca.formUrl(arca.order(orderIdOf(href))));
      expect(await read(payment.uuid)).toMatchObject({ status: 'processing' });
    });

    it('resumes the same order when register.do’s answer was lost after the bank registered it', async () => {
      const payment = await create(arcaHost, { processor: 'arca', redirect_mode: 'direct' });
      arca.failNext({ kind: 'drop', apply: true }, 'register');
      const refused = await visit(String(payment.checkout_url));
      expect(refused.status).toBe(503);
      expect(await read(payment.uuid)).toMatchObject({ status: 'pending' });
      const orderNumber = String((await session(payment.uuid))?.order_number);
      const order = arca.orderByNumber(orderNumber);
      expect(order).toBeDefined();

      // register.do answers "already registered": the page is rebuilt from the order read back.
      const href = await handoff(payment);
      expect(href).toBe(arca.formUrl(order as NonNullable<typeof order>));
      expect(await session(payment.uuid)).toMatchObject({ reference: order?.orderId });
      expect([...arca.orders.values()].filter((each) => each.orderNumber === orderNumber)).toHaveLength(1);
      await visit(await pressArca(href, 'pay'));
      expect(await read(payment.uuid)).toMatchObject({ status: 'completed' });
    });

    it('completes on a signed BPC callback, and ignores one with a wrong checksum', async () => {
      const base = arca.options;
      const callbackUrl = `${t.url}/processors/arca/callback`;
      const signed = await create(arcaHost, { processor: 'arca', redirect_mode: 'direct' });
      const signedOrder = orderIdOf(await handoff(signed));
      arca.options = { ...base, callback: { url: callbackUrl, secret: ARCA_CALLBACK_SECRET } };
      try {
        await arca.pay(signedOrder);
      } finally {
        arca.options = base;
      }
      expect(arca.callbacks.at(-1)).toMatchObject({ status: 200, params: { mdOrder: signedOrder } });
      expect(await read(signed.uuid)).toMatchObject({ status: 'completed' });

      // Paid at the bank without a callback; a callback with a checksum under another key changes nothing.
      const forged = await create(arcaHost, { processor: 'arca', redirect_mode: 'direct' });
      const forgedOrder = arca.order(orderIdOf(await handoff(forged)));
      await arca.pay(forgedOrder.orderId);
      const params = {
        mdOrder: forgedOrder.orderId,
        orderNumber: forgedOrder.orderNumber,
        operation: 'deposited',
        status: '1',
      };
      const query = (secret: string) =>
        new URLSearchParams({ ...params, checksum: fakeArcaChecksum(params, secret) }).toString();
      const wrong = await fetch(`${callbackUrl}?${query('not-the-merchant-key')}`);
      expect(wrong.status).toBe(403);
      expect(await read(forged.uuid)).toMatchObject({ status: 'processing' });
      const right = await fetch(`${callbackUrl}?${query(ARCA_CALLBACK_SECRET)}`);
      expect(right.status).toBe(200);
      expect(await read(forged.uuid)).toMatchObject({ status: 'completed' });
    });

    it('refunds a payment in full through the bank', async () => {
      const payment = await paid(1800);
      const calls = arca.requestsOf('refund').length;
      const res = await refund(payment.uuid, { amount: 1800 });
      expect(res.status, res.text).toBe(201);
      expect(res.body).toMatchObject({
        status: 'succeeded',
        amount: 1800,
        refunded_amount: 1800,
        payment_status: 'refunded',
      });
      const sent = arca.requestsOf('refund').slice(calls);
      expect(sent).toHaveLength(1);
      const orderId = String((await session(payment.uuid))?.reference);
      expect(sent[0]?.params).toMatchObject({ orderId, amount: '180000' });
      expect(arca.order(orderId).status).toBe(4);
      expect(await read(payment.uuid)).toMatchObject({ status: 'refunded', refunded_amount: 1800 });
      const [hook] = await deliveredHooks(payment.uuid, 'payment.refunded');
      expect(hook?.json).toMatchObject({ refund: { uuid: res.body.uuid, amount: 1800 } });
      expectSigned(hook, arcaHost);
    });

    it('refunds part twice, adding up to the whole payment', async () => {
      const payment = await paid(3000);
      const first = await refund(payment.uuid, { amount: 1000 });
      expect(first.status, first.text).toBe(201);
      expect(first.body).toMatchObject({ refunded_amount: 1000, payment_status: 'completed' });
      const second = await refund(payment.uuid, { amount: 2000 });
      expect(second.status, second.text).toBe(201);
      expect(second.body).toMatchObject({ refunded_amount: 3000, payment_status: 'refunded' });
      const order = arca.order(String((await session(payment.uuid))?.reference));
      expect(order.refunds.map((each) => each.amount)).toEqual([100000, 200000]);
      expect((await eventsOf(payment.uuid)).filter((event) => event.startsWith('payment.refunded'))).toEqual([
        'payment.refunded:completed',
        'payment.refunded:refunded',
      ]);
    });

    it('refuses a refund over what remains without asking the bank, and reports the bank’s own refusal', async () => {
      const payment = await paid(2000);
      const calls = arca.requestsOf('refund').length;
      const over = await refund(payment.uuid, { amount: 2001 });
      expect(over.status, over.text).toBe(422);
      expect(over.body).toMatchObject({ error: 'amount_exceeds_remaining', remaining_amount: 2000 });
      expect(arca.requestsOf('refund')).toHaveLength(calls);

      // 1500 refunded at the bank outside the gateway: the bank holds less than the gateway thinks.
      const orderId = String((await session(payment.uuid))?.reference);
      const direct = await fetch(`${arca.baseUrl}refund.do`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({
          userName: arca.username,
          password: arca.password,
          orderId,
          amount: '150000',
        }).toString(),
      });
      expect(await direct.json()).toMatchObject({ errorCode: 0 });
      const declined = await refund(payment.uuid, { amount: 1000 });
      expect(declined.status, declined.text).toBe(409);
      expect(declined.body).toMatchObject({
        error: 'refund_declined',
        refund: { status: 'failed', failure_code: 'refund_declined', amount: 1000 },
      });
      expect(await read(payment.uuid)).toMatchObject({ status: 'completed', refunded_amount: 0 });
      const rest = await refund(payment.uuid, { amount: 500 });
      expect(rest.status, rest.text).toBe(201);
      expect(rest.body).toMatchObject({ refunded_amount: 500, payment_status: 'completed' });
    });

    it('settles a refund whose answer was lost with the check-refunds job, emitting payment.refunded once', async () => {
      const payment = await paid(4000);
      // The bank makes the refund, then the connection drops before its answer.
      arca.failNext({ kind: 'drop' }, 'refund');
      const lost = await refund(payment.uuid, { amount: 1500 });
      expect(lost.status, lost.text).toBe(409);
      expect(lost.body).toMatchObject({ error: 'refund_outcome_unknown', refund: { status: 'unknown', amount: 1500 } });
      const refundId = (lost.body.refund as Json).uuid;
      expect(await read(payment.uuid)).toMatchObject({ status: 'completed', refunded_amount: 0 });
      const orderId = String((await session(payment.uuid))?.reference);
      expect(arca.refundedAmount(arca.order(orderId))).toBe(150000);

      t.clock.advance(refundCheckDelayMs(0) + 1_000);
      await t.gateway.scheduler.runDueNow();
      expect(await refundsOf(payment.uuid)).toEqual([
        expect.objectContaining({ uuid: refundId, status: 'succeeded', amount: 1500 }),
      ]);
      expect(await read(payment.uuid)).toMatchObject({ status: 'completed', refunded_amount: 1500 });
      const [hook] = await deliveredHooks(payment.uuid, 'payment.refunded');
      expect(hook?.json).toMatchObject({ refund: { uuid: refundId, amount: 1500 } });

      t.clock.advance(10 * MINUTE_MS);
      await t.gateway.scheduler.runDueNow();
      expect((await eventsOf(payment.uuid)).filter((event) => event.startsWith('payment.refunded'))).toHaveLength(1);
      // Never sent again.
      expect(arca.refundedAmount(arca.order(orderId))).toBe(150000);
    });
  });
});
