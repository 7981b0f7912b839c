/**
 * How the SQLite connection hands statements to Kysely, tuned for the service's many small
 * indexed queries:
 *
 * - Prepared statements are kept per SQL text (least recently used out past a bound). Kysely's
 *   driver prepares every statement anew for every query, which costs about as much as running it.
 *   A statement still being iterated (a streamed query) is never handed out twice: a fresh one is
 *   prepared instead.
 * - Rows are read as arrays and turned into objects by a function compiled once per statement
 *   from its column names. Building a 30-column row object property by property through the
 *   native API cost more than the query itself; an object literal of a fixed shape is cheap.
 *   Duplicate column names behave as before: the later column wins.
 */
import type SQLite from 'better-sqlite3';
import type { SqliteDatabase, SqliteStatement } from 'kysely';

/** Distinct SQL texts that keep a prepared statement (the service issues a few dozen). */
const STATEMENT_CACHE_SIZE = 500;

interface Entry {
  readonly native: SQLite.Statement;
  readonly statement: SqliteStatement;
}

type RowBuilder = (values: unknown[]) => Record<string, unknown>;

function rowBuilder(columns: readonly string[]): RowBuilder {
  const fields = columns.map((name, i) => `${JSON.stringify(name)}: values[${i}]`).join(', ');
  return new Function('values', `return { ${fields} };`) as RowBuilder;
}

function wrap(native: SQLite.Statement): SqliteStatement {
  if (!native.reader) return native as unknown as SqliteStatement;
  const build = rowBuilder(native.columns().map((column) => column.name));
  native.raw(true);
  return {
    reader: true,
    all: (parameters) => (native.all(parameters) as unknown[][]).map(build),
    run: (parameters) => native.run(parameters),
    *iterate(parameters) {
      for (const values of native.iterate(parameters) as IterableIterator<unknown[]>) yield build(values);
    },
  };
}

export function withStatementCache(sqlite: SQLite.Database, size = STATEMENT_CACHE_SIZE): SqliteDatabase {
  const cache = new Map<string, Entry>();
  return {
    close: () => sqlite.close(),
    prepare(sql: string) {
      const cached = cache.get(sql);
      cache.delete(sql);
      let entry: Entry;
      if (cached !== undefined && !cached.native.busy) entry = cached;
      else {
        const native = sqlite.prepare(sql);
        entry = { native, statement: wrap(native) };
      }
      cache.set(sql, entry);
      if (cache.size > size) {
        const oldest = cache.keys().next().value;
        if (oldest !== undefined) cache.delete(oldest);
      }
      return entry.statement;
    },
  };
}
