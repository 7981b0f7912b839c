/**
 * Dashboard mails per recipient: each mail the dashboard sends (address confirmation, password
 * reset, invitation...) is recorded with its recipient and time, so one address gets at most a few
 * an hour however often a form naming it is submitted. Rows older than the window are deleted as
 * new ones are claimed.
 */
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('dashboard_mail_sends')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('recipient', 'text', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('sent_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('dashboard_mail_sends_recipient')
    .on('dashboard_mail_sends')
    .columns(['recipient', 'sent_at'])
    .execute();
  await db.schema.createIndex('dashboard_mail_sends_sent').on('dashboard_mail_sends').column('sent_at').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('dashboard_mail_sends').execute();
}
