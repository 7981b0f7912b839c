/**
 * The admission's statement with a read of one row in it, on PostgreSQL
 * (storage/rate-limit.repository.ts), on the gateway's schema: the count goes up once per statement
 * and the row comes back with it, or none. Every answer is checked against the tables.
 */
import { CompiledQuery, type Kysely, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type DatabaseHandle, openDatabase } from '../../storage/connect.js';
import type { Database } from '../../storage/database.js';
import { admitCountingAlongside } from '../../storage/rate-limit.repository.js';
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
});
