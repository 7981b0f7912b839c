/**
 * Runs the gateway's command line in the test's own process: `main(argv, io)` of
 * gateway/cli/main.ts, the function `bin/gateway` calls, with an environment of its own (never
 * `process.env`, so runs side by side cannot see each other's settings) and streams that collect
 * what it prints. Each run opens and closes the services as the binary does; only the process
 * start (and the compilation of the sources it may need) is saved. test/cli/binary.test.ts runs
 * the real binary.
 */
import { main } from '../../gateway/cli/main.js';
import type { CliResult } from './cli.js';
import { TEST_GATEWAY_SECRET } from './gateway.js';

export type { CliResult } from './cli.js';

/**
 * Per-test time limit for tests that run many commands: each opens the database (PostgreSQL: a
 * new pool), checks its migrations and closes it again.
 */
export const CLI_TEST_TIMEOUT_MS = 60_000;

export function gateway(databaseUrl: string, ...args: string[]): Promise<CliResult> {
  return gatewayWith({ DATABASE_URL: databaseUrl }, ...args);
}

/**
 * Runs the command line with this environment: `DATABASE_URL` at least. `PUBLIC_URL` and
 * `GATEWAY_SECRET` default to the test ones, logs are off; an empty value unsets a variable.
 */
export async function gatewayWith(env: Record<string, string>, ...args: string[]): Promise<CliResult> {
  const merged: Record<string, string> = {
    PUBLIC_URL: 'https://pay.example.am',
    GATEWAY_SECRET: TEST_GATEWAY_SECRET,
    ...env,
    LOG_LEVEL: 'silent',
  };
  for (const [name, value] of Object.entries(env)) if (value === '') delete merged[name];
  let stdout = '';
  let stderr = '';
  const code = await main(args, {
    stdout: { write: (text: string) => (stdout += text) },
    stderr: { write: (text: string) => (stderr += text) },
    env: merged,
    // Log lines (none at LOG_LEVEL=silent) would go where the binary writes them: stdout.
    logs: { write: (line: string) => (stdout += line) },
  });
  return { code, stdout, stderr };
}

/** Runs the command line with the given PUBLIC_URL (hosted domains are named after its host). */
export function gatewayAt(publicUrl: string, databaseUrl: string, ...args: string[]): Promise<CliResult> {
  return gatewayWith({ DATABASE_URL: databaseUrl, PUBLIC_URL: publicUrl }, ...args);
}
