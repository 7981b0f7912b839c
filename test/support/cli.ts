/**
 * Runs `bin/gateway` and `bin/connector` as an operator does: a real process with the given database, answering its exit
 * code and output.
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';

const run = promisify(execFile);

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

export function gateway(databaseUrl: string, ...args: string[]): Promise<CliResult> {
  return gatewayAt('https://pay.example.am', databaseUrl, ...args);
}

/** Runs `bin/gateway` with the given PUBLIC_URL (hosted domains are named after its host). */
export function gatewayAt(publicUrl: string, databaseUrl: string, ...args: string[]): Promise<CliResult> {
  return runBin('bin/gateway', { DATABASE_URL: databaseUrl, PUBLIC_URL: publicUrl }, args);
}

/** Runs `bin/connector` with the given environment (its database, the gateway's URL, ...). */
export function connector(env: Record<string, string>, ...args: string[]): Promise<CliResult> {
  return runBin('bin/connector', env, args);
}

async function runBin(bin: string, env: Record<string, string>, args: string[]): Promise<CliResult> {
  try {
    const { stdout, stderr } = await run('node', [bin, ...args], {
      env: { ...process.env, ...env, LOG_LEVEL: 'silent' },
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
  }
}
