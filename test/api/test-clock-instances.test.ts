/**
 * One test clock for every process on a database (`GATEWAY_CLOCK=manual`, docs/decisions.md "The test
 * clock"): two gateway instances started as `npm start` starts one (no clock injected) and the
 * CLI, on one SQLite file or one PostgreSQL database. An advance through either instance is read by
 * the other at its next request and by its due work without any request; the CLI reads it too, so
 * a webhook secret rotation it starts on a clock moved days ahead is still running, and the next
 * delivery carries `X-Service-Signature-Next`.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifyWebhook } from '../../connector/gateway-client/webhook-verification.js';
import { loadConfig } from '../../gateway/config.js';
import { DAY_MS, MINUTE_MS, toApiInstant, toStoredInstant } from '../../gateway/domain/clock.js';
import { createMerchant } from '../../gateway/merchants/merchant.service.js';
import { createLogger } from '../../gateway/runtime/logger.js';
import { type Gateway, startGateway } from '../../gateway/runtime/start.js';
import { type DatabaseHandle, openDatabase } from '../../storage/connect.js';
import { advanceTestClock } from '../../storage/test-clock.repository.js';
import { CLI_TEST_TIMEOUT_MS, gatewayWith } from '../support/cli.js';
import { DIALECTS, freshDatabase, type TestDatabase } from '../support/databases.js';
import { PUBLIC_URL, paymentBody, TEST_GATEWAY_SECRET } from '../support/gateway.js';
import { requestJson } from '../support/http.js';
import { WebhookReceiver } from '../support/webhook-receiver.js';

const TWO_DAYS_S = 2 * 24 * 3600;

describe.each(DIALECTS)('one test clock for every instance and the CLI (%s)', (dialect) => {
  let database: TestDatabase;
  let a: Gateway;
  let b: Gateway;
  /** A connection of the test's own, as a third process would have. */
  let outside: DatabaseHandle;
  let receiver: WebhookReceiver;
  let key: string;
  let merchantId: string;
  let host: string;

  const env = {
    DATABASE_URL: '',
    PUBLIC_URL,
    GATEWAY_SECRET: TEST_GATEWAY_SECRET,
    GATEWAY_CLOCK: 'manual',
    GATEWAY_ALLOW_PRIVATE_WEBHOOKS: '1',
    GATEWAY_RATE_LIMIT_PER_MINUTE: '100000',
    LOG_LEVEL: 'silent',
  };

  const start = () =>
    startGateway({
      config: loadConfig({ ...env, DATABASE_URL: database.url, PORT: '0', HOST: '127.0.0.1' }),
      logger: createLogger('silent'),
    });

  const call = (gateway: Gateway, method: string, path: string, body?: unknown) =>
    requestJson<Record<string, unknown>>(method, `${gateway.url}${path}`, {
      headers: { 'X-Service-Key': key },
      ...(body === undefined ? {} : { body }),
    });

  const advance = async (gateway: Gateway, seconds: number): Promise<string> => {
    const res = await call(gateway, 'POST', '/api/v1/test_helpers/clock/advance', { seconds });
    expect(res.status, res.text).toBe(200);
    return String(res.body.now);
  };

  const createdAt = async (gateway: Gateway): Promise<string> => {
    const res = await call(gateway, 'POST', '/api/v1/payments', paymentBody());
    expect(res.status, res.text).toBe(201);
    return String(res.body.created_at);
  };

  beforeAll(async () => {
    database = await freshDatabase(dialect, 'gateway');
    a = await start();
    b = await start();
    outside = openDatabase(database.url);
    receiver = await WebhookReceiver.start();
    const merchant = await createMerchant(a.deps, { name: 'Clock Shop' });
    key = merchant.keys[0]?.key ?? '';
    merchantId = merchant.merchant_id;
    host = merchant.hosted_domain;
  });

  afterAll(async () => {
    await a?.close();
    await b?.close();
    await outside?.close();
    await receiver?.close();
    await database?.drop();
  });

  it('an advance through one instance is read by the other at its next request, both ways', async () => {
    const moved = await advance(a, TWO_DAYS_S);
    expect(await createdAt(b)).toBe(moved);

    const again = await advance(b, 90);
    expect(Date.parse(again) - Date.parse(moved)).toBe(90_000);
    expect(await createdAt(a)).toBe(again);
  });

  it('due work of every instance runs on an advance made elsewhere, with no request to it', async () => {
    const created = await call(b, 'POST', '/api/v1/payments', paymentBody());
    expect(created.body.status).toBe('pending');
    const uuid = String(created.body.uuid);

    // Moved by a third process: neither instance answers a request or runs the helper's due work.
    expect(await advanceTestClock(outside.db, 21 * MINUTE_MS)).toBe(true);
    const status = () =>
      outside.db.selectFrom('payments').select('status').where('id', '=', uuid).executeTakeFirstOrThrow();
    const deadline = performance.now() + 10_000;
    while ((await status()).status !== 'expired') {
      if (performance.now() > deadline) throw new Error(`the payment did not expire: ${(await status()).status}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    // Expired on the moved clock: 21 minutes after its creation, not at the real time.
    const row = await outside.db
      .selectFrom('payments')
      .select(['created_at', 'updated_at'])
      .where('id', '=', uuid)
      .executeTakeFirstOrThrow();
    expect(Date.parse(row.updated_at) - Date.parse(row.created_at)).toBe(21 * MINUTE_MS);
  });

  it('the CLI reads the moved clock: a rotation it starts days ahead signs the next delivery', {
    timeout: CLI_TEST_TIMEOUT_MS,
  }, async () => {
    const now = await advance(a, TWO_DAYS_S);

    const rotated = await gatewayWith(
      { ...env, DATABASE_URL: database.url },
      'domain',
      'rotate-secret',
      '--merchant',
      merchantId,
      '--host',
      host,
    );
    expect(rotated.code, rotated.stderr).toBe(0);
    const printed = /^New webhook secret (whsec_\S+): .* at (\S+)\.$/.exec(rotated.stdout.trim());
    const [, next, endsAt] = printed ?? [];
    if (next === undefined || endsAt === undefined) throw new Error(`unexpected output: ${rotated.stdout}`);
    // The rotation runs 24 hours from the clock's time, not from the real one, so the instance
    // whose clock was moved still reads it as running.
    expect(toApiInstant(toStoredInstant(Date.parse(endsAt) - DAY_MS))).toBe(now);

    const created = await call(a, 'POST', '/api/v1/payments', paymentBody({ callback_url: `${receiver.url}/hook` }));
    expect(created.status, created.text).toBe(201);
    const paid = await call(a, 'POST', `/api/v1/test_helpers/payments/${created.body.uuid}/pay`, {
      card_number: '4111 1111 1111 1111',
    });
    expect(paid.body.status).toBe('completed');
    const [delivery] = await receiver.waitFor(1);
    if (delivery === undefined) throw new Error('no webhook');
    expect(delivery.headers['x-service-signature-next']).toBeDefined();
    const verified = verifyWebhook({ rawBody: delivery.raw, headers: delivery.headers, secrets: [next] });
    expect(verified).toMatchObject({ ok: true, header: 'x-service-signature-next' });
  });
});
