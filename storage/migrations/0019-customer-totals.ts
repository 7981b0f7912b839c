/**
 * Customer records (docs/decisions.md "Customers"): `customer_totals` holds, per merchant,
 * environment and customer id, what the customers page and `GET /api/v1/customers` show: the
 * latest email and name its payments carried, how many payments carry the id, how many were paid and
 * for how much (whole AMD, as payments count), how much of that was refunded, and the first, last
 * and last paid instants. A customer id is the one the gateway gives a buyer once paid (`cus_...`,
 * `customers` table) or the one the merchant named on the payment; both are kept alike.
 *
 * Triggers keep it inside the writing transaction, as `payment_counts` (0020) is kept: a payment
 * carrying a customer id adds its share, a change of a counted column moves it (the old share out,
 * the new one in), a deleted payment takes its share out; a record left without payments is deleted. Reading a customer, or a page of them, is
 * then one index range, however many payments the merchant has.
 *
 * Indexes for the dashboard overview's bounded reads also come here: completed payments by
 * completion time (covering amount and processor), succeeded refunds by completion time, and
 * webhook deliveries by merchant, status and last change.
 */
import { type Kysely, sql } from 'kysely';
import { isSqlite } from './dialect.js';

const COLUMNS = [
  'merchant_id',
  'environment',
  'customer_id',
  'email',
  'name',
  'payments_count',
  'paid_count',
  'total_paid',
  'refunded_amount',
  'first_payment_at',
  'last_payment_at',
  'last_paid_at',
] as const;

/** The share of one payment row (`OLD` or `NEW`), in COLUMNS' order. */
function shareOf(row: 'OLD' | 'NEW'): string[] {
  return [
    `${row}.merchant_id`,
    `${row}.environment`,
    `${row}.customer_id`,
    `lower(${row}.customer_email)`,
    `${row}.customer_name`,
    '1',
    `case when ${row}.completed_at is null then 0 else 1 end`,
    `case when ${row}.completed_at is null then 0 else ${row}.amount end`,
    `${row}.refunded_amount`,
    `${row}.created_at`,
    `${row}.created_at`,
    `${row}.completed_at`,
  ];
}

const T = 'customer_totals';

function add(row: 'OLD' | 'NEW'): string {
  const newer = `excluded.last_payment_at >= ${T}.last_payment_at`;
  return (
    `insert into ${T} (${COLUMNS.join(', ')}) select ${shareOf(row).join(', ')} where ${row}.customer_id is not null ` +
    `on conflict (merchant_id, environment, customer_id) do update set ` +
    `email = case when excluded.email is not null and ${newer} then excluded.email else coalesce(${T}.email, excluded.email) end, ` +
    `name = case when excluded.name is not null and ${newer} then excluded.name else coalesce(${T}.name, excluded.name) end, ` +
    `payments_count = ${T}.payments_count + excluded.payments_count, ` +
    `paid_count = ${T}.paid_count + excluded.paid_count, ` +
    `total_paid = ${T}.total_paid + excluded.total_paid, ` +
    `refunded_amount = ${T}.refunded_amount + excluded.refunded_amount, ` +
    `first_payment_at = case when excluded.first_payment_at < ${T}.first_payment_at then excluded.first_payment_at else ${T}.first_payment_at end, ` +
    `last_payment_at = case when ${newer} then excluded.last_payment_at else ${T}.last_payment_at end, ` +
    `last_paid_at = case when ${T}.last_paid_at is null or excluded.last_paid_at > ${T}.last_paid_at then excluded.last_paid_at else ${T}.last_paid_at end`
  );
}

function remove(row: 'OLD' | 'NEW'): string {
  const [, , , , , one, paid, amount, refunded] = shareOf(row);
  return (
    `update ${T} set payments_count = payments_count - ${one}, paid_count = paid_count - (${paid}), ` +
    `total_paid = total_paid - (${amount}), refunded_amount = refunded_amount - ${refunded} ` +
    `where merchant_id = ${row}.merchant_id and environment = ${row}.environment and customer_id = ${row}.customer_id; ` +
    // A customer whose payments were all deleted or given another id is no customer any more.
    `delete from ${T} where merchant_id = ${row}.merchant_id and environment = ${row}.environment ` +
    `and customer_id = ${row}.customer_id and payments_count = 0`
  );
}

const WATCHED = [
  'merchant_id',
  'environment',
  'customer_id',
  'customer_email',
  'customer_name',
  'amount',
  'refunded_amount',
  'completed_at',
  'created_at',
];

/** Fills `customer_totals` from the payments (the migration's backfill; the table is empty). */
export async function fillCustomerTotals(db: Kysely<unknown>): Promise<void> {
  const latest = (column: string, expression: string) =>
    `(select ${expression} from payments q where q.merchant_id = p.merchant_id and q.environment = p.environment ` +
    `and q.customer_id = p.customer_id and q.${column} is not null order by q.created_at desc limit 1)`;
  await sql
    .raw(
      `insert into ${T} (${COLUMNS.join(', ')}) ` +
        `select p.merchant_id, p.environment, p.customer_id, ${latest('customer_email', 'lower(q.customer_email)')}, ` +
        `${latest('customer_name', 'q.customer_name')}, count(*), ` +
        'sum(case when p.completed_at is null then 0 else 1 end), ' +
        'sum(case when p.completed_at is null then 0 else p.amount end), sum(p.refunded_amount), ' +
        'min(p.created_at), max(p.created_at), max(p.completed_at) ' +
        'from payments p where p.customer_id is not null group by p.merchant_id, p.environment, p.customer_id',
    )
    .execute(db);
}

export async function up(db: Kysely<unknown>): Promise<void> {
  const sqlite = await isSqlite(db);
  await db.schema
    .createTable(T)
    .addColumn('merchant_id', 'text', (c) => c.notNull())
    .addColumn('environment', 'text', (c) => c.notNull())
    .addColumn('customer_id', 'text', (c) => c.notNull())
    .addColumn('email', 'text')
    .addColumn('name', 'text')
    .addColumn('payments_count', 'bigint', (c) => c.notNull())
    .addColumn('paid_count', 'bigint', (c) => c.notNull())
    .addColumn('total_paid', 'bigint', (c) => c.notNull())
    .addColumn('refunded_amount', 'bigint', (c) => c.notNull())
    .addColumn('first_payment_at', 'text', (c) => c.notNull())
    .addColumn('last_payment_at', 'text', (c) => c.notNull())
    .addColumn('last_paid_at', 'text')
    .addPrimaryKeyConstraint('customer_totals_key', ['merchant_id', 'environment', 'customer_id'])
    .execute();
  await db.schema
    .createIndex('customer_totals_recent')
    .on(T)
    .columns(['merchant_id', 'environment', 'last_payment_at', 'customer_id'])
    .execute();
  await db.schema
    .createIndex('customer_totals_email')
    .on(T)
    .columns(['merchant_id', 'environment', 'email', 'last_payment_at'])
    .execute();
  // A customer's payments, newest first (the dashboard's customer page), and the backfill below.
  await db.schema
    .createIndex('payments_customer')
    .on('payments')
    .columns(['merchant_id', 'environment', 'customer_id', 'created_at', 'id'])
    .where(sql.ref('customer_id'), 'is not', null)
    .execute();
  await db.schema
    .createIndex('payments_completed')
    .on('payments')
    .columns(['merchant_id', 'environment', 'completed_at', 'amount', 'processor'])
    .where(sql.ref('completed_at'), 'is not', null)
    .execute();
  await db.schema
    .createIndex('refunds_completed')
    .on('refunds')
    .columns(['merchant_id', 'environment', 'status', 'completed_at'])
    .execute();
  await db.schema
    .createIndex('webhook_deliveries_merchant')
    .on('webhook_deliveries')
    .columns(['merchant_id', 'status', 'updated_at'])
    .execute();

  await fillCustomerTotals(db);

  // Payments without a customer id (most open ones) fire nothing.
  const carries = '(OLD.customer_id is not null or NEW.customer_id is not null)';
  if (sqlite) {
    const changed = WATCHED.map((c) => `OLD.${c} is not NEW.${c}`).join(' or ');
    await sql
      .raw(
        `create trigger payments_customer_insert after insert on payments when NEW.customer_id is not null begin ${add('NEW')}; end`,
      )
      .execute(db);
    await sql
      .raw(
        `create trigger payments_customer_delete after delete on payments when OLD.customer_id is not null begin ${remove('OLD')}; end`,
      )
      .execute(db);
    await sql
      .raw(
        `create trigger payments_customer_update after update on payments when ${carries} and (${changed}) ` +
          `begin ${remove('OLD')}; ${add('NEW')}; end`,
      )
      .execute(db);
  } else {
    const changed = WATCHED.map((c) => `OLD.${c} is distinct from NEW.${c}`).join(' or ');
    await sql
      .raw(`
      create function total_customers() returns trigger language plpgsql as $$
      begin
        if TG_OP = 'INSERT' then
          ${add('NEW')};
        elsif TG_OP = 'DELETE' then
          ${remove('OLD')};
        else
          ${remove('OLD')};
          ${add('NEW')};
        end if;
        return null;
      end
      $$`)
      .execute(db);
    for (const [op, row] of [
      ['insert', 'NEW'],
      ['delete', 'OLD'],
    ] as const)
      await sql
        .raw(
          `create trigger payments_customer_${op} after ${op} on payments for each row ` +
            `when (${row}.customer_id is not null) execute function total_customers()`,
        )
        .execute(db);
    await sql
      .raw(
        `create trigger payments_customer_update after update on payments for each row when (${carries} and (${changed})) ` +
          'execute function total_customers()',
      )
      .execute(db);
  }
}

export async function down(db: Kysely<unknown>): Promise<void> {
  const sqlite = await isSqlite(db);
  if (sqlite) {
    for (const op of ['insert', 'delete', 'update']) await sql.raw(`drop trigger payments_customer_${op}`).execute(db);
  } else {
    for (const op of ['insert', 'delete', 'update'])
      await sql.raw(`drop trigger payments_customer_${op} on payments`).execute(db);
    await sql`drop function total_customers()`.execute(db);
  }
  for (const name of ['webhook_deliveries_merchant', 'refunds_completed', 'payments_completed', 'payments_customer'])
    await db.schema.dropIndex(name).execute();
  await db.schema.dropTable(T).execute();
}
