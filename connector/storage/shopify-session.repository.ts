import type { Selectable } from 'kysely';
import type { ConnectorExecutor } from './database.js';
import type { ShopifySessionTable } from './shopify-session.table.js';

export type ShopifySessionRow = Selectable<ShopifySessionTable>;

export async function findShopifySession(db: ConnectorExecutor, id: string): Promise<ShopifySessionRow | undefined> {
  return db.selectFrom('shopify_sessions').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function findShopifySessionsByShop(db: ConnectorExecutor, shop: string): Promise<ShopifySessionRow[]> {
  return db.selectFrom('shopify_sessions').selectAll().where('shop', '=', shop).orderBy('id').execute();
}

/** Creates or replaces the row (a new generation either way). */
export async function saveShopifySession(
  db: ConnectorExecutor,
  row: Omit<ShopifySessionRow, 'generation'>,
): Promise<void> {
  await db.transaction().execute(async (trx) => {
    const current = await trx
      .selectFrom('shopify_sessions')
      .select('generation')
      .where('id', '=', row.id)
      .executeTakeFirst();
    if (current === undefined) {
      await trx
        .insertInto('shopify_sessions')
        .values({ ...row, generation: 1 })
        .onConflict((oc) => oc.column('id').doUpdateSet({ ...row, generation: 1 }))
        .execute();
      return;
    }
    await trx
      .updateTable('shopify_sessions')
      .set({ ...row, generation: current.generation + 1 })
      .where('id', '=', row.id)
      .execute();
  });
}

/** Replaces the row only if it is still the generation that was read; answers whether it did. */
export async function replaceShopifySessionIf(
  db: ConnectorExecutor,
  generation: number,
  row: Omit<ShopifySessionRow, 'generation'>,
): Promise<boolean> {
  const result = await db
    .updateTable('shopify_sessions')
    .set({ ...row, generation: generation + 1 })
    .where('id', '=', row.id)
    .where('generation', '=', generation)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

export async function deleteShopifySessions(db: ConnectorExecutor, ids: readonly string[]): Promise<void> {
  if (ids.length === 0) return;
  await db.deleteFrom('shopify_sessions').where('id', 'in', ids).execute();
}

export async function deleteShopifySessionsOfShop(db: ConnectorExecutor, shop: string): Promise<number> {
  const result = await db.deleteFrom('shopify_sessions').where('shop', '=', shop).executeTakeFirst();
  return Number(result.numDeletedRows);
}
