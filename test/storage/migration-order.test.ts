/**
 * Migration numbers are reserved ahead for work in progress, so a database in service may already
 * hold a later migration than one added since: a database that ran 0001 to 0017 and 0020 must
 * still take 0018, 0019, 0021 and 0022, and end with the same schema as a database made new.
 */
import { type Kysely, sql } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { type DatabaseHandle, openDatabase } from '../../storage/connect.js';
import type { Database, DialectName } from '../../storage/database.js';
import { MIGRATIONS, migrateToLatest, runMigrations } from '../../storage/migrate.js';
import { DIALECTS, freshDatabase, type TestDatabase } from '../support/databases.js';

/** Tables, indexes and triggers of the database, by name (the migrator's own tables left out). */
async function schemaOf(db: Kysely<Database>, dialect: DialectName): Promise<string[]> {
  if (dialect === 'sqlite') {
    const { rows } = await sql<{ type: string; name: string; sql: string | null }>`
      select type, name, sql from sqlite_master where name not like 'kysely_%' and name not like 'sqlite_%'`.execute(
      db,
    );
    return rows.map((r) => `${r.type} ${r.name}: ${r.sql ?? ''}`).sort();
  }
  const columns = await sql<{ d: string }>`
    select table_name || '.' || column_name || ' ' || data_type || ' ' || is_nullable as d
    from information_schema.columns where table_schema = 'public' and table_name not like 'kysely_%'`.execute(db);
  const indexes = await sql<{ d: string }>`
    select indexdef as d from pg_indexes where schemaname = 'public' and tablename not like 'kysely_%'`.execute(db);
  const triggers = await sql<{ d: string }>`
    select event_object_table || ' ' || trigger_name || ' ' || event_manipulation || ' ' || action_statement as d
    from information_schema.triggers where trigger_schema = 'public'`.execute(db);
  return [...columns.rows, ...indexes.rows, ...triggers.rows].map((r) => r.d).sort();
}

describe.each(DIALECTS)('migrations out of number order on %s', (dialect) => {
  const opened: Array<{ database: TestDatabase; handle: DatabaseHandle }> = [];
  async function open(): Promise<Kysely<Database>> {
    const database = await freshDatabase(dialect);
    const handle = openDatabase(database.url);
    opened.push({ database, handle });
    return handle.db;
  }
  afterAll(async () => {
    for (const { database, handle } of opened) {
      await handle.close();
      await database.drop();
    }
  });

  it('a database that already ran 0020 takes the lower numbers added since, in name order, and ends like a new one', async () => {
    const earlier = Object.fromEntries(
      Object.entries(MIGRATIONS).filter(([name]) => name < '0018' || name.startsWith('0020-')),
    );
    const inService = await open();
    await runMigrations(inService, earlier);
    expect(await migrateToLatest(inService)).toEqual([
      '0018-payment-links',
      '0019-customer-totals',
      '0021-payment-search',
      '0022-webhook-delivery-attempts',
      '0023-dashboard-mail-sends',
      '0024-merchant-language',
      '0025-sandbox-payments-are-test',
      '0026-test-clock',
      '0027-payment-prefix-search',
      '0028-payment-holds',
      '0029-payment-count-shards',
      '0030-unlogged-rate-limits',
      '0031-partial-payment-indexes',
    ]);
    expect(await migrateToLatest(inService)).toEqual([]);

    const made = await open();
    await migrateToLatest(made);
    expect(await schemaOf(inService, dialect)).toEqual(await schemaOf(made, dialect));
  });
});
