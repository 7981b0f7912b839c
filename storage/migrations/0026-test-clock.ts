/**
 * The test clock (`GATEWAY_CLOCK=manual`) kept in the database, so every instance and every CLI run
 * on one database reads the same time and sees an advance at once (docs/decisions.md "The test
 * clock"). One row, written by the first process that starts on the manual clock: the real time
 * it started at, and how far the clock test helper has moved it since. Empty on a database that
 * never ran on the manual clock.
 */
import { type Kysely, sql } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('test_clock')
    .addColumn('id', 'integer', (c) => c.primaryKey())
    .addColumn('start_ms', 'bigint', (c) => c.notNull())
    .addColumn('advanced_ms', 'bigint', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addCheckConstraint('test_clock_one_row', sql`id = 1`)
    .addCheckConstraint('test_clock_forward', sql`advanced_ms >= 0`)
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('test_clock').execute();
}
