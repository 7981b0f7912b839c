/**
 * `bin/connector reconcile` run as an operator does, beside a running connector with a WooCommerce
 * store: `--json` prints one JSON document on stdout while its logs go to stderr, and a run without
 * the server's secret (or with another one) refuses clearly instead of generating a new secret.
 * SQLite only: the secret file beside the database is SQLite's.
 */
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createConnectToken } from '../../gateway/connect/connect-token.service.js';
import { secretFileOf } from '../../gateway/runtime/service-secret.js';
import { CLI_TEST_TIMEOUT_MS } from '../support/cli.js';
import { startTestConnector, type TestConnector } from '../support/connector.js';
import { type FakeWooCommerce, LOOPBACK_TEST_CALLBACKS, startFakeWooCommerce } from '../support/fake-woocommerce.js';
import { startTestGateway, type TestGateway } from '../support/gateway.js';

const run = promisify(execFile);

/** Runs `bin/connector` with the connector's environment plus `env`; an empty value unsets a variable. */
async function connectorCli(
  base: Record<string, string>,
  env: Record<string, string>,
  ...args: string[]
): Promise<{ code: number; stdout: string; stderr: string }> {
  const merged: NodeJS.ProcessEnv = { ...process.env, ...base, ...env };
  for (const [name, value] of Object.entries(env)) if (value === '') delete merged[name];
  try {
    const { stdout, stderr } = await run('node', ['bin/connector', ...args], { env: merged });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
  }
}

describe('bin/connector reconcile', () => {
  let gw: TestGateway;
  let store: FakeWooCommerce;
  let connector: TestConnector;
  let connectionId: string;
  let token: string;
  const range = () => [
    '--from',
    new Date(Date.now() - 3_600_000).toISOString(),
    '--to',
    new Date(Date.now() + 60_000).toISOString(),
  ];

  beforeAll(async () => {
    gw = await startTestGateway('sqlite');
    store = await startFakeWooCommerce({ testCallbacks: LOOPBACK_TEST_CALLBACKS });
    connector = await startTestConnector('sqlite', gw);
    const merchant = await gw.merchant();
    token = (
      await createConnectToken(gw.gateway.deps, {
        merchantId: merchant.merchantId,
        domain: merchant.hostedDomain,
        platform: 'woocommerce',
      })
    ).connect_token;
    const registered = await connector.call<{ connection_id: string; authorize_url: string }>(
      'POST',
      '/v1/connections',
      { token, body: { store_url: store.url } },
    );
    connectionId = registered.body.connection_id;
    await store.approve(registered.body.authorize_url);
    store.addOrder({ total: '1500.00', status: 'processing', date_paid_gmt: new Date().toISOString().slice(0, 19) });
  }, 60_000);

  afterAll(async () => {
    await connector?.close();
    await store?.close();
    await gw?.close();
  });

  it(
    'prints exactly one JSON document with --json, and logs to stderr',
    async () => {
      // Logging on, and a setting that logs a warning whenever the connector opens.
      const result = await connectorCli(
        connector.env,
        { LOG_LEVEL: 'info', GATEWAY_ALLOW_PRIVATE_WEBHOOKS: '1' },
        'reconcile',
        '--connection',
        connectionId,
        ...range(),
        '--json',
      );
      expect(result.code).toBe(0);
      expect(result.stdout.endsWith('\n')).toBe(true);
      expect(result.stdout.trimEnd().split('\n')).toHaveLength(1);
      const report = JSON.parse(result.stdout) as { connection_id: string; orders_checked: number };
      expect(report).toMatchObject({ connection_id: connectionId, orders_checked: 1 });
      expect(result.stderr).toContain('store calls may reach private networks');
      expect(result.stdout).not.toContain(token);
    },
    CLI_TEST_TIMEOUT_MS,
  );

  it(
    "refuses without the server's secret, and stores no new one",
    async () => {
      const secretFile = secretFileOf(connector.env.CONNECTOR_DATABASE_URL ?? '');
      expect(secretFile).not.toBeNull();
      expect(existsSync(secretFile ?? '')).toBe(false);

      const result = await connectorCli(
        connector.env,
        { GATEWAY_SECRET: '' },
        'reconcile',
        '--connection',
        connectionId,
        ...range(),
        '--json',
      );
      expect(result.code).toBe(1);
      expect(result.stdout).toBe('');
      const refusal = JSON.parse(result.stderr) as { error: string; message: string };
      expect(refusal.error).toBe('secret_missing');
      expect(refusal.message).toContain('GATEWAY_SECRET is not set');
      expect(refusal.message).toContain(secretFile);
      expect(existsSync(secretFile ?? '')).toBe(false);

      // The connection list reads no sealed value: it works without the secret, and creates none either.
      const list = await connectorCli(connector.env, { GATEWAY_SECRET: '' }, 'connection', 'list', '--json');
      expect(list.code).toBe(0);
      expect(existsSync(secretFile ?? '')).toBe(false);
    },
    CLI_TEST_TIMEOUT_MS,
  );

  it(
    'refuses clearly when the secret it is given cannot open the stored connection',
    async () => {
      const result = await connectorCli(
        connector.env,
        { GATEWAY_SECRET: 'another-secret-another-secret-0123456789' },
        'reconcile',
        '--connection',
        connectionId,
        ...range(),
      );
      expect(result.code).toBe(1);
      expect(result.stdout).toBe('');
      expect(result.stderr.trim()).toBe(
        `The secret this command was given cannot open connection ${connectionId}: run it with the same GATEWAY_SECRET (or secret file) as the connector's server.`,
      );
    },
    CLI_TEST_TIMEOUT_MS,
  );
});
