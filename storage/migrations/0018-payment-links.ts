/**
 * Payment links (docs/decisions.md "Payment links"): a page on the hosted domain where a buyer
 * pays an amount the merchant set (or one the buyer chooses within a range). `payment_links` holds
 * the link; `payment_link_payments` ties each payment made through it to the link.
 *
 * A single-use link's payments all carry the link's id as their `order_id`, so the unique
 * `payments_active_order` index lets at most one of them be open or paid at a time: concurrent
 * opens on any number of instances create one payment, the others resume it. A reusable link's
 * payments are numbered with `payments_count` (a conditional increment): `<link id>-<n>`.
 */
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('payment_links')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('merchant_id', 'text', (c) => c.notNull().references('merchants.id'))
    .addColumn('environment', 'text', (c) => c.notNull())
    .addColumn('domain_id', 'text', (c) => c.notNull().references('domains.id'))
    .addColumn('amount', 'integer')
    .addColumn('amount_min', 'integer')
    .addColumn('amount_max', 'integer')
    .addColumn('currency', 'text', (c) => c.notNull())
    .addColumn('description', 'text')
    .addColumn('reusable', 'integer', (c) => c.notNull())
    .addColumn('payments_count', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('expires_at', 'text')
    .addColumn('deactivated_at', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('payment_links_list')
    .on('payment_links')
    .columns(['merchant_id', 'environment', 'created_at', 'id'])
    .execute();
  await db.schema
    .createTable('payment_link_payments')
    .addColumn('payment_id', 'text', (c) => c.primaryKey().references('payments.id'))
    .addColumn('link_id', 'text', (c) => c.notNull().references('payment_links.id'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('payment_link_payments_link')
    .on('payment_link_payments')
    .columns(['link_id', 'created_at'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('payment_link_payments').execute();
  await db.schema.dropTable('payment_links').execute();
}
