/**
 * Log lines leave the process when they are written, not when 4 KB have piled up or the service
 * stops: each service is started through its bin as an operator does, with a start that logs one
 * warning (no GATEWAY_SECRET: the secret is generated into a file), and the warning must be on its
 * stdout within a second while the service still runs.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { CLI_TEST_TIMEOUT_MS } from '../../support/cli.js';

interface Running {
  readonly child: ChildProcess;
  /** Everything written to stdout so far. */
  stdout(): string;
  /** Resolves when stdout contains `text`; rejects after `ms`. */
  waitFor(text: string, ms: number): Promise<void>;
}

const started: { child: ChildProcess; dir: string }[] = [];

afterEach(async () => {
  for (const { child, dir } of started.splice(0)) {
    if (child.exitCode === null && child.signalCode === null) {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    }
    rmSync(dir, { recursive: true, force: true });
  }
});

function start(bin: string, env: Record<string, string>, dir: string): Running {
  const merged: NodeJS.ProcessEnv = { ...process.env, LOG_LEVEL: 'info', ...env };
  delete merged.GATEWAY_SECRET;
  const child = spawn('node', [bin, 'serve'], { env: merged, stdio: ['ignore', 'pipe', 'pipe'] });
  started.push({ child, dir });
  let out = '';
  const listeners = new Set<() => void>();
  child.stdout?.on('data', (chunk: Buffer) => {
    out += chunk.toString('utf8');
    for (const listener of listeners) listener();
  });
  return {
    child,
    stdout: () => out,
    waitFor(text, ms) {
      return new Promise<void>((resolve, reject) => {
        const check = () => {
          if (!out.includes(text)) return;
          clearTimeout(timer);
          listeners.delete(check);
          resolve();
        };
        const timer = setTimeout(() => {
          listeners.delete(check);
          reject(new Error(`"${text}" not on stdout within ${ms} ms; stdout so far:\n${out}`));
        }, ms);
        listeners.add(check);
        check();
      });
    },
  };
}

/** The JSON log lines of an output (other lines are the service's own messages). */
function logLines(stdout: string): Record<string, unknown>[] {
  return stdout
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

describe('log lines are written at once', () => {
  it(
    'the gateway: the warning of its start is on stdout while it runs',
    async () => {
      const dir = mkdtempSync(join(tmpdir(), 'gateway-log-'));
      const running = start(
        'bin/gateway',
        { PORT: '0', HOST: '127.0.0.1', DATABASE_URL: `sqlite:${join(dir, 'gateway.sqlite')}` },
        dir,
      );
      await running.waitFor('Payment gateway listening on', CLI_TEST_TIMEOUT_MS / 2);
      await running.waitFor('generated the service secret', 1_000);
      expect(running.child.exitCode).toBeNull();
      expect(logLines(running.stdout())).toContainEqual(
        expect.objectContaining({ level: 40, msg: expect.stringContaining('generated the service secret') }),
      );
    },
    CLI_TEST_TIMEOUT_MS,
  );

  it(
    'the connector: the warning of its start is on stdout while it runs',
    async () => {
      const dir = mkdtempSync(join(tmpdir(), 'connector-log-'));
      const running = start(
        'bin/connector',
        {
          CONNECTOR_PORT: '0',
          CONNECTOR_HOST: '127.0.0.1',
          CONNECTOR_DATABASE_URL: `sqlite:${join(dir, 'connector.sqlite')}`,
          CONNECTOR_JOB_INTERVAL_SECONDS: '0',
        },
        dir,
      );
      await running.waitFor('Connector listening on', CLI_TEST_TIMEOUT_MS / 2);
      // The address it really listens on (plain http on 127.0.0.1), apart from the public URL.
      expect(running.stdout()).toMatch(
        /Connector listening on http:\/\/127\.0\.0\.1:\d+ \(stores and the gateway reach it at /,
      );
      await running.waitFor('generated the service secret', 1_000);
      expect(running.child.exitCode).toBeNull();
      expect(logLines(running.stdout())).toContainEqual(
        expect.objectContaining({ level: 40, msg: expect.stringContaining('generated the service secret') }),
      );
    },
    CLI_TEST_TIMEOUT_MS,
  );
});
