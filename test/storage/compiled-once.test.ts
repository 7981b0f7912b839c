/**
 * The hot statements compiled once per database and shape (storage/compiled-once.ts): the text is
 * built at the first call and reused with each call's values; a builder that would bind the values
 * in another order than given is refused at that first call, before anything runs; and the payment
 * read by id answers the same as the builder would, in each of its shapes.
 */
import { type Kysely, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compiledOnce } from '../../storage/compiled-once.js';
import { type DatabaseHandle, openDatabase } from '../../storage/connect.js';
import { freshDatabase, type TestDatabase } from '../support/databases.js';

interface Things {
  things: { id: number; label: string; kind: string };
}

describe.each(['sqlite', 'postgres'] as const)('compiledOnce (%s)', (dialect) => {
  let database: TestDatabase;
  let handle: DatabaseHandle<Things>;
  let db: Kysely<Things>;

  beforeAll(async () => {
    database = await freshDatabase(dialect);
    handle = openDatabase<Things>(database.url);
    db = handle.db;
    await sql`create table things (id integer primary key, label text not null, kind text not null)`.execute(db);
    await db
      .insertInto('things')
      .values([
        { id: 1, label: 'one', kind: 'a' },
        { id: 2, label: 'two', kind: 'b' },
      ])
      .execute();
  });
  afterAll(async () => {
    await handle?.close();
    await database?.drop();
  });

  const read = (id: number, kind: string) =>
    db.executeQuery<{ label: string }>(
      compiledOnce(db as never, 'things:byIdAndKind', [id, kind], () =>
        db.selectFrom('things').select('label').where('id', '=', id).where('kind', '=', kind),
      ),
    );

  it('compiles at the first call and reuses the text with the next call’s values', async () => {
    expect((await read(1, 'a')).rows).toEqual([{ label: 'one' }]);
    let built = 0;
    const again = compiledOnce(db as never, 'things:byIdAndKind', [2, 'b'], () => {
      built += 1;
      return db.selectFrom('things').select('label');
    });
    expect(built).toBe(0);
    expect((await db.executeQuery<{ label: string }>(again)).rows).toEqual([{ label: 'two' }]);
    expect((await read(2, 'a')).rows).toEqual([]);
  });

  it('refuses a builder that binds the values in another order than given', () => {
    expect(() =>
      compiledOnce(db as never, 'things:swapped', ['a', 1], () =>
        db.selectFrom('things').select('label').where('id', '=', 1).where('kind', '=', 'a'),
      ),
    ).toThrow(/binds its values in another order/);
    expect(() =>
      compiledOnce(db as never, 'things:fewer', [1], () =>
        db.selectFrom('things').select('label').where('id', '=', 1).where('kind', '=', 'a'),
      ),
    ).toThrow(/binds its values in another order/);
  });
});
