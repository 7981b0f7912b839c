/**
 * Webhooks under `GATEWAY_CLOCK=manual` (the gateway started as `npm start` would, without a clock
 * injected): the clock test helper moves the service's time, so the payment's times are on the
 * manual clock, but each attempt is stamped (`timestamp`, `webhook-timestamp`, signed) with the real
 * time it is sent, so a receiver that checks the stamp against its own clock, as the connector does
 * within 5 minutes, still accepts deliveries after the manual clock has moved on.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifyWebhook } from '../../connector/gateway-client/webhook-verification.js';
import { WEBHOOK_TOLERANCE_SECONDS } from '../../connector/webhooks/webhook.consumer.js';
import { loadConfig } from '../../gateway/config.js';
import { createMerchant } from '../../gateway/merchants/merchant.service.js';
import { createLogger } from '../../gateway/runtime/logger.js';
import { type Gateway, startGateway } from '../../gateway/runtime/start.js';
import { openWebhookSecrets } from '../../gateway/webhooks/secrets.js';
import { DIALECTS, freshDatabase, type TestDatabase } from '../support/databases.js';
import { PUBLIC_URL, paymentBody, TEST_GATEWAY_SECRET } from '../support/gateway.js';
import { requestJson } from '../support/http.js';
import { WebhookReceiver } from '../support/webhook-receiver.js';

const TEN_MINUTES_S = 600;

describe.each(DIALECTS)('webhooks with GATEWAY_CLOCK=manual (%s)', (dialect) => {
  let database: TestDatabase;
  let gateway: Gateway;
  let receiver: WebhookReceiver;

  beforeAll(async () => {
    database = await freshDatabase(dialect, 'gateway');
    const config = loadConfig({
      PORT: '0',
      HOST: '127.0.0.1',
      PUBLIC_URL,
      DATABASE_URL: database.url,
      GATEWAY_SECRET: TEST_GATEWAY_SECRET,
      GATEWAY_CLOCK: 'manual',
      GATEWAY_ALLOW_PRIVATE_WEBHOOKS: '1',
      LOG_LEVEL: 'silent',
    });
    gateway = await startGateway({ config, logger: createLogger('silent') });
    receiver = await WebhookReceiver.start();
  });

  afterAll(async () => {
    await gateway?.close();
    await receiver?.close();
    await database?.drop();
  });

  const call = (method: string, path: string, key: string, body?: unknown) =>
    requestJson<Record<string, unknown>>(method, `${gateway.url}${path}`, {
      headers: { 'X-Service-Key': key },
      ...(body === undefined ? {} : { body }),
    });

  it('stamps deliveries with the real time of sending, the payment with the manual clock', async () => {
    const merchant = await createMerchant(gateway.deps, { name: 'Clock Shop' });
    const key = merchant.keys[0]?.key ?? '';
    const created = await call('POST', '/api/v1/payments', key, paymentBody({ callback_url: `${receiver.url}/hook` }));
    expect(created.status).toBe(201);

    const advanced = await call('POST', '/api/v1/test_helpers/clock/advance', key, { seconds: TEN_MINUTES_S });
    expect(advanced.status).toBe(200);
    const sentAfter = Math.floor(Date.now() / 1000);
    const paid = await call('POST', `/api/v1/test_helpers/payments/${created.body.uuid}/pay`, key, {
      card_number: '4111 1111 1111 1111',
    });
    expect(paid.body.status).toBe('completed');
    const [delivery] = await receiver.waitFor(1);
    const sentBefore = Math.ceil(Date.now() / 1000);
    if (delivery === undefined) throw new Error('no webhook');

    const stamp = Number(delivery.headers['webhook-timestamp']);
    expect(stamp).toBeGreaterThanOrEqual(sentAfter);
    expect(stamp).toBeLessThanOrEqual(sentBefore);
    expect(delivery.json.timestamp).toBe(stamp);
    // The payment's own times are the manual clock's: ten minutes ahead of the real one.
    const completedAt = Date.parse(delivery.json.transaction.completed_at) / 1000;
    expect(completedAt).toBeGreaterThanOrEqual(sentAfter + TEN_MINUTES_S - 1);

    // A receiver on the real clock (the connector's check) accepts it.
    const domain = await gateway.deps.db
      .selectFrom('domains')
      .select(['id', 'webhook_secret', 'webhook_secret_next', 'webhook_secret_next_at'])
      .where('merchant_id', '=', merchant.merchant_id)
      .where('hosted', '=', 1)
      .executeTakeFirstOrThrow();
    const secret = openWebhookSecrets(gateway.deps.sealer, domain.id, domain).webhook_secret;
    const verified = verifyWebhook({
      rawBody: delivery.raw,
      headers: delivery.headers,
      secrets: [secret],
      toleranceSeconds: WEBHOOK_TOLERANCE_SECONDS,
      nowSeconds: Date.now() / 1000,
    });
    expect(verified.ok).toBe(true);
  });
});
