/**
 * `POST /api/v1/payments/{uuid}/events/{event_id}/resend` and `bin/gateway webhook resend` (an
 * addition): a past event queued again as a new signed delivery to today's target, listed with the
 * event's other deliveries; full-access keys only; rate-limited per merchant; refusals in the
 * spec's error shape.
 */
import { createHmac } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createConnectToken } from '../../gateway/connect/connect-token.service.js';
import { MINUTE_MS } from '../../gateway/domain/clock.js';
import { attemptError } from '../../gateway/webhooks/dispatcher.js';
import { RESENDS_PER_MINUTE } from '../../gateway/webhooks/resend.service.js';
import { openWebhookSecrets } from '../../gateway/webhooks/secrets.js';
import { updateDomain } from '../../storage/domain.repository.js';
import { ATTEMPT_ERROR_MAX } from '../../storage/webhook-delivery-attempt.table.js';
import { CLI_TEST_TIMEOUT_MS, gateway as gatewayCli } from '../support/cli.js';
import { DIALECTS } from '../support/databases.js';
import { paymentBody, startTestGateway, type TestGateway, type TestMerchant } from '../support/gateway.js';
import { WebhookReceiver } from '../support/webhook-receiver.js';

// biome-ignore lint/suspicious/noExplicitAny: JSON answers read field by field
type Json = Record<string, any>;

describe.each(DIALECTS)('webhook resend (%s)', (dialect) => {
  let t: TestGateway;
  let receiver: WebhookReceiver;

  beforeAll(async () => {
    t = await startTestGateway(dialect, { env: { GATEWAY_ALLOW_PRIVATE_WEBHOOKS: '1', GATEWAY_CLOCK: 'manual' } });
    receiver = await WebhookReceiver.start();
  });
  afterEach(async () => {
    await t.gateway.scheduler.runDueNow();
    receiver.replyWith({ status: 200 });
    receiver.received.length = 0;
  });
  afterAll(async () => {
    await t?.close();
    await receiver?.close();
  });

  async function hosted(m: TestMerchant) {
    return t.gateway.deps.db
      .selectFrom('domains')
      .select(['id', 'webhook_secret', 'webhook_secret_next', 'webhook_secret_next_at'])
      .where('merchant_id', '=', m.merchantId)
      .where('hosted', '=', 1)
      .executeTakeFirstOrThrow();
  }

  /** A completed sandbox payment and its one event. */
  async function paidPayment(m: TestMerchant, overrides: Json = {}): Promise<{ uuid: string; eventId: string }> {
    const created = await t.call<Json>('POST', '/api/v1/payments', { key: m.testKey, body: paymentBody(overrides) });
    expect(created.status).toBe(201);
    const paid = await t.call('POST', `/api/v1/test_helpers/payments/${created.body.uuid}/pay`, {
      key: m.testKey,
      body: { card_number: '4111 1111 1111 1111' },
    });
    expect(paid.status).toBe(200);
    const [event] = await events(m, created.body.uuid);
    return { uuid: created.body.uuid, eventId: event?.id };
  }

  async function events(m: TestMerchant, uuid: string): Promise<Json[]> {
    const answer = await t.call<{ data: Json[] }>('GET', `/api/v1/payments/${uuid}/events`, { key: m.testKey });
    expect(answer.status).toBe(200);
    return answer.body.data;
  }

  const resend = (key: string, uuid: string, eventId: string, headers: Record<string, string> = {}) =>
    t.call<Json>('POST', `/api/v1/payments/${uuid}/events/${eventId}/resend`, { key, headers });

  it('after the receiver failed for good, a resend delivers the same event anew, signed, listed with its attempts', async () => {
    const m = await t.merchant();
    receiver.replyWith({ status: 500 });
    const { uuid, eventId } = await paidPayment(m, { callback_url: `${receiver.url}/hooks` });
    // The first attempt and the three retries (1, 5, 30 minutes) all fail: the delivery is failed.
    for (const wait of [0, MINUTE_MS, 5 * MINUTE_MS, 30 * MINUTE_MS]) {
      t.clock.advance(wait);
      await t.gateway.scheduler.runDueNow();
    }
    const [failed] = await events(m, uuid);
    expect(failed?.deliveries).toEqual([expect.objectContaining({ status: 'failed', last_status_code: 500 })]);
    const firstBody = receiver.received[0]?.json as Json;
    receiver.received.length = 0;

    // The receiver is fixed; the merchant resends.
    receiver.replyWith({ status: 200 });
    const answer = await resend(m.testKey, uuid, eventId);
    expect(answer.status, answer.text).toBe(202);
    expect(answer.body).toEqual({
      event_id: eventId,
      delivery_id: expect.any(String),
      url: `${receiver.url}/hooks`,
      status: 'pending',
      attempts: 0,
      next_attempt_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      created_at: answer.body.next_attempt_at,
    });
    expect(answer.body.delivery_id).not.toBe(failed?.deliveries[0].delivery_id);

    const [request] = await receiver.waitFor(1);
    if (request === undefined) throw new Error('no redelivery');
    const { delivery_id: deliveryId, timestamp: _t1, ...event } = request.json as Json;
    const { delivery_id: _d, timestamp: _t2, ...firstEvent } = firstBody;
    expect(deliveryId).toBe(answer.body.delivery_id);
    expect(event).toEqual(firstEvent);
    const secret = openWebhookSecrets(t.gateway.deps.sealer, (await hosted(m)).id, await hosted(m)).webhook_secret;
    expect(request.headers['x-service-signature']).toBe(createHmac('sha256', secret).update(request.raw).digest('hex'));

    await t.gateway.scheduler.runDueNow();
    const [logged] = await events(m, uuid);
    expect(logged?.deliveries.map((d: Json) => [d.delivery_id, d.status])).toEqual([
      [failed?.deliveries[0].delivery_id, 'failed'],
      [answer.body.delivery_id, 'delivered'],
    ]);
  });

  it('lists each attempt of a delivery: a receiver failing twice then answering 200 gives three rows in order', async () => {
    const m = await t.merchant();
    receiver.replyWith((_request, index) => (index < 2 ? { status: 503 } : { status: 200 }));
    const { uuid } = await paidPayment(m, { callback_url: `${receiver.url}/hooks?token=s3cret` });
    for (const wait of [0, MINUTE_MS, 5 * MINUTE_MS]) {
      t.clock.advance(wait);
      await t.gateway.scheduler.runDueNow();
    }
    const [event] = await events(m, uuid);
    const [delivery] = event?.deliveries ?? [];
    expect(delivery).toMatchObject({ status: 'delivered', attempts: 3, last_status_code: 200 });
    const log = delivery?.attempt_log as Json[];
    expect(log.map((a) => [a.attempt, a.http_status, a.outcome, a.error])).toEqual([
      [1, 503, 'retry', 'HTTP 503'],
      [2, 503, 'retry', 'HTTP 503'],
      [3, 200, 'delivered', null],
    ]);
    for (const a of log) {
      expect(a.url).toBe(`${receiver.url}/hooks?token=s3cret`);
      expect(Number.isInteger(a.duration_ms)).toBe(true);
      expect(a.duration_ms).toBeGreaterThanOrEqual(0);
    }
    // Started on the service clock, one retry delay apart; the last one is the delivery's last attempt.
    const at = log.map((a) => Date.parse(a.at));
    expect(at.slice(1).map((ms, i) => ms - (at[i] as number))).toEqual([MINUTE_MS, 5 * MINUTE_MS]);
    expect(log[2]?.at).toBe(delivery?.last_attempt_at);

    // The rows as stored: one per attempt number, nothing else.
    const rows = await t.gateway.deps.db
      .selectFrom('webhook_delivery_attempts')
      .select(['attempt', 'outcome'])
      .where('delivery_id', '=', delivery?.delivery_id)
      .orderBy('attempt')
      .execute();
    expect(rows).toEqual([
      { attempt: 1, outcome: 'retry' },
      { attempt: 2, outcome: 'retry' },
      { attempt: 3, outcome: 'delivered' },
    ]);
  });

  it('an attempt with no answer has a null status and a short error; a delivery given up ends with a failed attempt', async () => {
    const m = await t.merchant();
    const { uuid } = await paidPayment(m, { callback_url: 'http://127.0.0.1:9/closed' });
    for (const wait of [0, MINUTE_MS, 5 * MINUTE_MS, 30 * MINUTE_MS]) {
      t.clock.advance(wait);
      await t.gateway.scheduler.runDueNow();
    }
    const [event] = await events(m, uuid);
    const log = event?.deliveries[0].attempt_log as Json[];
    expect(log.map((a) => [a.attempt, a.http_status, a.outcome])).toEqual([
      [1, null, 'retry'],
      [2, null, 'retry'],
      [3, null, 'retry'],
      [4, null, 'failed'],
    ]);
    for (const a of log) {
      expect(a.error).toEqual(expect.any(String));
      expect(a.error.length).toBeGreaterThan(0);
      expect(a.error.length).toBeLessThanOrEqual(300);
    }
  });

  it("sends to today's target: the domain's webhook URL as it is now", async () => {
    const m = await t.merchant();
    const domain = await hosted(m);
    const { uuid, eventId } = await paidPayment(m);
    // No callback_url and no domain webhook URL when the event was emitted: nothing was sent.
    expect((await events(m, uuid))[0]?.deliveries).toEqual([]);
    const none = await resend(m.testKey, uuid, eventId);
    expect(none.status).toBe(409);
    expect(none.body).toMatchObject({ error: 'no_webhook_target' });
    expect(none.body.docs_url).toContain('no_webhook_target');

    await updateDomain(t.gateway.deps.db, domain.id, { webhook_url: `${receiver.url}/now` });
    const answer = await resend(m.testKey, uuid, eventId);
    expect(answer.status).toBe(202);
    expect(answer.body.url).toBe(`${receiver.url}/now`);
    const [request] = await receiver.waitFor(1);
    expect(request?.path).toBe('/now');
  });

  it("refuses payments-only keys and connect tokens (403), another merchant's payment and a foreign event (404)", async () => {
    const m = await t.merchant();
    const other = await t.merchant();
    const { uuid, eventId } = await paidPayment(m, { callback_url: `${receiver.url}/hooks` });
    const second = await paidPayment(m, { callback_url: `${receiver.url}/hooks` });
    await receiver.waitFor(2);
    receiver.received.length = 0;

    const paymentsOnly = await t.key(m.merchantId, 'test', 'payments');
    const scoped = await resend(paymentsOnly, uuid, eventId);
    expect(scoped.status).toBe(403);
    expect(scoped.body).toMatchObject({ error: 'insufficient_scope' });

    const token = (
      await createConnectToken(t.gateway.deps, {
        merchantId: m.merchantId,
        domain: m.hostedDomain,
        platform: 'woocommerce',
      })
    ).connect_token;
    const byToken = await t.call<Json>('POST', `/api/v1/payments/${uuid}/events/${eventId}/resend`, {
      headers: { 'X-Service-Connect': token },
    });
    expect(byToken.status).toBe(403);
    expect(byToken.body).toMatchObject({ error: 'insufficient_scope' });

    const foreign = await resend(other.testKey, uuid, eventId);
    expect(foreign.status).toBe(404);
    expect(foreign.body.error).toBe('not_found');
    const mixed = await resend(m.testKey, uuid, second.eventId);
    expect(mixed.status).toBe(404);
    const unknown = await resend(m.testKey, uuid, '01900000-0000-7000-8000-000000000000');
    expect(unknown.status).toBe(404);
    const garbage = await resend(m.testKey, uuid, 'not-an-id');
    expect(garbage.status).toBe(404);

    await t.gateway.scheduler.runDueNow();
    expect(receiver.received).toHaveLength(0);
    const [logged] = await events(m, uuid);
    expect(logged?.deliveries).toHaveLength(1);
  });

  it(`allows ${RESENDS_PER_MINUTE} resends a minute per merchant, then 429 with Retry-After`, async () => {
    const m = await t.merchant();
    const { uuid, eventId } = await paidPayment(m, { callback_url: `${receiver.url}/hooks` });
    // Start at a minute boundary so the window does not roll over mid-test.
    t.clock.advance(MINUTE_MS - (t.clock.nowMs() % MINUTE_MS));
    for (let i = 0; i < RESENDS_PER_MINUTE; i += 1) {
      expect((await resend(m.testKey, uuid, eventId)).status).toBe(202);
    }
    const limited = await resend(m.testKey, uuid, eventId);
    expect(limited.status).toBe(429);
    expect(limited.body.error).toBe('rate_limited');
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    // Another merchant is not held back, and other requests of this one still pass.
    const other = await t.merchant();
    const theirs = await paidPayment(other, { callback_url: `${receiver.url}/hooks` });
    expect((await resend(other.testKey, theirs.uuid, theirs.eventId)).status).toBe(202);
    expect((await t.call('GET', `/api/v1/payments/${uuid}`, { key: m.testKey })).status).toBe(200);

    t.clock.advance(MINUTE_MS);
    expect((await resend(m.testKey, uuid, eventId)).status).toBe(202);
    await t.gateway.scheduler.runDueNow();
    const [logged] = await events(m, uuid);
    expect(logged?.deliveries).toHaveLength(1 + RESENDS_PER_MINUTE + 1);
  });

  it(
    'bin/gateway webhook resend --event ID queues it for the operator (JSON), and says so for an unknown event',
    async () => {
      const m = await t.merchant();
      const { uuid, eventId } = await paidPayment(m, { callback_url: `${receiver.url}/hooks` });
      await receiver.waitFor(1);
      const cli = await gatewayCli(
        t.gateway.deps.config.databaseUrl,
        'webhook',
        'resend',
        '--event',
        eventId,
        '--json',
      );
      expect(cli.code, cli.stderr).toBe(0);
      const out = JSON.parse(cli.stdout) as Json;
      expect(out).toMatchObject({ event_id: eventId, url: `${receiver.url}/hooks`, status: 'pending' });
      await t.gateway.scheduler.runDueNow();
      const [logged] = await events(m, uuid);
      expect(logged?.deliveries.map((d: Json) => d.delivery_id)).toContain(out.delivery_id);

      const missing = await gatewayCli(
        t.gateway.deps.config.databaseUrl,
        'webhook',
        'resend',
        '--event',
        '01900000-0000-7000-8000-000000000000',
      );
      expect(missing.code).toBe(1);
      expect(missing.stderr).toContain('No event');
    },
    CLI_TEST_TIMEOUT_MS,
  );
});

describe('attempt errors as stored', () => {
  it('hide credentials in URLs, fit on one line and are bounded', () => {
    expect(attemptError('redirect (302 to https://u:p@shop.example/next?token=abc) not followed')).toBe(
      'redirect (302 to https://***:***@shop.example/next?token=***) not followed',
    );
    expect(attemptError('connection\n  refused')).toBe('connection refused');
    const long = attemptError('x'.repeat(1000));
    expect(long.length).toBe(ATTEMPT_ERROR_MAX);
    expect(long.endsWith('…')).toBe(true);
  });
});
