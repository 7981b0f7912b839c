/**
 * Balances and their ledger. Every change goes through `recordLedgerEntry`: one conditional
 * `UPDATE ... SET available = available + delta RETURNING available` (which serialises concurrent
 * changes of one balance: a row lock on PostgreSQL, the single writer on SQLite) and one ledger row
 * carrying the returned `balance_after`, in the caller's transaction. So the ledger, in id order, is
 * always the running sum of its deltas.
 */
import type { Counter } from '../gateway/domain/billing.js';
import { COUNTERS } from '../gateway/domain/billing.js';
import type { BillingBalanceRow, BillingLedgerRow } from './billing.table.js';
import type { Executor } from './database.js';

export interface LedgerEntryInput {
  readonly merchantId: string;
  readonly counter: Counter;
  readonly delta: number;
  readonly eventType: 'signup_grant' | 'purchase' | 'payment' | 'receipt' | 'adjustment';
  readonly refType: string | null;
  readonly refId: string | null;
  readonly note: string | null;
  readonly now: string;
  /** The signup grant a balance starts with if this entry is the account's first use. */
  readonly signupGrant: number;
}

/**
 * Creates the merchant's balances on first use, each with the signup grant as its first ledger
 * entry. Safe to race: only the insert that created a balance writes its grant.
 */
export async function ensureBalances(trx: Executor, merchantId: string, grant: number, now: string): Promise<void> {
  for (const counter of COUNTERS) {
    const inserted = await trx
      .insertInto('billing_balances')
      .values({ merchant_id: merchantId, counter, available: grant, updated_at: now })
      .onConflict((oc) => oc.columns(['merchant_id', 'counter']).doNothing())
      .executeTakeFirst();
    if (Number(inserted.numInsertedOrUpdatedRows ?? 0n) === 0) continue;
    await trx
      .insertInto('billing_ledger')
      .values({
        merchant_id: merchantId,
        counter,
        delta: grant,
        event_type: 'signup_grant',
        ref_type: null,
        ref_id: null,
        balance_after: grant,
        note: null,
        created_at: now,
      })
      .execute();
  }
}

function addToBalance(trx: Executor, entry: LedgerEntryInput) {
  return trx
    .updateTable('billing_balances')
    .set((eb) => ({ available: eb('available', '+', entry.delta), updated_at: entry.now }))
    .where('merchant_id', '=', entry.merchantId)
    .where('counter', '=', entry.counter)
    .returning('available')
    .executeTakeFirst();
}

/**
 * Applies `delta` to the balance and writes its ledger row; answers the row. An account's first
 * entry creates its balances (with the signup grant) first; later entries cost one update and one
 * insert.
 */
export async function recordLedgerEntry(trx: Executor, entry: LedgerEntryInput): Promise<BillingLedgerRow> {
  let updated = await addToBalance(trx, entry);
  if (updated === undefined) {
    await ensureBalances(trx, entry.merchantId, entry.signupGrant, entry.now);
    updated = await addToBalance(trx, entry);
  }
  if (updated === undefined) throw new Error(`no ${entry.counter} balance for merchant ${entry.merchantId}`);
  return trx
    .insertInto('billing_ledger')
    .values({
      merchant_id: entry.merchantId,
      counter: entry.counter,
      delta: entry.delta,
      event_type: entry.eventType,
      ref_type: entry.refType,
      ref_id: entry.refId,
      balance_after: Number(updated.available),
      note: entry.note,
      created_at: entry.now,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}

export async function listBalances(db: Executor, merchantId: string): Promise<BillingBalanceRow[]> {
  return db.selectFrom('billing_balances').selectAll().where('merchant_id', '=', merchantId).execute();
}

export async function findBalance(
  db: Executor,
  merchantId: string,
  counter: Counter,
): Promise<BillingBalanceRow | undefined> {
  return db
    .selectFrom('billing_balances')
    .selectAll()
    .where('merchant_id', '=', merchantId)
    .where('counter', '=', counter)
    .executeTakeFirst();
}

/** Ledger entries newest first, below `beforeId` when given; `limit` rows. */
export async function listLedger(
  db: Executor,
  query: { merchantId: string; counter?: Counter; beforeId?: number; limit: number },
): Promise<BillingLedgerRow[]> {
  let q = db.selectFrom('billing_ledger').selectAll().where('merchant_id', '=', query.merchantId);
  if (query.counter !== undefined) q = q.where('counter', '=', query.counter);
  if (query.beforeId !== undefined) q = q.where('id', '<', query.beforeId);
  return q.orderBy('id', 'desc').limit(query.limit).execute();
}
