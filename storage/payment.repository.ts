import { type Expression, type ExpressionBuilder, type SqlBool, sql, type Updateable } from 'kysely';
import type { Charge } from '../gateway/domain/fx.js';
import type { Environment, Payment, PaymentItem, PaymentStatus } from '../gateway/domain/payment.js';
import type { Database, Executor } from './database.js';
import type { NewPaymentRow, PaymentRow, PaymentTable, StoredPaymentItem } from './payment.table.js';
import { type PaymentSearch, searchedIds } from './payment-search.js';

/** The stored form of a payment's order lines (`payments.items`); null for none. */
export function paymentItemsToStored(items: readonly PaymentItem[] | null): string | null {
  if (items === null) return null;
  const stored: StoredPaymentItem[] = items.map((item) => ({
    name: item.name,
    quantity_milli: item.quantityMilli,
    unit_price: item.unitPrice,
    classification_code: item.classificationCode,
    code: item.code,
    unit: item.unit,
  }));
  return JSON.stringify(stored);
}

/** The order lines `payments.items` holds; null for none. */
export function storedToPaymentItems(stored: string | null): PaymentItem[] | null {
  if (stored === null) return null;
  return (JSON.parse(stored) as StoredPaymentItem[]).map((item) => ({
    name: item.name,
    quantityMilli: item.quantity_milli,
    unitPrice: item.unit_price,
    classificationCode: item.classification_code,
    code: item.code,
    unit: item.unit,
  }));
}

export function rowToPayment(row: PaymentRow): Payment {
  return {
    uuid: row.id,
    merchantId: row.merchant_id,
    environment: row.environment,
    sandbox: row.sandbox === 1,
    domainId: row.domain_id,
    orderId: row.order_id,
    amount: Number(row.amount),
    refundedAmount: Number(row.refunded_amount),
    currency: row.currency,
    price:
      row.price_amount === null || row.price_currency === null
        ? null
        : { amount: Number(row.price_amount), currency: row.price_currency },
    charge: row.charge === null ? null : (JSON.parse(row.charge) as Charge),
    status: row.status,
    captureMethod: row.capture_method,
    authorizedAmount: row.authorized_amount === null ? null : Number(row.authorized_amount),
    captureBefore: row.capture_before,
    processor: row.processor,
    redirectMode: row.redirect_mode,
    paymentFlow: row.payment_flow,
    qrCode: row.qr_code,
    rrn: row.rrn,
    failureCode: row.failure_code,
    customerId: row.customer_id,
    customerEmail: row.customer_email,
    customerName: row.customer_name,
    description: row.description,
    items: storedToPaymentItems(row.items),
    returnUrl: row.return_url,
    cancelUrl: row.cancel_url,
    callbackUrl: row.callback_url,
    checkoutToken: row.checkout_token,
    cardLast4: row.card_last4,
    reconciliationFlag: row.reconciliation_flag,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    expiresAt: row.expires_at,
    completedAt: row.completed_at,
    refundedAt: row.refunded_at,
  };
}

export async function insertPayment(db: Executor, row: NewPaymentRow): Promise<void> {
  await db.insertInto('payments').values(row).execute();
}

/** The payments one velocity limit counts: one buyer's on one domain, live money or sandbox. */
export interface BuyerPayments {
  readonly domainId: string;
  readonly sandbox: number;
  readonly buyerKey: string;
}

/**
 * Creation times of the buyer's payments created after `after` (stored form), newest first, at
 * most `limit` of them: enough to tell whether the velocity limit is reached and when one more fits.
 */
export async function listRecentBuyerPayments(
  db: Executor,
  buyer: BuyerPayments,
  after: string,
  limit: number,
): Promise<string[]> {
  const rows = await db
    .selectFrom('payments')
    .select('created_at')
    .where('domain_id', '=', buyer.domainId)
    .where('sandbox', '=', buyer.sandbox)
    .where('buyer_key', '=', buyer.buyerKey)
    .where('created_at', '>', after)
    .orderBy('created_at', 'desc')
    .limit(limit)
    .execute();
  return rows.map((row) => row.created_at);
}

/**
 * PostgreSQL only: holds a transaction-scoped advisory lock on `key` until the transaction ends, so
 * that transactions counting and then inserting the same buyer's payments run one after the other.
 */
export async function lockBuyerPayments(db: Executor, key: bigint): Promise<void> {
  await sql`select pg_advisory_xact_lock(${key.toString()}::bigint)`.execute(db);
}

/**
 * Records are always read within one merchant and one environment: nothing else is visible. A
 * payment's environment is its livemode (`test` for every sandbox payment, whichever key made it).
 */
export interface PaymentScope {
  readonly merchantId: string;
  /** The environment lists and counts show. */
  readonly environment: Environment;
  /**
   * Single payments (by uuid or order) are also read among the sandbox payments a live key made
   * (`processor: sandbox`): a live API key reads back its own. Lists and counts never show them.
   */
  readonly readsOwnSandbox?: boolean;
  /** Connect tokens see only the payments of their own domain. */
  readonly domainId?: string;
}

/**
 * Where one read (by uuid or order) looks, in order: the scope's environment, then, for a live key
 * that reads its own, the sandbox payments live keys made.
 */
function readablePlaces(
  scope: PaymentScope,
): Array<(eb: ExpressionBuilder<Database, 'payments'>) => Expression<SqlBool>> {
  const places = [(eb: ExpressionBuilder<Database, 'payments'>) => eb('environment', '=', scope.environment)];
  if (scope.readsOwnSandbox === true && scope.environment === 'live') {
    places.push((eb) => eb.and([eb('environment', '=', 'test'), eb('key_environment', '=', 'live')]));
  }
  return places;
}

export async function findPayment(db: Executor, scope: PaymentScope, id: string): Promise<Payment | undefined> {
  const places = readablePlaces(scope);
  let query = db
    .selectFrom('payments')
    .selectAll()
    .where('id', '=', id)
    .where('merchant_id', '=', scope.merchantId)
    .where((eb) => eb.or(places.map((place) => place(eb))));
  if (scope.domainId !== undefined) query = query.where('domain_id', '=', scope.domainId);
  const row = await query.executeTakeFirst();
  return row === undefined ? undefined : rowToPayment(row);
}

/**
 * The payment of an order: the completed or refunded one if any, else the newest attempt; a live
 * key's live payments of the order come before its sandbox ones.
 */
export async function findPaymentForOrder(
  db: Executor,
  scope: PaymentScope,
  orderId: string,
): Promise<Payment | undefined> {
  for (const place of readablePlaces(scope)) {
    let query = db
      .selectFrom('payments')
      .selectAll()
      .where('merchant_id', '=', scope.merchantId)
      .where(place)
      .where('order_id', '=', orderId);
    if (scope.domainId !== undefined) query = query.where('domain_id', '=', scope.domainId);
    const rows = await query.orderBy('created_at', 'desc').orderBy('id', 'desc').limit(50).execute();
    const paid = rows.find((r) => r.status === 'completed' || r.status === 'refunded');
    const row = paid ?? rows[0];
    if (row !== undefined) return rowToPayment(row);
  }
  return undefined;
}

export interface PaymentListFilter {
  readonly status?: PaymentStatus;
  readonly processor?: string;
  readonly orderId?: string;
  /** The payments carrying this customer id (index `payments_customer`). */
  readonly customerId?: string;
  /** Inclusive lower bound of `created_at`, stored form. */
  readonly createdFrom?: string;
  /** Exclusive upper bound of `created_at`, stored form. */
  readonly createdBefore?: string;
  /**
   * The dashboard's search: payments whose uuid, order id or customer email begins with the text
   * ignoring case, or whose RRN is the text (storage/payment-search.ts).
   */
  readonly search?: PaymentSearch;
}

/** Whether a stored instant is the start of a UTC day (the list's `from` and `to` bounds are). */
function startOfDay(instant: string | undefined): boolean {
  return instant === undefined || instant.endsWith('T00:00:00.000Z');
}

/**
 * How many payments match: the sum of `payment_counts` rows (migration 0020), a few per day of the
 * range however many payments there are; with `order_id` or `customer_id` (each an index range of
 * its own), or bounds that are not whole UTC days, the payments themselves are counted.
 */
export async function countPayments(db: Executor, scope: PaymentScope, filter: PaymentListFilter): Promise<number> {
  if (
    filter.orderId !== undefined ||
    filter.customerId !== undefined ||
    filter.search !== undefined ||
    !startOfDay(filter.createdFrom) ||
    !startOfDay(filter.createdBefore)
  ) {
    const counted = await matching(db, scope, filter)
      .select((eb) => eb.fn.countAll<number>().as('total'))
      .executeTakeFirstOrThrow();
    return Number(counted.total);
  }
  let query = db
    .selectFrom('payment_counts')
    .where('merchant_id', '=', scope.merchantId)
    .where('environment', '=', scope.environment);
  if (scope.domainId !== undefined) query = query.where('domain_id', '=', scope.domainId);
  if (filter.status !== undefined) query = query.where('status', '=', filter.status);
  if (filter.processor !== undefined) query = query.where('processor', '=', filter.processor);
  if (filter.createdFrom !== undefined) query = query.where('day', '>=', filter.createdFrom.slice(0, 10));
  if (filter.createdBefore !== undefined) query = query.where('day', '<', filter.createdBefore.slice(0, 10));
  const summed = await query.select((eb) => eb.fn.sum<number | string | null>('n').as('total')).executeTakeFirst();
  return Number(summed?.total ?? 0);
}

function matching(db: Executor, scope: PaymentScope, filter: PaymentListFilter) {
  let query = db
    .selectFrom('payments')
    .where('merchant_id', '=', scope.merchantId)
    .where('environment', '=', scope.environment);
  if (scope.domainId !== undefined) query = query.where('domain_id', '=', scope.domainId);
  if (filter.status !== undefined) query = query.where('status', '=', filter.status);
  if (filter.processor !== undefined) query = query.where('processor', '=', filter.processor);
  if (filter.orderId !== undefined) query = query.where('order_id', '=', filter.orderId);
  if (filter.customerId !== undefined) query = query.where('customer_id', '=', filter.customerId);
  if (filter.createdFrom !== undefined) query = query.where('created_at', '>=', filter.createdFrom);
  if (filter.createdBefore !== undefined) query = query.where('created_at', '<', filter.createdBefore);
  if (filter.search !== undefined) query = query.where('id', 'in', searchedIds(db, scope, filter.search));
  return query;
}

/** Where a page is read: from the newest end, or (past the middle) from the oldest. */
export function pageFromEitherEnd(
  page: { offset: number; limit: number },
  total: number,
): { direction: 'asc' | 'desc'; offset: number; limit: number } {
  if (page.offset <= total - page.offset - page.limit) return { direction: 'desc', ...page };
  return {
    direction: 'asc',
    offset: Math.max(0, total - page.offset - page.limit),
    limit: Math.min(page.limit, total - page.offset),
  };
}

/** The ids of one page, from the list index alone (exported for the scale benchmark's EXPLAIN). */
export function pageIdsQuery(
  db: Executor,
  scope: PaymentScope,
  filter: PaymentListFilter,
  at: { direction: 'asc' | 'desc'; offset: number; limit: number },
) {
  return matching(db, scope, filter)
    .select('id')
    .orderBy('created_at', at.direction)
    .orderBy('id', at.direction)
    .limit(at.limit)
    .offset(at.offset);
}

/**
 * One page of the list, newest first, and how many payments match. A page past the middle is read
 * from the oldest end (the last page is the first rows in ascending order), so the last page costs
 * what the first does. The page's ids are picked from the list index alone, then their rows read.
 */
export async function listPayments(
  db: Executor,
  scope: PaymentScope,
  filter: PaymentListFilter,
  page: { offset: number; limit: number },
): Promise<{ payments: Payment[]; total: number }> {
  const total = await countPayments(db, scope, filter);
  if (total === 0 || page.offset >= total) return { payments: [], total };
  const ids = pageIdsQuery(db, scope, filter, pageFromEitherEnd(page, total));
  const rows = await db
    .selectFrom('payments')
    .selectAll()
    .where('id', 'in', ids)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .execute();
  return { payments: rows.map(rowToPayment), total };
}

/** Where a keyset page starts: the last payment shown (`created_at` stored form, id). */
export interface PaymentCursor {
  readonly createdAt: string;
  readonly id: string;
}

/** The ids of one keyset page (and one more, to tell whether more follow), from the list indexes alone. */
export function keysetIdsQuery(
  db: Executor,
  scope: PaymentScope,
  filter: PaymentListFilter,
  page: { after?: PaymentCursor; before?: PaymentCursor; limit: number },
) {
  const backwards = page.before !== undefined;
  const direction = backwards ? 'asc' : 'desc';
  let query = matching(db, scope, filter).select('id');
  const cursor = page.before ?? page.after;
  if (cursor !== undefined) {
    query = query.where((eb) =>
      eb(eb.refTuple('created_at', 'id'), backwards ? '>' : '<', eb.tuple(cursor.createdAt, cursor.id)),
    );
  }
  return query
    .orderBy('created_at', direction)
    .orderBy('id', direction)
    .limit(page.limit + 1);
}

/**
 * One keyset page of the list, newest first: the `limit` payments older than `after` (or newer
 * than `before`, or the newest), read from the list indexes by position, never by offset, so a
 * page costs the same at any depth. `older`/`newer` say whether more payments lie on each side.
 */
export async function listPaymentsByKey(
  db: Executor,
  scope: PaymentScope,
  filter: PaymentListFilter,
  page: { after?: PaymentCursor; before?: PaymentCursor; limit: number },
): Promise<{ payments: Payment[]; older: boolean; newer: boolean }> {
  const backwards = page.before !== undefined;
  const picked = await keysetIdsQuery(db, scope, filter, page).execute();
  const more = picked.length > page.limit;
  const ids = picked.slice(0, page.limit).map((row) => row.id);
  const rows =
    ids.length === 0
      ? []
      : await db
          .selectFrom('payments')
          .selectAll()
          .where('id', 'in', ids)
          .orderBy('created_at', 'desc')
          .orderBy('id', 'desc')
          .execute();
  return {
    payments: rows.map(rowToPayment),
    older: backwards ? page.before !== undefined : more,
    newer: backwards ? more : page.after !== undefined,
  };
}

/**
 * Every payment the filter matches, newest first, read in keyset pages of `batch`: for streaming
 * exports, which hold one page at a time however many payments there are.
 */
export async function* eachPayment(
  db: Executor,
  scope: PaymentScope,
  filter: PaymentListFilter,
  batch = 500,
): AsyncGenerator<Payment> {
  let after: PaymentCursor | undefined;
  for (;;) {
    const page = await listPaymentsByKey(
      db,
      scope,
      filter,
      after === undefined ? { limit: batch } : { after, limit: batch },
    );
    yield* page.payments;
    const last = page.payments.at(-1);
    if (!page.older || last === undefined) return;
    after = { createdAt: last.createdAt, id: last.uuid };
  }
}

/** Whether the merchant has any payment in `environment` (from the kept counts). */
export async function hasPayments(db: Executor, merchantId: string, environment: Environment): Promise<boolean> {
  const row = await db
    .selectFrom('payment_counts')
    .select('n')
    .where('merchant_id', '=', merchantId)
    .where('environment', '=', environment)
    .where('n', '>', 0)
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}

/** A payment by id, whoever owns it: for the lifecycle, which is driven by the payment itself. */
export async function findPaymentRow(
  db: Executor,
  id: string,
  options: { lock?: boolean } = {},
): Promise<PaymentRow | undefined> {
  let query = db.selectFrom('payments').selectAll().where('id', '=', id);
  // PostgreSQL: hold the row for the rest of the transaction, so a competing writer waits and then
  // finds the payment already moved (SQLite transactions never overlap).
  if (options.lock === true) query = query.forUpdate();
  return query.executeTakeFirst();
}

/**
 * Moves a payment on only if it is still in one of `from` (and, with `dueBy`, only if it expires
 * at or before that instant). Answers the updated row, or undefined when another writer got there
 * first: the conditional update is what makes every transition safe to race.
 */
export async function transitionPayment(
  db: Executor,
  id: string,
  from: readonly PaymentStatus[],
  changes: Updateable<PaymentTable>,
  options: { dueBy?: string } = {},
): Promise<PaymentRow | undefined> {
  let query = db
    .updateTable('payments')
    .set(changes)
    .where('id', '=', id)
    .where('status', 'in', [...from]);
  if (options.dueBy !== undefined) query = query.where('expires_at', '<=', options.dueBy);
  return query.returningAll().executeTakeFirst();
}

/** Whether another payment of the order holds it (see `active_order_id`). */
export async function orderHeldByOther(db: Executor, payment: PaymentRow): Promise<boolean> {
  const row = await db
    .selectFrom('payments')
    .select('id')
    .where('merchant_id', '=', payment.merchant_id)
    .where('environment', '=', payment.environment)
    .where('active_order_id', '=', payment.order_id)
    .where('id', '!=', payment.id)
    .executeTakeFirst();
  return row !== undefined;
}

/** Ids of payments still open past their expiry, oldest first (each expiry re-checks it). */
export async function listDuePayments(db: Executor, now: string, limit: number): Promise<string[]> {
  const rows = await db
    .selectFrom('payments')
    .select('id')
    .where('status', 'in', ['pending', 'processing'])
    .where('expires_at', '<=', now)
    .orderBy('expires_at')
    .limit(limit)
    .execute();
  return rows.map((r) => r.id);
}
