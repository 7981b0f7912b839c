/**
 * `gateway migrate`: applies the pending database migrations. `--json` prints
 * `{migrations_applied: [...]}` (empty when the database was up to date).
 */
import { openDatabase } from '../../../storage/connect.js';
import { migrateToLatest } from '../../../storage/migrate.js';
import { printOutput, type StandaloneCommand } from '../command.js';

export const migrate: StandaloneCommand = async (_values, { config, io, json }) => {
  const database = openDatabase(config.databaseUrl);
  try {
    const applied = await migrateToLatest(database.db);
    printOutput(
      io,
      {
        json: { migrations_applied: applied },
        text: applied.length === 0 ? 'Database is up to date.' : `Applied: ${applied.join(', ')}`,
      },
      json,
    );
  } finally {
    await database.close();
  }
  return 0;
};
