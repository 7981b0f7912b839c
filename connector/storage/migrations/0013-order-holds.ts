/**
 * The card hold of a store order (a payment created with `capture_method: manual`, WooCommerce's
 * "Authorize only, capture later"), kept on its `order_links` row:
 *
 * - `hold_payment_uuid`, `authorized_amount`, `capture_before`: the held payment as the gateway
 *   last said, for the order panel;
 * - `hold_state`: `authorized`, `capturing` (a capture is being sent), `capture_unknown` (sent, its
 *   outcome not known: settled later with the same idempotency key), `captured`, `voided`, `expired`;
 * - `capture_amount`, `capture_attempt`: what the capture asks for, and which capture it is (its
 *   idempotency key `store-capture:<link id>`, suffixed `:<n>` after a capture known not made);
 * - `hold_check_at`, `hold_checks`: when an unknown capture is next asked about, and how often it was;
 * - `hold_noted_at`: the hold's note was claimed (the order put on hold and noted once).
 */
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  // One column a statement: SQLite's ALTER TABLE adds one at a time.
  const table = () => db.schema.alterTable('order_links');
  for (const column of ['hold_payment_uuid', 'capture_before', 'hold_state', 'hold_check_at', 'hold_noted_at']) {
    await table().addColumn(column, 'text').execute();
  }
  for (const column of ['authorized_amount', 'capture_amount']) {
    await table().addColumn(column, 'integer').execute();
  }
  await table()
    .addColumn('capture_attempt', 'integer', (c) => c.notNull().defaultTo(1))
    .execute();
  await table()
    .addColumn('hold_checks', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema.createIndex('order_links_hold_check').on('order_links').column('hold_check_at').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('order_links_hold_check').execute();
  for (const column of [
    'hold_noted_at',
    'hold_checks',
    'hold_check_at',
    'capture_attempt',
    'capture_amount',
    'hold_state',
    'capture_before',
    'authorized_amount',
    'hold_payment_uuid',
  ]) {
    await db.schema.alterTable('order_links').dropColumn(column).execute();
  }
}
