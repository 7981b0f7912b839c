/**
 * Consumption of units (spec "Billing"): what a completed payment or an issued receipt takes from
 * the merchant's balances, in the caller's transaction, with one ledger row per unit.
 *
 * - A completed live payment (sandbox = 0) of at least `freeBelowAmd` consumes one `transactions`
 *   unit (ledger: event_type `payment`, ref_type `payment`, ref_id the payment uuid). Sandbox/test
 *   payments and payments under the threshold write nothing at all.
 * - Unlimited accounts (the service's house account among them) consume nothing, but the event is
 *   still recorded: a ledger row with delta 0 whose balance_after is the unchanged balance.
 * - A fiscal receipt consumes one `receipts` unit unless it is linked to a payment taken through
 *   the service, which records a delta-0 row (gateway/receipts/: issued receipts, and
 *   `POST /api/v1/receipts`). Sandbox receipts record nothing.
 *
 * A payment completes once (its transition is conditional), so it is consumed once; the unique
 * index `billing_ledger_once` is the backstop.
 */
import { recordLedgerEntry } from '../../storage/billing.repository.js';
import type { Executor } from '../../storage/database.js';
import { findMerchant } from '../../storage/merchant.repository.js';
import type { PaymentRow } from '../../storage/payment.table.js';
import type { Counter } from '../domain/billing.js';
import { paymentConsumes } from '../domain/billing.js';
import { toStoredInstant } from '../domain/clock.js';
import type { Deps } from '../runtime/deps.js';
import { afterBalanceChange } from './auto-topup.service.js';

async function isUnlimited(trx: Executor, merchantId: string): Promise<boolean> {
  const merchant = await findMerchant(trx, merchantId);
  return merchant?.unlimited === 1;
}

/** Takes one unit (or records delta 0 for an unlimited account) and tells auto top-up about a change. */
async function consumeOne(
  deps: Deps,
  trx: Executor,
  entry: {
    merchantId: string;
    counter: Counter;
    eventType: 'payment' | 'receipt';
    refType: string;
    refId: string;
    /** Recorded with delta 0 whatever the account (a receipt of a payment taken through the service). */
    free?: boolean;
  },
): Promise<void> {
  const now = toStoredInstant(deps.clock.nowMs());
  const { free, ...ledger } = entry;
  const delta = free === true || (await isUnlimited(trx, entry.merchantId)) ? 0 : -1;
  const row = await recordLedgerEntry(trx, {
    ...ledger,
    delta,
    note: null,
    now,
    signupGrant: deps.config.billing.signupGrant,
  });
  // A delta of 0 changes no balance, so there is nothing for auto top-up to react to.
  if (delta !== 0) {
    await afterBalanceChange(deps, trx, {
      merchantId: entry.merchantId,
      counter: entry.counter,
      balanceAfter: Number(row.balance_after),
    });
  }
}

/** A `paymentCompleted` subscriber (gateway/runtime/deps.ts): runs in the transaction where the payment became `completed`. */
export async function consumeForCompletedPayment(deps: Deps, trx: Executor, payment: PaymentRow): Promise<void> {
  if (!paymentConsumes({ sandbox: payment.sandbox === 1, amount: payment.amount }, deps.config.billing)) return;
  await consumeOne(deps, trx, {
    merchantId: payment.merchant_id,
    counter: 'transactions',
    eventType: 'payment',
    refType: 'payment',
    refId: payment.id,
  });
}

export interface ReceiptIssued {
  readonly merchantId: string;
  readonly receiptId: string;
  /** The payment the receipt is for, when it is one of this merchant's payments through the service. */
  readonly linkedPaymentId: string | null;
}

/**
 * What a fiscal receipt costs: nothing when it is linked to a payment of the merchant taken through
 * the service (a ledger row with delta 0 records it, as for unlimited accounts), else one
 * `receipts` unit. Ledger: event_type `receipt`, ref_type `receipt`, ref_id the receipt id.
 * Issuing the same receipt again records nothing more. Answers whether a ledger row was written.
 */
export async function consumeForReceipt(deps: Deps, trx: Executor, receipt: ReceiptIssued): Promise<boolean> {
  const already = await trx
    .selectFrom('billing_ledger')
    .select('id')
    .where('merchant_id', '=', receipt.merchantId)
    .where('counter', '=', 'receipts')
    .where('event_type', '=', 'receipt')
    .where('ref_type', '=', 'receipt')
    .where('ref_id', '=', receipt.receiptId)
    .executeTakeFirst();
  if (already !== undefined) return false;
  const linked =
    receipt.linkedPaymentId !== null &&
    (await trx
      .selectFrom('payments')
      .select('id')
      .where('id', '=', receipt.linkedPaymentId)
      .where('merchant_id', '=', receipt.merchantId)
      .executeTakeFirst()) !== undefined;
  await consumeOne(deps, trx, {
    merchantId: receipt.merchantId,
    counter: 'receipts',
    eventType: 'receipt',
    refType: 'receipt',
    refId: receipt.receiptId,
    free: linked,
  });
  return true;
}
