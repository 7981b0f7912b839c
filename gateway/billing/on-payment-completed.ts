/**
 * What billing does when a payment becomes `completed` (a first completion or a late
 * confirmation), inside the transaction of that change: a merchant's live payment consumes a
 * `transactions` unit, and a payment on the house account that pays for a purchase credits it.
 * A payment completes once (the transition is conditional), so each happens exactly once.
 */
import type { Executor } from '../../storage/database.js';
import type { PaymentRow } from '../../storage/payment.table.js';
import type { Deps } from '../runtime/deps.js';
import { consumeForCompletedPayment } from './consumption.js';
import { creditPurchasePaidBy } from './purchases.service.js';

export async function onPaymentCompleted(deps: Deps, trx: Executor, payment: PaymentRow): Promise<void> {
  await consumeForCompletedPayment(deps, trx, payment);
  await creditPurchasePaidBy(deps, trx, payment);
}
