/**
 * What a copy of the database gives away (docs/decisions.md "Secrets at rest"), on both databases:
 * webhook secrets are sealed, so the copy cannot sign a webhook; the service secret is not in it, so
 * it cannot mint a connect token; deliveries, introspection and rotation keep working; a secret an
 * earlier version stored in clear still signs, and is sealed at the next start. On SQLite without
 * `GATEWAY_SECRET`, the CLI and the server share the generated secret file.
 */
import { createHmac } from 'node:crypto';
import { decodeJwt, SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectTokenKey } from '../../gateway/connect/connect-token.jwt.js';
import { createConnectToken } from '../../gateway/connect/connect-token.service.js';
import { rotateWebhookSecret } from '../../gateway/merchants/domains.service.js';
import { openDatabase } from '../../storage/connect.js';
import { gatewayWith } from '../support/cli.js';
import { DIALECTS } from '../support/databases.js';
import { paymentBody, startTestGateway, type TestGateway, uniqueHost } from '../support/gateway.js';
import { WebhookReceiver } from '../support/webhook-receiver.js';

type Json = Record<string, unknown>;

/** Every text value of every table: what a copy of the database gives away. */
async function everyStoredText(databaseUrl: string): Promise<string[]> {
  const handle = openDatabase(databaseUrl);
  try {
    const values: string[] = [];
    for (const table of await handle.db.introspection.getTables()) {
      // biome-ignore lint/suspicious/noExplicitAny: every table, whatever its columns
      const rows = await (handle.db as any).selectFrom(table.name).selectAll().execute();
      for (const row of rows as Array<Record<string, unknown>>) {
        for (const value of Object.values(row)) if (typeof value === 'string') values.push(value);
      }
    }
    return values;
  } finally {
    await handle.close();
  }
}

describe.each(DIALECTS)('secrets at rest (%s)', (dialect) => {
  let t: TestGateway;
  let receiver: WebhookReceiver;
  let databaseUrl: string;

  beforeAll(async () => {
    t = await startTestGateway(dialect, { env: { GATEWAY_ALLOW_PRIVATE_WEBHOOKS: '1' } });
    databaseUrl = t.gateway.deps.config.databaseUrl;
    receiver = await WebhookReceiver.start();
  });
  afterAll(async () => {
    await t?.close();
    await receiver?.close();
  });

  /** Creates and pays a test payment whose webhook goes to the receiver; answers the delivery. */
  async function deliveredWebhook(testKey: string) {
    const before = receiver.received.length;
    const created = await t.call('POST', '/api/v1/payments', {
      key: testKey,
      body: paymentBody({ callback_url: `${receiver.url}/hooks` }),
    });
    expect(created.status, created.text).toBe(201);
    await t.call('POST', `/api/v1/test_helpers/payments/${created.body.uuid}/pay`, {
      key: testKey,
      body: { card_number: '4111 1111 1111 1111' },
    });
    await t.gateway.scheduler.runDueNow();
    const received = await receiver.waitFor(before + 1);
    return received[before] as (typeof received)[number];
  }

  const hmac = (secret: string, raw: Buffer) => createHmac('sha256', secret).update(raw).digest('hex');

  it('keeps webhook secrets sealed; deliveries are signed with the plaintext secret, during a rotation too', async () => {
    const m = await t.merchant();
    const token = await createConnectToken(t.gateway.deps, {
      merchantId: m.merchantId,
      domain: m.hostedDomain,
      platform: 'woocommerce',
    });
    const introspected = await t.call('GET', '/api/v1/connect_token', {
      headers: { 'X-Service-Connect': token.connect_token },
    });
    const [secret] = introspected.body.webhook_secrets as string[];
    expect(secret).toMatch(/^whsec_/);

    const stored = await t.gateway.deps.db
      .selectFrom('domains')
      .select(['webhook_secret', 'webhook_secret_next'])
      .where('merchant_id', '=', m.merchantId)
      .executeTakeFirstOrThrow();
    expect(stored.webhook_secret).toMatch(/^v1\./);
    const everything = await everyStoredText(databaseUrl);
    expect(everything.filter((value) => value.includes(String(secret)))).toEqual([]);
    expect(everything.filter((value) => value.startsWith('whsec_'))).toEqual([]);

    const first = await deliveredWebhook(m.testKey);
    expect(first.headers['x-service-signature']).toBe(hmac(String(secret), first.raw));

    const rotated = await rotateWebhookSecret(t.gateway.deps, { merchantId: m.merchantId, host: m.hostedDomain });
    expect(rotated.webhook_secret).toBe(secret);
    const during = await deliveredWebhook(m.testKey);
    expect(during.headers['x-service-signature']).toBe(hmac(String(secret), during.raw));
    expect(during.headers['x-service-signature-next']).toBe(hmac(rotated.webhook_secret_next, during.raw));
    expect((await everyStoredText(databaseUrl)).filter((value) => value.includes(rotated.webhook_secret_next))).toEqual(
      [],
    );
  });

  it('uses a secret an earlier version stored in clear, and seals it at the next start', async () => {
    const m = await t.merchant();
    const clear = `whsec_${Buffer.from('an-earlier-version-secret-0123').toString('base64')}`;
    await t.gateway.deps.db
      .updateTable('domains')
      .set({ webhook_secret: clear })
      .where('merchant_id', '=', m.merchantId)
      .execute();
    const before = await deliveredWebhook(m.testKey);
    expect(before.headers['x-service-signature']).toBe(hmac(clear, before.raw));

    const next = await startTestGateway(dialect, { databaseUrl });
    await next.close();
    expect((await everyStoredText(databaseUrl)).filter((value) => value.includes(clear))).toEqual([]);
    const after = await deliveredWebhook(m.testKey);
    expect(after.headers['x-service-signature']).toBe(hmac(clear, after.raw));
  });
});

describe('an SQLite database whose service secret was generated (no GATEWAY_SECRET)', () => {
  let t: TestGateway;

  beforeAll(async () => {
    t = await startTestGateway('sqlite', { env: { GATEWAY_SECRET: '' } });
  });
  afterAll(async () => t?.close());

  it('a connect token issued with the CLI is accepted by the server', async () => {
    const m = await t.merchant();
    const result = await gatewayWith(
      { DATABASE_URL: t.gateway.deps.config.databaseUrl, GATEWAY_SECRET: '' },
      'connect-token',
      'create',
      '--merchant',
      m.merchantId,
      '--domain',
      m.hostedDomain,
      '--platform',
      'woocommerce',
      '--json',
    );
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    const { connect_token } = JSON.parse(result.stdout) as Json;
    const res = await t.call('GET', '/api/v1/connect_token', {
      headers: { 'X-Service-Connect': String(connect_token) },
    });
    expect(res.status, res.text).toBe(200);
  });

  it('gives no value from which a working live connect token can be built', async () => {
    const host = uniqueHost();
    const shop = await t.liveMerchant(host);
    const real = await createConnectToken(t.gateway.deps, {
      merchantId: shop.merchantId,
      domain: host,
      platform: 'woocommerce',
      environment: 'live',
    });
    const claims = decodeJwt(real.connect_token);
    const sign = (secret: string) =>
      new SignJWT({ ...claims }).setProtectedHeader({ alg: 'HS256', typ: 'JWT' }).sign(connectTokenKey(secret));
    const answer = async (token: string) =>
      (await t.call('GET', '/api/v1/payments', { headers: { 'X-Service-Connect': token } })).status;
    // The claims signed with the service secret are the token itself.
    expect(await answer(await sign(t.gateway.secret))).toBe(200);

    const candidates = [...new Set(await everyStoredText(t.gateway.deps.config.databaseUrl))].filter(
      (value) => value.length >= 16,
    );
    expect(candidates.length).toBeGreaterThan(10);
    for (const [i, value] of candidates.entries()) {
      // Each refusal counts against this address's failed authentications: a new minute every 100.
      if (i % 100 === 99) t.clock.advance(60_000);
      expect(await answer(await sign(value)), value).toBe(401);
    }
  });
});
