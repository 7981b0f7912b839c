/**
 * `gateway connect-token create|revoke|list` as an operator runs them (the command line's `main`
 * in the test process, test/support/cli-in-process.ts) on a real database of each dialect, the
 * `--json` shapes, and the refusals (exit 1 for what cannot be done, exit 2 for a wrong command
 * line).
 */
import { decodeJwt } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../storage/connect.js';
import { CLI_TEST_TIMEOUT_MS, gateway } from '../support/cli-in-process.js';
import { DIALECTS, freshDatabase, type TestDatabase } from '../support/databases.js';

type Json = Record<string, unknown>;

const API_INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\+00:00$/;

describe.each(DIALECTS)('gateway connect-token on %s', { timeout: CLI_TEST_TIMEOUT_MS }, (dialect) => {
  let database: TestDatabase;
  let url: string;
  let merchantId: string;
  let hostedDomain: string;

  async function json<T = Json>(...args: string[]): Promise<T> {
    const result = await gateway(url, ...args, '--json');
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    return JSON.parse(result.stdout) as T;
  }

  beforeAll(async () => {
    database = await freshDatabase(dialect, 'gateway');
    url = database.url;
    const created = await json<{ merchant_id: string; hosted_domain: string }>(
      'merchant',
      'create',
      '--name',
      'Dilijan Crafts',
      '--domain',
      'dilijan-crafts.am',
      '--verify-domains',
    );
    merchantId = created.merchant_id;
    hostedDomain = created.hosted_domain;
    await json('domain', 'add', '--merchant', merchantId, '--host', 'pending-crafts.am');
  });
  afterAll(async () => database?.drop());

  it('creates, lists and revokes tokens, printing the contract shapes', async () => {
    const first = await json(
      'connect-token',
      'create',
      '--merchant',
      merchantId,
      '--domain',
      'dilijan-crafts.am',
      '--platform',
      'woocommerce',
    );
    expect(Object.keys(first)).toEqual([
      'connect_token',
      'id',
      'merchant_id',
      'domain',
      'platform',
      'environment',
      'expires_at',
    ]);
    expect(first).toMatchObject({
      merchant_id: merchantId,
      domain: 'dilijan-crafts.am',
      platform: 'woocommerce',
      environment: 'test',
    });
    const claims = decodeJwt(String(first.connect_token));
    expect(claims.jti).toBe(first.id);
    expect(Number(claims.exp) - Number(claims.iat)).toBe(365 * 86_400);

    const second = await json(
      'connect-token',
      'create',
      '--merchant',
      merchantId,
      '--domain',
      hostedDomain,
      '--platform',
      'shopify',
      '--environment',
      'live',
      '--expires-in-days',
      '30',
    );
    expect(second).toMatchObject({ domain: hostedDomain, platform: 'shopify', environment: 'live' });
    const secondClaims = decodeJwt(String(second.connect_token));
    expect(Number(secondClaims.exp) - Number(secondClaims.iat)).toBe(30 * 86_400);
    expect(secondClaims.env).toBe('live');

    // Only the ids are stored, never the tokens.
    const handle = openDatabase(url);
    try {
      const rows = await handle.db.selectFrom('connect_tokens').selectAll().execute();
      expect(rows.map((r) => r.id).sort()).toEqual([first.id, second.id].sort());
      const stored = JSON.stringify(rows);
      expect(stored).not.toContain(String(first.connect_token).split('.')[2]);
      expect(stored).not.toContain(String(second.connect_token).split('.')[2]);
    } finally {
      await handle.close();
    }

    const revoked = await json('connect-token', 'revoke', '--id', String(first.id));
    expect(Object.keys(revoked)).toEqual(['id', 'revoked_at']);
    expect(revoked.revoked_at).toMatch(API_INSTANT);
    expect(await json('connect-token', 'revoke', '--id', String(first.id))).toEqual(revoked);

    const listed = await json<{ connect_tokens: Json[] }>('connect-token', 'list', '--merchant', merchantId);
    expect(Object.keys(listed)).toEqual(['connect_tokens']);
    expect(listed.connect_tokens).toEqual([
      {
        id: first.id,
        domain: 'dilijan-crafts.am',
        platform: 'woocommerce',
        environment: 'test',
        created_at: expect.stringMatching(API_INSTANT),
        expires_at: first.expires_at,
        revoked_at: revoked.revoked_at,
        last_used_at: null,
      },
      {
        id: second.id,
        domain: hostedDomain,
        platform: 'shopify',
        environment: 'live',
        created_at: expect.stringMatching(API_INSTANT),
        expires_at: second.expires_at,
        revoked_at: null,
        last_used_at: null,
      },
    ]);

    const text = await gateway(url, 'connect-token', 'list', '--merchant', merchantId);
    expect(text.code).toBe(0);
    expect(text.stdout).toContain(String(second.id));
    expect(text.stdout).toContain(`revoked ${revoked.revoked_at}`);
  });

  it('prints the token once in the text output', async () => {
    const result = await gateway(
      url,
      'connect-token',
      'create',
      '--merchant',
      merchantId,
      '--domain',
      'dilijan-crafts.am',
      '--platform',
      'shopify',
    );
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/shown once:\n[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\n$/);
  });

  it.each([
    [
      'an unverified domain',
      ['--domain', 'pending-crafts.am', '--platform', 'woocommerce'],
      'pending-crafts.am is not verified yet',
    ],
    [
      'a domain the merchant does not have',
      ['--domain', 'elsewhere.am', '--platform', 'woocommerce'],
      'has no domain elsewhere.am',
    ],
    [
      'a host that is no domain name',
      ['--domain', 'http://x', '--platform', 'woocommerce'],
      'is not a valid domain name',
    ],
  ])('create refuses %s with exit 1', async (_label, args, message) => {
    const result = await gateway(url, 'connect-token', 'create', '--merchant', merchantId, ...args);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(message);
    expect(result.stdout).toBe('');
  });

  it('refuses an unknown merchant or token with exit 1 and a reason (JSON with --json)', async () => {
    const create = await gateway(
      url,
      'connect-token',
      'create',
      '--merchant',
      'no-such-merchant',
      '--domain',
      'dilijan-crafts.am',
      '--platform',
      'woocommerce',
      '--json',
    );
    expect(create.code).toBe(1);
    expect(JSON.parse(create.stderr)).toEqual({ error: 'no merchant with id no-such-merchant' });

    const list = await gateway(url, 'connect-token', 'list', '--merchant', 'no-such-merchant');
    expect(list.code).toBe(1);
    expect(list.stderr).toContain('no merchant with id no-such-merchant');

    const revoke = await gateway(url, 'connect-token', 'revoke', '--id', '01a1fdae-1fae-72a7-b5f2-afca07a53ffc');
    expect(revoke.code).toBe(1);
    expect(revoke.stderr).toContain('no connect token with id 01a1fdae-1fae-72a7-b5f2-afca07a53ffc');
  });
});

describe('gateway connect-token command line errors', { timeout: CLI_TEST_TIMEOUT_MS }, () => {
  const url = 'sqlite::memory:';

  it.each([
    [['connect-token', 'create', '--domain', 'a.am', '--platform', 'woocommerce'], '--merchant is required'],
    [['connect-token', 'create', '--merchant', 'm', '--platform', 'woocommerce'], '--domain is required'],
    [['connect-token', 'create', '--merchant', 'm', '--domain', 'a.am'], '--platform is required'],
    [
      ['connect-token', 'create', '--merchant', 'm', '--domain', 'a.am', '--platform', 'magento'],
      '--platform must be one of woocommerce, shopify (got "magento")',
    ],
    [
      [
        'connect-token',
        'create',
        '--merchant',
        'm',
        '--domain',
        'a.am',
        '--platform',
        'shopify',
        '--environment',
        'prod',
      ],
      '--environment must be one of test, live',
    ],
    [
      [
        'connect-token',
        'create',
        '--merchant',
        'm',
        '--domain',
        'a.am',
        '--platform',
        'shopify',
        '--expires-in-days',
        '0',
      ],
      '--expires-in-days must be a whole number from 1 to 3650',
    ],
    [
      [
        'connect-token',
        'create',
        '--merchant',
        'm',
        '--domain',
        'a.am',
        '--platform',
        'shopify',
        '--expires-in-days',
        'soon',
      ],
      '--expires-in-days must be a whole number from 1 to 3650',
    ],
    [['connect-token', 'revoke'], '--id is required'],
    [['connect-token', 'list'], '--merchant is required'],
    [['connect-token', 'rotate'], 'unknown command "connect-token rotate"'],
  ])('gateway %j exits 2 with a usage message', async (args, message) => {
    const result = await gateway(url, ...args);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(message);
    expect(result.stderr).toContain('Usage: gateway');
  });

  it('lists the connect-token commands in the help', async () => {
    const result = await gateway(url, '--help');
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('connect-token create --merchant ID --domain HOST --platform woocommerce|shopify');
    expect(result.stdout).toContain('connect-token revoke --id ID');
    expect(result.stdout).toContain('connect-token list --merchant ID');
  });
});
