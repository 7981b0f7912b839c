/**
 * Payment counts, for the list's `total` (docs/decisions.md "The payment list at scale"). Counting
 * the rows a list matches takes as long as there are rows: at a million payments, a merchant with a
 * few hundred thousand of them would wait on every page for a count. Instead the database keeps
 * `payment_counts`: how many payments each merchant has, per environment, domain, UTC day of
 * creation, status and processor (`''` for none yet). The list's filters are exactly those (its
 * `from`/`to` are UTC days), so a total is a sum over at most a few rows per day, however many
 * payments there are; only the `order_id` filter counts payments (an index finds them, and an order
 * has few).
 *
 * Triggers keep it, inside the writing transaction, so no write path can forget it (as the account
 * version does, migration 0006): a new payment adds one, a change of status or processor moves one,
 * a deleted payment removes one. The two rows a change touches are always taken in the same order
 * (the lower key first), so two changes crossing each other never deadlock on PostgreSQL.
 *
 * The list indexes by status and by processor also gain the `id` that the list's order ends with,
 * so a page is read from the index in order, without sorting.
 */
import { type Kysely, sql } from 'kysely';
import { isSqlite } from './dialect.js';

const KEY = ['merchant_id', 'environment', 'domain_id', 'day', 'status', 'processor'] as const;

/** The counted key of a payment row (`OLD` or `NEW`), as SQL expressions in KEY's order. */
function keyOf(row: 'OLD' | 'NEW'): string[] {
  return [
    `${row}.merchant_id`,
    `${row}.environment`,
    `${row}.domain_id`,
    `substr(${row}.created_at, 1, 10)`,
    `${row}.status`,
    `coalesce(${row}.processor, '')`,
  ];
}

function add(row: 'OLD' | 'NEW'): string {
  return (
    `insert into payment_counts (${KEY.join(', ')}, n) values (${keyOf(row).join(', ')}, 1) ` +
    `on conflict (${KEY.join(', ')}) do update set n = payment_counts.n + 1`
  );
}

function remove(row: 'OLD' | 'NEW'): string {
  const match = KEY.map((column, i) => `${column} = ${keyOf(row)[i]}`).join(' and ');
  return `update payment_counts set n = n - 1 where ${match}`;
}

/** Whether the counted key of OLD sorts before NEW's (SQL boolean expression). */
const OLD_FIRST = `(${keyOf('OLD').join(' || chr(31) || ')}) < (${keyOf('NEW').join(' || chr(31) || ')})`;
const WATCHED = ['merchant_id', 'environment', 'domain_id', 'created_at', 'status', 'processor'];
const CHANGED = WATCHED.map((c) => `OLD.${c} is not NEW.${c}`).join(' or ');

export async function up(db: Kysely<unknown>): Promise<void> {
  const sqlite = await isSqlite(db);
  await db.schema
    .createTable('payment_counts')
    .addColumn('merchant_id', 'text', (c) => c.notNull())
    .addColumn('environment', 'text', (c) => c.notNull())
    .addColumn('domain_id', 'text', (c) => c.notNull())
    .addColumn('day', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('processor', 'text', (c) => c.notNull())
    .addColumn('n', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('payment_counts_key', [...KEY])
    .execute();
  await sql
    .raw(
      `insert into payment_counts (${KEY.join(', ')}, n) ` +
        `select merchant_id, environment, domain_id, substr(created_at, 1, 10), status, coalesce(processor, ''), count(*) ` +
        'from payments group by 1, 2, 3, 4, 5, 6',
    )
    .execute(db);

  if (sqlite) {
    // SQLite has no chr(); char(31) is the same unit separator.
    const oldFirst = OLD_FIRST.replaceAll('chr(31)', 'char(31)');
    await sql.raw(`create trigger payments_count_insert after insert on payments begin ${add('NEW')}; end`).execute(db);
    await sql
      .raw(`create trigger payments_count_delete after delete on payments begin ${remove('OLD')}; end`)
      .execute(db);
    // Two triggers, one per order of the two rows; exactly one runs for a counted change.
    await sql
      .raw(
        `create trigger payments_count_update_old_first after update on payments when (${CHANGED}) and ${oldFirst} ` +
          `begin ${remove('OLD')}; ${add('NEW')}; end`,
      )
      .execute(db);
    await sql
      .raw(
        `create trigger payments_count_update_new_first after update on payments when (${CHANGED}) and not ${oldFirst} ` +
          `begin ${add('NEW')}; ${remove('OLD')}; end`,
      )
      .execute(db);
  } else {
    const changed = WATCHED.map((c) => `OLD.${c} is distinct from NEW.${c}`).join(' or ');
    await sql
      .raw(`
      create function count_payments() returns trigger language plpgsql as $$
      begin
        if TG_OP = 'INSERT' then
          ${add('NEW')};
        elsif TG_OP = 'DELETE' then
          ${remove('OLD')};
        elsif ${OLD_FIRST} then
          ${remove('OLD')};
          ${add('NEW')};
        else
          ${add('NEW')};
          ${remove('OLD')};
        end if;
        return null;
      end
      $$`)
      .execute(db);
    await sql
      .raw(
        'create trigger payments_count_insert after insert on payments for each row execute function count_payments()',
      )
      .execute(db);
    await sql
      .raw(
        'create trigger payments_count_delete after delete on payments for each row execute function count_payments()',
      )
      .execute(db);
    await sql
      .raw(
        `create trigger payments_count_update after update on payments for each row when (${changed}) ` +
          'execute function count_payments()',
      )
      .execute(db);
  }

  for (const [name, column] of [
    ['payments_list_status', 'status'],
    ['payments_list_processor', 'processor'],
  ] as const) {
    await db.schema.dropIndex(name).execute();
    await db.schema
      .createIndex(name)
      .on('payments')
      .columns(['merchant_id', 'environment', column, 'created_at', 'id'])
      .execute();
  }
}

export async function down(db: Kysely<unknown>): Promise<void> {
  const sqlite = await isSqlite(db);
  for (const [name, column] of [
    ['payments_list_status', 'status'],
    ['payments_list_processor', 'processor'],
  ] as const) {
    await db.schema.dropIndex(name).execute();
    await db.schema
      .createIndex(name)
      .on('payments')
      .columns(['merchant_id', 'environment', column, 'created_at'])
      .execute();
  }
  if (sqlite) {
    for (const name of ['insert', 'delete', 'update_old_first', 'update_new_first']) {
      await sql.raw(`drop trigger payments_count_${name}`).execute(db);
    }
  } else {
    for (const name of ['insert', 'delete', 'update'])
      await sql.raw(`drop trigger payments_count_${name} on payments`).execute(db);
    await sql`drop function count_payments()`.execute(db);
  }
  await db.schema.dropTable('payment_counts').execute();
}
