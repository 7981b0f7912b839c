/**
 * Migration 0031: the payments indexes on the RRN, the customer email, the hold deadline and the
 * processor hold only the payments that have that key, so a create writes four index entries fewer.
 * The queries those indexes serve still use them (the searches by RRN and email: see
 * payment-search.test.ts), a payment without the key is not in its index, and the migration goes
 * down to the full indexes and up again.
 */
import { type Compilable, CompiledQuery, type Kysely, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type DatabaseHandle, openDatabase } from '../../storage/connect.js';
import type { Database } from '../../storage/database.js';
import { listRunOutHolds } from '../../storage/hold-operation.repository.js';
import * as partialIndexes from '../../storage/migrations/0031-partial-payment-indexes.js';
import { DIALECTS, freshDatabase, type TestDatabase } from '../support/databases.js';

const PARTIAL = ['payments_holds_due', 'payments_list_processor', 'payments_search_email', 'payments_search_rrn'];

describe.each(DIALECTS)('partial payment indexes (%s)', (dialect) => {
  let database: TestDatabase;
  let handle: DatabaseHandle;
  let db: Kysely<Database>;

  beforeAll(async () => {
    database = await freshDatabase(dialect, 'gateway');
    handle = openDatabase(database.url);
    db = handle.db;
  });
  afterAll(async () => {
    await handle?.close();
    await database?.drop();
  });

  /** Each index's definition as the database keeps it. */
  async function definitions(): Promise<Record<string, string>> {
    const rows =
      dialect === 'sqlite'
        ? (
            await sql<{
              name: string;
              sql: string;
            }>`select name, sql from sqlite_master where type = 'index' and tbl_name = 'payments'`.execute(db)
          ).rows
        : (
            await sql<{
              name: string;
              sql: string;
            }>`select indexname as name, indexdef as sql from pg_indexes where tablename = 'payments'`.execute(db)
          ).rows;
    return Object.fromEntries(rows.filter((r) => PARTIAL.includes(r.name)).map((r) => [r.name, r.sql]));
  }

  async function plan(query: Compilable): Promise<string> {
    const compiled = query.compile();
    if (dialect === 'sqlite') {
      const rows = await db.executeQuery<{ detail: string }>(
        CompiledQuery.raw(`explain query plan ${compiled.sql}`, [...compiled.parameters]),
      );
      return rows.rows.map((r) => r.detail).join('\n');
    }
    return db.transaction().execute(async (trx) => {
      await sql`set local enable_seqscan = off`.execute(trx);
      const rows = await trx.executeQuery<{ 'QUERY PLAN': string }>(
        CompiledQuery.raw(`explain ${compiled.sql}`, [...compiled.parameters]),
      );
      return rows.rows.map((r) => r['QUERY PLAN']).join('\n');
    });
  }

  it('holds only the payments that have the key', async () => {
    const defined = await definitions();
    expect(Object.keys(defined).sort()).toEqual(PARTIAL);
    expect(defined.payments_search_rrn).toMatch(/where \(?rrn is not null/i);
    expect(defined.payments_search_email).toMatch(/where \(?customer_email is not null/i);
    expect(defined.payments_holds_due).toMatch(/where \(?capture_before is not null/i);
    expect(defined.payments_list_processor).toMatch(/where \(?processor is not null/i);
  });

  it('serves the run-out holds and the list by processor', async () => {
    const holds = await plan(
      db
        .selectFrom('payments')
        .select('id')
        .where('status', '=', 'authorized')
        .where('capture_before', '<=', '2026-12-01T00:00:00.000Z')
        .where('hold_operation_id', 'is', null)
        .orderBy('capture_before')
        .limit(10),
    );
    expect(holds).toContain('payments_holds_due');
    // The query above is the one the hold expiry runs.
    expect(await listRunOutHolds(db, '2026-12-01T00:00:00.000Z', 10)).toEqual([]);
    const byProcessor = await plan(
      db
        .selectFrom('payments')
        .select('id')
        .where('merchant_id', '=', 'm1')
        .where('environment', '=', 'test')
        .where('processor', '=', 'idram')
        .orderBy('created_at', 'desc')
        .orderBy('id', 'desc')
        .limit(25),
    );
    expect(byProcessor).toContain('payments_list_processor');
  });

  it('goes down to the full indexes and up again', async () => {
    const partial = await definitions();
    await partialIndexes.down(db as unknown as Kysely<unknown>);
    const full = await definitions();
    expect(Object.keys(full).sort()).toEqual(PARTIAL);
    for (const name of PARTIAL) expect(full[name]).not.toMatch(/ where /i);
    await partialIndexes.up(db as unknown as Kysely<unknown>);
    expect(await definitions()).toEqual(partial);
  });
});
