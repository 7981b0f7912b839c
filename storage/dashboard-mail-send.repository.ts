import type { DashboardMailSendTable } from './dashboard-mail-send.table.js';
import type { Executor } from './database.js';

/**
 * Claims one of the recipient's sends since `since` (at most `limit`): records the send, then counts
 * the recipient's sends in the window; over the limit, the record is taken back and the claim
 * refused. Claims made at the same moment can only refuse each other, never pass the limit together.
 * Sends older than `since` are forgotten first (they no longer count).
 */
export async function claimMailSend(
  db: Executor,
  send: DashboardMailSendTable,
  since: string,
  limit: number,
): Promise<boolean> {
  await db.deleteFrom('dashboard_mail_sends').where('sent_at', '<=', since).execute();
  await db.insertInto('dashboard_mail_sends').values(send).execute();
  const row = await db
    .selectFrom('dashboard_mail_sends')
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .where('recipient', '=', send.recipient)
    .where('sent_at', '>', since)
    .executeTakeFirstOrThrow();
  if (Number(row.n) <= limit) return true;
  await db.deleteFrom('dashboard_mail_sends').where('id', '=', send.id).execute();
  return false;
}
