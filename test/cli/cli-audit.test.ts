/**
 * The operator's sensitive `bin/gateway` commands (key create and revoke, webhook secret rotation,
 * business verification, domains added or verified, processors switched, connect tokens made or
 * revoked) are written to the account's audit log with no dashboard user, and name keys by prefix
 * and last four only.
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

/** The account's audit log, oldest first; every row the operator's (no user, no address). */
async function operatorRows(databaseUrl: string, merchantId: string) {
  const handle = openDatabase(databaseUrl);
  try {
    const rows = await handle.db
      .selectFrom('dashboard_audit_events')
      .selectAll()
      .where('merchant_id', '=', merchantId)
      .orderBy('created_at', 'asc')
      .orderBy('id', 'asc')
      .execute();
    for (const row of rows) expect(row).toMatchObject({ user_id: null, actor_email: null, address: null });
    return rows;
  } finally {
    await handle.close();
  }
}

describe.each(DIALECTS)('operator actions in the audit log (%s)', { timeout: CLI_TEST_TIMEOUT_MS * 4 }, (dialect) => {
  let database: TestDatabase;

  beforeAll(async () => {
    database = await freshDatabase(dialect, 'gateway');
  });
  afterAll(async () => database?.drop());

  it('records key create and revoke, secret rotation and business verification with actor null', async () => {
    const url = database.url;
    const { merchant_id } = await json<{ merchant_id: string }>(
      url,
      'merchant',
      'create',
      '--name',
      'Garni Tours',
      '--domain',
      'garni.am',
      '--verify-domains',
    );
    const key = await json<{ key: string; key_id: string }>(
      url,
      'key',
      'create',
      '--merchant',
      merchant_id,
      '--environment',
      'test',
      '--access',
      'payments',
    );
    await json(url, 'key', 'revoke', '--merchant', merchant_id, '--key-id', key.key_id);
    await json(url, 'domain', 'rotate-secret', '--merchant', merchant_id, '--host', 'garni.am');
    await json(url, 'business', 'verify', '--merchant', merchant_id);

    const rows = await operatorRows(url, merchant_id);
    const label = `${key.key.slice(0, 12)}…${key.key.slice(-4)}`;
    expect(rows.map((row) => [row.action, row.subject])).toEqual([
      ['api_key.created', label],
      ['api_key.revoked', label],
      ['webhook.secret_rotated', 'garni.am'],
      ['business.verified', null],
    ]);
    expect(JSON.stringify(rows)).not.toContain(key.key);
  });

  it('records domains added, processors switched and connect tokens made and revoked, each once', async () => {
    const url = database.url;
    const { merchant_id } = await json<{ merchant_id: string }>(url, 'merchant', 'create', '--name', 'Sevan Boats');
    await json(url, 'domain', 'add', '--merchant', merchant_id, '--host', 'sevan-boats.am', '--verified');
    await json(url, 'domain', 'add', '--merchant', merchant_id, '--host', 'pending.sevan-boats.am');
    const processor = ['--merchant', merchant_id, '--host', 'sevan-boats.am', '--processor', 'sandbox'];
    await json(url, 'processor', 'enable', ...processor);
    await json(url, 'processor', 'disable', ...processor);
    const token = await json<{ id: string }>(
      url,
      'connect-token',
      'create',
      '--merchant',
      merchant_id,
      '--domain',
      'sevan-boats.am',
      '--platform',
      'woocommerce',
    );
    await json(url, 'connect-token', 'revoke', '--id', token.id);
    // Revoking again changes nothing, and logs nothing.
    await json(url, 'connect-token', 'revoke', '--id', token.id);

    const rows = await operatorRows(url, merchant_id);
    expect(rows.map((row) => [row.action, row.subject])).toEqual([
      ['domain.added', 'sevan-boats.am'],
      ['domain.verified', 'sevan-boats.am (operator)'],
      ['domain.added', 'pending.sevan-boats.am'],
      ['processor.enabled', 'sandbox on sevan-boats.am'],
      ['processor.disabled', 'sandbox on sevan-boats.am'],
      ['connect_token.created', `${token.id} (woocommerce, sevan-boats.am)`],
      ['connect_token.revoked', `${token.id} (woocommerce, sevan-boats.am)`],
    ]);
  });
});
