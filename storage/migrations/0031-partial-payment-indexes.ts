/**
 * Four of the payments table's indexes hold only the payments that have their key (docs/decisions.md
 * "Performance on PostgreSQL", "Fewer index entries per create"). A payment is created without an
 * RRN (the bank's reference comes with the payment), a hold deadline (`capture_before` comes with
 * an authorization), often without a processor (the buyer picks one at checkout) and without a
 * customer email; every index entry a create writes costs it time, on SQLite the most. The
 * queries that use these indexes all ask for a value of the key (`rrn = ?`, `capture_before <= ?`,
 * `processor = ?`), which tells both databases that the row has one; the email search says so
 * itself (storage/payment-search.ts).
 */
import { type Kysely, sql } from 'kysely';
import { isSqlite } from './dialect.js';

interface PartialIndex {
  readonly name: string;
  /** The indexed columns or expressions, as SQL. */
  readonly on: (sqlite: boolean) => string;
  /** Only rows with the key: the condition the index now has. */
  readonly where: string;
}

const INDEXES: readonly PartialIndex[] = [
  { name: 'payments_search_rrn', on: () => 'merchant_id, environment, rrn', where: 'rrn is not null' },
  {
    name: 'payments_search_email',
    // PostgreSQL sorts the search keys in code point order (migration 0027).
    on: (sqlite) => `merchant_id, environment, lower(customer_email)${sqlite ? '' : ' collate "C"'}`,
    where: 'customer_email is not null',
  },
  { name: 'payments_holds_due', on: () => 'status, capture_before', where: 'capture_before is not null' },
  {
    name: 'payments_list_processor',
    on: () => 'merchant_id, environment, processor, created_at, id',
    where: 'processor is not null',
  },
];

export async function up(db: Kysely<unknown>): Promise<void> {
  const sqlite = await isSqlite(db);
  for (const index of INDEXES) {
    await sql.raw(`drop index ${index.name}`).execute(db);
    await sql.raw(`create index ${index.name} on payments (${index.on(sqlite)}) where ${index.where}`).execute(db);
  }
}

export async function down(db: Kysely<unknown>): Promise<void> {
  const sqlite = await isSqlite(db);
  for (const index of INDEXES) {
    await sql.raw(`drop index ${index.name}`).execute(db);
    await sql.raw(`create index ${index.name} on payments (${index.on(sqlite)})`).execute(db);
  }
}
