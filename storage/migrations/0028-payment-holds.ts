/**
 * Holds (docs/decisions.md "Holds"): a payment created with `capture_method: manual` is authorized
 * at its processor and captured or released later. `payments` gains the capture method, the held
 * amount, when it was held and until when it may be captured, and the one capture or release of the
 * hold in flight or done (`hold_operation_id`). `hold_operations` keeps each capture and release
 * sent to a processor, as `refunds` keeps refunds: pending while asked, then succeeded or failed, or
 * unknown until a status check settles it (it is never sent again).
 *
 * Existing payments are `automatic`, as they always were.
 */
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('payments')
    .addColumn('capture_method', 'text', (c) => c.notNull().defaultTo('automatic'))
    .execute();
  await db.schema.alterTable('payments').addColumn('authorized_amount', 'bigint').execute();
  await db.schema.alterTable('payments').addColumn('authorized_at', 'text').execute();
  await db.schema.alterTable('payments').addColumn('capture_before', 'text').execute();
  await db.schema.alterTable('payments').addColumn('hold_operation_id', 'text').execute();
  // The expiry job's read: authorized payments by deadline.
  await db.schema.createIndex('payments_holds_due').on('payments').columns(['status', 'capture_before']).execute();

  await db.schema
    .createTable('hold_operations')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('payment_id', 'text', (c) => c.notNull().references('payments.id'))
    .addColumn('merchant_id', 'text', (c) => c.notNull().references('merchants.id'))
    .addColumn('environment', 'text', (c) => c.notNull())
    .addColumn('processor', 'text', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('reason', 'text', (c) => c.notNull())
    .addColumn('amount', 'bigint', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('failure_code', 'text')
    .addColumn('processor_reference', 'text')
    .addColumn('checks', 'integer', (c) => c.notNull())
    .addColumn('next_check_at', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addColumn('completed_at', 'text')
    .execute();
  await db.schema
    .createIndex('hold_operations_payment')
    .on('hold_operations')
    .columns(['payment_id', 'created_at'])
    .execute();
  await db.schema
    .createIndex('hold_operations_due')
    .on('hold_operations')
    .columns(['status', 'next_check_at'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('hold_operations').execute();
  await db.schema.dropIndex('payments_holds_due').execute();
  for (const column of [
    'hold_operation_id',
    'capture_before',
    'authorized_at',
    'authorized_amount',
    'capture_method',
  ]) {
    await db.schema.alterTable('payments').dropColumn(column).execute();
  }
}
