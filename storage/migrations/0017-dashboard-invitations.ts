/**
 * Invitations to a dashboard team (docs/dashboard.md "Team"): the owner or an admin invites an
 * address with a role (`admin` or `viewer`); the mailed link carries a random 256-bit token of
 * which only the SHA-256 is kept here. A link lasts 7 days and works once (`accepted_at`); a
 * resent invitation gets a new token (the old link stops working); a cancelled one is deleted.
 * One pending invitation per address and account: inviting again replaces it.
 */
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('dashboard_invitations')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('merchant_id', 'text', (c) => c.notNull().references('merchants.id'))
    .addColumn('email', 'text', (c) => c.notNull())
    .addColumn('role', 'text', (c) => c.notNull())
    .addColumn('token_hash', 'text', (c) => c.notNull().unique())
    .addColumn('invited_by_email', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('sent_at', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .addColumn('accepted_at', 'text')
    .execute();
  await db.schema
    .createIndex('dashboard_invitations_merchant_email')
    .on('dashboard_invitations')
    .columns(['merchant_id', 'email'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('dashboard_invitations').execute();
}
