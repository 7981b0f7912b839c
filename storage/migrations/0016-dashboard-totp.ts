/**
 * The dashboard's second factor (docs/dashboard.md "Two-step sign-in"): the user's recovery codes
 * (only a keyed hash of each, and when it was used), the sign-ins waiting for their code after a
 * correct password (only the SHA-256 of the browser's random id, for five minutes), and the last
 * TOTP time step a user signed in with, so a code works once. The sealed secret and the time it was
 * turned on are `dashboard_users.totp_secret` and `totp_enabled_at` (migration 0012). Both tables
 * are deleted with their user (`on delete cascade`), so removing a member needs no step of its own.
 */
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('dashboard_users').addColumn('totp_last_step', 'integer').execute();
  await db.schema
    .createTable('dashboard_recovery_codes')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('dashboard_users.id').onDelete('cascade'))
    .addColumn('code_hash', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('used_at', 'text')
    .execute();
  await db.schema
    .createIndex('dashboard_recovery_codes_user')
    .on('dashboard_recovery_codes')
    .columns(['user_id', 'code_hash'])
    .execute();
  await db.schema
    .createTable('dashboard_pending_sign_ins')
    .addColumn('id_hash', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('dashboard_users.id').onDelete('cascade'))
    .addColumn('address', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('dashboard_pending_sign_ins_user')
    .on('dashboard_pending_sign_ins')
    .column('user_id')
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('dashboard_pending_sign_ins').execute();
  await db.schema.dropTable('dashboard_recovery_codes').execute();
  await db.schema.alterTable('dashboard_users').dropColumn('totp_last_step').execute();
}
