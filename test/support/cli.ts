/**
 * Runs `bin/gateway` as an operator does: a real process with the given database, answering its exit
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

export async function gateway(databaseUrl: string, ...args: string[]): Promise<CliResult> {
  try {
    const { stdout, stderr } = await run('node', ['bin/gateway', ...args], {
      env: { ...process.env, DATABASE_URL: databaseUrl, PUBLIC_URL: 'https://pay.example.am', LOG_LEVEL: 'silent' },
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
  }
}
