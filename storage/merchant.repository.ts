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

/** A merchant as the operator's list shows it: the account and its hosted domain. */
export interface MerchantListRow {
  id: string;
  name: string;
  email: string | null;
  business_verified: number;
  created_at: string;
  hosted_domain: string | null;
}

/** Every merchant with its hosted domain, oldest first. */
export async function listMerchantsWithHostedDomain(db: Executor): Promise<MerchantListRow[]> {
  return db
    .selectFrom('merchants')
    .leftJoin('domains', (join) => join.onRef('domains.merchant_id', '=', 'merchants.id').on('domains.hosted', '=', 1))
    .select([
      'merchants.id',
      'merchants.name',
      'merchants.email',
      'merchants.business_verified',
      'merchants.created_at',
      'domains.host as hosted_domain',
    ])
    .orderBy('merchants.created_at', 'asc')
    .orderBy('merchants.id', 'asc')
    .execute();
}
