/**
 * "Send a test event" and the webhook settings the dashboard shows, on both dialects: the test
 * event reaches a local receiver at once, signed as real deliveries are (checked with the
 * project's verification helper), marked as a test, and the receiver's answer is reported, a
 * failing one included; webhook URLs at private places are refused when set; a rotation's end is
 * exposed for a countdown.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { verifyStandardWebhook, verifyWebhook } from '../../../connector/gateway-client/webhook-verification.js';
import { HOUR_MS } from '../../../gateway/domain/clock.js';
import { addDomain, rotateWebhookSecret } from '../../../gateway/merchants/domains.service.js';
import { OperatorError } from '../../../gateway/merchants/operator.js';
import type { Deps } from '../../../gateway/runtime/deps.js';
import { TEST_EVENT_PAYMENT_UUID } from '../../../gateway/webhooks/events.js';
import { sendTestEvent, TEST_EVENT_ANSWER_BYTES } from '../../../gateway/webhooks/test-event.service.js';
import { getWebhookSettings, setWebhookUrl } from '../../../gateway/webhooks/webhook-settings.service.js';
import { DIALECTS } from '../../support/databases.js';
import { startTestGateway, type TestGateway, uniqueHost } from '../../support/gateway.js';
import { WebhookReceiver } from '../../support/webhook-receiver.js';

describe.each(DIALECTS)('webhook test event and settings on %s', (dialect) => {
  let t: TestGateway;
  let deps: Deps;
  let receiver: WebhookReceiver;

  beforeAll(async () => {
    receiver = await WebhookReceiver.start();
    t = await startTestGateway(dialect, { env: { GATEWAY_ALLOW_PRIVATE_WEBHOOKS: '1' } });
    deps = t.gateway.deps;
  });
  afterEach(() => {
    receiver.replyWith({ status: 200 });
    receiver.received.length = 0;
  });
  afterAll(async () => {
    await t?.close();
    await receiver?.close();
  });

  async function domainWithHook(path = '/hooks?token=abc') {
    const m = await t.merchant();
    const host = uniqueHost('hooks');
    const added = await addDomain(deps, {
      merchantId: m.merchantId,
      host,
      verified: false,
      webhookUrl: `${receiver.url}${path}`,
    });
    return { merchantId: m.merchantId, host, secret: added.webhook_secret };
  }

  it('delivers a signed transaction.status.updated marked as a test, now and outside the outbox', async () => {
    const { merchantId, host, secret } = await domainWithHook();
    const result = await sendTestEvent(deps, { merchantId, host });
    expect(result).toMatchObject({
      merchant_id: merchantId,
      host,
      url: `${receiver.url}/hooks?token=***`,
      event: 'transaction.status.updated',
      delivered: true,
      status_code: 200,
      answer: 'ok',
      error: null,
    });
    expect(result.duration_ms).toBeGreaterThanOrEqual(0);
    expect(receiver.received).toHaveLength(1);
    const [received] = receiver.received;
    if (received === undefined) throw new Error('no request');
    expect(received.path).toBe('/hooks?token=abc');

    const verified = verifyWebhook({
      rawBody: received.raw,
      headers: received.headers,
      secrets: secret,
      toleranceSeconds: 300,
      nowSeconds: Math.floor(t.clock.nowMs() / 1000),
    });
    expect(verified.ok, JSON.stringify(verified)).toBe(true);
    const standard = verifyStandardWebhook({
      rawBody: received.raw,
      headers: received.headers,
      secrets: secret,
      nowSeconds: Math.floor(t.clock.nowMs() / 1000),
    });
    expect(standard.ok).toBe(true);
    expect(received.headers['webhook-id']).toBe(result.delivery_id);
    expect(Object.keys(received.json).sort()).toEqual(
      ['delivery_id', 'event', 'livemode', 'receipt', 'refund', 'timestamp', 'transaction'].sort(),
    );
    expect(received.json).toMatchObject({
      delivery_id: result.delivery_id,
      event: 'transaction.status.updated',
      livemode: false,
      timestamp: Math.floor(t.clock.nowMs() / 1000),
      refund: null,
      receipt: null,
      transaction: {
        uuid: TEST_EVENT_PAYMENT_UUID,
        order_id: 'gateway-test-event',
        status: 'completed',
        amount: 1000,
        refunded_amount: 0,
        currency: 'AMD',
        processor: 'sandbox',
        completed_at: '2026-11-21T10:00:30+00:00',
        created_at: '2026-11-21T10:00:30+00:00',
      },
    });
    // Not an outbox event: nothing is queued or retried.
    const queued = await deps.db.selectFrom('webhook_deliveries').select('id').execute();
    expect(queued).toEqual([]);
  });

  it('reports a failing receiver: its status, the start of its answer, the error', async () => {
    const { merchantId, host } = await domainWithHook('/broken');
    receiver.replyWith({ status: 500, body: `database down ${'x'.repeat(5000)}` });
    const result = await sendTestEvent(deps, { merchantId, host });
    expect(result).toMatchObject({ delivered: false, status_code: 500, error: 'HTTP 500' });
    expect(result.answer?.startsWith('database down xxx')).toBe(true);
    expect(result.answer).toHaveLength(TEST_EVENT_ANSWER_BYTES);

    receiver.replyWith({ hangUp: true });
    const hungUp = await sendTestEvent(deps, { merchantId, host });
    expect(hungUp).toMatchObject({ delivered: false, status_code: null, answer: null });
    expect(hungUp.error).not.toBeNull();
  });

  it('signs with both secrets during a rotation, and exposes when the rotation ends', async () => {
    const { merchantId, host, secret } = await domainWithHook();
    expect((await getWebhookSettings(deps, { merchantId, host })).secret_rotation).toBeNull();
    const rotation = await rotateWebhookSecret(deps, { merchantId, host });
    expect(await getWebhookSettings(deps, { merchantId, host })).toEqual({
      merchant_id: merchantId,
      host,
      webhook_url: `${receiver.url}/hooks?token=abc`,
      secret_rotation: { ends_at: rotation.next_active_at, seconds_left: 24 * 3600 },
    });
    await sendTestEvent(deps, { merchantId, host });
    const [received] = receiver.received;
    if (received === undefined) throw new Error('no request');
    const now = Math.floor(t.clock.nowMs() / 1000);
    const byNext = verifyWebhook({
      rawBody: received.raw,
      headers: received.headers,
      secrets: [rotation.webhook_secret_next],
      nowSeconds: now,
    });
    expect(byNext).toMatchObject({ ok: true, header: 'x-service-signature-next' });
    const byCurrent = verifyWebhook({
      rawBody: received.raw,
      headers: received.headers,
      secrets: secret,
      nowSeconds: now,
    });
    expect(byCurrent).toMatchObject({ ok: true, header: 'x-service-signature' });

    t.clock.advance(23 * HOUR_MS + 30 * 60_000);
    expect((await getWebhookSettings(deps, { merchantId, host })).secret_rotation?.seconds_left).toBe(30 * 60);
    t.clock.advance(30 * 60_000);
    expect((await getWebhookSettings(deps, { merchantId, host })).secret_rotation).toBeNull();
  });

  it('refuses a test event without a webhook URL', async () => {
    const m = await t.merchant();
    const host = uniqueHost('nohook');
    await addDomain(deps, { merchantId: m.merchantId, host, verified: false });
    await expect(sendTestEvent(deps, { merchantId: m.merchantId, host })).rejects.toThrow('has no webhook URL');
  });

  it('refuses webhook URLs at private places unless development allows them', async () => {
    const strict: Deps = { ...deps, config: { ...deps.config, allowPrivateWebhooks: false } };
    const m = await t.merchant();
    const host = uniqueHost('strict');
    await addDomain(strict, { merchantId: m.merchantId, host, verified: false });
    for (const url of [
      'http://127.0.0.1:3000/hooks',
      'http://localhost/hooks',
      'https://api.localhost/hooks',
      'http://10.1.2.3/hooks',
      'http://[::1]:8080/hooks',
      'http://169.254.169.254/latest',
    ]) {
      await expect(setWebhookUrl(strict, { merchantId: m.merchantId, host, url }), url).rejects.toThrow(OperatorError);
    }
    await expect(
      setWebhookUrl(strict, { merchantId: m.merchantId, host, url: 'http://192.168.0.10/hooks' }),
    ).rejects.toThrow('private address');
    const set = await setWebhookUrl(strict, { merchantId: m.merchantId, host, url: 'https://hooks.example.am/in' });
    expect(set.webhook_url).toBe('https://hooks.example.am/in');
    // Development (GATEWAY_ALLOW_PRIVATE_WEBHOOKS=1) lets a local receiver be set.
    const local = await setWebhookUrl(deps, { merchantId: m.merchantId, host, url: 'http://127.0.0.1:3000/hooks' });
    expect(local.webhook_url).toBe('http://127.0.0.1:3000/hooks');
  });
});
