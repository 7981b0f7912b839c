/**
 * Domain verification (docs/decisions.md "Domain verification"): one row per domain that has been
 * offered a verification token. The token is what the merchant publishes (a DNS TXT record or an
 * HTTPS file); it is public once published, so it is kept in clear. The row also keeps how the
 * domain was verified and the last check's outcome, so the dashboard shows why a domain failed.
 *
 * A separate table rather than columns of `domains`: none of this is an account fact the servers
 * cache (the `verified` flag itself stays on `domains`, watched by the account version), so a
 * check never moves the account version.
 */
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('domain_verifications')
    .addColumn('domain_id', 'text', (c) => c.primaryKey().references('domains.id'))
    .addColumn('token', 'text', (c) => c.notNull())
    .addColumn('verified_method', 'text')
    .addColumn('verified_at', 'text')
    .addColumn('checked_at', 'text')
    .addColumn('check_method', 'text')
    .addColumn('failure_code', 'text')
    .addColumn('failure_message', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('domain_verifications').execute();
}
