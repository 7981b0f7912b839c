/**
 * What the hosted checkout reads: a payment by its checkout token, with the merchant's name and the
 * domain it is bound to (one query), and the processors enabled on that domain.
 */
import type { Payment } from '../gateway/domain/payment.js';
import type { Executor } from './database.js';
import { rowToPayment } from './payment.repository.js';

export interface CheckoutRecord {
  readonly payment: Payment;
  readonly merchantName: string;
  /** Host of the payment's domain. */
  readonly domainHost: string;
  /** The account's hosted domain (on the service's own host), verified by construction. */
  readonly hostedDomain: boolean;
  readonly domainVerified: boolean;
}

export async function findCheckoutByToken(db: Executor, token: string): Promise<CheckoutRecord | undefined> {
  const row = await db
    .selectFrom('payments')
    .innerJoin('merchants', 'merchants.id', 'payments.merchant_id')
    .innerJoin('domains', 'domains.id', 'payments.domain_id')
    .selectAll('payments')
    .select([
      'merchants.name as merchant_name',
      'domains.host as domain_host',
      'domains.hosted as domain_hosted',
      'domains.verified as domain_verified',
    ])
    .where('payments.checkout_token', '=', token)
    .executeTakeFirst();
  if (row === undefined) return undefined;
  const { merchant_name, domain_host, domain_hosted, domain_verified, ...payment } = row;
  return {
    payment: rowToPayment(payment),
    merchantName: merchant_name,
    domainHost: domain_host,
    hostedDomain: Number(domain_hosted) === 1,
    domainVerified: Number(domain_verified) === 1,
  };
}

/** Slugs of the processors enabled on a domain, in the configured order (`position`, then slug). */
export async function listEnabledProcessors(db: Executor, domainId: string): Promise<string[]> {
  const rows = await db
    .selectFrom('domain_processors')
    .select('processor')
    .where('domain_id', '=', domainId)
    .where('enabled', '=', 1)
    .orderBy('position')
    .orderBy('processor')
    .execute();
  return rows.map((r) => r.processor);
}
