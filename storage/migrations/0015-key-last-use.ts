/**
 * When each API key and connect token last authenticated a request (`last_used_at`, null: never
 * since this migration), shown on the dashboard's lists. Written at most once a minute per key or
 * token (gateway/auth/last-use.ts).
 *
 * The time of last use is not an account fact: the account-version triggers of 0006 fired on any
 * update of these two tables, so every write of it would make every instance forget its cached
 * keys. They now watch every column but `last_used_at`, as 0008 did for `domains`; a revocation
 * (`revoked_at`) still moves the version, and so the next request on every instance refuses it.
 */
import { type Kysely, sql } from 'kysely';
import { isSqlite } from './dialect.js';

/** The columns whose change moves the account version (every column the table had before). */
const FACTS: Readonly<Record<'api_keys' | 'connect_tokens', readonly string[]>> = {
  api_keys: [
    'id',
    'merchant_id',
    'environment',
    'access',
    'key_hash',
    'key_prefix',
    'key_last4',
    'created_at',
    'revoked_at',
  ],
  connect_tokens: [
    'id',
    'merchant_id',
    'domain_id',
    'platform',
    'environment',
    'created_at',
    'expires_at',
    'revoked_at',
  ],
};

/** Recreates the update trigger(s) of `table` (named as 0006 named them): over `columns`, or any update. */
async function watch(
  db: Kysely<unknown>,
  sqlite: boolean,
  table: keyof typeof FACTS,
  columns: readonly string[] | null,
): Promise<void> {
  const update = columns === null ? 'update' : `update of ${columns.join(', ')}`;
  if (sqlite) {
    await sql.raw(`drop trigger ${table}_update_account_version`).execute(db);
    await sql
      .raw(
        `create trigger ${table}_update_account_version after ${update} on ${table} ` +
          'begin update account_version set version = version + 1 where id = 1; end',
      )
      .execute(db);
    return;
  }
  await sql.raw(`drop trigger ${table}_account_version on ${table}`).execute(db);
  await sql
    .raw(
      `create trigger ${table}_account_version after insert or ${update} or delete on ${table} ` +
        'for each row execute function bump_account_version()',
    )
    .execute(db);
}

export async function up(db: Kysely<unknown>): Promise<void> {
  const sqlite = await isSqlite(db);
  for (const table of ['api_keys', 'connect_tokens'] as const) {
    await db.schema.alterTable(table).addColumn('last_used_at', 'text').execute();
    await watch(db, sqlite, table, FACTS[table]);
  }
}

export async function down(db: Kysely<unknown>): Promise<void> {
  const sqlite = await isSqlite(db);
  for (const table of ['api_keys', 'connect_tokens'] as const) {
    await watch(db, sqlite, table, null);
    await db.schema.alterTable(table).dropColumn('last_used_at').execute();
  }
}
