/**
 * Payment counts in shards (docs/decisions.md "Performance on PostgreSQL"). The counts of 0020 keep
 * one row per merchant, environment, domain, day, status and processor: every payment a merchant
 * creates in a day adds one to the same row. On PostgreSQL that row stays locked from the insert
 * until its transaction has committed (flushed its write-ahead log to disk), so all the creates of
 * one account queued on one row, one commit after another: a busy merchant could not create faster
 * than one disk flush per payment, whatever the pool or the number of instances.
 *
 * Each key now has `PAYMENT_COUNT_SHARDS` rows on PostgreSQL, the payment's shard being a hash of
 * its id (`hashtext(id) & 15`): concurrent creates touch different rows and commit together (the
 * server flushes the commits that wait at once). A payment stays in its shard for life, so a change
 * of status moves it between two rows of one shard, in the same order as before (the lower key
 * first: no deadlock). Every reader already sums `n` over the rows of its filter. SQLite has one
 * writer at a time, so nothing waits on a row there: its payments all count in shard 0.
 *
 * The triggers are 0020's statements with the shard added; they are written again here rather than
 * imported, so that a database migrated today gets exactly what it got yesterday whatever a later
 * edit of 0020 does (`down` makes 0020's own triggers again from the same text, without the shard).
 */
import { type Kysely, sql } from 'kysely';
import { isSqlite } from './dialect.js';

/** Rows per counted key on PostgreSQL. */
export const PAYMENT_COUNT_SHARDS = 16;

const KEY = ['merchant_id', 'environment', 'domain_id', 'day', 'status', 'processor'] as const;
const WATCHED = ['merchant_id', 'environment', 'domain_id', 'created_at', 'status', 'processor'];

/** The SQL of a payment row's shard (`OLD` or `NEW`); null: the table has no shards (0020's). */
type ShardOf = ((row: 'OLD' | 'NEW') => string) | null;

/** The counted key of a payment row, as SQL expressions in KEY's order, then its shard if any. */
function keyOf(row: 'OLD' | 'NEW', shard: ShardOf): string[] {
  return [
    `${row}.merchant_id`,
    `${row}.environment`,
    `${row}.domain_id`,
    `substr(${row}.created_at, 1, 10)`,
    `${row}.status`,
    `coalesce(${row}.processor, '')`,
    ...(shard === null ? [] : [shard(row)]),
  ];
}

function counting(shard: ShardOf, separator: string) {
  const columns = [...KEY, ...(shard === null ? [] : ['shard'])];
  const listed = columns.join(', ');
  const counted = (row: 'OLD' | 'NEW') => keyOf(row, shard).slice(0, KEY.length).join(` || ${separator} || `);
  return {
    add: (row: 'OLD' | 'NEW') =>
      `insert into payment_counts (${listed}, n) values (${keyOf(row, shard).join(', ')}, 1) ` +
      `on conflict (${listed}) do update set n = payment_counts.n + 1`,
    remove: (row: 'OLD' | 'NEW') => {
      const values = keyOf(row, shard);
      return `update payment_counts set n = n - 1 where ${columns.map((c, i) => `${c} = ${values[i]}`).join(' and ')}`;
    },
    /** Whether OLD's counted key sorts before NEW's (a payment keeps its shard: the key decides). */
    oldFirst: `(${counted('OLD')}) < (${counted('NEW')})`,
  };
}

async function dropTriggers(db: Kysely<unknown>, sqlite: boolean): Promise<void> {
  if (sqlite) {
    for (const name of ['insert', 'delete', 'update_old_first', 'update_new_first']) {
      await sql.raw(`drop trigger payments_count_${name}`).execute(db);
    }
    return;
  }
  for (const name of ['insert', 'delete', 'update']) {
    await sql.raw(`drop trigger payments_count_${name} on payments`).execute(db);
  }
  await sql`drop function count_payments()`.execute(db);
}

/** 0020's triggers, counting in the payment's shard when the table has shards. */
async function createTriggers(db: Kysely<unknown>, sqlite: boolean, shard: ShardOf): Promise<void> {
  if (sqlite) {
    const { add, remove, oldFirst } = counting(shard, 'char(31)');
    const changed = WATCHED.map((c) => `OLD.${c} is not NEW.${c}`).join(' or ');
    await sql.raw(`create trigger payments_count_insert after insert on payments begin ${add('NEW')}; end`).execute(db);
    await sql
      .raw(`create trigger payments_count_delete after delete on payments begin ${remove('OLD')}; end`)
      .execute(db);
    await sql
      .raw(
        `create trigger payments_count_update_old_first after update on payments when (${changed}) and ${oldFirst} ` +
          `begin ${remove('OLD')}; ${add('NEW')}; end`,
      )
      .execute(db);
    await sql
      .raw(
        `create trigger payments_count_update_new_first after update on payments when (${changed}) and not ${oldFirst} ` +
          `begin ${add('NEW')}; ${remove('OLD')}; end`,
      )
      .execute(db);
    return;
  }
  const { add, remove, oldFirst } = counting(shard, 'chr(31)');
  const changed = WATCHED.map((c) => `OLD.${c} is distinct from NEW.${c}`).join(' or ');
  await sql
    .raw(`
    create function count_payments() returns trigger language plpgsql as $$
    begin
      if TG_OP = 'INSERT' then
        ${add('NEW')};
      elsif TG_OP = 'DELETE' then
        ${remove('OLD')};
      elsif ${oldFirst} then
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
  for (const [name, event] of [
    ['insert', 'insert'],
    ['delete', 'delete'],
  ] as const) {
    await sql
      .raw(
        `create trigger payments_count_${name} after ${event} on payments for each row execute function count_payments()`,
      )
      .execute(db);
  }
  await sql
    .raw(
      `create trigger payments_count_update after update on payments for each row when (${changed}) ` +
        'execute function count_payments()',
    )
    .execute(db);
}

/** Replaces `payment_counts` by a table keyed by KEY (and `shard` when `sharded`), filled from the old one. */
async function rebuildTable(db: Kysely<unknown>, sharded: boolean): Promise<void> {
  let table = db.schema
    .createTable('payment_counts_next')
    .addColumn('merchant_id', 'text', (c) => c.notNull())
    .addColumn('environment', 'text', (c) => c.notNull())
    .addColumn('domain_id', 'text', (c) => c.notNull())
    .addColumn('day', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('processor', 'text', (c) => c.notNull());
  if (sharded) table = table.addColumn('shard', 'integer', (c) => c.notNull());
  await table
    .addColumn('n', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint(sharded ? 'payment_counts_shard_key' : 'payment_counts_key', [
      ...KEY,
      ...(sharded ? ['shard'] : []),
    ] as never)
    .execute();
  // Existing counts land in shard 0; going back, the shards of a key are summed.
  await sql
    .raw(
      `insert into payment_counts_next (${KEY.join(', ')}${sharded ? ', shard' : ''}, n) ` +
        `select ${KEY.join(', ')}${sharded ? ', 0' : ''}, sum(n) from payment_counts group by ${KEY.join(', ')}`,
    )
    .execute(db);
  await db.schema.dropTable('payment_counts').execute();
  await db.schema.alterTable('payment_counts_next').renameTo('payment_counts').execute();
}

export async function up(db: Kysely<unknown>): Promise<void> {
  const sqlite = await isSqlite(db);
  await dropTriggers(db, sqlite);
  await rebuildTable(db, true);
  await createTriggers(db, sqlite, (row) => (sqlite ? '0' : `(hashtext(${row}.id) & ${PAYMENT_COUNT_SHARDS - 1})`));
}

export async function down(db: Kysely<unknown>): Promise<void> {
  const sqlite = await isSqlite(db);
  await dropTriggers(db, sqlite);
  await rebuildTable(db, false);
  await createTriggers(db, sqlite, null);
}
