/**
 * Where a refund started in the store stands at the gateway (docs/connector.md "Refunds, both ways,
 * never twice"): `pending` on its way, `succeeded`, `unknown` when the gateway (or the processor
 * behind it) did not say, until a check settles it, and `failed` once settled unrefunded. An unknown
 * refund keeps its record, its idempotency key and the store's refund, so it can never be sent
 * twice; `reason` is kept to ask again with the very same request, `next_check_at` and `checks` pace
 * the settling. Existing records: `succeeded` when they carry the gateway's refund uuid, else `pending`.
 */
import { type Kysely, sql } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('refund_records')
    .addColumn('status', 'text', (c) => c.notNull().defaultTo('succeeded'))
    .execute();
  await db.schema.alterTable('refund_records').addColumn('reason', 'text').execute();
  await db.schema.alterTable('refund_records').addColumn('next_check_at', 'text').execute();
  await db.schema
    .alterTable('refund_records')
    .addColumn('checks', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await sql`update refund_records set status = 'pending' where gateway_refund_uuid is null`.execute(db);
  await db.schema.createIndex('refund_records_check_due').on('refund_records').column('next_check_at').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('refund_records_check_due').execute();
  for (const column of ['checks', 'next_check_at', 'reason', 'status']) {
    await db.schema.alterTable('refund_records').dropColumn(column).execute();
  }
}
