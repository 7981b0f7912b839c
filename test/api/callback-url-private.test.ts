/**
 * A `callback_url` the gateway would never deliver to (localhost, a loopback, private or link-local
 * address) is refused when the payment is created: 422 `validation_failed` naming the field and
 * why, with nothing written, on both databases. With `GATEWAY_ALLOW_PRIVATE_WEBHOOKS=1`
 * (development) it is taken, and the webhook does arrive there.
 */
import { createHmac } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signingSecretsOf } from '../../gateway/webhooks/listen.service.js';
import { DIALECTS } from '../support/databases.js';
import {
  expectErrorBody,
  paymentBody,
  startTestGateway,
  type TestGateway,
  type TestMerchant,
  uniqueHost,
} from '../support/gateway.js';
import { WebhookReceiver } from '../support/webhook-receiver.js';

const refusal = (why: string) =>
  `points to a private address (${why}), where webhooks are never delivered; receive test webhooks on this machine with bin/gateway listen --forward-to URL (or start the gateway with GATEWAY_ALLOW_PRIVATE_WEBHOOKS=1, development only)`;

describe.each(DIALECTS)('callback_url on a private address, on %s', (dialect) => {
  let strict: TestGateway;
  let relaxed: TestGateway;
  let receiver: WebhookReceiver;
  beforeAll(async () => {
    strict = await startTestGateway(dialect);
    relaxed = await startTestGateway(dialect, { env: { GATEWAY_ALLOW_PRIVATE_WEBHOOKS: '1' } });
    receiver = await WebhookReceiver.start();
  });
  afterAll(async () => {
    await strict?.close();
    await relaxed?.close();
    await receiver?.close();
  });

  async function storedPayments(t: TestGateway, m: TestMerchant): Promise<number> {
    const rows = await t.gateway.deps.db
      .selectFrom('payments')
      .select('id')
      .where('merchant_id', '=', m.merchantId)
      .execute();
    return rows.length;
  }

  it.each([
    ['http://localhost:3000/webhooks', 'localhost'],
    ['http://shop.localhost/hooks', 'localhost'],
    ['http://127.0.0.1:3000/webhooks', '127.0.0.1: loopback'],
    ['http://[::1]:3000/webhooks', '::1: loopback'],
    ['http://[::ffff:127.0.0.1]/webhooks', '::ffff:7f00:1: loopback'],
    ['http://10.1.2.3/webhooks', '10.1.2.3: private'],
    ['https://192.168.0.10/webhooks', '192.168.0.10: private'],
    ['http://169.254.169.254/latest', '169.254.169.254: link-local (cloud metadata lives here)'],
    ['http://0.0.0.0:3000/webhooks', '0.0.0.0: "this network"'],
  ])('refuses %s with 422 naming callback_url and the reason, writing nothing', async (url, why) => {
    const m = await strict.merchant();
    const res = await strict.call('POST', '/api/v1/payments', {
      key: m.testKey,
      body: paymentBody({ order_id: 'private-hook', callback_url: url }),
    });
    const body = expectErrorBody(res, 422, 'validation_failed', ['errors']);
    expect(body.errors).toEqual({ callback_url: [refusal(why)] });
    expect(body.message).toBe(`The callback_url field is invalid: ${refusal(why)}.`);
    expect(await storedPayments(strict, m)).toBe(0);

    // The same order is taken at once with an address webhooks can reach.
    const fixed = await strict.call('POST', '/api/v1/payments', {
      key: m.testKey,
      body: paymentBody({ order_id: 'private-hook', callback_url: 'https://hooks.shop.invalid/webhooks' }),
    });
    expect(fixed.status, fixed.text).toBe(201);
  });

  it('names the callback_url with the other invalid fields of the same request', async () => {
    const m = await strict.merchant();
    const res = await strict.call('POST', '/api/v1/payments', {
      key: m.testKey,
      body: paymentBody({ amount: 'lots', callback_url: 'http://localhost:3000/webhooks' }),
    });
    const body = expectErrorBody(res, 422, 'validation_failed', ['errors']);
    expect(Object.keys(body.errors as object).sort()).toEqual(['amount', 'callback_url']);
    expect((body.errors as Record<string, string[]>).callback_url).toEqual([refusal('localhost')]);
  });

  it('refuses it with a live key too, before the domain rules', async () => {
    const host = uniqueHost();
    const m = await strict.liveMerchant(host);
    const res = await strict.call('POST', '/api/v1/payments', {
      key: m.liveKey,
      body: paymentBody({ return_url: `https://${host}/done`, callback_url: 'http://127.0.0.1/hooks' }),
    });
    expect(expectErrorBody(res, 422, 'validation_failed', ['errors']).errors).toEqual({
      callback_url: [refusal('127.0.0.1: loopback')],
    });
  });

  it('still takes private return_url and cancel_url (the buyer’s browser goes there, not a webhook)', async () => {
    const m = await strict.merchant();
    const res = await strict.call('POST', '/api/v1/payments', {
      key: m.testKey,
      body: paymentBody({
        return_url: 'http://localhost:3000/done',
        cancel_url: 'http://127.0.0.1:3000/cart',
        callback_url: 'https://hooks.shop.invalid/webhooks',
      }),
    });
    expect(res.status, res.text).toBe(201);
  });

  it('with GATEWAY_ALLOW_PRIVATE_WEBHOOKS=1 takes a loopback callback_url, and the webhook arrives there', async () => {
    const m = await relaxed.merchant();
    const callbackUrl = `${receiver.url}/webhooks`;
    const created = await relaxed.call('POST', '/api/v1/payments', {
      key: m.testKey,
      body: paymentBody({ callback_url: callbackUrl }),
    });
    expect(created.status, created.text).toBe(201);
    const uuid = String(created.body.uuid);
    const paid = await relaxed.call('POST', `/api/v1/test_helpers/payments/${uuid}/pay`, {
      key: m.testKey,
      body: { card_number: '4111 1111 1111 1111' },
    });
    expect(paid.status, paid.text).toBe(200);
    const [request] = await receiver.waitFor(1, 10_000);
    expect(request?.path).toBe('/webhooks');
    expect(request?.json).toMatchObject({ event: 'transaction.status.updated', transaction: { uuid } });
    const [secret] = await signingSecretsOf(relaxed.gateway.deps, { merchantId: m.merchantId, domainId: null });
    expect(secret?.secret).toMatch(/^whsec_/);
    expect(request?.headers['x-service-signature']).toBe(
      createHmac('sha256', secret?.secret ?? '')
        .update(request?.raw ?? '')
        .digest('hex'),
    );
  });
});
