/**
 * Payment links (docs/decisions.md "Payment links"): the merchant creates a link (API or dashboard);
 * the buyer opens its page on the hosted domain (`/l/:id`), and each "pay" creates a payment on the
 * account's hosted domain and sends the buyer to the hosted checkout.
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
import type { PaymentRow } from '../../storage/payment.table.js';
import {
  deactivatePaymentLink,
  findPaymentLink,
  findPaymentLinkById,
  insertLinkPayment,
  insertPaymentLink,
  type LinkPaymentStats,
  linkPaymentStats,
  listLinkPayments,
  listPaymentLinks,
  nextLinkSequence,
  type PaymentLinkScope,
} from '../../storage/payment-link.repository.js';
import type { PaymentLinkRow } from '../../storage/payment-link.table.js';
import {
  type CreatePaymentLinkBody,
  createPaymentLinkSchema,
  type ListPaymentLinksQuery,
} from '../api/schemas/payment-link.schema.js';
import { parseOr422 } from '../api/schemas/validation.js';
import type { AuthDeps } from '../auth/authenticate.js';
import type { Principal } from '../auth/principal.js';
import { assertBalanceAllowsPayment } from '../billing/billing.service.js';
import { toApiInstant, toStoredInstant } from '../domain/clock.js';
import { ApiError, validationFailed } from '../domain/errors.js';
import { BASE_CURRENCY } from '../domain/fx.js';
import { type Paginated, paginate } from '../domain/pagination.js';
import { checkoutUrl, type Payment } from '../domain/payment.js';
import { runIdempotent, type StoredResponse } from '../payments/idempotency.js';
import { expireIfDueNow } from '../payments/lifecycle.service.js';
import { idempotencyScopeOf, newPaymentRow } from '../payments/payment.service.js';
import type { Deps } from '../runtime/deps.js';

export const PAYMENT_LINK_STATUSES = ['active', 'inactive', 'expired', 'completed'] as const;
export type PaymentLinkStatus = (typeof PAYMENT_LINK_STATUSES)[number];

/** How many of a link's payments its detail lists (newest first). */
export const LINK_PAYMENTS_SHOWN = 50;

export interface LinkPaymentView {
  readonly uuid: string;
  readonly order_id: string;
  readonly amount: number;
  readonly currency: string;
  readonly status: string;
  readonly created_at: string;
  readonly completed_at: string | null;
}

export interface PaymentLinkView {
  readonly id: string;
  readonly object: 'payment_link';
  readonly url: string;
  readonly status: PaymentLinkStatus;
  readonly active: boolean;
  readonly amount: number | null;
  readonly amount_min: number | null;
  readonly amount_max: number | null;
  readonly currency: string;
  readonly description: string | null;
  readonly reusable: boolean;
  readonly expires_at: string | null;
  readonly livemode: boolean;
  readonly payments_count: number;
  readonly completed_payments_count: number;
  readonly created_at: string;
  readonly deactivated_at: string | null;
  /** Only in the answer about one link: its latest payments. */
  readonly payments?: readonly LinkPaymentView[];
}

export function linkUrl(publicUrl: string, id: string): string {
  return `${publicUrl}/l/${encodeURIComponent(id)}`;
}

export function linkStatus(row: PaymentLinkRow, stats: LinkPaymentStats, nowMs: number): PaymentLinkStatus {
  if (row.deactivated_at !== null) return 'inactive';
  if (row.reusable === 0 && stats.completed > 0) return 'completed';
  if (row.expires_at !== null && Date.parse(row.expires_at) <= nowMs) return 'expired';
  return 'active';
}

const NO_STATS: LinkPaymentStats = { payments: 0, completed: 0 };

function toView(deps: Deps, row: PaymentLinkRow, stats: LinkPaymentStats): PaymentLinkView {
  const status = linkStatus(row, stats, deps.clock.nowMs());
  return {
    id: row.id,
    object: 'payment_link',
    url: linkUrl(deps.config.publicUrl, row.id),
    status,
    active: status === 'active',
    amount: row.amount,
    amount_min: row.amount_min,
    amount_max: row.amount_max,
    currency: row.currency,
    description: row.description,
    reusable: row.reusable === 1,
    expires_at: toApiInstant(row.expires_at),
    livemode: row.environment === 'live',
    payments_count: stats.payments,
    completed_payments_count: stats.completed,
    created_at: toApiInstant(row.created_at) as string,
    deactivated_at: toApiInstant(row.deactivated_at),
  };
}

function toLinkPayment(row: PaymentRow): LinkPaymentView {
  return {
    uuid: row.id,
    order_id: row.order_id,
    amount: row.amount,
    currency: row.currency,
    status: row.status,
    created_at: toApiInstant(row.created_at) as string,
    completed_at: toApiInstant(row.completed_at),
  };
}

async function viewWithPayments(deps: Deps, row: PaymentLinkRow): Promise<PaymentLinkView> {
  const [stats, payments] = await Promise.all([
    linkPaymentStats(deps.db, [row.id]),
    listLinkPayments(deps.db, row.id, LINK_PAYMENTS_SHOWN),
  ]);
  return { ...toView(deps, row, stats.get(row.id) ?? NO_STATS), payments: payments.map(toLinkPayment) };
}

async function hostedDomainId(deps: Deps, merchantId: string): Promise<string> {
  const row = await deps.db
    .selectFrom('domains')
    .select('id')
    .where('merchant_id', '=', merchantId)
    .where('hosted', '=', 1)
    .executeTakeFirst();
  if (row === undefined) throw new Error(`merchant ${merchantId} has no hosted domain`);
  return row.id;
}

export interface NewLinkInput {
  readonly merchantId: string;
  readonly environment: 'live' | 'test';
  readonly body: CreatePaymentLinkBody;
}

/** Parses a create body (the API's JSON, or the dashboard's fields made into one); 422 on a bad field. */
export function parseLinkBody(deps: Deps, raw: unknown): CreatePaymentLinkBody {
  const body = parseOr422(createPaymentLinkSchema(deps.config.maxPaymentAmount), raw);
  if (body.expires_at !== undefined && Date.parse(body.expires_at) <= deps.clock.nowMs()) {
    throw validationFailed({ expires_at: ['must be in the future'] });
  }
  return body;
}

function newLinkRow(deps: Deps, input: NewLinkInput, domainId: string): PaymentLinkRow {
  const nowMs = deps.clock.nowMs();
  const now = toStoredInstant(nowMs);
  const { body } = input;
  return {
    id: `plink_${deps.ids.token(12)}`,
    merchant_id: input.merchantId,
    environment: input.environment,
    domain_id: domainId,
    amount: body.amount ?? null,
    amount_min: body.amount === undefined ? (body.amount_min ?? null) : null,
    amount_max: body.amount === undefined ? (body.amount_max ?? null) : null,
    currency: BASE_CURRENCY,
    description: body.description,
    reusable: body.reusable === true ? 1 : 0,
    payments_count: 0,
    expires_at: body.expires_at === undefined ? null : toStoredInstant(Date.parse(body.expires_at)),
    deactivated_at: null,
    created_at: now,
    updated_at: now,
  };
}

/** Creates a link (the dashboard's path; the API's adds the idempotency key). */
export async function createLink(deps: Deps, input: NewLinkInput): Promise<PaymentLinkView> {
  const row = newLinkRow(deps, input, await hostedDomainId(deps, input.merchantId));
  await insertPaymentLink(deps.db, row);
  return toView(deps, row, NO_STATS);
}

export async function createPaymentLink(
  deps: Deps,
  request: { principal: Principal; body: unknown; idempotencyKey: string | undefined },
): Promise<StoredResponse & { replayed: boolean }> {
  const { principal } = request;
  return runIdempotent(
    deps,
    idempotencyScopeOf(principal, 'payment_links.create'),
    request.idempotencyKey,
    request.body,
    async (complete) => {
      const body = parseLinkBody(deps, request.body);
      const input = { merchantId: principal.merchantId, environment: principal.environment, body };
      const row = newLinkRow(deps, input, await hostedDomainId(deps, principal.merchantId));
      const response: StoredResponse = { status: 201, body: toView(deps, row, NO_STATS) };
      await deps.transact(async (trx) => {
        await insertPaymentLink(trx, row);
        await complete(trx, response);
      });
      return response;
    },
  );
}

function apiScope(principal: Principal): PaymentLinkScope {
  return { merchantId: principal.merchantId, environment: principal.environment };
}

function notFound(id: string): ApiError {
  return new ApiError('not_found', `No payment link ${id} for this key.`);
}

export async function listLinksPage(
  deps: Deps,
  scope: PaymentLinkScope,
  query: ListPaymentLinksQuery,
  link: { path: string; query: ReadonlyArray<readonly [string, string]> },
): Promise<Paginated<PaymentLinkView>> {
  const { rows, total } = await listPaymentLinks(deps.db, scope, {
    offset: (query.page - 1) * query.per_page,
    limit: query.per_page,
  });
  const stats = await linkPaymentStats(
    deps.db,
    rows.map((r) => r.id),
  );
  return paginate(
    rows.map((r) => toView(deps, r, stats.get(r.id) ?? NO_STATS)),
    total,
    { path: link.path, query: link.query, page: query.page, perPage: query.per_page },
  );
}

export async function listPaymentLinksPage(
  deps: Deps,
  principal: Principal,
  query: ListPaymentLinksQuery,
  link: { path: string; query: ReadonlyArray<readonly [string, string]> },
): Promise<Paginated<PaymentLinkView>> {
  return listLinksPage(deps, apiScope(principal), query, link);
}

/** One link with its latest payments; undefined when the scope has none of that id. */
export async function findLink(deps: Deps, scope: PaymentLinkScope, id: string): Promise<PaymentLinkView | undefined> {
  const row = await findPaymentLink(deps.db, scope, id);
  return row === undefined ? undefined : viewWithPayments(deps, row);
}

export async function getPaymentLink(deps: Deps, principal: Principal, id: string): Promise<PaymentLinkView> {
  const view = await findLink(deps, apiScope(principal), id);
  if (view === undefined) throw notFound(id);
  return view;
}

/** Deactivates a link (again: no change); undefined when the scope has none of that id. */
export async function deactivateLink(
  deps: Deps,
  scope: PaymentLinkScope,
  id: string,
): Promise<{ view: PaymentLinkView; changed: boolean } | undefined> {
  const row = await findPaymentLink(deps.db, scope, id);
  if (row === undefined) return undefined;
  const changed = await deactivatePaymentLink(deps.db, row.id, toStoredInstant(deps.clock.nowMs()));
  const after = await findPaymentLink(deps.db, scope, id);
  return { view: await viewWithPayments(deps, after ?? row), changed };
}

export async function deactivatePaymentLinkForKey(
  deps: Deps,
  principal: Principal,
  id: string,
): Promise<PaymentLinkView> {
  const result = await deactivateLink(deps, apiScope(principal), id);
  if (result === undefined) throw notFound(id);
  return result.view;
}

// ---------------------------------------------------------------------------------------------
// The buyer's side

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
