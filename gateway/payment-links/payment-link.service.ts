import type { PaymentRow } from '../../storage/payment.table.js';
import {
  deactivatePaymentLink,
  findPaymentLink,
  insertPaymentLink,
  type LinkPaymentStats,
  linkPaymentStats,
  listLinkPayments,
  listPaymentLinks,
  type PaymentLinkScope,
} from '../../storage/payment-link.repository.js';
import type { PaymentLinkRow } from '../../storage/payment-link.table.js';
import {
  type CreatePaymentLinkBody,
  createPaymentLinkSchema,
  type ListPaymentLinksQuery,
} from '../api/schemas/payment-link.schema.js';
import { parseOr422 } from '../api/schemas/validation.js';
import type { Principal } from '../auth/principal.js';
import { toApiInstant, toStoredInstant } from '../domain/clock.js';
import { ApiError, validationFailed } from '../domain/errors.js';
import { BASE_CURRENCY } from '../domain/fx.js';
import { type Paginated, paginate } from '../domain/pagination.js';
import { runIdempotent, type StoredResponse } from '../payments/idempotency.js';
import { idempotencyScopeOf } from '../payments/payment-scope.js';
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

export const NO_STATS: LinkPaymentStats = { payments: 0, completed: 0 };

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
