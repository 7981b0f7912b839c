/**
 * The account version: one number that changes whenever a fact the servers cache about accounts
 * changes (merchants, API keys, domains, a domain's processors, connect tokens), whoever made the
 * change: this instance, another instance, the CLI, or a statement typed into the database. Every
 * instance reads it at the start of each request and forgets what it cached when it moved, so a
 * revoked key is refused by the very next request everywhere.
 *
 * The database keeps it itself, with triggers, so that no write path can forget it. The number is
 * a row updated inside the writing transaction: it moves exactly when the change commits (a
 * sequence would move before the commit, and a reader could cache the old facts under the new
 * number). Triggers are per row, so a statement that changes nothing (the scheduler's regular
 * "finish due secret rotations") does not move it. A domain's failed-delivery email throttle
 * (`failure_email_at`) is not an account fact and does not move it either.
 */
import { type Kysely, sql } from 'kysely';
import { isSqlite } from './dialect.js';

/** Tables whose rows the servers cache, with the columns whose change matters (undefined: all). */
const WATCHED: ReadonlyArray<{ table: string; columns?: readonly string[] }> = [
  { table: 'merchants' },
  { table: 'api_keys' },
  {
    table: 'domains',
    columns: [
      'merchant_id',
      'host',
      'hosted',
      'verified',
      'webhook_url',
      'webhook_secret',
      'webhook_secret_next',
      'webhook_secret_next_at',
    ],
  },
  { table: 'domain_processors' },
  { table: 'connect_tokens' },
];

const OPERATIONS = ['insert', 'update', 'delete'] as const;

function event(operation: (typeof OPERATIONS)[number], columns: readonly string[] | undefined): string {
  if (operation !== 'update' || columns === undefined) return operation;
  return `update of ${columns.join(', ')}`;
}

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('account_version')
    .addColumn('id', 'integer', (c) => c.primaryKey())
    .addColumn('version', 'bigint', (c) => c.notNull())
    .execute();
  await sql`insert into account_version (id, version) values (1, 0)`.execute(db);

  if (await isSqlite(db)) {
    for (const { table, columns } of WATCHED) {
      for (const operation of OPERATIONS) {
        await sql
          .raw(
            `create trigger ${table}_${operation}_account_version after ${event(operation, columns)} on ${table} ` +
              'begin update account_version set version = version + 1 where id = 1; end',
          )
          .execute(db);
      }
    }
    return;
  }
  await sql`
    create function bump_account_version() returns trigger language plpgsql as $$
    begin
      update account_version set version = version + 1 where id = 1;
      return null;
    end
    $$`.execute(db);
  for (const { table, columns } of WATCHED) {
    const events = OPERATIONS.map((operation) => event(operation, columns)).join(' or ');
    await sql
      .raw(
        `create trigger ${table}_account_version after ${events} on ${table} ` +
          'for each row execute function bump_account_version()',
      )
      .execute(db);
  }
}

export async function down(db: Kysely<unknown>): Promise<void> {
  const sqlite = await isSqlite(db);
  for (const { table } of WATCHED) {
    if (sqlite) {
      for (const operation of OPERATIONS)
        await sql.raw(`drop trigger ${table}_${operation}_account_version`).execute(db);
    } else {
      await sql.raw(`drop trigger ${table}_account_version on ${table}`).execute(db);
    }
  }
  if (!sqlite) await sql`drop function bump_account_version()`.execute(db);
  await db.schema.dropTable('account_version').execute();
}
