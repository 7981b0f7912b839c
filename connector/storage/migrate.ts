/**
 * Runs the connector's migrations. Its migration bookkeeping tables are named apart from the
 * gateway's, so both services may share one PostgreSQL database.
 */
import { type Kysely, type Migration, Migrator } from 'kysely';
import type { ConnectorDatabase } from './database.js';
import * as connector from './migrations/0001-connector.js';

const MIGRATIONS: Record<string, Migration> = {
  '0001-connector': connector,
};

export async function migrateConnector(db: Kysely<ConnectorDatabase>): Promise<string[]> {
  const migrator = new Migrator({
    db,
    provider: { getMigrations: async () => MIGRATIONS },
    migrationTableName: 'connector_migration',
    migrationLockTableName: 'connector_migration_lock',
  });
  const { error, results } = await migrator.migrateToLatest();
  if (error !== undefined) {
    const failed = results?.find((r) => r.status === 'Error')?.migrationName;
    throw new Error(
      `connector migration ${failed ?? '(unknown)'} failed: ${String((error as Error).message ?? error)}`,
      {
        cause: error,
      },
    );
  }
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}
