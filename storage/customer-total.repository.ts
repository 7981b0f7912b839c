/**
 * Reads of customer records (`customer_totals`, kept by triggers, migration 0019) and of one
 * customer's payments. Every read is scoped by merchant and environment and answered from an index.
 */
import type { Payment } from '../gateway/domain/payment.js';
import type { CustomerTotalTable } from './customer-total.table.js';
import type { Executor } from './database.js';
import { rowToPayment } from './payment.repository.js';

export interface CustomerScope {
  readonly merchantId: string;
  readonly environment: 'live' | 'test';
}

export interface CustomerTotals {
  readonly id: string;
  readonly environment: 'live' | 'test';
  readonly email: string | null;
  readonly name: string | null;
  readonly paymentsCount: number;
  readonly paidCount: number;
  readonly totalPaid: number;
  readonly refundedAmount: number;
  readonly firstPaymentAt: string;
  readonly lastPaymentAt: string;
  readonly lastPaidAt: string | null;
}

type Row = { [K in keyof CustomerTotalTable]: CustomerTotalTable[K] };

function toTotals(row: Row): CustomerTotals {
  return {
    id: row.customer_id,
    environment: row.environment,
    email: row.email,
    name: row.name,
    paymentsCount: Number(row.payments_count),
    paidCount: Number(row.paid_count),
    totalPaid: Number(row.total_paid),
    refundedAmount: Number(row.refunded_amount),
    firstPaymentAt: row.first_payment_at,
    lastPaymentAt: row.last_payment_at,
    lastPaidAt: row.last_paid_at,
  };
}

export interface CustomerFilter {
  /** Exact address, compared lower-cased. */
  readonly email?: string | undefined;
  /** Exact customer id. */
  readonly id?: string | undefined;
}

/** A page of customers, most recent payment first, and how many match. */
export async function listCustomerTotals(
  db: Executor,
  scope: CustomerScope,
  filter: CustomerFilter,
  page: { offset: number; limit: number },
): Promise<{ customers: CustomerTotals[]; total: number }> {
  let base = db
    .selectFrom('customer_totals')
    .where('merchant_id', '=', scope.merchantId)
    .where('environment', '=', scope.environment);
  if (filter.email !== undefined) base = base.where('email', '=', filter.email.toLowerCase());
  if (filter.id !== undefined) base = base.where('customer_id', '=', filter.id);
  const rows = await base
    .selectAll()
    .orderBy('last_payment_at', 'desc')
    .orderBy('customer_id', 'desc')
    .offset(page.offset)
    .limit(page.limit)
    .execute();
  const counted = await base.select((eb) => eb.fn.countAll<number | string>().as('n')).executeTakeFirst();
  return { customers: rows.map(toTotals), total: Number(counted?.n ?? 0) };
}

export async function findCustomerTotals(
  db: Executor,
  scope: CustomerScope,
  customerId: string,
): Promise<CustomerTotals | undefined> {
  const row = await db
    .selectFrom('customer_totals')
    .selectAll()
    .where('merchant_id', '=', scope.merchantId)
    .where('environment', '=', scope.environment)
    .where('customer_id', '=', customerId)
    .executeTakeFirst();
  return row === undefined ? undefined : toTotals(row);
}

/** A page of one customer's payments, newest first (index `payments_customer`). */
export async function listCustomerPayments(
  db: Executor,
  scope: CustomerScope,
  customerId: string,
  page: { offset: number; limit: number },
): Promise<Payment[]> {
  const rows = await db
    .selectFrom('payments')
    .selectAll()
    .where('merchant_id', '=', scope.merchantId)
    .where('environment', '=', scope.environment)
    .where('customer_id', '=', customerId)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .offset(page.offset)
    .limit(page.limit)
    .execute();
  return rows.map(rowToPayment);
}
