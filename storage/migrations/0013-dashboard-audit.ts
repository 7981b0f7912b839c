/**
 * The dashboard's audit log (docs/dashboard.md "Audit log"): one row per sensitive action on an
 * account (a key created or revoked, a domain added or verified, a secret rotated, a processor
 * configured, a member invited or removed, a refund made, a sign-in from a new address...), who
 * did it (the dashboard user, or the operator through `bin/gateway`), from which address, and what
 * it was done to. Rows are only ever added. Read newest first per merchant, so the index leads
 * with the merchant and the time.
 */
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('dashboard_audit_events')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('merchant_id', 'text', (c) => c.notNull().references('merchants.id'))
    .addColumn('user_id', 'text')
    .addColumn('actor_email', 'text')
    .addColumn('action', 'text', (c) => c.notNull())
    .addColumn('subject', 'text')
    .addColumn('address', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('dashboard_audit_events_merchant_time')
    .on('dashboard_audit_events')
    .columns(['merchant_id', 'created_at', 'id'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('dashboard_audit_events').execute();
}
