/**
 * A change to an account made anywhere is seen by the very next request (docs/decisions.md
 * "account version"): the CLI, with database connections of its own as when an operator runs
 * `bin/gateway` beside the server (its `main`, run in this process: test/support/cli-in-process.ts;
 * test/cli/binary.test.ts runs the binary itself), changes keys, connect tokens, domains,
 * processors, verification and rate limits of accounts whose facts the running server has just
 * read and kept; and with two gateway instances on one PostgreSQL, a change made through one is
 * seen by the other.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createConnectToken } from '../../gateway/connect/connect-token.service.js';
import { createApiKey, revokeApiKey } from '../../gateway/merchants/api-keys.service.js';
import { setProcessorEnabled } from '../../gateway/merchants/domain-processors.service.js';
import { addDomain } from '../../gateway/merchants/domains.service.js';
import { setRateLimit } from '../../gateway/merchants/merchant.service.js';
import { CLI_TEST_TIMEOUT_MS, gateway } from '../support/cli-in-process.js';
import { DIALECTS } from '../support/databases.js';
import {
  enableLiveProcessor,
  expectErrorBody,
  LIVE_MERCHANT_IDRAM,
  paymentBody,
  startTestGateway,
  type TestGateway,
  uniqueHost,
} from '../support/gateway.js';

type Json = Record<string, unknown>;

describe.each(DIALECTS)('account changes made with the CLI, on %s', { timeout: CLI_TEST_TIMEOUT_MS }, (dialect) => {
  let t: TestGateway;
  let databaseUrl: string;

  beforeAll(async () => {
    t = await startTestGateway(dialect);
    databaseUrl = t.gateway.deps.config.databaseUrl;
  });
  afterAll(async () => t?.close());

  async function cli(...args: string[]): Promise<Json> {
    const result = await gateway(databaseUrl, ...args, '--json');
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    return JSON.parse(result.stdout) as Json;
  }

  /**
   * Runs a CLI command right after the server answered as before the change (so it has just read,
   * and may keep, the account facts the change is about). `read` answers whether the server
   * answered as before the change.
   */
  async function cliWhile(read: () => Promise<boolean>, ...args: string[]): Promise<Json> {
    expect(await read(), 'the server answers as before the change').toBe(true);
    return cli(...args);
  }

  const listsWith = (headers: Record<string, string>) => async () =>
    (await t.call('GET', '/api/v1/payments', { headers })).status === 200;

  /** A merchant whose requests are not limited by the test's own reads. */
  async function merchant() {
    const m = await t.merchant();
    await setRateLimit(t.gateway.deps, m.merchantId, 1_000_000);
    return m;
  }

  /** The same, with a verified business and a live key for `host`. */
  async function liveMerchant(host: string) {
    const m = await t.liveMerchant(host);
    await setRateLimit(t.gateway.deps, m.merchantId, 1_000_000);
    return m;
  }

  async function createLive(key: string, host: string) {
    return t.call('POST', '/api/v1/payments', { key, body: paymentBody({ return_url: `https://${host}/done` }) });
  }

  it('a key revoked with the CLI is refused by the next request', async () => {
    const m = await merchant();
    const created = await createApiKey(t.gateway.deps, {
      merchantId: m.merchantId,
      environment: 'test',
      access: 'full',
    });
    await cliWhile(
      listsWith({ 'X-Service-Key': created.key }),
      'key',
      'revoke',
      '--merchant',
      m.merchantId,
      '--key-id',
      created.key_id,
    );
    expectErrorBody(await t.call('GET', '/api/v1/payments', { key: created.key }), 401, 'invalid_api_key');
  });

  it('a connect token revoked with the CLI is refused by the next request', async () => {
    const m = await merchant();
    const token = await createConnectToken(t.gateway.deps, {
      merchantId: m.merchantId,
      domain: m.hostedDomain,
      platform: 'woocommerce',
    });
    await cliWhile(
      listsWith({ 'X-Service-Connect': token.connect_token }),
      'connect-token',
      'revoke',
      '--id',
      token.id,
    );
    const res = await t.call('GET', '/api/v1/payments', { headers: { 'X-Service-Connect': token.connect_token } });
    expect(expectErrorBody(res, 401, 'invalid_connect_token').message).toMatch(/revoked/);
  });

  it('a domain added and verified with the CLI takes payments at once', async () => {
    const first = uniqueHost();
    const m = await liveMerchant(first);
    expect((await createLive(m.liveKey, first)).status).toBe(201);
    const second = uniqueHost();
    const paysOn = (host: string) => async () => (await createLive(m.liveKey, host)).status === 201;
    await cliWhile(paysOn(first), 'domain', 'add', '--merchant', m.merchantId, '--host', second, '--verified');
    expectErrorBody(await createLive(m.liveKey, second), 422, 'no_payment_method_configured', [
      'domain',
      'enabled_processors',
    ]);
    await cliWhile(
      paysOn(first),
      'processor',
      'enable',
      '--merchant',
      m.merchantId,
      '--host',
      second,
      '--processor',
      'idram',
      '--config',
      JSON.stringify(LIVE_MERCHANT_IDRAM),
    );
    const res = await createLive(m.liveKey, second);
    expect(res.status, res.text).toBe(201);
  });

  it('a processor disabled, then enabled again, with the CLI', async () => {
    const host = uniqueHost();
    const m = await liveMerchant(host);
    expect((await createLive(m.liveKey, host)).status).toBe(201);
    const pays = async () => (await createLive(m.liveKey, host)).status === 201;
    await cliWhile(pays, 'processor', 'disable', '--merchant', m.merchantId, '--host', host, '--processor', 'idram');
    expectErrorBody(await createLive(m.liveKey, host), 422, 'no_payment_method_configured', [
      'domain',
      'enabled_processors',
    ]);
    const refused = async () => (await createLive(m.liveKey, host)).status === 422;
    await cliWhile(refused, 'processor', 'enable', '--merchant', m.merchantId, '--host', host, '--processor', 'idram');
    expect((await createLive(m.liveKey, host)).status).toBe(201);
  });

  it('a business verified with the CLI may use its live key at once', async () => {
    const m = await merchant();
    const live = await t.key(m.merchantId, 'live');
    const refused = await t.call('GET', '/api/v1/payments', { key: live });
    expectErrorBody(refused, 403, 'VERIFICATION_REQUIRED', ['verification_url']);
    const liveRefused = async () => (await t.call('GET', '/api/v1/payments', { key: live })).status === 403;
    await cliWhile(liveRefused, 'business', 'verify', '--merchant', m.merchantId);
    expect((await t.call('GET', '/api/v1/payments', { key: live })).status).toBe(200);
  });

  it('a rate limit set with the CLI counts from the next request', async () => {
    const m = await t.merchant();
    await cli('merchant', 'rate-limit', '--merchant', m.merchantId, '--per-minute', '1000');
    const limitIs = (limit: string) => async () =>
      (await t.call('GET', '/api/v1/payments', { key: m.testKey })).headers.get('x-ratelimit-limit') === limit;
    // Two requests this minute under the old limit: the new limit of 2 counts them.
    expect(await limitIs('1000')()).toBe(true);
    await cliWhile(limitIs('1000'), 'merchant', 'rate-limit', '--merchant', m.merchantId, '--per-minute', '2');
    const limited = await t.call('GET', '/api/v1/payments', { key: m.testKey });
    expectErrorBody(limited, 429, 'rate_limited');
    expect(limited.headers.get('x-ratelimit-limit')).toBe('2');
    await cliWhile(limitIs('2'), 'merchant', 'rate-limit', '--merchant', m.merchantId, '--default');
    // A new minute, so that the requests of this test do not count against the limit.
    t.clock.advance(60_000);
    const restored = await t.call('GET', '/api/v1/payments', { key: m.testKey });
    expect(restored.status).toBe(200);
    expect(restored.headers.get('x-ratelimit-limit')).toBe('60');
  });

  it('a webhook secret rotated with the CLI is handed out at once', async () => {
    const m = await merchant();
    const token = await createConnectToken(t.gateway.deps, {
      merchantId: m.merchantId,
      domain: m.hostedDomain,
      platform: 'woocommerce',
    });
    const headers = { 'X-Service-Connect': token.connect_token };
    const before = await t.call('GET', '/api/v1/connect_token', { headers });
    expect(before.body.webhook_secrets).toHaveLength(1);
    const rotated = await cli('domain', 'rotate-secret', '--merchant', m.merchantId, '--host', m.hostedDomain);
    const after = await t.call('GET', '/api/v1/connect_token', { headers });
    expect(after.body.webhook_secrets).toEqual([rotated.webhook_secret, rotated.webhook_secret_next]);
  });
});

describe('two gateway instances on one PostgreSQL', () => {
  let first: TestGateway;
  let second: TestGateway;

  beforeAll(async () => {
    first = await startTestGateway('postgres');
    second = await startTestGateway('postgres', { databaseUrl: first.gateway.deps.config.databaseUrl });
  });
  afterAll(async () => {
    await second?.close();
    await first?.close();
  });

  it('a key revoked through one is refused by the other on its next request', async () => {
    const m = await first.merchant();
    const created = await createApiKey(first.gateway.deps, {
      merchantId: m.merchantId,
      environment: 'test',
      access: 'full',
    });
    for (const instance of [first, second, second]) {
      expect((await instance.call('GET', '/api/v1/payments', { key: created.key })).status).toBe(200);
    }
    await revokeApiKey(first.gateway.deps, { merchantId: m.merchantId, keyId: created.key_id });
    expectErrorBody(await second.call('GET', '/api/v1/payments', { key: created.key }), 401, 'invalid_api_key');
    expectErrorBody(await first.call('GET', '/api/v1/payments', { key: created.key }), 401, 'invalid_api_key');
  });

  it('a domain and processor changed through one are used by the other on its next request', async () => {
    const host = uniqueHost();
    const m = await first.liveMerchant(host);
    const create = (instance: TestGateway, on: string) =>
      instance.call('POST', '/api/v1/payments', {
        key: m.liveKey,
        body: paymentBody({ return_url: `https://${on}/done` }),
      });
    expect((await create(second, host)).status).toBe(201);
    const added = uniqueHost();
    expectErrorBody(await create(second, added), 403, 'domain_not_registered', ['domain']);
    await addDomain(first.gateway.deps, { merchantId: m.merchantId, host: added, verified: true });
    await enableLiveProcessor(first.gateway.deps, m.merchantId, added);
    expect((await create(second, added)).status).toBe(201);
    await setProcessorEnabled(first.gateway.deps, {
      merchantId: m.merchantId,
      host: added,
      processor: 'idram',
      enabled: false,
    });
    expectErrorBody(await create(second, added), 422, 'no_payment_method_configured', ['domain', 'enabled_processors']);
  });
});
