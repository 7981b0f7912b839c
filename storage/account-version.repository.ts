/**
 * Reads the account version (see migration 0006) on the hot path: once per request, through the
 * handle's prepared single-value read rather than the query builder.
 */
import type { DatabaseHandle } from './connect.js';

const READ_VERSION = 'select version from account_version where id = 1';

/** A reader of the current account version, as a string (bigint on PostgreSQL, integer on SQLite). */
export function accountVersionReader(database: Pick<DatabaseHandle, 'readFirstValue'>): () => Promise<string> {
  return async () => String(await database.readFirstValue(READ_VERSION));
}
