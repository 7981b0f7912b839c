/**
 * Customer records (an addition: the spec leaves their fields "not shown"; docs/decisions.md
 * "Customers"). A customer is a customer id of the merchant's payments in one environment: the
 * one the gateway gave a buyer once paid (`cus_...`, one per email address) or the one the merchant
 * named on the payment. Its figures are kept by the database as payments change (migration 0019).
 * Read by `GET /api/v1/customers[/{id}]` (full-access keys) and the dashboard's customers pages.
 */
import {
  type CustomerScope,
  type CustomerTotals,
  findCustomerTotals,
  listCustomerPayments,
  listCustomerTotals,
} from '../../storage/customer-total.repository.js';
import type { ListCustomersQuery } from '../api/schemas/customer.schema.js';
import type { Principal } from '../auth/principal.js';
import { toApiInstant } from '../domain/clock.js';
import { ApiError } from '../domain/errors.js';
import { type Paginated, paginate } from '../domain/pagination.js';
import type { Payment } from '../domain/payment.js';
import type { Deps } from '../runtime/deps.js';

export interface CustomerResponse {
  id: string;
  livemode: boolean;
  email: string | null;
  name: string | null;
  payments_count: number;
  paid_count: number;
  total_paid: number;
  refunded_amount: number;
  currency: string;
  first_payment_at: string;
  last_payment_at: string;
  last_paid_at: string | null;
}

export function toCustomerResponse(c: CustomerTotals): CustomerResponse {
  return {
    id: c.id,
    livemode: c.environment === 'live',
    email: c.email,
    name: c.name,
    payments_count: c.paymentsCount,
    paid_count: c.paidCount,
    total_paid: c.totalPaid,
    refunded_amount: c.refundedAmount,
    currency: 'AMD',
    first_payment_at: toApiInstant(c.firstPaymentAt) ?? c.firstPaymentAt,
    last_payment_at: toApiInstant(c.lastPaymentAt) ?? c.lastPaymentAt,
    last_paid_at: toApiInstant(c.lastPaidAt),
  };
}

/** The longest customer id looked up: longer ones are no customer (ids are at most 255 characters). */
const MAX_ID = 255;

export async function listCustomersPage(
  deps: Deps,
  scope: CustomerScope,
  query: ListCustomersQuery,
  link: { path: string; query: ReadonlyArray<readonly [string, string]> },
): Promise<Paginated<CustomerResponse>> {
  const { customers, total } = await listCustomerTotals(
    deps.db,
    scope,
    { email: query.email },
    { offset: (query.page - 1) * query.per_page, limit: query.per_page },
  );
  return paginate(customers.map(toCustomerResponse), total, {
    path: link.path,
    query: link.query,
    page: query.page,
    perPage: query.per_page,
  });
}

export async function findCustomer(
  deps: Deps,
  scope: CustomerScope,
  customerId: string,
): Promise<CustomerTotals | undefined> {
  if (customerId.length === 0 || customerId.length > MAX_ID) return undefined;
  return findCustomerTotals(deps.db, scope, customerId);
}

export async function getCustomer(deps: Deps, principal: Principal, customerId: string): Promise<CustomerResponse> {
  const scope = { merchantId: principal.merchantId, environment: principal.environment };
  const found = await findCustomer(deps, scope, customerId);
  if (found === undefined) throw new ApiError('not_found', `No customer ${customerId} for this key.`);
  return toCustomerResponse(found);
}

/** A page of one customer's payments, newest first (the dashboard's customer page). */
export function customerPayments(
  deps: Deps,
  scope: CustomerScope,
  customerId: string,
  page: { offset: number; limit: number },
): Promise<Payment[]> {
  return listCustomerPayments(deps.db, scope, customerId, page);
}
