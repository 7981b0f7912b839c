/**
 * The email that tells the merchant fiscal receipts of a domain are not being issued (refused,
 * failed, or undecided after searches), with what to do; at most once per domain every 6 hours.
 */
import type { Executor } from '../../storage/database.js';
import { findMerchant } from '../../storage/merchant.repository.js';
import type { ReceiptRow, ReceiptStatus } from '../../storage/receipt.table.js';
import { HOUR_MS, toStoredInstant } from '../domain/clock.js';
import { queueMerchantEmail } from '../notifications/merchant-emails.js';
import type { Deps } from '../runtime/deps.js';

/** At most one receipts email per domain in this interval. */
export const ALERT_INTERVAL_MS = 6 * HOUR_MS;
export const RECEIPTS_ALERT_KIND = 'receipts_not_issued';

/** Emails the merchant about a receipt that is not being issued, at most once per domain every 6 hours. */
export async function alertMerchant(deps: Deps, trx: Executor, row: ReceiptRow): Promise<void> {
  if (row.domain_id === null) return;
  const nowMs = deps.clock.nowMs();
  const now = toStoredInstant(nowMs);
  const slot = await trx
    .updateTable('domain_receipts')
    .set({ alert_email_at: now })
    .where('domain_id', '=', row.domain_id)
    .where((eb) =>
      eb.or([eb('alert_email_at', 'is', null), eb('alert_email_at', '<=', toStoredInstant(nowMs - ALERT_INTERVAL_MS))]),
    )
    .executeTakeFirst();
  if (slot.numUpdatedRows === 0n) return;
  const merchant = await findMerchant(trx, row.merchant_id);
  const domain = await trx.selectFrom('domains').select('host').where('id', '=', row.domain_id).executeTakeFirst();
  const counts = await trx
    .selectFrom('receipts')
    .select(['status', (eb) => eb.fn.countAll<number>().as('n')])
    .where('domain_id', '=', row.domain_id)
    .where('status', 'in', ['pending', 'issuing', 'unknown', 'failed'])
    .groupBy('status')
    .execute();
  const count = (statuses: ReceiptStatus[]) =>
    counts.filter((c) => statuses.includes(c.status)).reduce((sum, c) => sum + Number(c.n), 0);
  const host = domain?.host ?? row.domain_id;
  await queueMerchantEmail(deps, trx, {
    merchantId: row.merchant_id,
    domainId: row.domain_id,
    kind: RECEIPTS_ALERT_KIND,
    recipient: merchant?.email ?? null,
    subject: `Fiscal receipts for ${host} are not being issued`,
    text: [
      `Fiscal receipts for payments on ${host} are not being issued.`,
      '',
      `Last problem (receipt ${row.id}): ${row.last_error ?? 'unknown'}`,
      '',
      `Waiting to be issued: ${count(['pending', 'issuing'])}`,
      `Outcome unknown (the register is searched before anything is issued again): ${count(['unknown'])}`,
      `Refused for good: ${count(['failed'])}`,
      '',
      'What to do:',
      '- If the fiscal system is down, nothing is needed: receipts are tried again with back-off.',
      '- If it refuses the settings (certificate, register number, cashier, department), give them again',
      '  with `receipts enable`: receipts that failed are then tried again.',
      '- A receipt whose outcome stays unknown needs you to look in the register and say what happened:',
      '  `receipts resolve --receipt ID --fiscal-id N` (it was issued) or `--not-issued`.',
      '',
      'You get this email at most once every 6 hours per domain.',
    ].join('\n'),
  });
}
