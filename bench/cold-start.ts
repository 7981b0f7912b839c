/**
 * `npm run bench:cold-start`: how long the gateway takes from `node bin/gateway serve` to its first
 * answer, and `bin/gateway --help` to its exit, running the compiled JavaScript of dist/ (what
 * `npm start` runs after `npm ci`) next to the TypeScript sources through tsx
 * (`GATEWAY_FROM_SOURCE=1`, what it ran before the build step), alternating the two, each on a
 * fresh SQLite database in a temp directory (so migrating an empty database is part of the figure).
 * Prints the median and the ratio. Environment: BENCH_RUNS (default 7, 3..30).
 * Run `npm run build` first when the sources changed since `npm ci` (else both sides run the sources).
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { builtFromCurrentSources } from '../bin/launch.mjs';
import { freePort } from '../test/support/ports.js';

const root = join(import.meta.dirname, '..');
const raw = Number(process.env.BENCH_RUNS ?? 7);
const runs = Number.isInteger(raw) ? Math.min(Math.max(raw, 3), 30) : 7;
const DEADLINE_MS = 60_000;

type Mode = 'compiled' | 'source';

function environment(mode: Mode, extra: Record<string, string>): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, LOG_LEVEL: 'warn', ...extra };
  if (mode === 'source') env.GATEWAY_FROM_SOURCE = '1';
  else delete env.GATEWAY_FROM_SOURCE;
  return env;
}

/** Milliseconds from spawning `serve` to the first 200 of `/health`. */
async function serveToHealth(mode: Mode): Promise<number> {
  const dir = mkdtempSync(join(tmpdir(), 'bench-cold-start-'));
  const port = await freePort();
  const started = performance.now();
  const child = spawn(process.execPath, ['bin/gateway', 'serve'], {
    cwd: root,
    env: environment(mode, {
      PORT: String(port),
      HOST: '127.0.0.1',
      PUBLIC_URL: `http://127.0.0.1:${port}`,
      DATABASE_URL: `sqlite:${join(dir, 'gateway.sqlite')}`,
    }),
    stdio: 'ignore',
  });
  try {
    while (performance.now() - started < DEADLINE_MS) {
      if (child.exitCode !== null) throw new Error(`gateway serve exited with ${child.exitCode}`);
      const answered = await fetch(`http://127.0.0.1:${port}/health`).then(
        (response) => response.status === 200,
        () => false,
      );
      if (answered) return performance.now() - started;
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    throw new Error('gateway serve did not answer /health within 60 s');
  } finally {
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    await exited;
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Milliseconds of `bin/gateway --help`, from spawn to exit. */
async function help(mode: Mode): Promise<number> {
  const started = performance.now();
  const child = spawn(process.execPath, ['bin/gateway', '--help'], {
    cwd: root,
    env: environment(mode, {}),
    stdio: 'ignore',
  });
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  if (code !== 0) throw new Error(`bin/gateway --help exited with ${code}`);
  return performance.now() - started;
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
};

if (!builtFromCurrentSources(root)) {
  console.error('dist/ is missing or older than the sources: run `npm run build` first.');
  process.exit(1);
}
const figures: Record<string, Record<Mode, number[]>> = {
  'serve → /health': { compiled: [], source: [] },
  '--help': { compiled: [], source: [] },
};
for (let i = 0; i < runs; i++) {
  for (const mode of ['source', 'compiled'] as const) {
    figures['serve → /health']?.[mode].push(await serveToHealth(mode));
    figures['--help']?.[mode].push(await help(mode));
  }
}
console.log(`runs per figure: ${runs} (median, milliseconds)`);
console.log('what               sources (tsx)   compiled (dist/)   ratio');
for (const [what, byMode] of Object.entries(figures)) {
  const source = median(byMode.source);
  const compiled = median(byMode.compiled);
  console.log(
    `${what.padEnd(18)} ${source.toFixed(0).padStart(13)}   ${compiled.toFixed(0).padStart(16)}   ${(compiled / source).toFixed(2)}`,
  );
}
