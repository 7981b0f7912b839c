/**
 * Live processors (docs/processors.md):
 *
 * - `processor_sessions`: a payment's order at one processor: the order number the gateway sent,
 *   the processor's own reference, where the buyer was sent, whether the buyer came back, and the
 *   polling schedule of a payment left processing. One row per (payment, processor): a buyer who
 *   starts again at the same processor reuses it, so the processor sees the same order number.
 * - `processor_sequences`: a counter per (domain, processor), for processors whose order ids are
 *   integers the merchant was assigned a range of (Ameriabank).
 * - `domain_processors.position`: the order in which the checkout lists a domain's processors.
 *   (`domain_processors.config` now holds the settings sealed with the service secret.)
 */
import { type Kysely, sql } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('processor_sessions')
    .addColumn('payment_id', 'text', (c) => c.notNull().references('payments.id'))
    .addColumn('processor', 'text', (c) => c.notNull())
    .addColumn('order_number', 'text', (c) => c.notNull())
    .addColumn('reference', 'text')
    .addColumn('redirect', 'text')
    .addColumn('returned_at', 'text')
    .addColumn('next_check_at', 'text')
    .addColumn('checks', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('last_error', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('processor_sessions_pk', ['payment_id', 'processor'])
    .execute();
  await db.schema
    .createIndex('processor_sessions_order_number')
    .on('processor_sessions')
    .columns(['processor', 'order_number'])
    .unique()
    .execute();
  await db.schema
    .createIndex('processor_sessions_reference')
    .on('processor_sessions')
    .columns(['processor', 'reference'])
    .unique()
    .where(sql.ref('reference'), 'is not', null)
    .execute();
  await db.schema
    .createIndex('processor_sessions_due')
    .on('processor_sessions')
    .column('next_check_at')
    .where(sql.ref('next_check_at'), 'is not', null)
    .execute();

  await db.schema
    .createTable('processor_sequences')
    .addColumn('domain_id', 'text', (c) => c.notNull().references('domains.id'))
    .addColumn('processor', 'text', (c) => c.notNull())
    .addColumn('value', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('processor_sequences_pk', ['domain_id', 'processor'])
    .execute();

  await db.schema
    .alterTable('domain_processors')
    .addColumn('position', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('domain_processors').dropColumn('position').execute();
  await db.schema.dropTable('processor_sequences').execute();
  await db.schema.dropTable('processor_sessions').execute();
}
