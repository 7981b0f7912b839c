/**
 * The receipts endpoints (additions, docs/receipts.md "API"): `POST /api/v1/receipts` issues a
 * receipt for a sale not paid through the service (cash on delivery, a sale at the counter), and
 * `GET /api/v1/receipts`, `GET /api/v1/receipts/{id}` read every receipt of the account, those of
 * payments included. Full-access keys only.
 *
 * - A live key's receipt goes to the fiscal system of the named domain (or of the account's only
 *   domain with fiscal receipts), is issued by the due work like a payment's, and consumes one
 *   `receipts` unit when issued; past the grace floor the request is refused with 402
 *   `BALANCE_EXHAUSTED`. `Idempotency-Key` is required: a retry answers the same receipt.
 * - A test key's receipt is a sandbox receipt, issued at once, never fiscal, consuming nothing.
 */
import { findMerchantDomain } from '../../storage/domain.repository.js';
import { findMerchant } from '../../storage/merchant.repository.js';
import { findReceipt, findReceipts, insertReceiptOnce, listReceipts } from '../../storage/receipt.repository.js';
import type { ReceiptRow } from '../../storage/receipt.table.js';
import {
  type CreateReceiptBody,
  createReceiptSchema,
  type ListReceiptsQuery,
  listReceiptsSchema,
} from '../api/schemas/receipt.schema.js';
import { parseOr422 } from '../api/schemas/validation.js';
import type { Principal } from '../auth/principal.js';
import { assertBalanceAllowsReceipt } from '../billing/billing.service.js';
import { toStoredInstant } from '../domain/clock.js';
import { ApiError, validationFailed } from '../domain/errors.js';
import type { StoredLine } from '../domain/receipt-lines.js';
import { IDEMPOTENCY_HEADER, runIdempotent, type StoredResponse } from '../payments/idempotency.js';
import type { Deps } from '../runtime/deps.js';
import { type ReceiptResponse, toReceiptResponse } from './receipt-response.js';
import { issuedColumns, newReceiptId, newReceiptRow } from './receipts.service.js';
import { SANDBOX_SYSTEM, sandboxFiscalReceipt } from './sandbox.js';
import { domainReceipts, TEST_ONLY } from './settings.js';

export const RECEIPTS_IDEMPOTENCY_SCOPE = 'receipts.create';

const RECEIPT_ID = /^rct_[0-9a-f]{32}$/;

function verificationRequired(deps: Deps): ApiError {
  return new ApiError('VERIFICATION_REQUIRED', 'Live fiscal receipts need a verified business.', {
    details: { verification_url: `${deps.config.publicUrl}/docs/verification` },
  });
}

/** The domain a live receipt is issued on: the one named, else the account's only domain with fiscal receipts. */
async function receiptDomain(deps: Deps, merchantId: string, host: string | undefined): Promise<string> {
  if (host !== undefined) {
    const domain = await findMerchantDomain(deps.db, merchantId, host);
    if (domain === undefined || domain.verified !== 1) {
      throw new ApiError('domain_not_registered', `${host} is not a verified domain of this account.`);
    }
    return domain.id;
  }
  const fiscal = await deps.db
    .selectFrom('domain_receipts')
    .select('domain_id')
    .where('merchant_id', '=', merchantId)
    .where('system', '!=', TEST_ONLY)
    .limit(2)
    .execute();
  if (fiscal.length === 1) return (fiscal[0] as { domain_id: string }).domain_id;
  if (fiscal.length === 0) {
    throw new ApiError('receipts_not_enabled', 'No domain of this account issues fiscal receipts: enable them first.');
  }
  throw new ApiError(
    'domain_required',
    'Several domains of this account issue fiscal receipts: name one with `domain`.',
  );
}

function linesOf(body: CreateReceiptBody): StoredLine[] {
  return body.items.map((item) => ({
    name: item.name,
    classification: item.classificationCode,
    code: item.code,
    unit: item.unit,
    quantityMilli: item.quantityMilli,
    unitPrice: item.unitPrice,
  }));
}

export interface CreateReceiptRequest {
  readonly principal: Principal;
  readonly body: unknown;
  readonly idempotencyKey: string | undefined;
}

export async function createReceipt(
  deps: Deps,
  request: CreateReceiptRequest,
): Promise<StoredResponse & { replayed: boolean }> {
  const { principal } = request;
  if (request.idempotencyKey === undefined) {
    throw validationFailed(
      { [IDEMPOTENCY_HEADER]: ['is required for receipts: send a new unique value (a UUID) per receipt'] },
      'The Idempotency-Key header is required to issue a receipt.',
    );
  }
  const live = principal.environment === 'live';
  if (live) {
    const merchant = await findMerchant(deps.db, principal.merchantId);
    if (merchant === undefined || merchant.business_verified !== 1) throw verificationRequired(deps);
  }
  return runIdempotent(
    deps,
    { merchantId: principal.merchantId, environment: principal.environment, scope: RECEIPTS_IDEMPOTENCY_SCOPE },
    request.idempotencyKey,
    request.body,
    async (complete) => {
      const body = parseOr422(createReceiptSchema, request.body);
      let domainId: string | null = null;
      let system = SANDBOX_SYSTEM;
      if (live) {
        domainId = await receiptDomain(deps, principal.merchantId, body.domain);
        const settings = await domainReceipts(deps, deps.db, domainId);
        if (settings.kind !== 'fiscal') {
          throw new ApiError(
            'receipts_not_enabled',
            settings.kind === 'broken'
              ? `The fiscal settings of ${body.domain ?? 'the domain'} must be given again before receipts can be issued.`
              : `${body.domain ?? 'The domain'} does not issue fiscal receipts: enable them first.`,
          );
        }
        system = settings.slug;
        await assertBalanceAllowsReceipt(deps, principal.merchantId);
      } else if (body.domain !== undefined) {
        const domain = await findMerchantDomain(deps.db, principal.merchantId, body.domain);
        if (domain === undefined)
          throw new ApiError('domain_not_registered', `${body.domain} is not a domain of this account.`);
        domainId = domain.id;
      }
      const nowMs = deps.clock.nowMs();
      const now = toStoredInstant(nowMs);
      const id = newReceiptId(deps);
      const lines = linesOf(body);
      const answer = await deps.transact(async (trx) => {
        const merchant = await findMerchant(trx, principal.merchantId);
        const base = newReceiptRow(deps, {
          id,
          merchant_id: principal.merchantId,
          environment: principal.environment,
          domain_id: domainId,
          type: 'sale',
          issue_key: `api:${id}`,
          payment_id: null,
          refund_id: null,
          sale_receipt_id: null,
          system,
          sandbox: live ? 0 : 1,
          card_amount: body.card_amount,
          cash_amount: body.cash_amount,
          lines: JSON.stringify(lines),
        });
        const sandbox = live
          ? {}
          : issuedColumns(
              sandboxFiscalReceipt({
                receiptId: id,
                merchantName: merchant?.name ?? 'Merchant',
                total: body.card_amount + body.cash_amount,
                nowMs,
              }),
              now,
            );
        const { row } = await insertReceiptOnce(trx, { ...base, ...sandbox });
        const response = toReceiptResponse(deps.config.publicUrl, row);
        await complete(trx, { status: 201, body: response });
        return response;
      });
      if (live) deps.dueSignal.notify();
      return { status: 201, body: answer };
    },
  );
}

async function visibleReceipt(deps: Deps, principal: Principal, id: string): Promise<ReceiptRow> {
  const row = RECEIPT_ID.test(id) ? await findReceipt(deps.db, id) : undefined;
  if (row === undefined || row.merchant_id !== principal.merchantId || row.environment !== principal.environment) {
    throw new ApiError('not_found', `No receipt ${id} for this key.`);
  }
  return row;
}

export async function getReceipt(deps: Deps, principal: Principal, id: string): Promise<ReceiptResponse> {
  const row = await visibleReceipt(deps, principal, id);
  const sale = row.sale_receipt_id === null ? undefined : await findReceipt(deps.db, row.sale_receipt_id);
  return toReceiptResponse(deps.config.publicUrl, row, sale);
}

export async function listAccountReceipts(
  deps: Deps,
  principal: Principal,
  rawQuery: unknown,
): Promise<{ data: ReceiptResponse[]; next_cursor: string | null }> {
  const query: ListReceiptsQuery = parseOr422(listReceiptsSchema, rawQuery, 'query');
  const rows = await listReceipts(deps.db, {
    merchantId: principal.merchantId,
    environment: principal.environment,
    paymentId: query.payment_uuid,
    type: query.type,
    statuses:
      query.status === undefined ? undefined : query.status === 'pending' ? ['pending', 'issuing'] : [query.status],
    before: query.cursor,
    limit: query.per_page + 1,
  });
  const page = rows.slice(0, query.per_page);
  const saleIds = [...new Set(page.map((r) => r.sale_receipt_id).filter((id): id is string => id !== null))];
  const sales = new Map((await findReceipts(deps.db, saleIds)).map((sale) => [sale.id, sale] as const));
  const last = page[page.length - 1];
  return {
    data: page.map((row) =>
      toReceiptResponse(
        deps.config.publicUrl,
        row,
        row.sale_receipt_id === null ? undefined : sales.get(row.sale_receipt_id),
      ),
    ),
    next_cursor: rows.length > query.per_page && last !== undefined ? last.id : null,
  };
}
