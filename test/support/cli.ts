/**
 * Runs `bin/gateway` and `bin/connector` as an operator does: a real process with the given database, answering its exit
 * code and output. test/support/cli-in-process.ts runs the gateway's command line without a process.
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { TEST_GATEWAY_SECRET } from './gateway.js';

const run = promisify(execFile);

/**
 * Per-test time limit for tests that run the binary: each command is a process of its own that
 * compiles the sources as it starts when dist/ is not up to date, which takes seconds on a busy
 * machine (7 s each at a load of 9 on two cores). Tests that run many commands call the CLI's `main`
 * in their own process instead (cli-in-process.ts).
 */
export const CLI_TEST_TIMEOUT_MS = 240_000;

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

export function gateway(databaseUrl: string, ...args: string[]): Promise<CliResult> {
  return gatewayWith({ DATABASE_URL: databaseUrl }, ...args);
}

/**
 * Runs `bin/gateway` with more of the environment set: `DATABASE_URL` at least. `PUBLIC_URL` and
 * `GATEWAY_SECRET` default to the test ones; an empty value unsets a variable.
 */
export function gatewayWith(env: Record<string, string>, ...args: string[]): Promise<CliResult> {
  return runBin(
    'bin/gateway',
    { PUBLIC_URL: 'https://pay.example.am', GATEWAY_SECRET: TEST_GATEWAY_SECRET, ...env },
    args,
  );
}

/** Runs `bin/gateway` with the given PUBLIC_URL (hosted domains are named after its host). */
export function gatewayAt(publicUrl: string, databaseUrl: string, ...args: string[]): Promise<CliResult> {
  return gatewayWith({ DATABASE_URL: databaseUrl, PUBLIC_URL: publicUrl }, ...args);
}

/** Runs `bin/connector` with the given environment (its database, the gateway's URL, ...). */
export function connector(env: Record<string, string>, ...args: string[]): Promise<CliResult> {
  return runBin('bin/connector', env, args);
}

async function runBin(bin: string, env: Record<string, string>, args: string[]): Promise<CliResult> {
  const merged: NodeJS.ProcessEnv = { ...process.env, ...env, LOG_LEVEL: 'silent' };
  for (const [name, value] of Object.entries(env)) if (value === '') delete merged[name];
  try {
    const { stdout, stderr } = await run('node', [bin, ...args], { env: merged });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
  }
}
