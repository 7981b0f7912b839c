/**
 * Order lines on a payment (docs/decisions.md, "Order lines (`items`)"):
 *
 * - `payments.items`: the lines the merchant sent with the payment, normalised, as JSON: an array
 *   of `{name, quantity_milli, unit_price, classification_code, code, unit}` (quantity in
 *   thousandths of a unit, price in whole AMD, nulls where not given); null when the request had
 *   none. Read with the payment and printed on its fiscal receipt; never queried by content, so a
 *   text column serves both databases.
 */
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('payments').addColumn('items', 'text').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('payments').dropColumn('items').execute();
}
