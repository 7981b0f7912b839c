/**
 * `gateway serve` (what `npm start` runs) as a newcomer meets it: on an empty database it prints the
 * base URL, a demo test key, the link to the demo merchant's dashboard and a curl that works; on
 * later starts it prints no key and no link; two instances started together on one empty PostgreSQL
 * print one key and one link between them; it stops cleanly. (The link itself is followed in
 * Chromium by test/dashboard/demo-browser.test.ts.)
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { freshDatabase } from '../support/databases.js';
import { TEST_GATEWAY_SECRET } from '../support/gateway.js';
import { freePort } from '../support/ports.js';
import { startServe, stopServe as stop } from '../support/serve-process.js';

describe('gateway serve', () => {
  const dir = mkdtempSync(join(tmpdir(), 'gateway-serve-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('prints a demo key and a curl that creates a sandbox payment, once', async () => {
    const port = await freePort();
    const env = { PORT: String(port), DATABASE_URL: `sqlite:${join(dir, 'gateway.sqlite')}` };
    const first = await startServe(env);
    const base = `http://localhost:${port}`;
    expect(first.output).toContain(`listening on ${base}`);
    const key = /sk_test_[A-Za-z0-9_-]{43}/.exec(first.output)?.[0];
    expect(key).toBeDefined();
    expect(first.output).toContain(`curl -sS -X POST ${base}/api/v1/payments`);
    expect(first.output.match(/\/dashboard\/demo\?token=/g)).toHaveLength(1);
    expect(first.output).toMatch(new RegExp(`\n${base}/dashboard/demo\\?token=[A-Za-z0-9_-]{43}\n`));

    // Run the printed curl through a shell, exactly as a newcomer pastes it.
    const curlLines = first.output.slice(first.output.indexOf('curl -sS')).trim();
    const curl = spawn('bash', ['-c', curlLines]);
    let answer = '';
    curl.stdout.on('data', (chunk: Buffer) => {
      answer += chunk.toString();
    });
    const [curlCode] = (await once(curl, 'exit')) as [number];
    expect(curlCode).toBe(0);
    const payment = JSON.parse(answer) as Record<string, unknown>;
    expect(payment).toMatchObject({ amount: 5000, status: 'pending', currency: 'AMD', livemode: false });
    expect(String(payment.checkout_url)).toMatch(new RegExp(`^${base}/checkout/`));

    expect(await stop(first)).toBe(0);

    const second = await startServe(env);
    expect(second.output).not.toContain('sk_test_');
    expect(second.output).not.toContain('/dashboard/demo');
    expect(await stop(second)).toBe(0);
  });

  it('prints one demo key when two instances start together on one empty PostgreSQL', async () => {
    const database = await freshDatabase('postgres');
    try {
      const env = (port: number) => ({
        PORT: String(port),
        DATABASE_URL: database.url,
        GATEWAY_SECRET: TEST_GATEWAY_SECRET,
      });
      const started = await Promise.all([startServe(env(await freePort())), startServe(env(await freePort()))]);
      // The key is printed once and again in the curl, by one instance only.
      const printing = started.filter((s) => s.output.includes('sk_test_'));
      expect(printing).toHaveLength(1);
      expect(new Set(printing[0]?.output.match(/sk_test_[A-Za-z0-9_-]{43}/g)).size).toBe(1);
      expect(printing[0]?.output.match(/\/dashboard\/demo\?token=/g)).toHaveLength(1);
      expect(started.filter((s) => s.output.includes('/dashboard/demo'))).toHaveLength(1);
      const client = new pg.Client({ connectionString: database.url });
      await client.connect();
      try {
        const { rows } = await client.query<{ name: string }>('select name from merchants');
        expect(rows).toEqual([{ name: 'Demo Shop' }]);
      } finally {
        await client.end();
      }
      for (const s of started) expect(await stop(s)).toBe(0);
    } finally {
      await database.drop();
    }
  });

  it('refuses a bad configuration with a clear message', async () => {
    const child = spawn('node', ['bin/gateway', 'serve'], {
      env: { ...process.env, DATABASE_URL: 'mysql://nope', LOG_LEVEL: 'silent' },
    });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    const [code] = (await once(child, 'exit')) as [number];
    expect(code).toBe(1);
    expect(stderr).toContain('DATABASE_URL must start with sqlite: or postgres://');
  });
});
