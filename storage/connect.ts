/**
 * Opens the database named by `DATABASE_URL`: `sqlite:<path>` (the embedded default, WAL mode)
 * or `postgres://...` (for several instances behind a load balancer). Both go through the same
 * Kysely code.
 */
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import SQLite from 'better-sqlite3';
import {
  CompiledQuery,
  type DatabaseConnection,
  type Driver,
  Kysely,
  PostgresDialect,
  SqliteDialect,
  type SqliteDialectConfig,
  SqliteDriver,
} from 'kysely';
import pg from 'pg';
import type { Database, DialectName } from './database.js';
import { withStatementCache } from './sqlite-statements.js';

export const DEFAULT_DATABASE_URL = 'sqlite:./data/gateway.sqlite';

/**
 * SQLite transactions that take the write lock at BEGIN (`begin immediate`), waiting for it up to
 * the busy timeout. A plain BEGIN only reads until the first write; if another process (the
 * operator's `bin/gateway` beside a running gateway) committed in between, that write fails at
 * once with SQLITE_BUSY, which no busy timeout waits out. Every transaction here may write, and
 * one process has one connection, so taking the lock first costs nothing.
 */
class ImmediateSqliteDriver extends SqliteDriver {
  override async beginTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('begin immediate'));
  }
}

class ImmediateSqliteDialect extends SqliteDialect {
  readonly #settings: SqliteDialectConfig;

  constructor(settings: SqliteDialectConfig) {
    super(settings);
    this.#settings = settings;
  }

  override createDriver(): Driver {
    return new ImmediateSqliteDriver(this.#settings);
  }
}

export interface DatabaseHandle<DB = Database> {
  readonly db: Kysely<DB>;
  readonly dialect: DialectName;
  /**
   * Runs one read without parameters and answers the first column of its first row (undefined
   * when there is no row), past the query builder and with the statement prepared once: for a check
   * made on every request, which must cost next to nothing.
   */
  readFirstValue(sql: string): Promise<unknown>;
  /**
   * Runs one statement with `params` (`$1`, `$2`… on PostgreSQL, `?` on SQLite: callers pass the
   * text of their dialect) and answers its first row as an array of columns (undefined when there
   * is none), the statement prepared once per connection: for work done on every request.
   */
  readFirstRow(sql: string, params: readonly unknown[]): Promise<unknown[] | undefined>;
  /** The connections of the PostgreSQL pool (for the metrics); absent on SQLite. */
  readonly poolStats?: () => { total: number; idle: number; waiting: number };
  close(): Promise<void>;
}

export function dialectOf(url: string): DialectName {
  if (url.startsWith('postgres://') || url.startsWith('postgresql://')) return 'postgres';
  if (url.startsWith('sqlite:')) return 'sqlite';
  throw new Error(`DATABASE_URL must start with sqlite: or postgres:// (got ${redactUrl(url)})`);
}

/** The URL with any password replaced, for logs and error messages. */
export function redactUrl(url: string): string {
  return url.replace(/\/\/([^:/@]+):[^@]*@/, '//$1:***@');
}

/** Statements prepared by name, at most (the first ones seen: the hot ones); the rest are parsed each time. */
const PREPARED_STATEMENTS = 200;

/** The names of the statements the query builder sends, shared by the pool's connections. */
class StatementNames {
  readonly #names = new Map<string, string>();
  #next = 0;

  nameOf(text: string): string | undefined {
    let name = this.#names.get(text);
    if (name === undefined && this.#names.size < PREPARED_STATEMENTS) {
      this.#next += 1;
      name = `q${this.#next}`;
      this.#names.set(text, name);
    }
    return name;
  }

  /** A prepared plan went stale: the statement is prepared again, under a new name, where next used. */
  forget(text: string): void {
    this.#names.delete(text);
  }
}

/**
 * PostgreSQL's refusal to run a prepared statement whose result columns changed since it was
 * prepared (another instance's migration added a column under a `select *`, or changed a column's
 * type): 0A000 "cached plan must not change result type". Nothing ran; the statement, prepared
 * afresh, runs.
 */
export function isStalePlan(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false;
  const { code, message } = error as { code?: unknown; message?: unknown };
  return code === '0A000' && typeof message === 'string' && message.includes('cached plan');
}

/** What is worth preparing: reads and writes of rows (not the migrations' schema changes, run once). */
const PREPARABLE = /^\s*(select|insert|update|delete|with)\b/i;

/** BEGIN, COMMIT, ROLLBACK (also to a savepoint), SAVEPOINT, RELEASE. */
const CONTROL = /^\s*(begin|commit|rollback|savepoint|release)\b/i;

/**
 * Names what the query builder sends (`client.query(text, values)`), so that PostgreSQL parses and
 * plans each statement once per connection instead of on every call; the migrations' schema
 * changes, run once, are not named. Planning is most of a read's cost on a table with many indexes
 * (a `select *` of one payment by its key: about 250 µs of the server's CPU unnamed, 45 named). A
 * plan that goes stale (another instance's migration added a column under a named `select *`, or
 * changed a column's type) is forgotten: outside a transaction the statement is sent again at
 * once; inside one, the transaction (aborted by the error) is run again by the transaction runner
 * (storage/transactions.ts).
 */
function preparingStatements(client: pg.PoolClient, names: StatementNames): void {
  const query = client.query.bind(client) as (...args: unknown[]) => Promise<unknown>;
  let inTransaction = false;
  (client as { query: unknown }).query = (first: unknown, values?: unknown, ...rest: unknown[]) => {
    if (typeof first !== 'string' || !Array.isArray(values) || rest.length > 0) return query(first, values, ...rest);
    if (CONTROL.test(first)) {
      // Transaction control is never prepared; it tells whether a statement runs inside one.
      if (/^\s*begin\b/i.test(first)) inTransaction = true;
      else if (/^\s*(commit|rollback)\s*$/i.test(first)) inTransaction = false;
      return query(first, values);
    }
    const name = PREPARABLE.test(first) ? names.nameOf(first) : undefined;
    if (name === undefined) return query(first, values);
    return query({ name, text: first, values }).catch((error: unknown) => {
      if (!isStalePlan(error)) throw error;
      names.forget(first);
      if (inTransaction) throw error;
      return query(first, values);
    });
  };
}

const INT8_OID = 20;
const NUMERIC_OID = 1700;

function toSafeNumber(text: string): number {
  const n = Number(text);
  if (!Number.isSafeInteger(n)) throw new RangeError(`integer out of range: ${text}`);
  return n;
}

/** Opens the gateway's database, or (with a type argument) another service's, e.g. the connector's. */
export function openDatabase<DB = Database>(url: string, options: { poolSize?: number } = {}): DatabaseHandle<DB> {
  const dialect = dialectOf(url);
  if (dialect === 'postgres') {
    const pool = new pg.Pool({
      connectionString: url,
      max: options.poolSize ?? 10,
      // Counts and amounts arrive as int8/numeric; they always fit a safe JS integer.
      types: {
        getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
          oid === INT8_OID || oid === NUMERIC_OID
            ? toSafeNumber
            : pg.types.getTypeParser(oid, format as 'text')) as typeof pg.types.getTypeParser,
      },
    });
    // An idle connection the server drops (restart, failover, admin termination) is re-emitted
    // as a pool 'error'; unhandled, that would crash the process. The pool discards that
    // connection and opens a new one when next needed, so there is nothing else to do.
    pool.on('error', () => {});
    // A connection the server drops while it is checked out between two statements (a transaction
    // waiting on the code that runs it) emits 'error' on its client, where the pool does not
    // listen: unhandled, that would crash the process too. The next statement on it fails, the
    // work that ran it fails (and is retried as any failure is), and the pool discards it.
    pool.on('connect', (client) => {
      client.on('error', () => {});
      preparingStatements(client, statementNames);
    });
    const statementNames = new StatementNames();
    const db = new Kysely<DB>({ dialect: new PostgresDialect({ pool }) });
    const names = new Map<string, string>();
    const readFirstRow = async (text: string, params: readonly unknown[]): Promise<unknown[] | undefined> => {
      let name = names.get(text);
      if (name === undefined) {
        name = `prepared_${names.size + 1}`;
        names.set(text, name);
      }
      const result = await pool.query({ name, text, values: [...params], rowMode: 'array' });
      return result.rows[0] as unknown[] | undefined;
    };
    const readFirstValue = async (text: string): Promise<unknown> => (await readFirstRow(text, []))?.[0];
    const poolStats = () => ({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount });
    return { db, dialect, readFirstValue, readFirstRow, poolStats, close: () => db.destroy() };
  }
  const path = url.slice('sqlite:'.length);
  if (path !== ':memory:' && path !== '') mkdirSync(dirname(path), { recursive: true });
  const sqlite = new SQLite(path === '' ? ':memory:' : path);
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('synchronous = NORMAL');
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma('busy_timeout = 5000');
  const db = new Kysely<DB>({ dialect: new ImmediateSqliteDialect({ database: withStatementCache(sqlite) }) });
  const statements = new Map<string, SQLite.Statement>();
  const prepared = (text: string): SQLite.Statement => {
    let statement = statements.get(text);
    if (statement === undefined) {
      statement = sqlite.prepare(text);
      if (statement.reader) statement.raw();
      statements.set(text, statement);
    }
    return statement;
  };
  const readFirstRow = async (text: string, params: readonly unknown[]): Promise<unknown[] | undefined> => {
    const statement = prepared(text);
    // A statement that returns no rows (an UPDATE without RETURNING) cannot be read: it is run.
    if (!statement.reader) {
      statement.run(...params);
      return undefined;
    }
    return statement.get(...params) as unknown[] | undefined;
  };
  const readFirstValue = async (text: string): Promise<unknown> => (await readFirstRow(text, []))?.[0];
  return { db, dialect, readFirstValue, readFirstRow, close: () => db.destroy() };
}
