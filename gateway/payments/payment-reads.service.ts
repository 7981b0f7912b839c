/**
 * Reading payments (spec "Payments": retrieve by uuid, by order, and the list): each within what
 * its caller may see (./payment-scope.ts), answered as the API shows a payment.
 */
import type { CompiledQuery } from 'kysely';
import { findPayment, findPaymentForOrder, paymentReadQuery, rowToPayment } from '../../storage/payment.repository.js';
import type { PaymentRow } from '../../storage/payment.table.js';
import { listPayments, type PaymentListFilter } from '../../storage/payment-list.repository.js';
import type { AlongsideRow } from '../../storage/rate-limit.repository.js';
import { CONTROL_CHARS } from '../api/schemas/fields.js';
import type { ListPaymentsQuery } from '../api/schemas/payment.schema.js';
import type { Principal } from '../auth/principal.js';
import { MINUTE_MS, toStoredInstant } from '../domain/clock.js';
import { ApiError } from '../domain/errors.js';
import { isUuid } from '../domain/ids.js';
import { type Paginated, paginate } from '../domain/pagination.js';
import type { Payment, PaymentResponse } from '../domain/payment.js';
import type { Deps } from '../runtime/deps.js';
import { paymentAnswer, paymentAnswers } from './awaiting-reference.js';
import { scopeOf } from './payment-scope.js';

/** The read `getPayment` makes, to be run ahead with the request's admission (none for a malformed uuid). */
export function getPaymentRead(deps: Pick<Deps, 'db'>, principal: Principal, uuid: string): CompiledQuery | undefined {
  return isUuid(uuid) ? paymentReadQuery(deps.db, scopeOf(principal), uuid) : undefined;
}

/** The payment `uuid`; `alreadyRead`: what `getPaymentRead`'s read found, run ahead for this principal. */
export async function getPayment(
  deps: Deps,
  principal: Principal,
  uuid: string,
  alreadyRead?: AlongsideRow,
): Promise<PaymentResponse> {
  let payment: Payment | undefined;
  if (alreadyRead !== undefined) {
    if (alreadyRead.row !== undefined) payment = rowToPayment(alreadyRead.row as unknown as PaymentRow);
  } else if (isUuid(uuid)) {
    payment = await findPayment(deps.db, scopeOf(principal), uuid);
  }
  if (payment === undefined) throw new ApiError('not_found', `No payment ${uuid} for this key.`);
  return paymentAnswer(deps, payment);
}

export async function getOrderPayment(deps: Deps, principal: Principal, orderId: string): Promise<PaymentResponse> {
  const payment =
    // No order id is empty, longer than 255 or holds control characters (creation refuses them).
    orderId.length > 0 && orderId.length <= 255 && !CONTROL_CHARS.test(orderId)
      ? await findPaymentForOrder(deps.db, scopeOf(principal), orderId)
      : undefined;
  if (payment === undefined) throw new ApiError('order_not_found', `No payment for order ${orderId} with this key.`);
  return paymentAnswer(deps, payment);
}

const DAY = 24 * 60 * MINUTE_MS;
/** 9999-12-31T23:59:59.999Z: later instants have no four-digit-year stored form to compare with. */
const LAST_STORED_MS = Date.UTC(9999, 11, 31, 23, 59, 59, 999);

/** The repository's filter of the list's query (`from`/`to` are whole UTC days): the API's and the dashboard's. */
export function paymentListFilter(
  query: Pick<ListPaymentsQuery, 'status' | 'processor' | 'order_id' | 'customer_id' | 'from' | 'to'>,
): PaymentListFilter {
  const dayStart = (date: string): number => Date.parse(`${date}T00:00:00.000Z`);
  return {
    status: query.status,
    processor: query.processor,
    orderId: query.order_id,
    customerId: query.customer_id,
    createdFrom: query.from === undefined ? undefined : toStoredInstant(dayStart(query.from)),
    // `to=9999-12-31` ends after the last storable instant: it bounds nothing.
    createdBefore:
      query.to === undefined || dayStart(query.to) + DAY > LAST_STORED_MS
        ? undefined
        : toStoredInstant(dayStart(query.to) + DAY),
  };
}

export async function listPaymentsPage(
  deps: Deps,
  principal: Principal,
  query: ListPaymentsQuery,
  link: { path: string; query: ReadonlyArray<readonly [string, string]> },
): Promise<Paginated<PaymentResponse>> {
  const { payments, total } = await listPayments(deps.db, scopeOf(principal), paymentListFilter(query), {
    offset: (query.page - 1) * query.per_page,
    limit: query.per_page,
  });
  return paginate(await paymentAnswers(deps, payments), total, {
    path: link.path,
    query: link.query,
    page: query.page,
    perPage: query.per_page,
  });
}
