/**
 * Payments as stored: a row and the domain's `Payment`, inserting one, reading one within what the
 * caller may see (`PaymentScope`), moving one to its next status, and the reads the lifecycle and
 * the velocity limit make. Lists and counts: ./payment-list.repository.ts.
 */
import {
  type CompiledQuery,
  type Expression,
  type ExpressionBuilder,
  type SqlBool,
  sql,
  type Updateable,
} from 'kysely';
import type { Charge } from '../gateway/domain/fx.js';
import type { Environment, Payment, PaymentItem, PaymentStatus } from '../gateway/domain/payment.js';
import { compiledOnce } from './compiled-once.js';
import type { Database, Executor } from './database.js';
import type { NewPaymentRow, PaymentRow, PaymentTable, StoredPaymentItem } from './payment.table.js';

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

/** Inserts a payment; the INSERT's text is compiled once per set of columns (./compiled-once.ts). */
export async function insertPayment(db: Executor, row: NewPaymentRow): Promise<void> {
  const columns = Object.keys(row).filter((column) => row[column as keyof NewPaymentRow] !== undefined);
  const values = columns.map((column) => row[column as keyof NewPaymentRow]);
  await db.executeQuery(
    compiledOnce(db, `insertPayment:${columns.join(',')}`, values, () => db.insertInto('payments').values(row)),
  );
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

/** One place a read looks: its condition, and the values that condition binds, in order. */
interface ReadablePlace {
  readonly where: (eb: ExpressionBuilder<Database, 'payments'>) => Expression<SqlBool>;
  readonly values: readonly unknown[];
}

/**
 * Where one read (by uuid or order) looks, in order: the scope's environment, then, for a live key
 * that reads its own, the sandbox payments live keys made.
 */
function readablePlaces(scope: PaymentScope): ReadablePlace[] {
  const places: ReadablePlace[] = [
    { where: (eb) => eb('environment', '=', scope.environment), values: [scope.environment] },
  ];
  if (scope.readsOwnSandbox === true && scope.environment === 'live') {
    places.push({
      where: (eb) => eb.and([eb('environment', '=', 'test'), eb('key_environment', '=', 'live')]),
      values: ['test', 'live'],
    });
  }
  return places;
}

/** The part of a read's shape its scope decides beyond the places: whether it is held to a domain. */
function domainShape(scope: PaymentScope): string {
  return scope.domainId === undefined ? '' : 'domain';
}

/**
 * The read of one payment by id within `scope`: at most one row, compiled once per shape. Run by
 * `findPayment`, or within the request's admission statement (gateway/auth/admission.ts).
 */
export function paymentReadQuery(db: Executor, scope: PaymentScope, id: string): CompiledQuery<PaymentRow> {
  const places = readablePlaces(scope);
  const values: unknown[] = [id, scope.merchantId, ...places.flatMap((place) => place.values)];
  if (scope.domainId !== undefined) values.push(scope.domainId);
  const build = () => {
    let query = db
      .selectFrom('payments')
      .selectAll()
      .where('id', '=', id)
      .where('merchant_id', '=', scope.merchantId)
      .where((eb) => eb.or(places.map((place) => place.where(eb))));
    if (scope.domainId !== undefined) query = query.where('domain_id', '=', scope.domainId);
    return query;
  };
  // One text per shape: with or without the live key's own sandbox payments, and the domain.
  const shape = `findPayment:${places.length}:${domainShape(scope)}`;
  return compiledOnce(db, shape, values, build) as CompiledQuery<PaymentRow>;
}

export async function findPayment(db: Executor, scope: PaymentScope, id: string): Promise<Payment | undefined> {
  const { rows } = await db.executeQuery(paymentReadQuery(db, scope, id));
  const row = rows[0];
  return row === undefined ? undefined : rowToPayment(row);
}

/** The attempts of one order read at most, newest first. */
const ORDER_ATTEMPTS_READ = 50;

/**
 * The payment of an order: the completed or refunded one if any, else the newest attempt; a live
 * key's live payments of the order come before its sandbox ones.
 */
export async function findPaymentForOrder(
  db: Executor,
  scope: PaymentScope,
  orderId: string,
): Promise<Payment | undefined> {
  for (const [index, place] of readablePlaces(scope).entries()) {
    const build = () => {
      let query = db
        .selectFrom('payments')
        .selectAll()
        .where('merchant_id', '=', scope.merchantId)
        .where(place.where)
        .where('order_id', '=', orderId);
      if (scope.domainId !== undefined) query = query.where('domain_id', '=', scope.domainId);
      return query.orderBy('created_at', 'desc').orderBy('id', 'desc').limit(ORDER_ATTEMPTS_READ);
    };
    const values: unknown[] = [scope.merchantId, ...place.values, orderId];
    if (scope.domainId !== undefined) values.push(scope.domainId);
    values.push(ORDER_ATTEMPTS_READ);
    const shape = `findPaymentForOrder:${index}:${domainShape(scope)}`;
    const { rows } = await db.executeQuery<PaymentRow>(compiledOnce(db, shape, values, build));
    const paid = rows.find((r) => r.status === 'completed' || r.status === 'refunded');
    const row = paid ?? rows[0];
    if (row !== undefined) return rowToPayment(row);
  }
  return undefined;
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
