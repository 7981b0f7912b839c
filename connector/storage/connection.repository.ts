import type { Selectable, Updateable } from 'kysely';
import type { StoreConnectionTable } from './connection.table.js';
import type { ConnectorExecutor } from './database.js';

export type StoreConnection = Selectable<StoreConnectionTable>;

export async function findConnection(db: ConnectorExecutor, id: string): Promise<StoreConnection | undefined> {
  return db.selectFrom('store_connections').selectAll().where('id', '=', id).executeTakeFirst();
}

/**
 * The connection `id` names, or the one it was merged into (`connection_aliases`, migration 0008):
 * the webhook address of an older payment names the connection it was created under.
 */
export async function findConnectionOrAlias(db: ConnectorExecutor, id: string): Promise<StoreConnection | undefined> {
  const direct = await findConnection(db, id);
  if (direct !== undefined) return direct;
  const alias = await db
    .selectFrom('connection_aliases')
    .select('connection_id')
    .where('alias_id', '=', id)
    .executeTakeFirst();
  return alias === undefined ? undefined : findConnection(db, alias.connection_id);
}

export async function findConnectionByTokenHash(
  db: ConnectorExecutor,
  hash: string,
): Promise<StoreConnection | undefined> {
  return db.selectFrom('store_connections').selectAll().where('token_hash', '=', hash).executeTakeFirst();
}

/** What makes a store one store: its platform, its URL, the gateway domain and the environment it pays in. */
export interface StoreIdentity {
  readonly platform: string;
  readonly store_url: string;
  readonly domain: string;
  readonly environment: 'test' | 'live';
}

/** The connection of a store, whatever token it was last reached with (ended ones included). */
export async function findStoreConnection(
  db: ConnectorExecutor,
  store: StoreIdentity,
): Promise<StoreConnection | undefined> {
  return db
    .selectFrom('store_connections')
    .selectAll()
    .where('platform', '=', store.platform)
    .where('store_url', '=', store.store_url)
    .where('domain', '=', store.domain)
    .where('environment', '=', store.environment)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .executeTakeFirst();
}

export async function findConnectionByKeyExchange(
  db: ConnectorExecutor,
  hash: string,
): Promise<StoreConnection | undefined> {
  return db.selectFrom('store_connections').selectAll().where('key_exchange_hash', '=', hash).executeTakeFirst();
}

export async function insertConnection(db: ConnectorExecutor, row: StoreConnection): Promise<void> {
  await db.insertInto('store_connections').values(row).execute();
}

export async function updateConnection(
  db: ConnectorExecutor,
  id: string,
  changes: Updateable<StoreConnectionTable>,
): Promise<void> {
  await db.updateTable('store_connections').set(changes).where('id', '=', id).execute();
}

export async function listConnections(db: ConnectorExecutor): Promise<StoreConnection[]> {
  return db.selectFrom('store_connections').selectAll().orderBy('created_at').execute();
}
