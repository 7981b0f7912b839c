/**
 * Fiscal receipts (docs/receipts.md):
 *
 * - `domain_receipts`: a domain's receipts settings: the fiscal system (`ehdm`, or `test` for a
 *   domain that issues sandbox receipts only) and its settings sealed with the service secret.
 * - `receipts`: every receipt the gateway issues or will issue: a sale for a completed payment, a
 *   return for a refund, or a sale declared through `POST /api/v1/receipts`. `issue_key` is unique
 *   (`sale:<payment>`, `return:<refund>`, `api:<receipt>`): whatever retries, restarts or instances
 *   do, there is one row per thing to issue, and the row's status decides whether the fiscal
 *   system is asked again. `public_token` names the receipt's public page (the `qr_url`).
 * - `fiscal_registers`: per cash register, the last request sequence number used (the system
 *   requires it to increase), the last fiscal id it issued for us (where a search starts), and
 *   the lease of the one instance calling it (`busy_until`), so that requests reach it in order.
 */
import { type Kysely, sql } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('domain_receipts')
    .addColumn('domain_id', 'text', (c) => c.primaryKey().references('domains.id'))
    .addColumn('merchant_id', 'text', (c) => c.notNull().references('merchants.id'))
    .addColumn('system', 'text', (c) => c.notNull())
    .addColumn('config', 'text')
    .addColumn('alert_email_at', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('receipts')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('merchant_id', 'text', (c) => c.notNull().references('merchants.id'))
    .addColumn('environment', 'text', (c) => c.notNull())
    .addColumn('domain_id', 'text', (c) => c.references('domains.id'))
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('issue_key', 'text', (c) => c.notNull().unique())
    .addColumn('payment_id', 'text', (c) => c.references('payments.id'))
    .addColumn('refund_id', 'text')
    .addColumn('sale_receipt_id', 'text')
    .addColumn('system', 'text', (c) => c.notNull())
    .addColumn('sandbox', 'integer', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('card_amount', 'bigint', (c) => c.notNull())
    .addColumn('cash_amount', 'bigint', (c) => c.notNull())
    .addColumn('lines', 'text', (c) => c.notNull())
    .addColumn('register', 'text')
    .addColumn('seq', 'bigint')
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('searches', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('next_attempt_at', 'text')
    .addColumn('first_attempt_at', 'text')
    .addColumn('attempt_started_at', 'text')
    .addColumn('search_after', 'text')
    .addColumn('last_error', 'text')
    .addColumn('last_error_code', 'text')
    .addColumn('fiscal_id', 'text')
    .addColumn('fiscal_number', 'text')
    .addColumn('serial_number', 'text')
    .addColumn('tin', 'text')
    .addColumn('taxpayer', 'text')
    .addColumn('address', 'text')
    .addColumn('fiscal_total', 'text')
    .addColumn('issued_at', 'text')
    .addColumn('qr_text', 'text')
    .addColumn('public_token', 'text', (c) => c.notNull().unique())
    .addColumn('held_event_id', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('receipts_due')
    .on('receipts')
    .column('next_attempt_at')
    .where(sql.ref('next_attempt_at'), 'is not', null)
    .execute();
  await db.schema.createIndex('receipts_list').on('receipts').columns(['merchant_id', 'environment', 'id']).execute();
  await db.schema.createIndex('receipts_payment').on('receipts').column('payment_id').execute();
  await db.schema.createIndex('receipts_sale').on('receipts').column('sale_receipt_id').execute();

  await db.schema
    .createTable('fiscal_registers')
    .addColumn('register', 'text', (c) => c.primaryKey())
    .addColumn('last_seq', 'bigint', (c) => c.notNull())
    .addColumn('last_fiscal_id', 'text')
    .addColumn('busy_until', 'text')
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('fiscal_registers').execute();
  await db.schema.dropTable('receipts').execute();
  await db.schema.dropTable('domain_receipts').execute();
}
