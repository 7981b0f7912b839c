/**
 * Payment links and the payments made through them (migration 0018). A link is read by id alone
 * only for the buyer's page; every merchant-facing read is scoped to the merchant (and the API
 * key's environment).
 */
import { sql } from 'kysely';
import type { Executor } from './database.js';
import type { PaymentRow } from './payment.table.js';
import type { NewPaymentLinkRow, PaymentLinkRow } from './payment-link.table.js';

export interface PaymentLinkScope {
  readonly merchantId: string;
  /** Undefined: both environments (the dashboard). */
  readonly environment?: 'live' | 'test';
}

export async function insertPaymentLink(db: Executor, row: NewPaymentLinkRow): Promise<void> {
  await db.insertInto('payment_links').values(row).execute();
}

/** The link behind a buyer's page: by id alone. */
export async function findPaymentLinkById(db: Executor, id: string): Promise<PaymentLinkRow | undefined> {
  return db.selectFrom('payment_links').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function findPaymentLink(
  db: Executor,
  scope: PaymentLinkScope,
  id: string,
): Promise<PaymentLinkRow | undefined> {
  let query = db
    .selectFrom('payment_links')
    .selectAll()
    .where('id', '=', id)
    .where('merchant_id', '=', scope.merchantId);
  if (scope.environment !== undefined) query = query.where('environment', '=', scope.environment);
  return query.executeTakeFirst();
}

/** One page of the merchant's links, newest first, and how many there are. */
export async function listPaymentLinks(
  db: Executor,
  scope: PaymentLinkScope,
  page: { offset: number; limit: number },
): Promise<{ rows: PaymentLinkRow[]; total: number }> {
  let base = db.selectFrom('payment_links').where('merchant_id', '=', scope.merchantId);
  if (scope.environment !== undefined) base = base.where('environment', '=', scope.environment);
  const [rows, count] = await Promise.all([
    base
      .selectAll()
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .offset(page.offset)
      .limit(page.limit)
      .execute(),
    base.select((eb) => eb.fn.countAll<string | number>().as('n')).executeTakeFirstOrThrow(),
  ]);
  return { rows, total: Number(count.n) };
}

/** Deactivates the link unless it already is; answers whether this call did it. */
export async function deactivatePaymentLink(db: Executor, id: string, now: string): Promise<boolean> {
  const result = await db
    .updateTable('payment_links')
    .set({ deactivated_at: now, updated_at: now })
    .where('id', '=', id)
    .where('deactivated_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** The next number of a payment made through the link (inside the transaction that inserts it). */
export async function nextLinkSequence(trx: Executor, id: string): Promise<number> {
  await trx
    .updateTable('payment_links')
    .set({ payments_count: sql<number>`payments_count + 1` })
    .where('id', '=', id)
    .execute();
  const row = await trx
    .selectFrom('payment_links')
    .select('payments_count')
    .where('id', '=', id)
    .executeTakeFirstOrThrow();
  return Number(row.payments_count);
}

export async function insertLinkPayment(
  trx: Executor,
  row: { payment_id: string; link_id: string; created_at: string },
): Promise<void> {
  await trx.insertInto('payment_link_payments').values(row).execute();
}

export interface LinkPaymentStats {
  readonly payments: number;
  /** Payments completed (refunded ones included: they were paid). */
  readonly completed: number;
}

/** How many payments each link has had, and how many were paid. */
export async function linkPaymentStats(
  db: Executor,
  linkIds: readonly string[],
): Promise<Map<string, LinkPaymentStats>> {
  const stats = new Map<string, LinkPaymentStats>();
  if (linkIds.length === 0) return stats;
  const rows = await db
    .selectFrom('payment_link_payments as lp')
    .innerJoin('payments as p', 'p.id', 'lp.payment_id')
    .where('lp.link_id', 'in', [...linkIds])
    .select((eb) => [
      'lp.link_id',
      eb.fn.countAll<string | number>().as('payments'),
      eb.fn
        .sum<string | number | null>(eb.case().when('p.status', 'in', ['completed', 'refunded']).then(1).else(0).end())
        .as('completed'),
    ])
    .groupBy('lp.link_id')
    .execute();
  for (const row of rows) {
    stats.set(row.link_id, { payments: Number(row.payments), completed: Number(row.completed ?? 0) });
  }
  return stats;
}

/** The link's payments, newest first. */
export async function listLinkPayments(db: Executor, linkId: string, limit: number): Promise<PaymentRow[]> {
  return db
    .selectFrom('payment_link_payments as lp')
    .innerJoin('payments as p', 'p.id', 'lp.payment_id')
    .where('lp.link_id', '=', linkId)
    .selectAll('p')
    .orderBy('p.created_at', 'desc')
    .orderBy('p.id', 'desc')
    .limit(limit)
    .execute();
}
