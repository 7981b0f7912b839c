/**
 * Webhook delivery end to end, over real HTTP on both databases (spec "Events", "Webhook delivery
 * body", "Delivery rules", "Authentication" 8): a real local receiver records the raw bytes, and
 * the test checks every signature with its own HMAC. The retry schedule runs on the manual clock.
 */
import { createHmac } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { DAY_MS, MINUTE_MS, toApiInstant, toStoredInstant } from '../../gateway/domain/clock.js';
import { addDomain, rotateWebhookSecret } from '../../gateway/merchants/domains.service.js';
import { openWebhookSecrets } from '../../gateway/webhooks/secrets.js';
import { DIALECTS } from '../support/databases.js';
import { paymentBody, startTestGateway, type TestGateway, type TestMerchant } from '../support/gateway.js';
import { expectedStatusEvent } from '../support/payment-shape.js';
import { type ReceivedWebhook, WebhookReceiver } from '../support/webhook-receiver.js';

type Json = Record<string, unknown>;

const BODY_KEYS = ['delivery_id', 'event', 'livemode', 'receipt', 'refund', 'timestamp', 'transaction'];
const TRANSACTION_KEYS = [
  'amount',
  'completed_at',
  'created_at',
  'currency',
  'failure_code',
  'order_id',
  'processor',
  'refunded_amount',
  'status',
  'uuid',
];

function hmacHex(secret: string, raw: Buffer): string {
  return createHmac('sha256', secret).update(raw).digest('hex');
}

/** Standard Webhooks: base64 HMAC of "id.timestamp.body" keyed with the base64 part of `whsec_...`. */
function standardSignature(secret: string, request: ReceivedWebhook): string {
  const key = Buffer.from(secret.slice('whsec_'.length), 'base64');
  const signed = `${request.headers['webhook-id']}.${request.headers['webhook-timestamp']}.${request.raw.toString('utf8')}`;
  return `v1,${createHmac('sha256', key).update(signed).digest('base64')}`;
}

describe.each(DIALECTS)('webhook delivery (%s)', (dialect) => {
  let t: TestGateway;
  let receiver: WebhookReceiver;

  beforeAll(async () => {
    t = await startTestGateway(dialect, { env: { GATEWAY_ALLOW_PRIVATE_WEBHOOKS: '1', GATEWAY_CLOCK: 'manual' } });
    receiver = await WebhookReceiver.start();
  });
  afterEach(async () => {
    // Let a run in progress record its attempts before the next test starts.
    await t.gateway.scheduler.runDueNow();
    receiver.replyWith({ status: 200 });
    receiver.received.length = 0;
  });
  afterAll(async () => {
    await t?.close();
    await receiver?.close();
  });

  /** The hosted domain's current secret, opened from its sealed row. */
  async function hostedSecret(m: TestMerchant): Promise<string> {
    const row = await t.gateway.deps.db
      .selectFrom('domains')
      .select(['id', 'webhook_secret', 'webhook_secret_next', 'webhook_secret_next_at'])
      .where('merchant_id', '=', m.merchantId)
      .where('hosted', '=', 1)
      .executeTakeFirstOrThrow();
    return openWebhookSecrets(t.gateway.deps.sealer, row.id, row).webhook_secret;
  }

  async function createPayment(m: TestMerchant, overrides: Json = {}): Promise<Json> {
    const created = await t.call('POST', '/api/v1/payments', { key: m.testKey, body: paymentBody(overrides) });
    expect(created.status).toBe(201);
    return created.body;
  }

  async function pay(m: TestMerchant, uuid: unknown, card = '4111 1111 1111 1111'): Promise<Json> {
    const paid = await t.call('POST', `/api/v1/test_helpers/payments/${uuid}/pay`, {
      key: m.testKey,
      body: { card_number: card },
    });
    expect(paid.status).toBe(200);
    return paid.body;
  }

  async function events(m: TestMerchant, uuid: unknown): Promise<Json[]> {
    const answer = await t.call<{ data: Json[] }>('GET', `/api/v1/payments/${uuid}/events`, { key: m.testKey });
    expect(answer.status).toBe(200);
    return answer.body.data;
  }

  /** Moves the clock and runs what became due, like the clock test helper does. */
  async function advance(ms: number): Promise<void> {
    await t.gateway.scheduler.runDueNow();
    t.clock.advance(ms);
    await t.gateway.scheduler.runDueNow();
  }

  it('delivers a completed payment to its callback_url: signed raw bytes, the spec body, Standard Webhooks headers', async () => {
    const m = await t.merchant();
    const secret = await hostedSecret(m);
    const created = await createPayment(m, { callback_url: `${receiver.url}/hooks/gateway` });
    const paid = await pay(m, created.uuid);

    const [request] = await receiver.waitFor(1);
    if (request === undefined) throw new Error('no webhook');
    expect(request.path).toBe('/hooks/gateway');
    expect(request.headers['content-type']).toBe('application/json');
    expect(request.headers['x-service-signature']).toBe(hmacHex(secret, request.raw));
    expect(request.headers['x-service-signature-next']).toBeUndefined();

    const body = request.json as Json;
    expect(Object.keys(body).sort()).toEqual(BODY_KEYS);
    expect(Object.keys(body.transaction as Json).sort()).toEqual(TRANSACTION_KEYS);
    const { delivery_id: deliveryId, timestamp, ...event } = body;
    expect(event).toEqual(expectedStatusEvent(paid));
    expect(body.livemode).toBe(false);
    expect(timestamp).toBe(Math.floor(t.clock.nowMs() / 1000));
    expect((body.transaction as Json).completed_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\+00:00$/);
    expect(typeof deliveryId).toBe('string');

    expect(request.headers['webhook-id']).toBe(deliveryId);
    expect(request.headers['webhook-timestamp']).toBe(String(timestamp));
    expect(request.headers['webhook-signature']).toBe(standardSignature(secret, request));

    await t.gateway.scheduler.runDueNow();
    const [logged] = await events(m, created.uuid);
    expect(logged).toMatchObject({ event: 'transaction.status.updated', livemode: false, body: event });
    expect(logged?.deliveries).toEqual([
      {
        delivery_id: deliveryId,
        url: `${receiver.url}/hooks/gateway`,
        status: 'delivered',
        attempts: 1,
        next_attempt_at: null,
        last_attempt_at: toApiInstant(toStoredInstant(t.clock.nowMs())),
        last_status_code: 200,
        last_error: null,
        delivered_at: toApiInstant(toStoredInstant(t.clock.nowMs())),
        attempt_log: [
          {
            attempt: 1,
            at: toApiInstant(toStoredInstant(t.clock.nowMs())),
            url: `${receiver.url}/hooks/gateway`,
            http_status: 200,
            duration_ms: expect.any(Number),
            error: null,
            outcome: 'delivered',
          },
        ],
      },
    ]);
  });

  it('delivers failed and expired payments too', async () => {
    const m = await t.merchant();
    const declined = await createPayment(m, { callback_url: `${receiver.url}/declined` });
    await pay(m, declined.uuid, '4000 0000 0000 0002');
    const open = await createPayment(m, { callback_url: `${receiver.url}/expired` });
    await receiver.waitFor(1);
    await advance(20 * MINUTE_MS);
    const [first, second] = await receiver.waitFor(2);
    expect(first?.path).toBe('/declined');
    expect(first?.json.transaction).toMatchObject({ uuid: declined.uuid, status: 'failed', failure_code: 'declined' });
    expect(second?.path).toBe('/expired');
    expect(second?.json.transaction).toMatchObject({ uuid: open.uuid, status: 'expired', completed_at: null });
  });

  it("sends to the domain's webhook URL when the payment has no callback_url", async () => {
    const m = await t.merchant();
    await addDomain(t.gateway.deps, {
      merchantId: m.merchantId,
      host: m.hostedDomain,
      verified: true,
      webhookUrl: `${receiver.url}/domain-hook`,
    });
    const created = await createPayment(m);
    await pay(m, created.uuid);
    const [request] = await receiver.waitFor(1);
    expect(request?.path).toBe('/domain-hook');
    expect(request?.json.transaction.uuid).toBe(created.uuid);
  });

  it('keeps an event without a target, lists it, and neither sends nor retries it', async () => {
    const m = await t.merchant();
    const created = await createPayment(m);
    await pay(m, created.uuid);
    await advance(DAY_MS);
    expect(receiver.received).toHaveLength(0);
    const logged = await events(m, created.uuid);
    expect(logged).toHaveLength(1);
    expect(logged[0]).toMatchObject({ event: 'transaction.status.updated', deliveries: [] });
    const rows = await t.gateway.deps.db.selectFrom('webhook_deliveries').selectAll().execute();
    expect(rows.filter((r) => r.merchant_id === m.merchantId)).toEqual([]);
  });

  it('retries a failing receiver after 1, 5 and 30 minutes with the same delivery_id, then stops for good', async () => {
    const m = await t.merchant();
    receiver.replyWith({ status: 500 });
    const created = await createPayment(m, { callback_url: `${receiver.url}/failing` });
    const failedPayment = await pay(m, created.uuid, '4000 0000 0000 0002');
    expect(failedPayment.status).toBe('failed');
    await receiver.waitFor(1);

    await advance(MINUTE_MS - 1_000);
    expect(receiver.received).toHaveLength(1);
    await advance(1_000);
    expect(receiver.received).toHaveLength(2);
    await advance(5 * MINUTE_MS - 1_000);
    expect(receiver.received).toHaveLength(2);
    await advance(1_000);
    expect(receiver.received).toHaveLength(3);
    await advance(30 * MINUTE_MS - 1_000);
    expect(receiver.received).toHaveLength(3);
    await advance(1_000);
    expect(receiver.received).toHaveLength(4);
    await advance(7 * DAY_MS);
    expect(receiver.received).toHaveLength(4);

    const ids = new Set(receiver.received.map((r) => r.json.delivery_id));
    expect(ids.size).toBe(1);
    const timestamps = receiver.received.map((r) => r.json.timestamp as number);
    expect(timestamps.slice(1).map((s, i) => s - (timestamps[i] as number))).toEqual([60, 300, 1800]);
    // Every attempt is signed over its own bytes.
    const secret = await hostedSecret(m);
    for (const r of receiver.received) expect(r.headers['x-service-signature']).toBe(hmacHex(secret, r.raw));

    const [logged] = await events(m, created.uuid);
    expect(logged?.deliveries).toEqual([
      expect.objectContaining({
        delivery_id: [...ids][0],
        status: 'failed',
        attempts: 4,
        next_attempt_at: null,
        last_status_code: 500,
        last_error: 'HTTP 500',
        delivered_at: null,
      }),
    ]);
  });

  it('delivers on a retry once the receiver recovers, and a redirect counts as a failure', async () => {
    const m = await t.merchant();
    receiver.replyWith((_request, index) =>
      index === 0 ? { status: 301, headers: { Location: `${receiver.url}/elsewhere` } } : { status: 200 },
    );
    const created = await createPayment(m, { callback_url: `${receiver.url}/recovering` });
    await pay(m, created.uuid);
    await receiver.waitFor(1);
    await t.gateway.scheduler.runDueNow();
    let [logged] = await events(m, created.uuid);
    expect(logged?.deliveries).toEqual([
      expect.objectContaining({
        status: 'pending',
        attempts: 1,
        last_status_code: 301,
        last_error: `redirect (301 to ${receiver.url}/elsewhere) not followed`,
        next_attempt_at: toApiInstant(toStoredInstant(t.clock.nowMs() + MINUTE_MS)),
      }),
    ]);
    await advance(MINUTE_MS);
    expect(receiver.received.map((r) => r.path)).toEqual(['/recovering', '/recovering']);
    [logged] = await events(m, created.uuid);
    expect(logged?.deliveries).toEqual([expect.objectContaining({ status: 'delivered', attempts: 2 })]);
  });

  it('runs due retries before the clock test helper answers', async () => {
    const m = await t.merchant();
    receiver.replyWith((_request, index) => (index === 0 ? { status: 503 } : { status: 200 }));
    const created = await createPayment(m, { callback_url: `${receiver.url}/helper` });
    await pay(m, created.uuid);
    await receiver.waitFor(1);
    await t.gateway.scheduler.runDueNow();
    const advanced = await t.call('POST', '/api/v1/test_helpers/clock/advance', {
      key: m.testKey,
      body: { seconds: 60 },
    });
    expect(advanced.status).toBe(200);
    expect(receiver.received).toHaveLength(2);
  });

  it('signs with both secrets during a rotation, then with the new one alone after 24 hours', async () => {
    const m = await t.merchant();
    const rotation = await rotateWebhookSecret(t.gateway.deps, { merchantId: m.merchantId, host: m.hostedDomain });
    const oldSecret = rotation.webhook_secret;
    const newSecret = rotation.webhook_secret_next;
    expect(newSecret).not.toBe(oldSecret);

    const during = await createPayment(m, { callback_url: `${receiver.url}/rotation` });
    await pay(m, during.uuid);
    const [first] = await receiver.waitFor(1);
    if (first === undefined) throw new Error('no webhook');
    expect(first.headers['x-service-signature']).toBe(hmacHex(oldSecret, first.raw));
    expect(first.headers['x-service-signature-next']).toBe(hmacHex(newSecret, first.raw));
    expect(first.headers['webhook-signature']).toBe(
      `${standardSignature(oldSecret, first)} ${standardSignature(newSecret, first)}`,
    );

    await advance(DAY_MS);
    expect(await hostedSecret(m)).toBe(newSecret);
    const after = await createPayment(m, { callback_url: `${receiver.url}/rotation` });
    await pay(m, after.uuid);
    const [, second] = await receiver.waitFor(2);
    if (second === undefined) throw new Error('no webhook');
    expect(second.headers['x-service-signature']).toBe(hmacHex(newSecret, second.raw));
    expect(second.headers['x-service-signature-next']).toBeUndefined();
    expect(second.headers['webhook-signature']).toBe(standardSignature(newSecret, second));
  });

  it('a retry after the rotation ended is signed with the new secret', async () => {
    const m = await t.merchant();
    const rotation = await rotateWebhookSecret(t.gateway.deps, { merchantId: m.merchantId, host: m.hostedDomain });
    receiver.replyWith((_request, index) => (index === 0 ? { status: 500 } : { status: 200 }));
    const created = await createPayment(m, { callback_url: `${receiver.url}/late-retry` });
    await pay(m, created.uuid);
    await receiver.waitFor(1);
    await t.gateway.scheduler.runDueNow();
    // The retry is due after a minute; nothing runs until a day later, when the rotation is over.
    t.clock.advance(DAY_MS);
    await t.gateway.scheduler.runDueNow();
    const [, retry] = await receiver.waitFor(2);
    if (retry === undefined) throw new Error('no retry');
    expect(retry.headers['x-service-signature']).toBe(hmacHex(rotation.webhook_secret_next, retry.raw));
    expect(retry.headers['x-service-signature-next']).toBeUndefined();
  });

  it('delivers payment.refunded to the callback_url for each refund, with the refund and the payment after it', async () => {
    const m = await t.merchant();
    const secret = await hostedSecret(m);
    const created = await createPayment(m, { amount: 8000, callback_url: `${receiver.url}/refunds` });
    await pay(m, created.uuid);
    await receiver.waitFor(1);

    const partial = await t.call('POST', `/api/v1/payments/${created.uuid}/refund`, {
      key: m.testKey,
      body: { amount: 3000, reason: 'Վերադարձ: one book' },
    });
    expect(partial.status).toBe(201);
    const full = await t.call('POST', `/api/v1/payments/${created.uuid}/refund`, { key: m.testKey });
    expect(full.status).toBe(201);

    const [, first, second] = await receiver.waitFor(3);
    for (const request of [first, second]) {
      if (request === undefined) throw new Error('no webhook');
      expect(request.headers['x-service-signature']).toBe(hmacHex(secret, request.raw));
      expect(Object.keys(request.json).sort()).toEqual(BODY_KEYS);
      expect(request.json.event).toBe('payment.refunded');
      expect(request.json.livemode).toBe(false);
    }
    expect(first?.json.refund).toEqual({ uuid: partial.body.uuid, amount: 3000, reason: 'Վերադարձ: one book' });
    expect(first?.json.transaction).toMatchObject({ uuid: created.uuid, status: 'completed', refunded_amount: 3000 });
    expect(second?.json.refund).toEqual({ uuid: full.body.uuid, amount: 5000, reason: null });
    expect(second?.json.transaction).toMatchObject({ uuid: created.uuid, status: 'refunded', refunded_amount: 8000 });
    expect(new Set([first?.json.delivery_id, second?.json.delivery_id]).size).toBe(2);
  });

  // Sixteen failing deliveries and thirteen clock moves: longer than most tests on a busy machine.
  it('emails the merchant when a delivery for a paid payment fails for good, at most once per domain every 6 hours', {
    timeout: 60_000,
  }, async () => {
    const m = await t.merchant({ email: 'owner@shop.example' });
    receiver.replyWith({ status: 500 });
    const emails = () =>
      t.gateway.deps.db.selectFrom('merchant_emails').selectAll().where('merchant_id', '=', m.merchantId).execute();
    /** A payment whose delivery fails four times; answers its uuid. */
    const failForGood = async (card: string) => {
      const created = await createPayment(m, { callback_url: `${receiver.url}/down` });
      await pay(m, created.uuid, card);
      const before = receiver.received.length;
      await receiver.waitFor(before + 1);
      for (const wait of [MINUTE_MS, 5 * MINUTE_MS, 30 * MINUTE_MS]) await advance(wait);
      expect(receiver.received.length).toBe(before + 4);
      return created.uuid;
    };

    // A failed payment's webhook failing is not worth an email.
    await failForGood('4000 0000 0000 0002');
    expect(await emails()).toEqual([]);

    const paidUuid = await failForGood('4111 1111 1111 1111');
    const [email] = await emails();
    expect(email).toMatchObject({ kind: 'webhook_delivery_failed', recipient: 'owner@shop.example', status: 'logged' });
    expect(email?.body).toContain(String(paidUuid));
    expect(email?.body).toContain(`${receiver.url}/down`);

    // Within six hours of that email, another failure for the same domain sends none.
    await failForGood('4111 1111 1111 1111');
    expect(await emails()).toHaveLength(1);
    await advance(6 * 60 * MINUTE_MS);
    await failForGood('4111 1111 1111 1111');
    expect(await emails()).toHaveLength(2);
  });

  it('answers 404 for the events of a payment the key cannot see', async () => {
    const owner = await t.merchant();
    const other = await t.merchant();
    const created = await createPayment(owner);
    const answer = await t.call('GET', `/api/v1/payments/${created.uuid}/events`, { key: other.testKey });
    expect(answer.status).toBe(404);
    expect(answer.body).toMatchObject({ error: 'not_found' });
    expect((await t.call('GET', '/api/v1/payments/not-a-uuid/events', { key: owner.testKey })).status).toBe(404);
  });
});

describe('webhook delivery with two instances on one PostgreSQL', () => {
  it('sends every delivery exactly once', { timeout: 60_000 }, async () => {
    const env = { GATEWAY_ALLOW_PRIVATE_WEBHOOKS: '1', GATEWAY_RATE_LIMIT_PER_MINUTE: '100000' };
    const first = await startTestGateway('postgres', { env });
    const second = await startTestGateway('postgres', { env, databaseUrl: first.gateway.deps.config.databaseUrl });
    const receiver = await WebhookReceiver.start();
    try {
      const m = await first.merchant();
      const count = 40;
      const created = await Promise.all(
        Array.from({ length: count }, async () => {
          const answer = await first.call('POST', '/api/v1/payments', {
            key: m.testKey,
            body: paymentBody({ callback_url: `${receiver.url}/twice` }),
          });
          expect(answer.status).toBe(201);
          return answer.body;
        }),
      );
      receiver.replyWith({ status: 200, delayMs: 20 });
      // Half the payments complete through each instance; both dispatchers wake and race for the rows.
      await Promise.all(
        created.map(async (p, i) => {
          const via = i % 2 === 0 ? first : second;
          const paid = await via.call('POST', `/api/v1/test_helpers/payments/${p.uuid}/pay`, {
            key: m.testKey,
            body: { card_number: '4111 1111 1111 1111' },
          });
          expect(paid.status).toBe(200);
        }),
      );
      await Promise.all([first.gateway.scheduler.runDueNow(), second.gateway.scheduler.runDueNow()]);
      await receiver.waitFor(count);
      await Promise.all([first.gateway.scheduler.runDueNow(), second.gateway.scheduler.runDueNow()]);
      const perDelivery = new Map<string, number>();
      for (const r of receiver.received) {
        perDelivery.set(r.json.delivery_id, (perDelivery.get(r.json.delivery_id) ?? 0) + 1);
      }
      expect(perDelivery.size).toBe(count);
      expect([...perDelivery.values()].every((n) => n === 1)).toBe(true);
      const rows = await first.gateway.deps.db
        .selectFrom('webhook_deliveries')
        .select(['status', 'attempts'])
        .execute();
      expect(rows).toHaveLength(count);
      expect(rows.every((r) => r.status === 'delivered' && r.attempts === 1)).toBe(true);
    } finally {
      await receiver.close();
      await second.close();
      await first.close();
    }
  });
});
