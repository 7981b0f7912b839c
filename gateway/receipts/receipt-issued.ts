/**
 * What follows the issuing of a receipt, in the transaction that marked it issued (by a try, a
 * search of the register, or the merchant's own word).
 */
import type { Executor } from '../../storage/database.js';
import { findPaymentRow, rowToPayment } from '../../storage/payment.repository.js';
import { noteRegisterFiscalId } from '../../storage/receipt.repository.js';
import type { ReceiptRow } from '../../storage/receipt.table.js';
import { findRefund } from '../../storage/refund.repository.js';
import { consumeForReceipt } from '../billing/consumption.js';
import { toStoredInstant } from '../domain/clock.js';
import type { Deps } from '../runtime/deps.js';
import { refundedEvent, statusUpdatedEvent } from '../webhooks/events.js';
import { emitEvent, releaseHeldEvent } from '../webhooks/outbox.js';
import { eventReceipt } from './receipts.service.js';

/**
 * Everything an issued receipt brings, in the transaction that marked it issued: its billing (a
 * zero-delta row for a receipt of a payment taken through the service, else one `receipts` unit),
 * the register's last fiscal id, its returns made due, and its event: the held event released with
 * the receipt, or, when that event already went without it, a new event carrying it.
 */
export async function afterIssued(deps: Deps, trx: Executor, row: ReceiptRow): Promise<void> {
  const now = toStoredInstant(deps.clock.nowMs());
  if (row.sandbox === 0) {
    await consumeForReceipt(deps, trx, {
      merchantId: row.merchant_id,
      receiptId: row.id,
      linkedPaymentId: row.payment_id,
    });
  }
  if (row.register !== null && row.fiscal_id !== null)
    await noteRegisterFiscalId(trx, row.register, row.fiscal_id, now);
  if (row.type === 'sale') {
    await trx
      .updateTable('receipts')
      .set({ next_attempt_at: now, updated_at: now })
      .where('sale_receipt_id', '=', row.id)
      .where('status', '=', 'pending')
      .execute();
  }
  if (row.payment_id === null) return;
  const receipt = eventReceipt(deps.config.publicUrl, row);
  if (row.held_event_id !== null && (await releaseHeldEvent(deps, trx, row.held_event_id, receipt))) return;
  const payment = await findPaymentRow(trx, row.payment_id);
  if (payment === undefined) return;
  if (row.type === 'sale') {
    await emitEvent(deps, trx, payment, { ...statusUpdatedEvent(rowToPayment(payment)), receipt });
    return;
  }
  const refund = row.refund_id === null ? undefined : await findRefund(trx, row.refund_id);
  if (refund === undefined) return;
  await emitEvent(deps, trx, payment, {
    ...refundedEvent(rowToPayment(payment), { uuid: refund.id, amount: Number(refund.amount), reason: refund.reason }),
    receipt,
  });
}
