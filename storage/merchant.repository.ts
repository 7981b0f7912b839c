import type { Executor } from './database.js';
import type { MerchantRow, MerchantUpdate, NewMerchantRow } from './merchant.table.js';

export async function insertMerchant(db: Executor, row: NewMerchantRow): Promise<void> {
  await db.insertInto('merchants').values(row).execute();
}

export async function findMerchant(db: Executor, id: string): Promise<MerchantRow | undefined> {
  return db.selectFrom('merchants').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function updateMerchant(db: Executor, id: string, changes: MerchantUpdate): Promise<boolean> {
  const result = await db.updateTable('merchants').set(changes).where('id', '=', id).executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

export async function countMerchants(db: Executor): Promise<number> {
  const row = await db
    .selectFrom('merchants')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}
