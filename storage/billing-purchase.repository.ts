/**
 * Purchases of units and auto top-up settings (tables in billing.table.ts). Every state change is a
 * conditional update (`where status = 'pending'`, `where armed = 1`), so of two racing writers one
 * wins and the other sees nothing changed.
 */
import type { Insertable } from 'kysely';
import type { Counter } from '../gateway/domain/billing.js';
import type { BillingAutoTopupRow, BillingPurchaseRow, BillingPurchaseTable } from './billing.table.js';
import type { Executor } from './database.js';

export type NewPurchaseRow = Insertable<BillingPurchaseTable>;

export async function insertPurchase(db: Executor, row: NewPurchaseRow): Promise<void> {
  await db.insertInto('billing_purchases').values(row).execute();
}

export async function findPurchase(
  db: Executor,
  id: string,
  options: { merchantId?: string; lock?: boolean } = {},
): Promise<BillingPurchaseRow | undefined> {
  let query = db.selectFrom('billing_purchases').selectAll().where('id', '=', id);
  if (options.merchantId !== undefined) query = query.where('merchant_id', '=', options.merchantId);
  if (options.lock === true) query = query.forUpdate();
  return query.executeTakeFirst();
}

/** The account's purchases, newest first (index `billing_purchases_merchant`). */
export async function listPurchasesOf(db: Executor, merchantId: string, limit: number): Promise<BillingPurchaseRow[]> {
  return db
    .selectFrom('billing_purchases')
    .selectAll()
    .where('merchant_id', '=', merchantId)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(limit)
    .execute();
}

export async function findPurchaseByReference(
  db: Executor,
  reference: string,
): Promise<BillingPurchaseRow | undefined> {
  return db.selectFrom('billing_purchases').selectAll().where('reference', '=', reference).executeTakeFirst();
}

/** pending → paid; answers the paid row, or undefined when it was not pending (already credited). */
export async function markPurchasePaid(
  db: Executor,
  id: string,
  changes: { paymentId?: string; now: string },
): Promise<BillingPurchaseRow | undefined> {
  return db
    .updateTable('billing_purchases')
    .set({
      status: 'paid',
      paid_at: changes.now,
      updated_at: changes.now,
      ...(changes.paymentId === undefined ? {} : { payment_id: changes.paymentId }),
    })
    .where('id', '=', id)
    .where('status', '=', 'pending')
    .returningAll()
    .executeTakeFirst();
}

/**
 * Points a pending card purchase at a new house payment, only if it still points at `previous`
 * (null: none yet). Answers whether it did.
 */
export async function replacePurchasePayment(
  db: Executor,
  id: string,
  previous: string | null,
  paymentId: string,
  now: string,
): Promise<boolean> {
  let query = db
    .updateTable('billing_purchases')
    .set({ payment_id: paymentId, updated_at: now })
    .where('id', '=', id)
    .where('status', '=', 'pending');
  query = previous === null ? query.where('payment_id', 'is', null) : query.where('payment_id', '=', previous);
  const result = await query.executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

export async function findAutoTopup(
  db: Executor,
  merchantId: string,
  counter: Counter,
): Promise<BillingAutoTopupRow | undefined> {
  return db
    .selectFrom('billing_auto_topups')
    .selectAll()
    .where('merchant_id', '=', merchantId)
    .where('counter', '=', counter)
    .executeTakeFirst();
}

export interface AutoTopupSettings {
  readonly merchantId: string;
  readonly counter: Counter;
  readonly enabled: boolean;
  readonly thresholdQty: number;
  readonly refillQty: number;
  readonly paymentMethodId: string | null;
  readonly armed: boolean;
  readonly now: string;
}

/** Creates or replaces the settings of one counter; answers the stored row. */
export async function saveAutoTopup(db: Executor, settings: AutoTopupSettings): Promise<BillingAutoTopupRow> {
  const values = {
    enabled: settings.enabled ? 1 : 0,
    threshold_qty: settings.thresholdQty,
    refill_qty: settings.refillQty,
    payment_method_id: settings.paymentMethodId,
    armed: settings.armed ? 1 : 0,
    updated_at: settings.now,
  };
  return db
    .insertInto('billing_auto_topups')
    .values({
      merchant_id: settings.merchantId,
      counter: settings.counter,
      last_purchase_id: null,
      created_at: settings.now,
      ...values,
    })
    .onConflict((oc) => oc.columns(['merchant_id', 'counter']).doUpdateSet(values))
    .returningAll()
    .executeTakeFirstOrThrow();
}

/**
 * The balance fell to the threshold: disarms an enabled, armed setting. Answers whether this caller
 * disarmed it (and so owns this crossing).
 */
export async function disarmAutoTopup(
  db: Executor,
  merchantId: string,
  counter: Counter,
  purchaseId: string,
): Promise<boolean> {
  const result = await db
    .updateTable('billing_auto_topups')
    .set({ armed: 0, last_purchase_id: purchaseId })
    .where('merchant_id', '=', merchantId)
    .where('counter', '=', counter)
    .where('enabled', '=', 1)
    .where('armed', '=', 1)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

/**
 * The balance rose above the threshold: the next fall to it is a new crossing. Arming and
 * disarming leave `updated_at` alone: it tells when the settings were last saved.
 */
export async function rearmAutoTopup(db: Executor, merchantId: string, counter: Counter): Promise<boolean> {
  const result = await db
    .updateTable('billing_auto_topups')
    .set({ armed: 1 })
    .where('merchant_id', '=', merchantId)
    .where('counter', '=', counter)
    .where('armed', '=', 0)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}
