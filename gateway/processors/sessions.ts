/**
 * Reading processor sessions as adapters see them (see `ProcessorSession` in ./processor.ts).
 */

import type { Executor } from '../../storage/database.js';
import { findSession } from '../../storage/processor-session.repository.js';
import type { ProcessorSessionRow } from '../../storage/processor-session.table.js';
import type { Payment } from '../domain/payment.js';
import type { BuyerRedirect, ProcessorSession } from './processor.js';

export function toSession(row: ProcessorSessionRow): ProcessorSession {
  return {
    paymentId: row.payment_id,
    processor: row.processor,
    orderNumber: row.order_number,
    reference: row.reference,
  };
}

/** Where a session sent the buyer, as stored; null before the processor registered the order. */
export function storedRedirect(row: ProcessorSessionRow): BuyerRedirect | null {
  return row.redirect === null ? null : (JSON.parse(row.redirect) as BuyerRedirect);
}

/** The payment's session at the processor it is paid (or being paid) with; null for none (the sandbox). */
export async function paymentSession(db: Executor, payment: Payment): Promise<ProcessorSession | null> {
  if (payment.processor === null) return null;
  const row = await findSession(db, payment.uuid, payment.processor);
  return row === undefined ? null : toSession(row);
}
