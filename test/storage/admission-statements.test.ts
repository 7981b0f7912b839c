/**
 * The admission's statements on PostgreSQL (storage/rate-limit.repository.ts), on the gateway's
 * schema: the count with a read of one row in the same statement, and the count with an INSERT
 * made only when the request is admitted there. Every answer is checked against the tables.
 */
import { CompiledQuery, type Kysely, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type DatabaseHandle, openDatabase } from '../../storage/connect.js';
import type { Database } from '../../storage/database.js';
import {
  admitCountingAlongside,
  admitCountingWriting,
  type WriteConditions,
} from '../../storage/rate-limit.repository.js';
import { freshDatabase, type TestDatabase } from '../support/databases.js';

describe('admission statements on PostgreSQL', () => {
  let database: TestDatabase;
  let handle: DatabaseHandle;
  let db: Kysely<Database>;
  const minute = 29_000_000;
  let version = '';

  beforeAll(async () => {
    database = await freshDatabase('postgres', 'gateway');
    handle = openDatabase(database.url, { poolSize: 2 });
    db = handle.db;
    await sql`create table admission_probe (id text primary key, label text not null)`.execute(db);
    version = String(
      (await sql<{ version: string }>`select version from account_version where id = 1`.execute(db)).rows[0]?.version,
    );
  });
  afterAll(async () => {
    await handle?.close();
    await database?.drop();
  });

  const hitsOf = async (bucket: string) =>
    Number(
      (
        await db
          .selectFrom('rate_limit_counters')
          .select('hits')
          .where('bucket', '=', bucket)
          .where('window_minute', '=', minute)
          .executeTakeFirst()
      )?.hits ?? 0,
    );
  const probes = async () =>
    (await sql<{ id: string }>`select id from admission_probe order by id`.execute(db)).rows.map((r) => r.id);
  const insertProbe = (id: string) =>
    CompiledQuery.raw('insert into "admission_probe" ("id", "label") values ($1, $2)', [id, `probe ${id}`]);
  const admitted = (overrides: Partial<WriteConditions> = {}): WriteConditions => ({
    maxHits: 100,
    failuresBelow: 120,
    version,
    ...overrides,
  });

  it('reads the row along with the count, and answers none when the read finds nothing', async () => {
    await sql`insert into admission_probe (id, label) values ('read-1', 'one')`.execute(db);
    const read = (id: string) => CompiledQuery.raw('select * from "admission_probe" where "id" = $1', [id]);
    const found = await admitCountingAlongside(db, 'account:read', 'auth-failures:read', minute, read('read-1'));
    expect(found).toMatchObject({ hits: 1, peeked: 0, accountVersion: version });
    expect(found.row).toMatchObject({ id: 'read-1', label: 'one' });
    const missing = await admitCountingAlongside(db, 'account:read', 'auth-failures:read', minute, read('read-2'));
    expect(missing).toMatchObject({ hits: 2, row: undefined });
    expect(await hitsOf('account:read')).toBe(2);
  });

  it('inserts the row when the request is admitted, and counts it', async () => {
    const answer = await admitCountingWriting(
      db,
      'account:w1',
      'auth-failures:w1',
      minute,
      insertProbe('w1'),
      admitted(),
    );
    expect(answer).toEqual({ hits: 1, peeked: 0, accountVersion: version, written: true });
    expect(await probes()).toContain('w1');
    expect(await hitsOf('account:w1')).toBe(1);
  });

  it('counts but does not insert past the limit, past the failures, or at another account version', async () => {
    await db
      .insertInto('rate_limit_counters')
      .values([
        { bucket: 'account:w2', window_minute: minute, hits: 5 },
        { bucket: 'auth-failures:w2-blocked', window_minute: minute, hits: 7 },
      ])
      .execute();
    const limited = await admitCountingWriting(
      db,
      'account:w2',
      'auth-failures:w2',
      minute,
      insertProbe('w2-a'),
      admitted({ maxHits: 5 }),
    );
    expect(limited).toMatchObject({ hits: 6, written: false });
    const blocked = await admitCountingWriting(
      db,
      'account:w2',
      'auth-failures:w2-blocked',
      minute,
      insertProbe('w2-b'),
      admitted({ failuresBelow: 7 }),
    );
    expect(blocked).toMatchObject({ hits: 7, peeked: 7, written: false });
    const moved = await admitCountingWriting(
      db,
      'account:w2',
      'auth-failures:w2',
      minute,
      insertProbe('w2-c'),
      admitted({ version: String(Number(version) + 1) }),
    );
    expect(moved).toMatchObject({ hits: 8, accountVersion: version, written: false });
    expect((await probes()).filter((id) => id.startsWith('w2'))).toEqual([]);
    // At the limit exactly, it is written.
    const last = await admitCountingWriting(
      db,
      'account:w2',
      'auth-failures:w2',
      minute,
      insertProbe('w2-d'),
      admitted({ maxHits: 9 }),
    );
    expect(last).toMatchObject({ hits: 9, written: true });
    expect(await probes()).toContain('w2-d');
  });

  it('counts nothing when the insert fails: the statement is one transaction', async () => {
    await admitCountingWriting(db, 'account:w3', 'auth-failures:w3', minute, insertProbe('w3'), admitted());
    await expect(
      admitCountingWriting(db, 'account:w3', 'auth-failures:w3', minute, insertProbe('w3'), admitted()),
    ).rejects.toMatchObject({ code: '23505' });
    expect(await hitsOf('account:w3')).toBe(1);
  });

  it('refuses to carry anything but an INSERT of one row of parameters', async () => {
    const update = CompiledQuery.raw('update "admission_probe" set "label" = $1', ['x']);
    const twoRows = CompiledQuery.raw('insert into "admission_probe" ("id", "label") values ($1, $2), ($3, $4)', [
      'a',
      'b',
      'c',
      'd',
    ]);
    for (const write of [update, twoRows]) {
      await expect(
        admitCountingWriting(db, 'account:w4', 'auth-failures:w4', minute, write, admitted()),
      ).rejects.toThrow(/only an INSERT of one row/);
    }
    expect(await hitsOf('account:w4')).toBe(0);
  });
});
