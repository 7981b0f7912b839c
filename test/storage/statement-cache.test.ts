/**
 * The SQLite statement cache behind Kysely (storage/sqlite-statements.ts): statements are reused per SQL
 * text, a statement still being iterated is never handed out twice, and the cache stays bounded.
 */
import SQLite from 'better-sqlite3';
import { sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { openDatabase } from '../../storage/connect.js';
import { withStatementCache } from '../../storage/sqlite-statements.js';

describe('withStatementCache', () => {
  const opened: SQLite.Database[] = [];
  function database(): SQLite.Database {
    const sqlite = new SQLite(':memory:');
    sqlite.exec('CREATE TABLE t (n INTEGER)');
    sqlite.exec('INSERT INTO t VALUES (1), (2), (3)');
    opened.push(sqlite);
    return sqlite;
  }
  afterEach(() => {
    for (const sqlite of opened.splice(0)) if (sqlite.open) sqlite.close();
  });

  it('prepares each SQL text once', () => {
    const cached = withStatementCache(database());
    const first = cached.prepare('SELECT n FROM t');
    expect(cached.prepare('SELECT n FROM t')).toBe(first);
    expect(cached.prepare('SELECT n FROM t WHERE n > 1')).not.toBe(first);
  });

  it('prepares a fresh statement while the cached one is being iterated', () => {
    const cached = withStatementCache(database());
    const streaming = cached.prepare('SELECT n FROM t ORDER BY n');
    const iterator = streaming.iterate([]);
    expect(iterator.next().value).toEqual({ n: 1 });
    const other = cached.prepare('SELECT n FROM t ORDER BY n');
    expect(other).not.toBe(streaming);
    expect(other.all([])).toEqual([{ n: 1 }, { n: 2 }, { n: 3 }]);
    expect([...iterator]).toEqual([{ n: 2 }, { n: 3 }]);
  });

  it('keeps at most `size` statements, dropping the least recently used', () => {
    const cached = withStatementCache(database(), 2);
    const a = cached.prepare('SELECT 1');
    const b = cached.prepare('SELECT 2');
    expect(cached.prepare('SELECT 1')).toBe(a); // now "SELECT 2" is the oldest
    cached.prepare('SELECT 3');
    expect(cached.prepare('SELECT 1')).toBe(a);
    expect(cached.prepare('SELECT 2')).not.toBe(b);
  });

  it('answers rows exactly as better-sqlite3 would, duplicate column names included', () => {
    const sqlite = database();
    sqlite.exec('CREATE TABLE u (n INTEGER, label TEXT, amount REAL, blob BLOB)');
    sqlite.exec("INSERT INTO u VALUES (1, 'one', 1.5, x'00ff'), (2, NULL, NULL, NULL)");
    const cached = withStatementCache(sqlite);
    for (const query of [
      'SELECT * FROM u ORDER BY n',
      'SELECT t.n, u.n, u.label AS "weird ""name""", u.* FROM t JOIN u ON u.n = t.n ORDER BY t.n',
      'SELECT 1, 2 AS "1"',
    ]) {
      expect(cached.prepare(query).all([])).toEqual(sqlite.prepare(query).all());
    }
  });

  it('runs writes and RETURNING statements', () => {
    const cached = withStatementCache(database());
    const insert = cached.prepare('INSERT INTO t (n) VALUES (?)');
    expect(insert.reader).toBe(false);
    expect(insert.run([4]).changes).toBe(1);
    const returning = cached.prepare('INSERT INTO t (n) VALUES (?) RETURNING n, n * 2 AS twice');
    expect(returning.reader).toBe(true);
    expect(returning.all([5])).toEqual([{ n: 5, twice: 10 }]);
    expect(cached.prepare('SELECT count(*) AS c FROM t').all([])).toEqual([{ c: 5 }]);
  });

  it('serves repeated Kysely queries through openDatabase', async () => {
    const handle = openDatabase('sqlite::memory:');
    try {
      await sql`CREATE TABLE t (n INTEGER)`.execute(handle.db);
      await sql`INSERT INTO t VALUES (1), (2), (3)`.execute(handle.db);
      const query = sql<{ n: number }>`SELECT n FROM t ORDER BY n`;
      for (let i = 0; i < 3; i++) expect((await query.execute(handle.db)).rows).toEqual([{ n: 1 }, { n: 2 }, { n: 3 }]);
    } finally {
      await handle.close();
    }
  });
});
