import type { Executor } from './database.js';
import type { DomainProcessorRow, DomainRow, NewDomainRow } from './domain.table.js';

export async function insertDomain(db: Executor, row: NewDomainRow): Promise<void> {
  await db.insertInto('domains').values(row).execute();
}

export async function listMerchantDomains(db: Executor, merchantId: string): Promise<DomainRow[]> {
  return db.selectFrom('domains').selectAll().where('merchant_id', '=', merchantId).orderBy('created_at').execute();
}

export async function findMerchantDomain(
  db: Executor,
  merchantId: string,
  host: string,
): Promise<DomainRow | undefined> {
  return db
    .selectFrom('domains')
    .selectAll()
    .where('merchant_id', '=', merchantId)
    .where('host', '=', host)
    .executeTakeFirst();
}

export async function updateDomain(
  db: Executor,
  id: string,
  changes: Partial<Omit<DomainRow, 'id' | 'merchant_id' | 'created_at'>>,
): Promise<void> {
  await db.updateTable('domains').set(changes).where('id', '=', id).execute();
}

export async function listEnabledProcessors(db: Executor, domainId: string): Promise<string[]> {
  const rows = await db
    .selectFrom('domain_processors')
    .select('processor')
    .where('domain_id', '=', domainId)
    .where('enabled', '=', 1)
    .orderBy('processor')
    .execute();
  return rows.map((r) => r.processor);
}

export async function upsertDomainProcessor(
  db: Executor,
  row: Pick<DomainProcessorRow, 'domain_id' | 'processor' | 'enabled' | 'config'>,
  now: string,
): Promise<void> {
  await db
    .insertInto('domain_processors')
    .values({ ...row, created_at: now, updated_at: now })
    .onConflict((oc) =>
      oc.columns(['domain_id', 'processor']).doUpdateSet({
        enabled: row.enabled,
        ...(row.config !== null ? { config: row.config } : {}),
        updated_at: now,
      }),
    )
    .execute();
}
