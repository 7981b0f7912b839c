/**
 * `gateway merchant list` and `gateway key list --merchant ID` as an operator runs them, beside a
 * running gateway on the same database of each dialect: the `--json` shapes (README "CLI"), the
 * tables, and never a key or a secret in either. A key used at the running gateway shows when it
 * was last used; a revoked one, when it was revoked. `gateway merchant` and `gateway key` alone
 * answer their commands' usage.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLI_TEST_TIMEOUT_MS, type CliResult, gateway, gatewayWith } from '../support/cli-in-process.js';
import { DIALECTS, freshDatabase, type TestDatabase } from '../support/databases.js';
import { eventually } from '../support/eventually.js';
import { startTestGateway, type TestGateway } from '../support/gateway.js';

// biome-ignore lint/suspicious/noExplicitAny: the tests read nested answers
type Json = Record<string, any>;

const ISO_INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

function parsed(result: CliResult): Json {
  expect(result.stderr).toBe('');
  expect(result.code).toBe(0);
  return JSON.parse(result.stdout) as Json;
}

/** What is kept of a key in clear, as lists show it. */
function hintOf(key: string): string {
  return `${key.slice(0, 12)}…${key.slice(-4)}`;
}

describe.each(DIALECTS)('merchant list and key list on %s', { timeout: CLI_TEST_TIMEOUT_MS }, (dialect) => {
  let database: TestDatabase;
  let t: TestGateway;
  const cli = (...args: string[]) => gatewayWith({ DATABASE_URL: database.url }, ...args);

  beforeAll(async () => {
    database = await freshDatabase(dialect, 'gateway');
    t = await startTestGateway(dialect, { databaseUrl: database.url });
  });
  afterAll(async () => {
    await t?.close();
    await database?.drop();
  });

  it('lists every merchant, oldest first, with its hosted domain and business state, and no secret', async () => {
    expect(parsed(await cli('merchant', 'list', '--json'))).toEqual({ merchants: [] });
    const empty = await cli('merchant', 'list');
    expect(empty.code).toBe(0);
    expect(empty.stdout).toBe('No merchants yet.\n');

    const first = parsed(
      await cli('merchant', 'create', '--name', 'Ararat Books', '--email', 'owner@ararat.am', '--json'),
    );
    const second = parsed(await cli('merchant', 'create', '--name', 'Garni Tea', '--verify-business', '--json'));

    const listed = parsed(await cli('merchant', 'list', '--json'));
    expect(Object.keys(listed)).toEqual(['merchants']);
    expect(listed.merchants).toEqual([
      {
        merchant_id: first.merchant_id,
        name: 'Ararat Books',
        email: 'owner@ararat.am',
        hosted_domain: first.hosted_domain,
        business_verified: false,
        created_at: expect.stringMatching(ISO_INSTANT),
      },
      {
        merchant_id: second.merchant_id,
        name: 'Garni Tea',
        email: null,
        hosted_domain: second.hosted_domain,
        business_verified: true,
        created_at: expect.stringMatching(ISO_INSTANT),
      },
    ]);
    for (const merchant of listed.merchants) {
      expect(Object.keys(merchant)).toEqual([
        'merchant_id',
        'name',
        'email',
        'hosted_domain',
        'business_verified',
        'created_at',
      ]);
    }

    const table = await cli('merchant', 'list');
    expect(table.code).toBe(0);
    expect(table.stderr).toBe('');
    const lines = table.stdout.trimEnd().split('\n');
    expect(lines).toHaveLength(3);
    expect(lines[0]).toMatch(/^MERCHANT\s+HOSTED DOMAIN\s+BUSINESS\s+CREATED\s+NAME$/);
    expect(lines[1]).toContain(first.merchant_id);
    expect(lines[1]).toContain(first.hosted_domain);
    expect(lines[1]).toContain('not verified');
    expect(lines[1]).toMatch(/Ararat Books <owner@ararat\.am>$/);
    expect(lines[2]).toContain(second.merchant_id);
    expect(lines[2]).toMatch(/\sverified\s/);
    expect(lines[2]).toMatch(/Garni Tea$/);
    for (const output of [JSON.stringify(listed), table.stdout]) {
      expect(output).not.toMatch(/sk_(test|live)_|whsec_/);
    }
  });

  it('lists a merchant keys newest first by hint only, with their last use and revocation', async () => {
    const created = parsed(await cli('merchant', 'create', '--name', 'Sevan Boats', '--json'));
    const merchantId: string = created.merchant_id;
    const testKey: string = created.keys[0].key;
    const live = parsed(
      await cli('key', 'create', '--merchant', merchantId, '--environment', 'live', '--access', 'payments', '--json'),
    );
    const revoked = parsed(
      await cli('key', 'create', '--merchant', merchantId, '--environment', 'test', '--access', 'payments', '--json'),
    );
    parsed(await cli('key', 'revoke', '--merchant', merchantId, '--key-id', revoked.key_id, '--json'));
    // The running gateway authenticates a request with the test key: its last use is recorded (after the answer).
    const unknownPayment = '01900000-0000-7000-8000-000000000000';
    expect((await t.call('GET', `/api/v1/payments/${unknownPayment}`, { key: testKey })).status).toBe(404);
    let listed: Json = {};
    await eventually(async () => {
      listed = parsed(await cli('key', 'list', '--merchant', merchantId, '--json'));
      return listed.keys.some((k: Json) => k.last_used_at !== null);
    }, 'the test key last use');
    expect(Object.keys(listed)).toEqual(['merchant_id', 'keys']);
    expect(listed.merchant_id).toBe(merchantId);
    expect(listed.keys.map((k: Json) => k.key_id)).toEqual([revoked.key_id, live.key_id, expect.any(String)]);
    const [third, second, first] = listed.keys as Json[];
    expect(first).toEqual({
      key_id: expect.any(String),
      environment: 'test',
      access: 'full',
      hint: hintOf(testKey),
      created_at: expect.stringMatching(ISO_INSTANT),
      last_used_at: expect.stringMatching(ISO_INSTANT),
      revoked_at: null,
    });
    expect(second).toEqual({
      key_id: live.key_id,
      environment: 'live',
      access: 'payments',
      hint: hintOf(live.key),
      created_at: expect.stringMatching(ISO_INSTANT),
      last_used_at: null,
      revoked_at: null,
    });
    expect(third).toMatchObject({
      key_id: revoked.key_id,
      hint: hintOf(revoked.key),
      last_used_at: null,
      revoked_at: expect.stringMatching(ISO_INSTANT),
    });
    for (const key of listed.keys as Json[]) {
      expect(Object.keys(key)).toEqual([
        'key_id',
        'environment',
        'access',
        'hint',
        'created_at',
        'last_used_at',
        'revoked_at',
      ]);
    }

    const table = await cli('key', 'list', '--merchant', merchantId);
    expect(table.code).toBe(0);
    const lines = table.stdout.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^KEY ID\s+ENVIRONMENT\s+ACCESS\s+KEY\s+CREATED\s+LAST USED\s+STATE$/);
    expect(lines).toHaveLength(4);
    expect(lines[1]).toContain(hintOf(revoked.key));
    expect(lines[1]).toContain(`revoked ${third?.revoked_at}`);
    expect(lines[2]).toContain(hintOf(live.key));
    expect(lines[2]).toMatch(/\snever\s+active$/);
    expect(lines[3]).toContain(hintOf(testKey));
    expect(lines[3]).toContain(first?.last_used_at);
    for (const output of [JSON.stringify(listed), table.stdout]) {
      for (const key of [testKey, live.key, revoked.key]) expect(output).not.toContain(key.slice(12, -4));
    }
  });

  it('answers a merchant without keys, refuses an unknown merchant (exit 1) and a missing --merchant (exit 2)', async () => {
    const unknown = await cli('key', 'list', '--merchant', 'no-such-merchant', '--json');
    expect(unknown.code).toBe(1);
    expect(unknown.stdout).toBe('');
    expect(JSON.parse(unknown.stderr)).toEqual({ error: 'no merchant with id no-such-merchant' });

    const missing = await cli('key', 'list');
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('--merchant is required');
    expect(missing.stderr).toContain('Usage: gateway key list --merchant ID');
    expect(missing.stderr).not.toContain('key create');
  });
});

describe('runs of the command line side by side', { timeout: CLI_TEST_TIMEOUT_MS }, () => {
  let databases: TestDatabase[] = [];

  beforeAll(async () => {
    databases = await Promise.all([freshDatabase('sqlite', 'gateway'), freshDatabase('sqlite', 'gateway')]);
  });
  afterAll(async () => {
    await Promise.all(databases.map((d) => d.drop()));
  });

  it('each reads its own environment, never the process one', async () => {
    const before = process.env.DATABASE_URL;
    const [a, b] = databases.map((d) => d.url);
    if (a === undefined || b === undefined) throw new Error('two databases expected');
    const created = await Promise.all([
      gateway(a, 'merchant', 'create', '--name', 'Left Shop', '--json'),
      gateway(b, 'merchant', 'create', '--name', 'Right Shop', '--json'),
    ]);
    const [left, right] = created.map(parsed);
    const names = async (url: string) =>
      (parsed(await gateway(url, 'merchant', 'list', '--json')).merchants as Json[]).map((m) => [
        m.merchant_id,
        m.name,
      ]);
    expect(await names(a)).toEqual([[left?.merchant_id, 'Left Shop']]);
    expect(await names(b)).toEqual([[right?.merchant_id, 'Right Shop']]);
    expect(process.env.DATABASE_URL).toBe(before);
  });
});

describe('usage of the list commands and of a group alone', () => {
  const url = 'sqlite::memory:';

  it.each([
    [['merchant'], ['merchant create --name N', 'merchant list', 'merchant rate-limit --merchant ID'], 'key create'],
    [['key'], ['key create --merchant ID', 'key list --merchant ID', 'key revoke --merchant ID'], 'merchant create'],
  ])('gateway %j prints its commands usage and exits 2', async (args, commands, other) => {
    const result = await gateway(url, ...args);
    expect(result.code).toBe(2);
    expect(result.stderr).toBe('');
    expect(result.stdout).not.toContain('unknown command');
    expect(result.stdout).toMatch(/^Usage: gateway /);
    for (const command of commands) expect(result.stdout).toContain(`gateway ${command}`);
    expect(result.stdout).not.toContain(other);
  });

  it('prints a group usage with --help and exits 0', async () => {
    const result = await gateway(url, 'merchant', '--help');
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('gateway merchant list');
    expect(result.stdout).not.toContain('key create');
  });

  it.each([
    [['merchant', 'list'], 'Usage: gateway merchant list'],
    [['key', 'list'], 'Usage: gateway key list --merchant ID'],
  ])('gateway %j --help prints that command usage only', async (args, usage) => {
    const result = await gateway(url, ...args, '--help');
    expect(result.code).toBe(0);
    expect(result.stdout.startsWith(usage)).toBe(true);
    expect(result.stdout.trimEnd().split('\n')).toHaveLength(1);
  });
});
