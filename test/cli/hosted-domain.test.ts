/**
 * The hosted domain is named after PUBLIC_URL's host, which may be an IP address, `localhost` or a
 * name. Every command that names a domain (`--host`, `connect-token create --domain`) takes it
 * exactly as `merchant create --json` printed it, whatever that host is.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLI_TEST_TIMEOUT_MS, type CliResult, gatewayAt } from '../support/cli-in-process.js';
import { DIALECTS, freshDatabase, type TestDatabase } from '../support/databases.js';

type Json = Record<string, unknown>;

const PUBLIC_URLS: ReadonlyArray<[string, RegExp]> = [
  ['http://127.0.0.1:8080', /^hosted-shop-[0-9a-f]{6}\.127\.0\.0\.1$/],
  ['http://[::1]:8080', /^hosted-shop-[0-9a-f]{6}\.\[::1\]$/],
  ['http://localhost:8080', /^hosted-shop-[0-9a-f]{6}\.localhost$/],
  ['https://Pay.Example.AM', /^hosted-shop-[0-9a-f]{6}\.pay\.example\.am$/],
];

function parsed(result: CliResult): Json {
  expect(result.stderr).toBe('');
  expect(result.code).toBe(0);
  return JSON.parse(result.stdout) as Json;
}

/**
 * Each command is a process of about two seconds: SQLite runs every form, PostgreSQL the two that
 * are not DNS names (the lookup is the same query on both).
 */
function formsOn(dialect: string) {
  return dialect === 'sqlite' ? PUBLIC_URLS : PUBLIC_URLS.filter(([url]) => /\/\/[[\d]/.test(url));
}

describe.each(DIALECTS)('the hosted domain in bin/gateway on %s', (dialect) => {
  let database: TestDatabase;

  beforeAll(async () => {
    database = await freshDatabase(dialect, 'gateway');
  });
  afterAll(async () => database?.drop());

  it.each(formsOn(dialect))(
    'with PUBLIC_URL=%s, every --host takes it as printed',
    async (publicUrl, shape) => {
      const cli = (...args: string[]) => gatewayAt(publicUrl, database.url, ...args, '--json');
      const created = parsed(await cli('merchant', 'create', '--name', 'Hosted Shop'));
      const merchant = String(created.merchant_id);
      const host = String(created.hosted_domain);
      expect(host).toMatch(shape);
      const [printed] = created.domains as Array<{ host: string; webhook_secret: string }>;
      expect(printed?.host).toBe(host);

      const rotated = parsed(await cli('domain', 'rotate-secret', '--merchant', merchant, '--host', host));
      expect(rotated.webhook_secret).toBe(printed?.webhook_secret);
      expect(rotated.webhook_secret_next).toMatch(/^whsec_/);

      // The hosted domain is verified by construction: --verified keeps it so, even for localhost.
      const updated = parsed(
        await cli(
          'domain',
          'add',
          '--merchant',
          merchant,
          '--host',
          host,
          '--verified',
          '--webhook-url',
          'https://hooks.example.am/gateway',
        ),
      );
      expect(updated).toEqual({
        merchant_id: merchant,
        host,
        verified: true,
        hosted: true,
        webhook_secret: printed?.webhook_secret,
        webhook_url: 'https://hooks.example.am/gateway',
      });

      const enabled = parsed(
        await cli(
          'processor',
          'enable',
          '--merchant',
          merchant,
          '--host',
          host.toUpperCase(),
          '--processor',
          'sandbox',
        ),
      );
      expect(enabled).toEqual({ merchant_id: merchant, host, processor: 'sandbox', enabled: true, position: 0 });

      const token = parsed(
        await cli('connect-token', 'create', '--merchant', merchant, '--domain', host, '--platform', 'woocommerce'),
      );
      expect(token).toMatchObject({ merchant_id: merchant, domain: host, platform: 'woocommerce' });
    },
    CLI_TEST_TIMEOUT_MS,
  );
});

describe('bin/gateway --host beside the hosted domain', () => {
  let database: TestDatabase;

  beforeAll(async () => {
    database = await freshDatabase('sqlite', 'gateway');
  });
  afterAll(async () => database?.drop());

  it(
    'still refuses a host that is neither a domain of the merchant nor a domain name',
    async () => {
      const publicUrl = 'http://127.0.0.1:8080';
      const created = parsed(
        await gatewayAt(publicUrl, database.url, 'merchant', 'create', '--name', 'Other', '--json'),
      );
      const someoneElses = String(created.hosted_domain).replace(/^other-/, 'another-');
      const refused = await gatewayAt(
        publicUrl,
        database.url,
        'domain',
        'rotate-secret',
        '--merchant',
        String(created.merchant_id),
        '--host',
        someoneElses,
      );
      expect(refused.code).toBe(1);
      expect(refused.stderr).toContain(`"${someoneElses}" is not a valid domain name`);
      const adding = await gatewayAt(
        publicUrl,
        database.url,
        'domain',
        'add',
        '--merchant',
        String(created.merchant_id),
        '--host',
        'localhost',
        '--verified',
      );
      expect(adding.code).toBe(1);
      expect(adding.stderr).toContain('can never be verified');
    },
    CLI_TEST_TIMEOUT_MS,
  );
});
