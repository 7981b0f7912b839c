import type { Selectable, Updateable } from 'kysely';
import type { ConnectorExecutor, StoreConnectionTable } from './database.js';

export type StoreConnection = Selectable<StoreConnectionTable>;

export async function findConnection(db: ConnectorExecutor, id: string): Promise<StoreConnection | undefined> {
  return db.selectFrom('store_connections').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function findConnectionByTokenHash(
  db: ConnectorExecutor,
  hash: string,
): Promise<StoreConnection | undefined> {
  return db.selectFrom('store_connections').selectAll().where('token_hash', '=', hash).executeTakeFirst();
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
