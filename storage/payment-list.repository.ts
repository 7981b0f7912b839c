/**
 * Lists and counts of payments (spec "Payments", list; the dashboard's list, search and export):
 * pages read from the list indexes alone, by offset or by keyset, and counts from the kept
 * `payment_counts` where the filter allows.
 */
import type { Payment, PaymentStatus } from '../gateway/domain/payment.js';
import type { Executor } from './database.js';
import { type PaymentScope, rowToPayment } from './payment.repository.js';
import { type PaymentSearch, searchedIds } from './payment-search.js';

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
