/**
 * On PostgreSQL the statements the query builder sends are prepared once per connection, by name
 * (storage/connect.ts): the server parses and plans them once, a `select *` too. A plan that goes
 * stale because another instance's migration added a column under a `select *` or changed a
 * column's type is prepared again: at once outside a transaction, by running the transaction again
 * inside one. Transaction control is never prepared.
 */
import { type Kysely, sql } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type DatabaseHandle, openDatabase } from '../../storage/connect.js';
import { createTransactionRunner } from '../../storage/transactions.js';
import { freshDatabase, type TestDatabase } from '../support/databases.js';

interface Things {
  things: { id: number; label: string; added?: string | null };
}

describe('prepared statements on PostgreSQL', () => {
  let database: TestDatabase;
  let handle: DatabaseHandle<Things>;
  let db: Kysely<Things>;
  /** Another instance's connection: its migrations change the table under the first one. */
  let other: pg.Client;

  beforeAll(async () => {
    database = await freshDatabase('postgres');
    // One connection: everything below runs on it, and it sees its own prepared statements.
    handle = openDatabase<Things>(database.url, { poolSize: 1 });
    db = handle.db;
    await sql`create table things (id integer primary key, label text not null)`.execute(db);
    await db.insertInto('things').values({ id: 1, label: 'one' }).execute();
    other = new pg.Client({ connectionString: database.url });
    await other.connect();
  });
  afterAll(async () => {
    await other?.end();
    await handle?.close();
    await database?.drop();
  });

  const prepared = async () =>
    (await sql<{ statement: string }>`select statement from pg_prepared_statements`.execute(db)).rows.map(
      (r) => r.statement,
    );

  it('prepares each statement once, by name, a select * too, and never BEGIN or COMMIT', async () => {
    for (let i = 0; i < 3; i++) await db.selectFrom('things').select('label').where('id', '=', 1).execute();
    await db
      .transaction()
      .execute((trx) => trx.updateTable('things').set({ label: 'one' }).where('id', '=', 1).execute());
    await db.selectFrom('things').selectAll().where('id', '=', 1).execute();
    const statements = await prepared();
    expect(statements.filter((s) => s.startsWith('select "label" from "things"'))).toHaveLength(1);
    expect(statements.some((s) => s.startsWith('update "things"'))).toBe(true);
    expect(statements.some((s) => /^(begin|commit)/i.test(s))).toBe(false);
    expect(statements.filter((s) => s.startsWith('select * from "things"'))).toHaveLength(1);
    // The schema change of beforeAll, made once, was not prepared.
    expect(statements.some((s) => s.startsWith('create table'))).toBe(false);
    // A column added meanwhile is in the next select *: the stale plan is prepared again.
    await other.query('alter table things add column added text');
    expect(await db.selectFrom('things').selectAll().where('id', '=', 1).executeTakeFirst()).toEqual({
      id: 1,
      label: 'one',
      added: null,
    });
  });

  it('a statement whose column changed type is prepared again and answers the new type', async () => {
    const read = () => db.selectFrom('things').select(['id', 'label']).where('id', '=', 1).executeTakeFirst();
    expect(await read()).toEqual({ id: 1, label: 'one' });
    await other.query('alter table things alter column id type bigint');
    // int8 arrives as a number through the pool's parser (storage/connect.ts).
    expect(await read()).toEqual({ id: 1, label: 'one' });
  });

  it('inside a transaction, the transaction is run again', async () => {
    const transact = createTransactionRunner(db as never, 'postgres');
    const read = () =>
      transact(async (trx) => {
        const executor = trx as unknown as Kysely<Things>;
        await executor.updateTable('things').set({ label: 'uno' }).where('id', '=', 1).execute();
        return executor.selectFrom('things').select(['id', 'label']).where('id', '=', 1).executeTakeFirst();
      });
    expect(await read()).toEqual({ id: 1, label: 'uno' });
    await other.query('alter table things alter column label type varchar(40)');
    expect(await read()).toEqual({ id: 1, label: 'uno' });
  });

  it('inside a transaction, a select * that meets an added column runs again with it', async () => {
    const transact = createTransactionRunner(db as never, 'postgres');
    const read = () =>
      transact(async (trx) => {
        const executor = trx as unknown as Kysely<Things & { things: { extra?: number | null } }>;
        await executor.updateTable('things').set({ label: 'eins' }).where('id', '=', 1).execute();
        return executor.selectFrom('things').selectAll().where('id', '=', 1).executeTakeFirst();
      });
    expect(await read()).toMatchObject({ id: 1, label: 'eins' });
    await other.query('alter table things add column extra integer');
    expect(await read()).toMatchObject({ id: 1, label: 'eins', extra: null });
  });
});
