/**
 * Business verification (docs/dashboard.md "Business"): the requests a merchant submits from the
 * dashboard (legal name, tax id, address, phone) and the documents that go with them, which the
 * operator verifies or rejects with `bin/gateway business verify|reject`.
 *
 * A merchant may have several requests over time (one rejected, then another); the newest is its
 * state. At most one is `pending` at any time, whatever instances race: a partial unique index
 * says so. Documents are kept in the database (`content`: bytea on PostgreSQL, blob on SQLite), so
 * every instance serves them without a shared disk; a request holds at most 5 of at most 5 MB.
 */
import { type Kysely, sql } from 'kysely';
import { isSqlite } from './dialect.js';

export async function up(db: Kysely<unknown>): Promise<void> {
  const sqlite = await isSqlite(db);
  await db.schema
    .createTable('business_verifications')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('merchant_id', 'text', (c) => c.notNull().references('merchants.id'))
    .addColumn('legal_name', 'text', (c) => c.notNull())
    .addColumn('tin', 'text', (c) => c.notNull())
    .addColumn('address', 'text', (c) => c.notNull())
    .addColumn('phone', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('reason', 'text')
    .addColumn('submitted_by', 'text')
    .addColumn('submitted_at', 'text', (c) => c.notNull())
    .addColumn('decided_at', 'text')
    .addColumn('decided_by', 'text')
    .execute();
  await db.schema
    .createIndex('business_verifications_merchant_time')
    .on('business_verifications')
    .columns(['merchant_id', 'submitted_at', 'id'])
    .execute();
  await db.schema
    .createIndex('business_verifications_one_pending')
    .on('business_verifications')
    .column('merchant_id')
    .unique()
    .where(sql.ref('status'), '=', 'pending')
    .execute();
  await db.schema
    .createIndex('business_verifications_status_time')
    .on('business_verifications')
    .columns(['status', 'submitted_at'])
    .execute();

  await db.schema
    .createTable('business_verification_documents')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('verification_id', 'text', (c) => c.notNull().references('business_verifications.id'))
    .addColumn('merchant_id', 'text', (c) => c.notNull().references('merchants.id'))
    .addColumn('file_name', 'text', (c) => c.notNull())
    .addColumn('content_type', 'text', (c) => c.notNull())
    .addColumn('size', 'integer', (c) => c.notNull())
    .addColumn('sha256', 'text', (c) => c.notNull())
    .addColumn('content', sqlite ? 'blob' : 'bytea', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('business_verification_documents_verification')
    .on('business_verification_documents')
    .columns(['verification_id', 'id'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('business_verification_documents').execute();
  await db.schema.dropTable('business_verifications').execute();
}
