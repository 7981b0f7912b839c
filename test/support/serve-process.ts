/**
 * `bin/gateway serve` (what `npm start` runs) as a real process: started with the given
 * environment, its output (stdout and stderr) collected, stopped with SIGTERM.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';

export interface ServeProcess {
  readonly child: ChildProcess;
  /** Everything it printed so far. */
  readonly output: string;
}

/** Starts `bin/gateway serve` and waits until it says it listens (20 s at most). */
export async function startServe(env: Record<string, string>): Promise<ServeProcess> {
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

/** Stops it with SIGTERM; answers its exit code. */
export async function stopServe(started: ServeProcess): Promise<number | null> {
  if (started.child.exitCode !== null) return started.child.exitCode;
  started.child.kill('SIGTERM');
  const [code] = (await once(started.child, 'exit')) as [number | null];
  return code;
}
