/**
 * `gateway serve` (what `npm start` runs) as a newcomer meets it: on an empty database it prints the
 * base URL, a demo test key and a curl that works; on later starts it prints no key; two instances
 * started together on one empty PostgreSQL print one key between them; it stops cleanly.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { freshDatabase } from '../support/databases.js';
import { TEST_GATEWAY_SECRET } from '../support/gateway.js';
import { freePort } from '../support/ports.js';

interface Started {
  child: ChildProcess;
  output: string;
}

async function startServe(env: Record<string, string>): Promise<Started> {
  const child = spawn('node', ['bin/gateway', 'serve'], { env: { ...process.env, LOG_LEVEL: 'warn', ...env } });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  child.stderr?.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  const deadline = Date.now() + 20_000;
  while (!output.includes('listening on')) {
    if (Date.now() > deadline || child.exitCode !== null) throw new Error(`serve did not start:\n${output}`);
    await new Promise((r) => setTimeout(r, 50));
  }
  await new Promise((r) => setTimeout(r, 100));
  return {
    child,
    get output() {
      return output;
    },
  };
}

async function stop(started: Started): Promise<number | null> {
  started.child.kill('SIGTERM');
  const [code] = (await once(started.child, 'exit')) as [number | null];
  return code;
}

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
