/**
 * Failed scheduled reconciliation runs, one row per connection while its runs keep failing: how
 * many in a row and when the next may start. A successful run deletes the row. Times are written by
 * the connector's clock (no database defaults).
 */
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('reconciliation_backoff')
    .addColumn('connection_id', 'text', (c) => c.primaryKey().references('store_connections.id'))
    .addColumn('failures', 'integer', (c) => c.notNull())
    .addColumn('last_failed_at', 'text', (c) => c.notNull())
    .addColumn('last_error', 'text', (c) => c.notNull())
    .addColumn('retry_at', 'text', (c) => c.notNull())
    .execute();
}
