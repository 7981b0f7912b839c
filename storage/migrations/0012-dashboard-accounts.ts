/**
 * Merchant dashboard accounts (docs/dashboard.md):
 *
 * - `dashboard_users`: people who sign in to the dashboard, each of one merchant, with a role
 *   (`owner` now; `admin` and `viewer` later) and nullable TOTP columns for the second factor.
 *   The password is an scrypt hash with its own salt and parameters.
 * - `dashboard_sessions`: signed-in browsers, by the SHA-256 of the session id (the id itself is
 *   only in the browser's cookie), with the last activity (idle expiry) and an absolute end.
 * - `dashboard_tokens`: the one-time links mailed to a user (confirm an email address, reset the
 *   password), by the SHA-256 of the token; single use (`used_at`) and expiring.
 * - `dashboard_sign_in_failures`: failed sign-ins by email and by address, counted over a window
 *   to throttle guessing; in the database so every instance sees them.
 * - `dashboard_user_addresses`: the addresses a user signed in from (for the audit log).
 * - `dashboard_onboarding_keys`: the test key created at sign-up, sealed with the service secret,
 *   until the dashboard shows it once; the row is deleted when shown.
 */
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('dashboard_users')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('merchant_id', 'text', (c) => c.notNull().references('merchants.id'))
    .addColumn('email', 'text', (c) => c.notNull().unique())
    .addColumn('password_hash', 'text', (c) => c.notNull())
    .addColumn('role', 'text', (c) => c.notNull())
    .addColumn('email_verified_at', 'text')
    .addColumn('totp_secret', 'text')
    .addColumn('totp_enabled_at', 'text')
    .addColumn('password_changed_at', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('dashboard_users_merchant').on('dashboard_users').column('merchant_id').execute();

  await db.schema
    .createTable('dashboard_sessions')
    .addColumn('id_hash', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('dashboard_users.id'))
    .addColumn('address', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('last_seen_at', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('dashboard_sessions_user').on('dashboard_sessions').column('user_id').execute();

  await db.schema
    .createTable('dashboard_tokens')
    .addColumn('token_hash', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('dashboard_users.id'))
    .addColumn('purpose', 'text', (c) => c.notNull())
    .addColumn('email', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .addColumn('used_at', 'text')
    .execute();
  await db.schema.createIndex('dashboard_tokens_user').on('dashboard_tokens').column('user_id').execute();

  await db.schema
    .createTable('dashboard_sign_in_failures')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('email', 'text', (c) => c.notNull())
    .addColumn('address', 'text', (c) => c.notNull())
    .addColumn('failed_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('dashboard_sign_in_failures_email')
    .on('dashboard_sign_in_failures')
    .columns(['email', 'failed_at'])
    .execute();
  await db.schema
    .createIndex('dashboard_sign_in_failures_address')
    .on('dashboard_sign_in_failures')
    .columns(['address', 'failed_at'])
    .execute();

  await db.schema
    .createTable('dashboard_user_addresses')
    .addColumn('user_id', 'text', (c) => c.notNull().references('dashboard_users.id'))
    .addColumn('address', 'text', (c) => c.notNull())
    .addColumn('first_seen_at', 'text', (c) => c.notNull())
    .addColumn('last_seen_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('dashboard_user_addresses_pk', ['user_id', 'address'])
    .execute();

  await db.schema
    .createTable('dashboard_onboarding_keys')
    .addColumn('merchant_id', 'text', (c) => c.primaryKey().references('merchants.id'))
    .addColumn('sealed_key', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of [
    'dashboard_onboarding_keys',
    'dashboard_user_addresses',
    'dashboard_sign_in_failures',
    'dashboard_tokens',
    'dashboard_sessions',
    'dashboard_users',
  ]) {
    await db.schema.dropTable(table).execute();
  }
}
