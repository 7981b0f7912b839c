/**
 * A payment link from the buyer's side (`/l/:id`, link-page.router.ts): what its page shows, and
 * "pay", which creates a payment on the account's hosted domain and sends the buyer to the hosted
 * checkout.
 *
 * A single-use link's payments all carry the link's id as `order_id`: the unique index on
 * `payments.active_order_id` lets at most one of them be open or paid at once, on SQLite and on a
 * PostgreSQL shared by several instances. While one is open, a new open resumes it; once one is
 * paid the link is `completed` and refuses; when the open one fails or expires, the link may be
 * paid again. A reusable link numbers its payments `<link id>-<n>`.
 */
import { isUniqueViolation, violatedConstraint } from '../../storage/errors.js';
import { findMerchant } from '../../storage/merchant.repository.js';
import { findPaymentForOrder, insertPayment, rowToPayment } from '../../storage/payment.repository.js';
import {
  findPaymentLinkById,
  insertLinkPayment,
  linkPaymentStats,
  nextLinkSequence,
} from '../../storage/payment-link.repository.js';
import type { PaymentLinkRow } from '../../storage/payment-link.table.js';
import type { AuthDeps } from '../auth/authenticate.js';
import { assertBalanceAllowsPayment } from '../billing/billing.service.js';
import { BASE_CURRENCY } from '../domain/fx.js';
import { checkoutUrl, type Payment } from '../domain/payment.js';
import { expireIfDueNow } from '../payments/lifecycle.service.js';
import { newPaymentRow } from '../payments/new-payment-row.js';
import type { Deps } from '../runtime/deps.js';
import { linkStatus, linkUrl, NO_STATS, type PaymentLinkStatus } from './payment-link.service.js';

/** What the buyer's page shows about a link. */
export interface BuyerLink {
  readonly row: PaymentLinkRow;
  readonly status: PaymentLinkStatus;
  /** The account's name, the business the buyer pays (the link's hosted domain is not shown). */
  readonly merchantName: string;
}

export async function lookUpBuyerLink(deps: Deps, id: string): Promise<BuyerLink | undefined> {
  if (!/^plink_[A-Za-z0-9_-]{1,40}$/.test(id)) return undefined;
  const row = await findPaymentLinkById(deps.db, id);
  if (row === undefined) return undefined;
  const [stats, merchant] = await Promise.all([
    linkPaymentStats(deps.db, [row.id]),
    findMerchant(deps.db, row.merchant_id),
  ]);
  return {
    row,
    status: linkStatus(row, stats.get(row.id) ?? NO_STATS, deps.clock.nowMs()),
    merchantName: merchant?.name ?? '',
  };
}

export type OpenResult =
  | { readonly kind: 'checkout'; readonly payment: Payment; readonly checkoutUrl: string; readonly resumed: boolean }
  | { readonly kind: 'refused'; readonly status: Exclude<PaymentLinkStatus, 'active'> }
  | { readonly kind: 'invalid_amount' }
  | { readonly kind: 'unavailable' }
  /** Too many payments started through reusable links from the buyer's address this minute. */
  | { readonly kind: 'too_many'; readonly retryAfterSeconds: number };

/**
 * Payments one address may start through reusable links in a minute. Each Pay on a reusable link
 * makes a payment (a single-use link resumes its open one), so without a limit a script could fill
 * a merchant's list with payments that only expire.
 */
export const LINK_PAYMENTS_PER_MINUTE = 10;

function isOpen(payment: Payment, nowMs: number): boolean {
  return (payment.status === 'pending' || payment.status === 'processing') && Date.parse(payment.expiresAt) > nowMs;
}

function isPaid(payment: Payment): boolean {
  return payment.status === 'completed' || payment.status === 'refunded';
}

/**
 * The buyer pays: creates the link's payment (or resumes the open one of a single-use link) and
 * answers where to send the buyer. `chosenAmount` is the buyer's amount for a ranged link;
 * `address` is the buyer's, counted against `LINK_PAYMENTS_PER_MINUTE` on reusable links.
 */
export async function openPaymentLink(
  deps: AuthDeps,
  link: BuyerLink,
  chosenAmount: string | undefined,
  address: string,
): Promise<OpenResult> {
  const { row } = link;
  if (link.status !== 'active') return { kind: 'refused', status: link.status };
  let amount: number;
  if (row.amount !== null) {
    amount = row.amount;
  } else {
    const parsed = /^\s*\d{1,12}\s*$/.test(chosenAmount ?? '') ? Number(chosenAmount) : Number.NaN;
    if (!Number.isSafeInteger(parsed) || parsed < (row.amount_min ?? 1) || parsed > (row.amount_max ?? 0)) {
      return { kind: 'invalid_amount' };
    }
    amount = parsed;
  }
  const scope = { merchantId: row.merchant_id, environment: row.environment };
  const publicUrl = deps.config.publicUrl;
  const checkout = (payment: Payment, resumed: boolean): OpenResult => ({
    kind: 'checkout',
    payment,
    checkoutUrl: checkoutUrl(publicUrl, payment),
    resumed,
  });

  if (row.reusable === 0) {
    // A single-use link: the open attempt, if any, is resumed; a paid one refuses.
    for (let attempt = 0; attempt < 3; attempt++) {
      const existing = await findPaymentForOrder(deps.db, scope, row.id);
      if (existing !== undefined) {
        if (isPaid(existing)) return { kind: 'refused', status: 'completed' };
        if (isOpen(existing, deps.clock.nowMs())) return checkout(existing, true);
        // Open past its expiry: expire it now so the order is free for a new attempt.
        if (existing.status === 'pending' || existing.status === 'processing')
          await expireIfDueNow(deps, existing.uuid);
      }
      const created = await createLinkPayment(deps, link, amount, row.id);
      if (created !== 'order_taken') return checkout(created, false);
      // Another open created the payment first: read it back and resume it.
    }
    return { kind: 'unavailable' };
  }
  const counted = await deps.limiter.hit(`link-payments:${address}`);
  if (counted.hits > LINK_PAYMENTS_PER_MINUTE) {
    deps.metrics.refused('link_payments');
    return { kind: 'too_many', retryAfterSeconds: counted.resetSeconds };
  }
  const created = await createLinkPayment(deps, link, amount, null);
  return created === 'order_taken' ? { kind: 'unavailable' } : checkout(created, false);
}

/** Inserts the payment (and its tie to the link) in one transaction; `order_taken` when the order is held. */
async function createLinkPayment(
  deps: Deps,
  link: BuyerLink,
  amount: number,
  singleUseOrderId: string | null,
): Promise<Payment | 'order_taken'> {
  const { row } = link;
  const sandbox = row.environment === 'test';
  await assertBalanceAllowsPayment(deps, row.merchant_id, { sandbox, amount });
  const publicUrl = deps.config.publicUrl;
  const url = linkUrl(publicUrl, row.id);
  try {
    const created = await deps.transact(async (trx) => {
      const sequence = await nextLinkSequence(trx, row.id);
      const orderId = singleUseOrderId ?? `${row.id}-${sequence}`;
      const payment = newPaymentRow(deps, {
        merchant_id: row.merchant_id,
        key_environment: row.environment,
        sandbox: sandbox ? 1 : 0,
        domain_id: row.domain_id,
        order_id: orderId,
        active_order_id: orderId,
        amount,
        currency: BASE_CURRENCY,
        processor: null,
        redirect_mode: 'hosted',
        customer_id: null,
        customer_email: null,
        customer_name: null,
        description: row.description,
        return_url: `${url}/thanks`,
        cancel_url: url,
        callback_url: null,
      });
      await insertPayment(trx, payment);
      await insertLinkPayment(trx, { payment_id: payment.id, link_id: row.id, created_at: payment.created_at });
      return payment;
    });
    deps.metrics.payment('created', created);
    return rowToPayment(created);
  } catch (error) {
    if (isUniqueViolation(error) && (violatedConstraint(error) ?? 'active_order').includes('active_order')) {
      return 'order_taken';
    }
    throw error;
  }
}

/** The link's payment the buyer returns with (the thank-you page), when it is the link's. */
export async function linkPaymentFor(deps: Deps, link: BuyerLink, paymentId: string): Promise<Payment | undefined> {
  const tie = await deps.db
    .selectFrom('payment_link_payments')
    .select('payment_id')
    .where('payment_id', '=', paymentId)
    .where('link_id', '=', link.row.id)
    .executeTakeFirst();
  if (tie === undefined) return undefined;
  const found = await deps.db.selectFrom('payments').selectAll().where('id', '=', paymentId).executeTakeFirst();
  return found === undefined ? undefined : rowToPayment(found);
}
