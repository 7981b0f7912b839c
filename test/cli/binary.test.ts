/**
 * The real `bin/gateway`, a process of its own as an operator starts it: the other tests of
 * test/cli run its `main` in their own process (test/support/cli-in-process.ts), so this file
 * checks what only the binary does: the launcher finds `main`, the process's environment reaches
 * it, its answer reaches the process's stdout and stderr, and its exit code becomes the process's;
 * the list commands and a command's first word alone are run through it too. `serve` through the
 * binary is in serve.test.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLI_TEST_TIMEOUT_MS, gateway } from '../support/cli.js';
import { freshDatabase, type TestDatabase } from '../support/databases.js';

describe('bin/gateway as a process', { timeout: CLI_TEST_TIMEOUT_MS }, () => {
  let database: TestDatabase;

  beforeAll(async () => {
    database = await freshDatabase('sqlite');
  });
  afterAll(async () => database?.drop());

  it('prints its version and its usage, exit code 0', async () => {
    const version = await gateway(database.url, '--version');
    expect(version.code).toBe(0);
    expect(version.stdout.trim()).toMatch(/^gateway \d+\.\d+\.\d+$/);
    const help = await gateway(database.url, '--help');
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('merchant create --name N');
    expect(help.stdout).toContain('key list --merchant ID');
  });

  it('creates and lists merchants on the database of its environment, printing one JSON object', async () => {
    const created = await gateway(database.url, 'merchant', 'create', '--name', 'Binary Books', '--json');
    expect(created.stderr).toBe('');
    expect(created.code).toBe(0);
    const body = JSON.parse(created.stdout) as { merchant_id: string; hosted_domain: string };
    expect(Object.keys(body)).toEqual(['merchant_id', 'hosted_domain', 'keys', 'domains']);
    // PUBLIC_URL of the process's environment names the hosted domain.
    expect(body.hosted_domain).toMatch(/^binary-books-[0-9a-f]{6}\.pay\.example\.am$/);
    const listed = await gateway(database.url, 'merchant', 'list', '--json');
    expect(listed.code).toBe(0);
    expect(JSON.parse(listed.stdout)).toEqual({
      merchants: [expect.objectContaining({ merchant_id: body.merchant_id, hosted_domain: body.hosted_domain })],
    });
  });

  it('exits 2 on an incomplete command line and 1 on a refusal, with the reason on stderr', async () => {
    const group = await gateway(database.url, 'merchant');
    expect(group.code).toBe(2);
    expect(group.stdout).toContain('Usage: gateway merchant create');
    expect(group.stdout).toContain('gateway merchant list');
    const refused = await gateway(database.url, 'key', 'list', '--merchant', 'no-such-merchant', '--json');
    expect(refused.code).toBe(1);
    expect(refused.stdout).toBe('');
    expect(JSON.parse(refused.stderr)).toEqual({ error: 'no merchant with id no-such-merchant' });
  });
});
