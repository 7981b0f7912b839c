/**
 * The dashboard's payment search by prefix (docs/decisions.md "Dashboard payments list"): the
 * beginning of a payment's uuid, order id or customer email, ignoring case, finds it (`ab-100`
 * finds `ab-1001` and `AB-1002`); an RRN is still matched whole.
 *
 * A prefix is searched as a range, `key >= prefix and key < next(prefix)` on the lowered key, which
 * reads one index range on both databases and has no wildcard that a searched `%` or `_` could
 * widen. The range is exact only in code point order: SQLite's default (BINARY) order, and
 * PostgreSQL's "C" collation, which its indexes name (the database's own collation may sort
 * `ab-100` apart from `ab-1001`); the search names it too (storage/payment.repository.ts).
 *
 * The email's index of migration 0021 serves SQLite as it is; PostgreSQL's is built again in "C".
 */
import { type Kysely, sql } from 'kysely';
import { isSqlite } from './dialect.js';

export async function up(db: Kysely<unknown>): Promise<void> {
  const collate = (await isSqlite(db)) ? sql`` : sql` collate "C"`;
  await sql`create index payments_search_order on payments (merchant_id, environment, lower(order_id)${collate})`.execute(
    db,
  );
  await sql`create index payments_search_uuid on payments (merchant_id, environment, id${collate})`.execute(db);
  if (!(await isSqlite(db))) {
    await sql`drop index payments_search_email`.execute(db);
    await sql`create index payments_search_email on payments (merchant_id, environment, lower(customer_email) collate "C")`.execute(
      db,
    );
  }
}

export async function down(db: Kysely<unknown>): Promise<void> {
  if (!(await isSqlite(db))) {
    await sql`drop index payments_search_email`.execute(db);
    await sql`create index payments_search_email on payments (merchant_id, environment, lower(customer_email))`.execute(
      db,
    );
  }
  await sql`drop index payments_search_uuid`.execute(db);
  await sql`drop index payments_search_order`.execute(db);
}
