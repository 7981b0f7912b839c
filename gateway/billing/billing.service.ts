/**
 * Reading billing (spec "Billing", "Balance entry", "Ledger entry") and the balance check of live
 * payment creation (402 `BALANCE_EXHAUSTED`).
 *
 * - Balances and the ledger belong to the merchant, not to a key: a live key and a test key of one
 *   merchant read the same balances and ledger.
 * - Balances are created on first use (first balances read, first ledger page, or first consumption)
 *   with the signup grant.
 * - The ledger pages newest first by id. `next_cursor` is an opaque string while more rows may
 *   follow (there is at least one more) and `null` on the last page. A cursor is
 *   `base64url(last id) "." base64url(HMAC-SHA256(secret, merchant, counter filter, id))[:16 bytes]`,
 *   so it is only accepted for the same merchant and the same `counter` filter; anything else is a
 *   422 `validation_failed` with `errors.cursor`.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { ensureBalances, listBalances, listLedger } from '../../storage/billing.repository.js';
import type { BillingLedgerRow } from '../../storage/billing.table.js';
import { findMerchant } from '../../storage/merchant.repository.js';
import type { LedgerQuery } from '../api/schemas/billing.schema.js';
import {
  type BalanceEntry,
  balanceEntry,
  blockedState,
  COUNTERS,
  type Counter,
  graceFloor,
  type PriceEntry,
  paymentConsumes,
  priceList,
} from '../domain/billing.js';
import { toApiInstant, toStoredInstant } from '../domain/clock.js';
import { ApiError, validationFailed } from '../domain/errors.js';
import type { Deps } from '../runtime/deps.js';

/** Where a merchant refused for balance learns how to buy units (served by the billing router). */
export function topUpUrl(publicUrl: string): string {
  return `${publicUrl}/docs/billing#top-up`;
}

export function pricing(deps: Pick<Deps, 'config'>): [PriceEntry, PriceEntry] {
  return priceList(deps.config.billing);
}

/** Both balances, `transactions` first, created with the signup grant on the first read. */
export async function readBalances(deps: Deps, merchantId: string): Promise<BalanceEntry[]> {
  const rows = await deps.transact(async (trx) => {
    await ensureBalances(trx, merchantId, deps.config.billing.signupGrant, toStoredInstant(deps.clock.nowMs()));
    return listBalances(trx, merchantId);
  });
  const unlimited = (await findMerchant(deps.db, merchantId))?.unlimited === 1;
  return COUNTERS.map((counter) => {
    const row = rows.find((r) => r.counter === counter);
    return balanceEntry(
      counter,
      Number(row?.available ?? deps.config.billing.signupGrant),
      deps.config.billing,
      unlimited,
    );
  });
}

export interface LedgerEntry {
  id: number;
  counter: Counter;
  delta: number;
  event_type: string;
  ref_type: string | null;
  ref_id: string | null;
  balance_after: number;
  note: string | null;
  created_at: string | null;
}

export function toLedgerEntry(row: BillingLedgerRow): LedgerEntry {
  return {
    id: Number(row.id),
    counter: row.counter,
    delta: Number(row.delta),
    event_type: row.event_type,
    ref_type: row.ref_type,
    ref_id: row.ref_id,
    balance_after: Number(row.balance_after),
    note: row.note,
    created_at: toApiInstant(row.created_at),
  };
}

function cursorMac(secret: string, merchantId: string, counter: Counter | undefined, id: number): Buffer {
  return createHmac('sha256', secret)
    .update(`billing-ledger-cursor\n${merchantId}\n${counter ?? '*'}\n${id}`, 'utf8')
    .digest()
    .subarray(0, 16);
}

export function encodeLedgerCursor(
  secret: string,
  merchantId: string,
  counter: Counter | undefined,
  id: number,
): string {
  const idPart = Buffer.from(String(id), 'utf8').toString('base64url');
  return `${idPart}.${cursorMac(secret, merchantId, counter, id).toString('base64url')}`;
}

/** The id a cursor continues below, or a 422 when the cursor was not issued for this merchant and filter. */
export function decodeLedgerCursor(
  secret: string,
  merchantId: string,
  counter: Counter | undefined,
  cursor: string,
): number {
  const invalid = () =>
    validationFailed({ cursor: ['is not a cursor this service issued for this query; use next_cursor as given'] });
  const [idPart, macPart, ...rest] = cursor.split('.');
  if (idPart === undefined || macPart === undefined || rest.length > 0) throw invalid();
  const idText = Buffer.from(idPart, 'base64url').toString('utf8');
  if (!/^[1-9]\d{0,15}$/.test(idText) || Buffer.from(idText, 'utf8').toString('base64url') !== idPart) {
    throw invalid();
  }
  const id = Number(idText);
  if (!Number.isSafeInteger(id)) throw invalid();
  const presented = Buffer.from(macPart, 'base64url');
  const expected = cursorMac(secret, merchantId, counter, id);
  if (presented.toString('base64url') !== macPart || presented.length !== expected.length) throw invalid();
  if (!timingSafeEqual(presented, expected)) throw invalid();
  return id;
}

export interface LedgerPage {
  data: LedgerEntry[];
  next_cursor: string | null;
}

/** One page of the merchant's ledger, newest first. */
export async function readLedgerPage(
  deps: Deps,
  secret: string,
  merchantId: string,
  query: LedgerQuery,
): Promise<LedgerPage> {
  const beforeId =
    query.cursor === undefined ? undefined : decodeLedgerCursor(secret, merchantId, query.counter, query.cursor);
  if (beforeId === undefined) {
    // The first page shows the signup grant even before anything else used the balances.
    await deps.transact((trx) =>
      ensureBalances(trx, merchantId, deps.config.billing.signupGrant, toStoredInstant(deps.clock.nowMs())),
    );
  }
  const rows = await listLedger(deps.db, {
    merchantId,
    ...(query.counter === undefined ? {} : { counter: query.counter }),
    ...(beforeId === undefined ? {} : { beforeId }),
    limit: query.per_page + 1,
  });
  const page = rows.slice(0, query.per_page).map(toLedgerEntry);
  const last = page.at(-1);
  return {
    data: page,
    next_cursor:
      rows.length > query.per_page && last !== undefined
        ? encodeLedgerCursor(secret, merchantId, query.counter, last.id)
        : null,
  };
}

/**
 * Refuses a new live payment that would consume a unit (not sandbox, amount at or above the free
 * threshold) when the merchant is not unlimited and its `transactions` balance is at or below the
 * grace floor: 402 `BALANCE_EXHAUSTED`. One indexed read (the merchant by id, joined to its
 * `transactions` balance); a merchant without a balance yet has its signup grant.
 */
export async function assertBalanceAllowsPayment(
  deps: Deps,
  merchantId: string,
  payment: { sandbox: boolean; amount: number },
): Promise<void> {
  if (!paymentConsumes(payment, deps.config.billing)) return;
  await assertCounterAllows(
    deps,
    merchantId,
    'transactions',
    (available, floor) =>
      `The transactions balance (${available}) has reached the grace floor (${floor}): buy transaction units to take live payments again. Test payments still work.`,
  );
}

/**
 * Refuses a live receipt for a sale not paid through the service (`POST /api/v1/receipts`) when the
 * `receipts` balance is at or below the grace floor: 402 `BALANCE_EXHAUSTED`, as for payments.
 */
export async function assertBalanceAllowsReceipt(deps: Deps, merchantId: string): Promise<void> {
  await assertCounterAllows(
    deps,
    merchantId,
    'receipts',
    (available, floor) =>
      `The receipts balance (${available}) has reached the grace floor (${floor}): buy receipt units to issue receipts for sales not paid through the service. Receipts of payments taken through the service are free and still issued.`,
  );
}

async function assertCounterAllows(
  deps: Deps,
  merchantId: string,
  counter: Counter,
  message: (available: number, floor: number) => string,
): Promise<void> {
  const config = deps.config.billing;
  const row = await deps.db
    .selectFrom('merchants')
    .leftJoin('billing_balances', (join) =>
      join.onRef('billing_balances.merchant_id', '=', 'merchants.id').on('billing_balances.counter', '=', counter),
    )
    .select(['merchants.unlimited', 'billing_balances.available'])
    .where('merchants.id', '=', merchantId)
    .executeTakeFirst();
  if (row === undefined || row.unlimited === 1) return;
  const available = row.available === null ? config.signupGrant : Number(row.available);
  if (blockedState(available, config, false) !== 'yes') return;
  throw new ApiError('BALANCE_EXHAUSTED', message(available, graceFloor(config)), {
    details: { available, grace_floor: graceFloor(config), top_up_url: topUpUrl(deps.config.publicUrl) },
  });
}
