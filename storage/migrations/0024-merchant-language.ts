/**
 * The language of the service's emails to a merchant (`en`, `hy` or `ru`): the dashboard's
 * language at sign-up, changed on the account page. Existing accounts keep English.
 */
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('merchants')
    .addColumn('language', 'text', (c) => c.notNull().defaultTo('en'))
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('merchants').dropColumn('language').execute();
}
