/**
 * The transaction runner on both databases: units that arrive together on SQLite share one
 * commit, yet each unit is all-or-nothing and only its own caller sees its failure; on PostgreSQL a
 * unit the server aborts for a deadlock runs again; on SQLite a transaction holds the write lock
 * from its BEGIN, so another process writing the same file waits instead of breaking it. A unit of
 * one statement is sent alone on PostgreSQL.
 */
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import { type Kysely, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type DatabaseHandle, openDatabase } from '../../storage/connect.js';
import type { Database } from '../../storage/database.js';
import { insertMerchant } from '../../storage/merchant.repository.js';
import { migrateToLatest } from '../../storage/migrate.js';
import { createTransactionRunner, MAX_ATTEMPTS, type TransactionRunner } from '../../storage/transactions.js';
import { DIALECTS, freshDatabase, type TestDatabase } from '../support/databases.js';
import { merchantRow } from '../support/rows.js';

describe.each(DIALECTS)('transactions on %s', (dialect) => {
  let database: TestDatabase;
  let handle: DatabaseHandle;
  let db: Kysely<Database>;
  let transact: TransactionRunner;

  beforeAll(async () => {
    database = await freshDatabase(dialect);
    handle = openDatabase(database.url);
    db = handle.db;
    await migrateToLatest(db);
    transact = createTransactionRunner(db, dialect);
  });
  afterAll(async () => {
    await handle?.close();
    await database?.drop();
  });

  async function names(prefix: string): Promise<string[]> {
    const rows = await db
      .selectFrom('merchants')
      .select('id')
      .where('id', 'like', `${prefix}%`)
      .orderBy('id')
      .execute();
    return rows.map((r) => r.id);
  }

  it('answers each unit its own value', async () => {
    const values = await Promise.all(
      Array.from({ length: 30 }, (_, i) =>
        transact(async (trx) => {
          await insertMerchant(trx, merchantRow(`ok-${String(i).padStart(2, '0')}`));
          return i * 2;
        }),
      ),
    );
    expect(values).toEqual(Array.from({ length: 30 }, (_, i) => i * 2));
    expect(await names('ok-')).toHaveLength(30);
  });

  it('a unit of one statement runs alone on PostgreSQL (no BEGIN and COMMIT around it), in the commit queue on SQLite', async () => {
    const inTransaction = await transact(
      async (trx) => {
        await insertMerchant(trx, merchantRow('one-statement'));
        return trx.isTransaction;
      },
      { oneStatement: true },
    );
    expect(inTransaction).toBe(dialect === 'sqlite');
    expect(await names('one-statement')).toEqual(['one-statement']);
    // A failing statement leaves nothing behind either way.
    await expect(
      transact((trx) => insertMerchant(trx, merchantRow('one-statement')), { oneStatement: true }),
    ).rejects.toThrow();
    expect(await names('one-statement')).toHaveLength(1);
  });

  it('rolls back a failing unit entirely while the units beside it commit', async () => {
    await insertMerchant(db, merchantRow('mix-0'));
    const outcomes = await Promise.allSettled([
      transact(async (trx) => insertMerchant(trx, merchantRow('mix-a'))),
      transact(async (trx) => {
        await insertMerchant(trx, merchantRow('mix-b1'));
        await insertMerchant(trx, merchantRow('mix-0')); // duplicate key: the whole unit must go
      }),
      transact(async (trx) => {
        await insertMerchant(trx, merchantRow('mix-c'));
        throw new Error('refused by the service');
      }),
      transact(async (trx) => insertMerchant(trx, merchantRow('mix-d'))),
    ]);
    expect(outcomes.map((o) => o.status)).toEqual(['fulfilled', 'rejected', 'rejected', 'fulfilled']);
    expect((outcomes[2] as PromiseRejectedResult).reason).toEqual(new Error('refused by the service'));
    expect(await names('mix-')).toEqual(['mix-0', 'mix-a', 'mix-d']);
  });

  it('a unit of one statement that breaks a constraint fails alone, the units beside it commit', async () => {
    await insertMerchant(db, merchantRow('single-0'));
    const outcomes = await Promise.allSettled([
      transact(async (trx) => insertMerchant(trx, merchantRow('single-a')), { oneStatement: true }),
      transact(async (trx) => insertMerchant(trx, merchantRow('single-0')), { oneStatement: true }),
      transact(async (trx) => insertMerchant(trx, merchantRow('single-c')), { oneStatement: true }),
      transact(async (trx) => {
        await insertMerchant(trx, merchantRow('single-d1'));
        await insertMerchant(trx, merchantRow('single-d2'));
      }),
    ]);
    expect(outcomes.map((o) => o.status)).toEqual(['fulfilled', 'rejected', 'fulfilled', 'fulfilled']);
    expect(await names('single-')).toEqual(['single-0', 'single-a', 'single-c', 'single-d1', 'single-d2']);
  });

  // On PostgreSQL such a unit is its statement alone, committed by itself (the test above).
  if (dialect === 'sqlite')
    it('a unit of one statement that fails otherwise keeps nothing, and the units beside it run again and commit', async () => {
      const runs = new Map<string, number>();
      const unit = (id: string, after?: Error) =>
        transact(
          async (trx) => {
            runs.set(id, (runs.get(id) ?? 0) + 1);
            await insertMerchant(trx, merchantRow(id));
            if (after !== undefined) throw after;
            return id;
          },
          { oneStatement: true },
        );
      const outcomes = await Promise.allSettled([
        unit('again-a'),
        unit('again-b', new Error('failed after its statement')),
        unit('again-c'),
      ]);
      expect(outcomes.map((o) => o.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
      expect((outcomes[1] as PromiseRejectedResult).reason).toEqual(new Error('failed after its statement'));
      // Its statement ran inside the group's transaction, which was rolled back: nothing of it is kept.
      expect(await names('again-')).toEqual(['again-a', 'again-c']);
      // The unit before it had run in the abandoned transaction, and ran again; the one after, once.
      expect(Object.fromEntries(runs)).toEqual({ 'again-a': 2, 'again-b': 1, 'again-c': 1 });
    });

  it('answers only after the unit is committed and visible to other readers', async () => {
    let visibleWhenAnswered = -1;
    await transact(async (trx) => insertMerchant(trx, merchantRow('seen-1'))).then(async () => {
      visibleWhenAnswered = (await names('seen-')).length;
    });
    expect(visibleWhenAnswered).toBe(1);
  });

  it('keeps working after a burst larger than one group', async () => {
    const burst = await Promise.allSettled(
      Array.from({ length: 150 }, (_, i) =>
        transact(async (trx) => {
          if (i % 50 === 7) throw new Error(`unit ${i} refused`);
          await insertMerchant(trx, merchantRow(`burst-${String(i).padStart(3, '0')}`));
          return i;
        }),
      ),
    );
    expect(burst.filter((o) => o.status === 'rejected')).toHaveLength(3);
    expect(await names('burst-')).toHaveLength(147);
  });
});

describe('transactions on postgres that the server aborts', () => {
  let database: TestDatabase;
  let handle: DatabaseHandle;
  let db: Kysely<Database>;
  let transact: TransactionRunner;

  beforeAll(async () => {
    database = await freshDatabase('postgres');
    handle = openDatabase(database.url);
    db = handle.db;
    transact = createTransactionRunner(db, 'postgres');
    await sql`create table probe (id int primary key, n int not null)`.execute(db);
    await sql`insert into probe values (1, 0), (2, 0)`.execute(db);
  });
  afterAll(async () => {
    await handle?.close();
    await database?.drop();
  });

  /** A promise with its resolver, to make two transactions meet where the test wants. */
  function gate(): { opened: Promise<void>; open: () => void } {
    let open = () => {};
    const opened = new Promise<void>((resolve) => {
      open = resolve;
    });
    return { opened, open };
  }

  it('runs the deadlock victim again, so both transactions take effect', async () => {
    // Each takes one row, waits until the other has taken its row, then asks for the other's: a
    // deadlock. PostgreSQL aborts one; the runner runs it again and, alone by then, it commits.
    const firstHolds = gate();
    const secondHolds = gate();
    const runs = { first: 0, second: 0 };
    const crossing = (name: 'first' | 'second', mine: number, theirs: number) =>
      transact(async (trx) => {
        runs[name] += 1;
        await sql`update probe set n = n + 1 where id = ${mine}`.execute(trx);
        if (runs[name] === 1) {
          (name === 'first' ? firstHolds : secondHolds).open();
          await (name === 'first' ? secondHolds : firstHolds).opened;
        }
        await sql`update probe set n = n + 1 where id = ${theirs}`.execute(trx);
        return name;
      });
    expect(await Promise.all([crossing('first', 1, 2), crossing('second', 2, 1)])).toEqual(['first', 'second']);
    expect(runs.first + runs.second).toBe(3);
    const rows = await sql<{ id: number; n: number }>`select id, n from probe order by id`.execute(db);
    expect(rows.rows).toEqual([
      { id: 1, n: 2 },
      { id: 2, n: 2 },
    ]);
  });

  it(`gives up after ${MAX_ATTEMPTS} runs, and never runs again work that failed otherwise`, async () => {
    let conflicted = 0;
    const conflict = Object.assign(new Error('could not serialize access'), { code: '40001' });
    await expect(
      transact(async () => {
        conflicted += 1;
        throw conflict;
      }),
    ).rejects.toBe(conflict);
    expect(conflicted).toBe(MAX_ATTEMPTS);

    let refused = 0;
    await expect(
      transact(async (trx) => {
        refused += 1;
        await sql`insert into probe values (1, 0)`.execute(trx);
      }),
    ).rejects.toMatchObject({ code: '23505' });
    expect(refused).toBe(1);
  });
});

/** Another process writing to the same SQLite file: a worker thread with a connection of its own. */
const OTHER_WRITER = `
const { workerData, parentPort } = require('node:worker_threads');
const Database = require(workerData.module);
const db = new Database(workerData.path);
db.pragma('busy_timeout = 5000');
try {
  db.prepare("insert into probe_lock values (2, 'the other process')").run();
  parentPort.postMessage('written');
} catch (error) {
  parentPort.postMessage('refused: ' + error.message);
}
db.close();
`;

describe('transactions on sqlite beside another process', () => {
  let database: TestDatabase;
  let handle: DatabaseHandle;

  beforeAll(async () => {
    database = await freshDatabase('sqlite');
    handle = openDatabase(database.url);
    await sql`create table probe_lock (id integer primary key, who text not null)`.execute(handle.db);
  });
  afterAll(async () => {
    await handle?.close();
    await database?.drop();
  });

  it('take the write lock at BEGIN: a process that writes meanwhile waits, and the transaction that read first still writes', async () => {
    const transact = createTransactionRunner(handle.db, 'sqlite');
    let other: Promise<unknown> | undefined;
    await transact(async (trx) => {
      await sql`select count(*) from probe_lock`.execute(trx);
      const workerData = {
        module: createRequire(import.meta.url).resolve('better-sqlite3'),
        path: database.url.slice('sqlite:'.length),
      };
      other = new Promise((resolve) => new Worker(OTHER_WRITER, { eval: true, workerData }).once('message', resolve));
      // The other process tries to write now. Had this transaction begun with a plain BEGIN, its
      // write would commit, and the insert below would fail at once with SQLITE_BUSY.
      await new Promise((resolve) => setTimeout(resolve, 300));
      await sql`insert into probe_lock values (1, 'the gateway')`.execute(trx);
    });
    expect(await other).toBe('written');
    const rows = await sql<{ id: number; who: string }>`select id, who from probe_lock order by id`.execute(handle.db);
    expect(rows.rows).toEqual([
      { id: 1, who: 'the gateway' },
      { id: 2, who: 'the other process' },
    ]);
  });
});
