/**
 * Billing (spec "Billing"): a balance per merchant and counter, the ledger of every change to it
 * (integer ids, in the order the changes committed), purchases of units, and auto top-up settings.
 * The ledger id is the one column the database numbers itself (the spec's ledger `id` is an
 * integer), so this migration picks the dialect's auto-increment.
 */
import { type Kysely, sql } from 'kysely';
import { isSqlite } from './dialect.js';

export async function up(db: Kysely<unknown>): Promise<void> {
  const sqlite = await isSqlite(db);

  await db.schema
    .createTable('billing_balances')
    .addColumn('merchant_id', 'text', (c) => c.notNull().references('merchants.id'))
    .addColumn('counter', 'text', (c) => c.notNull())
    .addColumn('available', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('billing_balances_pk', ['merchant_id', 'counter'])
    .execute();

  await db.schema
    .createTable('billing_ledger')
    .addColumn('id', sqlite ? 'integer' : 'bigserial', (c) =>
      sqlite ? c.primaryKey().autoIncrement() : c.primaryKey(),
    )
    .addColumn('merchant_id', 'text', (c) => c.notNull().references('merchants.id'))
    .addColumn('counter', 'text', (c) => c.notNull())
    .addColumn('delta', 'bigint', (c) => c.notNull())
    .addColumn('event_type', 'text', (c) => c.notNull())
    .addColumn('ref_type', 'text')
    .addColumn('ref_id', 'text')
    .addColumn('balance_after', 'bigint', (c) => c.notNull())
    .addColumn('note', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('billing_ledger_page')
    .on('billing_ledger')
    .columns(['merchant_id', 'counter', 'id'])
    .execute();
  // A payment is consumed, and a purchase credited, at most once.
  await db.schema
    .createIndex('billing_ledger_once')
    .on('billing_ledger')
    .columns(['merchant_id', 'counter', 'event_type', 'ref_type', 'ref_id'])
    .unique()
    .where(sql.ref('ref_id'), 'is not', null)
    .execute();

  await db.schema
    .createTable('billing_purchases')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('merchant_id', 'text', (c) => c.notNull().references('merchants.id'))
    .addColumn('counter', 'text', (c) => c.notNull())
    .addColumn('quantity', 'bigint', (c) => c.notNull())
    .addColumn('amount_amd', 'bigint', (c) => c.notNull())
    .addColumn('method', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('source', 'text', (c) => c.notNull())
    .addColumn('payment_id', 'text', (c) => c.references('payments.id'))
    .addColumn('reference', 'text', (c) => c.unique())
    .addColumn('payment_method_id', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addColumn('paid_at', 'text')
    .execute();
  await db.schema
    .createIndex('billing_purchases_merchant')
    .on('billing_purchases')
    .columns(['merchant_id', 'created_at'])
    .execute();
  await db.schema.createIndex('billing_purchases_payment').on('billing_purchases').column('payment_id').execute();

  await db.schema
    .createTable('billing_auto_topups')
    .addColumn('merchant_id', 'text', (c) => c.notNull().references('merchants.id'))
    .addColumn('counter', 'text', (c) => c.notNull())
    .addColumn('enabled', 'integer', (c) => c.notNull())
    .addColumn('threshold_qty', 'bigint', (c) => c.notNull())
    .addColumn('refill_qty', 'bigint', (c) => c.notNull())
    .addColumn('payment_method_id', 'text')
    /** 1 while the balance is above the threshold: the next fall to it is a new crossing. */
    .addColumn('armed', 'integer', (c) => c.notNull())
    .addColumn('last_purchase_id', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('billing_auto_topups_pk', ['merchant_id', 'counter'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('billing_auto_topups').execute();
  await db.schema.dropTable('billing_purchases').execute();
  await db.schema.dropTable('billing_ledger').execute();
  await db.schema.dropTable('billing_balances').execute();
}
