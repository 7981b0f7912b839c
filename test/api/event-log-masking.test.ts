/**
 * `GET /api/v1/payments/{uuid}/events` and the webhook target (docs/decisions.md "Webhook URLs as
 * people see them"): a `callback_url` with a user name, a password and a token in its query is
 * answered as set to a full-access key, and masked (`***` for the user name, the password and every
 * query value) in each delivery and each attempt to a payments-only key and to a connect token.
 * Both databases.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createConnectToken } from '../../gateway/connect/connect-token.service.js';
import { addDomain } from '../../gateway/merchants/domains.service.js';
import { DIALECTS } from '../support/databases.js';
import { type CallOptions, paymentBody, startTestGateway, type TestGateway, uniqueHost } from '../support/gateway.js';
import { WebhookReceiver } from '../support/webhook-receiver.js';

// biome-ignore lint/suspicious/noExplicitAny: JSON answers read field by field
type Json = Record<string, any>;

describe.each(DIALECTS)('the webhook target in a payment event log (%s)', (dialect) => {
  let t: TestGateway;
  let receiver: WebhookReceiver;
  let uuid: string;
  let clearUrl: string;
  let maskedUrl: string;
  let fullKey: CallOptions;
  let paymentsKey: CallOptions;
  let connectToken: CallOptions;

  beforeAll(async () => {
    t = await startTestGateway(dialect, { env: { GATEWAY_ALLOW_PRIVATE_WEBHOOKS: '1' } });
    receiver = await WebhookReceiver.start();
    const port = new URL(receiver.url).port;
    clearUrl = `http://hook-user:hook-pass@127.0.0.1:${port}/x?token=abc123&mode=live`;
    maskedUrl = `http://***:***@127.0.0.1:${port}/x?token=***&mode=***`;

    const m = await t.merchant();
    const host = uniqueHost('store');
    await addDomain(t.gateway.deps, { merchantId: m.merchantId, host, verified: true });
    const token = await createConnectToken(t.gateway.deps, {
      merchantId: m.merchantId,
      domain: host,
      platform: 'woocommerce',
    });
    fullKey = { key: m.testKey };
    paymentsKey = { key: await t.key(m.merchantId, 'test', 'payments') };
    connectToken = { headers: { 'X-Service-Connect': token.connect_token } };

    // A payment of the token's domain (so each of the three may read it), paid, its webhook sent.
    const created = await t.call<Json>('POST', '/api/v1/payments', {
      ...connectToken,
      body: paymentBody({ callback_url: clearUrl }),
    });
    expect(created.status, created.text).toBe(201);
    uuid = created.body.uuid;
    const paid = await t.call('POST', `/api/v1/test_helpers/payments/${uuid}/pay`, {
      ...fullKey,
      body: { card_number: '4111 1111 1111 1111' },
    });
    expect(paid.status, paid.text).toBe(200);
    await receiver.waitFor(1);
    await t.gateway.scheduler.runDueNow();
  });
  afterAll(async () => {
    await t?.close();
    await receiver?.close();
  });

  async function eventLog(as: CallOptions): Promise<{ text: string; deliveries: Json[] }> {
    const answer = await t.call<{ data: Json[] }>('GET', `/api/v1/payments/${uuid}/events`, as);
    expect(answer.status, answer.text).toBe(200);
    const deliveries = answer.body.data.flatMap((e) => e.deliveries as Json[]);
    // The event of the payment completed, delivered at the first attempt.
    expect(deliveries).toHaveLength(1);
    expect(deliveries[0]?.attempt_log).toHaveLength(1);
    return { text: answer.text, deliveries };
  }

  it('the webhook really went to the URL as set (credentials and query included)', () => {
    const [request] = receiver.received;
    expect(request?.path).toBe('/x?token=abc123&mode=live');
    expect(request?.headers.authorization).toBe(`Basic ${Buffer.from('hook-user:hook-pass').toString('base64')}`);
  });

  it('answers the URL as set to a full-access key, in the delivery and in its attempt', async () => {
    const { deliveries } = await eventLog(fullKey);
    expect(deliveries[0]?.url).toBe(clearUrl);
    expect(deliveries[0]?.attempt_log[0].url).toBe(clearUrl);
  });

  it.each([
    ['a payments-only key', () => paymentsKey],
    ['a connect token', () => connectToken],
  ])('masks it for %s: no user name, password or query value anywhere in the answer', async (_, as) => {
    const { text, deliveries } = await eventLog(as());
    expect(deliveries[0]?.url).toBe(maskedUrl);
    expect(deliveries[0]?.attempt_log[0].url).toBe(maskedUrl);
    for (const secret of ['hook-user', 'hook-pass', 'abc123']) expect(text).not.toContain(secret);
    // The rest of the delivery is the same as a full-access key reads it.
    const full = (await eventLog(fullKey)).deliveries[0] as Json;
    expect({ ...deliveries[0], url: full.url, attempt_log: full.attempt_log }).toEqual(full);
    expect(deliveries[0]?.attempt_log[0]).toEqual({ ...full.attempt_log[0], url: maskedUrl });
  });
});
