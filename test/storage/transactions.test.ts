/**
 * The transaction runner on both databases: units that arrive together on SQLite share one
 * commit, yet each unit is all-or-nothing and only its own caller sees its failure.
 */
import type { Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type DatabaseHandle, openDatabase } from '../../storage/connect.js';
import type { Database } from '../../storage/database.js';
import { insertMerchant } from '../../storage/merchant.repository.js';
import { migrateToLatest } from '../../storage/migrate.js';
import { createTransactionRunner, type TransactionRunner } from '../../storage/transactions.js';
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
