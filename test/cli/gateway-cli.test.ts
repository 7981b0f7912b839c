/**
 * `bin/gateway` as an operator runs it: the command line's `main` in the test process
 * (test/support/cli-in-process.ts; test/cli/binary.test.ts runs the real binary), a real database
 * of each dialect, and the `--json` shapes that other tools rely on.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../storage/connect.js';
import { CLI_TEST_TIMEOUT_MS, gateway } from '../support/cli-in-process.js';
import { DIALECTS, freshDatabase, type TestDatabase } from '../support/databases.js';

async function json<T = Record<string, unknown>>(databaseUrl: string, ...args: string[]): Promise<T> {
  const result = await gateway(databaseUrl, ...args, '--json');
  expect(result.stderr).toBe('');
  expect(result.code).toBe(0);
  return JSON.parse(result.stdout) as T;
}

describe.each(DIALECTS)('bin/gateway on %s', { timeout: CLI_TEST_TIMEOUT_MS }, (dialect) => {
  let database: TestDatabase;
  let url: string;

  beforeAll(async () => {
    database = await freshDatabase(dialect);
    url = database.url;
  });
  afterAll(async () => database?.drop());

  it('migrates, and migrating again applies nothing', async () => {
    expect(await json(url, 'migrate')).toEqual({
      migrations_applied: [
        '0001-core',
        '0002-lifecycle',
        '0003-webhooks-refunds',
        '0004-billing',
        '0005-connect-tokens',
        '0006-account-version',
        '0007-processor-sessions',
        '0008-limits-fx',
        '0009-payment-items',
        '0010-receipts',
        '0011-domain-verification',
        '0012-dashboard-accounts',
        '0013-dashboard-audit',
        '0014-business-verification',
        '0015-key-last-use',
        '0016-dashboard-totp',
        '0017-dashboard-invitations',
        '0018-payment-links',
        '0019-customer-totals',
        '0020-payment-counts',
        '0021-payment-search',
        '0022-webhook-delivery-attempts',
        '0023-dashboard-mail-sends',
        '0024-merchant-language',
        '0025-sandbox-payments-are-test',
        '0026-test-clock',
        '0027-payment-prefix-search',
        '0028-payment-holds',
        '0029-payment-count-shards',
        '0030-unlogged-rate-limits',
        '0031-partial-payment-indexes',
      ],
    });
    expect(await json(url, 'migrate')).toEqual({ migrations_applied: [] });
  });

  it('creates a merchant with a hosted domain, a test key and its domains, printing the contract shape', async () => {
    const created = await json<{
      merchant_id: string;
      hosted_domain: string;
      keys: Array<{ key: string; environment: string; access: string }>;
      domains: Array<{ host: string; verified: boolean; hosted: boolean; webhook_secret: string }>;
    }>(
      url,
      'merchant',
      'create',
      '--name',
      'Ararat Books',
      '--email',
      'owner@ararat.am',
      '--domain',
      'ararat.am',
      '--domain',
      'books.am',
      '--verify-domains',
    );
    expect(Object.keys(created)).toEqual(['merchant_id', 'hosted_domain', 'keys', 'domains']);
    expect(created.hosted_domain).toMatch(/^ararat-books-[0-9a-f]{6}\.pay\.example\.am$/);
    expect(created.keys).toHaveLength(1);
    expect(Object.keys(created.keys[0] ?? {})).toEqual(['key', 'environment', 'access']);
    expect(created.keys[0]).toMatchObject({ environment: 'test', access: 'full' });
    expect(created.keys[0]?.key).toMatch(/^sk_test_[A-Za-z0-9_-]{43}$/);
    expect(created.domains.map((d) => [d.host, d.verified, d.hosted])).toEqual([
      [created.hosted_domain, true, true],
      ['ararat.am', true, false],
      ['books.am', true, false],
    ]);
    for (const domain of created.domains) {
      expect(Object.keys(domain)).toEqual(['host', 'verified', 'hosted', 'webhook_secret']);
      expect(domain.webhook_secret).toMatch(/^whsec_[A-Za-z0-9+/]{32}$/);
    }

    // The key is stored only as a hash.
    const handle = openDatabase(url);
    try {
      const rows = await handle.db
        .selectFrom('api_keys')
        .selectAll()
        .where('merchant_id', '=', created.merchant_id)
        .execute();
      expect(rows).toHaveLength(1);
      const stored = JSON.stringify(rows);
      expect(stored).not.toContain(created.keys[0]?.key);
      expect(rows[0]?.key_hash).toMatch(/^[0-9a-f]{64}$/);
      expect(rows[0]?.key_last4).toBe(created.keys[0]?.key.slice(-4));
    } finally {
      await handle.close();
    }
  });

  it('creates keys, adds domains, rotates secrets, verifies the business and enables processors', async () => {
    const { merchant_id } = await json<{ merchant_id: string }>(url, 'merchant', 'create', '--name', 'Garni Tea');

    const key = await json(
      url,
      'key',
      'create',
      '--merchant',
      merchant_id,
      '--environment',
      'live',
      '--access',
      'payments',
    );
    expect(key).toMatchObject({ environment: 'live', access: 'payments', merchant_id });
    expect(key.key).toMatch(/^sk_live_[A-Za-z0-9_-]{43}$/);

    const revoked = await json(url, 'key', 'revoke', '--merchant', merchant_id, '--key-id', String(key.key_id));
    expect(revoked).toEqual({ merchant_id, key_id: key.key_id, revoked: true });
    const again = await gateway(url, 'key', 'revoke', '--merchant', merchant_id, '--key-id', String(key.key_id));
    expect(again.code).toBe(1);
    expect(again.stderr).toContain(`has no active key ${key.key_id}`);

    const domain = await json(
      url,
      'domain',
      'add',
      '--merchant',
      merchant_id,
      '--host',
      'Garni.AM',
      '--webhook-url',
      'https://garni.am/hooks',
    );
    expect(domain).toMatchObject({
      host: 'garni.am',
      verified: false,
      hosted: false,
      webhook_url: 'https://garni.am/hooks',
    });

    const verified = await json(url, 'domain', 'add', '--merchant', merchant_id, '--host', 'garni.am', '--verified');
    expect(verified).toMatchObject({ host: 'garni.am', verified: true, webhook_secret: domain.webhook_secret });

    const rotated = await json(url, 'domain', 'rotate-secret', '--merchant', merchant_id, '--host', 'garni.am');
    expect(Object.keys(rotated)).toEqual(['webhook_secret', 'webhook_secret_next']);
    expect(rotated.webhook_secret).toBe(domain.webhook_secret);
    expect(rotated.webhook_secret_next).toMatch(/^whsec_/);
    expect(rotated.webhook_secret_next).not.toBe(domain.webhook_secret);

    // Extended with the request decided (none: the merchant sent none) and the emails (no address here).
    expect(await json(url, 'business', 'verify', '--merchant', merchant_id)).toEqual({
      merchant_id,
      business_verified: true,
      status: 'verified',
      verification_id: null,
      reason: null,
      decided_at: expect.any(String),
      emails: [],
    });

    expect(
      await json(url, 'processor', 'enable', '--merchant', merchant_id, '--host', 'garni.am', '--processor', 'sandbox'),
    ).toEqual({ merchant_id, host: 'garni.am', processor: 'sandbox', enabled: true, position: 0 });
    const placed = await gateway(
      url,
      'processor',
      'enable',
      '--merchant',
      merchant_id,
      '--host',
      'garni.am',
      '--processor',
      'sandbox',
      '--position',
      '7',
      '--json',
    );
    expect(JSON.parse(placed.stdout)).toMatchObject({ processor: 'sandbox', enabled: true, position: 7 });
    // The sandbox takes no settings: --config is refused, not stored.
    const configured = await gateway(
      url,
      'processor',
      'enable',
      '--merchant',
      merchant_id,
      '--host',
      'garni.am',
      '--processor',
      'sandbox',
      '--config',
      '{"secret":"s3cr3t-value"}',
      '--json',
    );
    expect(configured.code).toBe(1);
    expect(configured.stderr).toContain('sandbox takes no --config');
    expect(configured.stderr).not.toContain('s3cr3t-value');

    // A live processor's settings: checked by its schema, stored sealed, never printed back.
    const enableFastShift = (config: string) =>
      gateway(
        url,
        'processor',
        'enable',
        '--merchant',
        merchant_id,
        '--host',
        'garni.am',
        '--processor',
        'fastshift',
        '--config',
        config,
        '--json',
      );
    const unknownKey = await enableFastShift(
      '{"token":"tok-s3cr3t","base_url":"https://merchants.fastshift.am/api/en/","pin":"4321"}',
    );
    expect(unknownKey.code).toBe(1);
    expect(unknownKey.stderr).toContain('pin');
    expect(unknownKey.stderr).not.toContain('tok-s3cr3t');
    expect(unknownKey.stderr).not.toContain('4321');
    const missing = await enableFastShift('{"base_url":"https://merchants.fastshift.am/api/en/"}');
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('token');
    const accepted = await enableFastShift('{"token":"tok-s3cr3t-value"}');
    expect(accepted.stderr).toBe('');
    expect(JSON.parse(accepted.stdout)).toMatchObject({ processor: 'fastshift', enabled: true });
    expect(accepted.stdout).not.toContain('tok-s3cr3t-value');
    const db = openDatabase(url);
    try {
      const row = await db.db
        .selectFrom('domain_processors')
        .select('config')
        .where('processor', '=', 'fastshift')
        .executeTakeFirstOrThrow();
      expect(String(row.config)).toMatch(/^v1\./);
      expect(String(row.config)).not.toContain('tok-s3cr3t-value');
    } finally {
      await db.close();
    }
    const badPosition = await gateway(
      url,
      'processor',
      'enable',
      '--merchant',
      merchant_id,
      '--host',
      'garni.am',
      '--processor',
      'sandbox',
      '--position',
      'first',
      '--json',
    );
    expect(badPosition.code).toBe(2);

    expect(await json(url, 'merchant', 'rate-limit', '--merchant', merchant_id, '--per-minute', '5000')).toEqual({
      merchant_id,
      rate_limit_per_minute: 5000,
    });
    expect(await json(url, 'merchant', 'rate-limit', '--merchant', merchant_id, '--default')).toEqual({
      merchant_id,
      rate_limit_per_minute: 60,
    });
  });

  it('refuses what cannot be done, with exit code 1 and a reason', async () => {
    const missing = await gateway(url, 'business', 'verify', '--merchant', 'no-such-merchant');
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('no merchant with id no-such-merchant');

    const { merchant_id } = await json<{ merchant_id: string }>(url, 'merchant', 'create', '--name', 'Local Dev');
    const localhost = await gateway(
      url,
      'domain',
      'add',
      '--merchant',
      merchant_id,
      '--host',
      'localhost',
      '--verified',
    );
    expect(localhost.code).toBe(1);
    expect(localhost.stderr).toContain('can never be verified');

    const unknownProcessor = await gateway(
      url,
      'processor',
      'enable',
      '--merchant',
      merchant_id,
      '--host',
      'x.am',
      '--processor',
      'nope',
      '--json',
    );
    expect(unknownProcessor.code).toBe(1);
    expect(JSON.parse(unknownProcessor.stderr)).toEqual({ error: 'unknown processor "nope"' });
  });

  it('keeps a verified host to one merchant', async () => {
    await json(url, 'merchant', 'create', '--name', 'First', '--domain', 'owned.am', '--verify-domains');
    const second = await gateway(
      url,
      'merchant',
      'create',
      '--name',
      'Second',
      '--domain',
      'owned.am',
      '--verify-domains',
    );
    expect(second.code).toBe(1);
    expect(second.stderr).toContain('already verified for another merchant');
  });

  it('refuses an account name with markup or a web address, creating nothing', async () => {
    const countMerchants = async () => {
      const handle = openDatabase(url);
      try {
        const row = await handle.db
          .selectFrom('merchants')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .executeTakeFirstOrThrow();
        return Number(row.n);
      } finally {
        await handle.close();
      }
    };
    const before = await countMerchants();
    for (const [name, message] of [
      ['<a href="http://evil.test/x">CLICK</a>', '--name may not hold < or >, nor control or invisible characters'],
      ['Visit www.evil.test', '--name may not look like a web address (no "://" or "www.")'],
    ] as const) {
      const refused = await gateway(url, 'merchant', 'create', '--name', name, '--json');
      expect(refused.code, refused.stderr).toBe(1);
      expect(refused.stdout).toBe('');
      expect(JSON.parse(refused.stderr)).toEqual({ error: message });
    }
    expect(await countMerchants()).toBe(before);
  });
});

describe('bin/gateway command line errors', { timeout: CLI_TEST_TIMEOUT_MS }, () => {
  const url = 'sqlite::memory:';

  it.each([
    [['merchant', 'create'], '--name is required'],
    [
      ['key', 'create', '--merchant', 'm', '--environment', 'prod', '--access', 'full'],
      '--environment must be one of live, test',
    ],
    [
      ['key', 'create', '--merchant', 'm', '--environment', 'live', '--access', 'admin'],
      '--access must be one of full, payments',
    ],
    [['domain', 'add', '--merchant', 'm'], '--host is required'],
    [['merchant', 'rate-limit', '--merchant', 'm', '--per-minute', 'lots'], '--per-minute must be a whole number'],
    [['launch', 'rockets'], 'unknown command "launch rockets"'],
    [['merchant', 'create', '--nmae', 'x'], "Unknown option '--nmae'"],
  ])('gateway %j exits 2 with a usage message', async (args, message) => {
    const result = await gateway(url, ...args);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(message);
    expect(result.stderr).toContain('Usage: gateway');
  });

  it('prints the usage with --help and exits 0', async () => {
    const result = await gateway(url, '--help');
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('merchant create --name N');
  });

  it("prints one command's usage with that command's --help, and the version with --version", async () => {
    const own = await gateway(url, 'key', 'create', '--help');
    expect(own.code).toBe(0);
    expect(own.stdout.trim()).toBe(
      'Usage: gateway key create --merchant ID --environment live|test --access full|payments',
    );
    const limits = await gateway(url, 'domain', 'limits', '--help');
    expect(limits.stdout).toContain('--velocity N');
    expect(limits.stdout).not.toContain('merchant create');
    const version = await gateway(url, '--version');
    expect(version.code).toBe(0);
    expect(version.stdout.trim()).toMatch(/^gateway \d+\.\d+\.\d+$/);
  });

  it.each([
    [['merchnat', 'list'], 'did you mean "merchant list"?'],
    [['kye', 'create'], 'did you mean "key create"?'],
    [['recipts', 'list'], 'did you mean "receipts list"?'],
  ])('gateway %j exits 2 and suggests what was meant', async (args, suggestion) => {
    const result = await gateway(url, ...args);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(suggestion);
  });

  it("answers a known command's wrong options with that command's usage only", async () => {
    const result = await gateway(url, 'key', 'create', '--merchant', 'm', '--environment', 'prod', '--access', 'full');
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('Usage: gateway key create');
    expect(result.stderr).not.toContain('merchant create');
  });
});
