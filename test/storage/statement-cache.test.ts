/**
 * The SQLite statement cache behind Kysely (storage/connect.ts): statements are reused per SQL
 * text, a statement still being iterated is never handed out twice, and the cache stays bounded.
 */
import SQLite from 'better-sqlite3';
import { sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { openDatabase, withStatementCache } from '../../storage/connect.js';

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
