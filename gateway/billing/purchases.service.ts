/**
 * Purchases of units (spec "Billing", "Purchase"). `POST /api/v1/billing/purchases` needs an
 * `Idempotency-Key` and a verified business (with any key). A preset quantity is paid by card: a
 * live payment on the house account (see house-account.ts) and a one-click link to its checkout.
 * Any other quantity is paid by bank transfer quoting the purchase's `reference`, and the operator
 * credits it with `bin/gateway purchase credit --reference REF`.
 *
 * A purchase is credited exactly once: `pending` → `paid` is a conditional update, and only the
 * caller that made it writes the ledger row (`purchase`/`purchase`/purchase id; the unique index
 * `billing_ledger_once` is the backstop) and tells auto top-up about the new balance. A purchase's
 * payments are live, never paid by the sandbox; a sandbox payment would credit nothing.
 */

import { recordLedgerEntry } from '../../storage/billing.repository.js';
import type { BillingPurchaseRow } from '../../storage/billing.table.js';
import {
  findPurchase,
  findPurchaseByReference,
  insertPurchase,
  listPurchasesOf,
  markPurchasePaid,
  replacePurchasePayment,
} from '../../storage/billing-purchase.repository.js';
import type { Executor } from '../../storage/database.js';
import { findMerchant } from '../../storage/merchant.repository.js';
import { findPaymentRow, insertPayment } from '../../storage/payment.repository.js';
import type { PaymentRow } from '../../storage/payment.table.js';
import { findSaleReceiptOfPayment } from '../../storage/receipt.repository.js';
import { purchaseBodySchema } from '../api/schemas/purchase.schema.js';
import { parseOr422 } from '../api/schemas/validation.js';
import type { Principal } from '../auth/principal.js';
import type { Counter } from '../domain/billing.js';
import { toStoredInstant } from '../domain/clock.js';
import { ApiError, validationFailed } from '../domain/errors.js';
import { isUuid } from '../domain/ids.js';
import { OperatorError } from '../merchants/operator.js';
import { IDEMPOTENCY_HEADER, runIdempotent, type StoredResponse } from '../payments/idempotency.js';
import { expireIfDueNow } from '../payments/lifecycle.service.js';
import { receiptPageUrl } from '../receipts/receipts.service.js';
import type { Deps } from '../runtime/deps.js';
import { afterBalanceChange } from './auto-topup.service.js';
import {
  checkPurchaseLinkToken,
  ensureHouseAccount,
  type HouseAccount,
  houseCheckoutUrl,
  houseMerchantId,
  housePaymentRow,
  isPresetQuantity,
  newPurchaseRow,
  normalizeReference,
  type PurchaseResponse,
  purchasePayLink,
  toPurchaseResponse,
} from './house-account.js';

export const PURCHASES_IDEMPOTENCY_SCOPE = 'billing.purchases';

function verificationRequired(deps: Deps): ApiError {
  return new ApiError('VERIFICATION_REQUIRED', 'Buying units needs a verified business, whichever key is used.', {
    details: { verification_url: `${deps.config.publicUrl}/docs/verification` },
  });
}

/** Who buys: the API's principal, or a dashboard manager's account (environment `live`). */
export type Buyer = Pick<Principal, 'merchantId' | 'environment'>;

export interface CreatePurchaseRequest {
  readonly principal: Buyer;
  readonly body: unknown;
  readonly idempotencyKey: string | undefined;
}

export async function createPurchase(
  deps: Deps,
  request: CreatePurchaseRequest,
): Promise<StoredResponse & { replayed: boolean }> {
  const { principal } = request;
  const merchant = await findMerchant(deps.db, principal.merchantId);
  if (merchant === undefined || merchant.business_verified !== 1) throw verificationRequired(deps);
  if (request.idempotencyKey === undefined) {
    throw validationFailed(
      { [IDEMPOTENCY_HEADER]: ['is required for purchases: send a new unique value (a UUID) per purchase'] },
      'The Idempotency-Key header is required to create a purchase.',
    );
  }
  return runIdempotent(
    deps,
    { merchantId: principal.merchantId, environment: principal.environment, scope: PURCHASES_IDEMPOTENCY_SCOPE },
    request.idempotencyKey,
    request.body,
    async (complete) => {
      const body = parseOr422(purchaseBodySchema, request.body);
      const minimum = deps.config.billing.minPurchase;
      if (body.quantity < minimum) {
        throw new ApiError('below_minimum', `The smallest purchase is ${minimum} units.`, {
          details: { min_quantity: minimum },
          fieldErrors: { quantity: [`must be at least ${minimum} (the minimum purchase)`] },
        });
      }
      const card = isPresetQuantity(deps, body.quantity);
      const house = card ? await ensureHouseAccount(deps) : undefined;
      const secret = deps.secret;
      const response = await deps.transact(async (trx) => {
        const row = await newPurchaseRow(deps, trx, {
          merchantId: principal.merchantId,
          counter: body.counter,
          quantity: body.quantity,
          source: 'api',
          paymentMethodId: body.payment_method_id,
        });
        const link = purchasePayLink(deps.config.publicUrl, secret, row.id);
        if (house !== undefined) {
          const payment = housePaymentRow(deps, house, row, link, merchant.email);
          await insertPayment(trx, payment);
          row.payment_id = payment.id;
        }
        await insertPurchase(trx, row);
        const stored = await findPurchase(trx, row.id);
        if (stored === undefined) throw new Error(`purchase ${row.id} vanished`);
        const answer = toPurchaseResponse(stored, link);
        await complete(trx, { status: 201, body: answer });
        return answer;
      });
      return { status: 201, body: response };
    },
  );
}

export async function getPurchase(
  deps: Deps,
  principal: Pick<Principal, 'merchantId'>,
  id: string,
): Promise<PurchaseResponse> {
  const row = isUuid(id) ? await findPurchase(deps.db, id, { merchantId: principal.merchantId }) : undefined;
  if (row === undefined) throw new ApiError('not_found', `No purchase ${id} for this account.`);
  const secret = deps.secret;
  return toPurchaseResponse(row, purchasePayLink(deps.config.publicUrl, secret, row.id));
}

/** A purchase as the dashboard lists it: the API's object and the house account's receipt, if any. */
export interface PurchaseView extends PurchaseResponse {
  /** The public page of the house account's fiscal receipt of the card payment; null while none was issued. */
  readonly receipt_url: string | null;
}

async function purchaseView(deps: Deps, row: BillingPurchaseRow): Promise<PurchaseView> {
  const receipt =
    row.method === 'card' && row.status === 'paid' && row.payment_id !== null
      ? await findSaleReceiptOfPayment(deps.db, row.payment_id)
      : undefined;
  return {
    ...toPurchaseResponse(row, purchasePayLink(deps.config.publicUrl, deps.secret, row.id)),
    receipt_url: receipt?.status === 'issued' ? receiptPageUrl(deps.config.publicUrl, receipt.public_token) : null,
  };
}

/** The account's latest purchases, newest first (the dashboard's purchases page). */
export async function listPurchases(deps: Deps, merchantId: string, limit: number): Promise<PurchaseView[]> {
  const rows = await listPurchasesOf(deps.db, merchantId, limit);
  return Promise.all(rows.map((row) => purchaseView(deps, row)));
}

/** One purchase of the account with its receipt (a purchase id of another account: undefined). */
export async function readPurchase(deps: Deps, merchantId: string, id: string): Promise<PurchaseView | undefined> {
  const row = isUuid(id) ? await findPurchase(deps.db, id, { merchantId }) : undefined;
  return row === undefined ? undefined : purchaseView(deps, row);
}

/**
 * Credits a pending purchase once, in the caller's transaction: pending → paid, the ledger row,
 * then auto top-up. Answers undefined when the purchase was no longer pending (credited before).
 */
async function creditPurchase(
  deps: Deps,
  trx: Executor,
  purchase: BillingPurchaseRow,
  paymentId: string | undefined,
): Promise<{ purchase: BillingPurchaseRow; balanceAfter: number } | undefined> {
  const now = toStoredInstant(deps.clock.nowMs());
  const paid = await markPurchasePaid(trx, purchase.id, { paymentId, now });
  if (paid === undefined) return undefined;
  const entry = await recordLedgerEntry(trx, {
    signupGrant: deps.config.billing.signupGrant,
    merchantId: paid.merchant_id,
    counter: paid.counter,
    delta: Number(paid.quantity),
    eventType: 'purchase',
    refType: 'purchase',
    refId: paid.id,
    note: paid.method === 'card' ? 'card purchase' : `bank transfer ${paid.reference ?? ''}`.trim(),
    now,
  });
  const balanceAfter = Number(entry.balance_after);
  await afterBalanceChange(deps, trx, { merchantId: paid.merchant_id, counter: paid.counter, balanceAfter });
  return { purchase: paid, balanceAfter };
}

/**
 * Called in the transaction where any payment becomes completed. A live (non-sandbox) payment of
 * the house account whose order id is a purchase's id credits that purchase, once. Every payment
 * ever made for the purchase counts (a late confirmation of an expired first attempt too); a second
 * real payment of an already paid purchase credits nothing and is flagged `duplicate_completion`
 * for the operator to refund.
 */
export async function creditPurchasePaidBy(deps: Deps, trx: Executor, payment: PaymentRow): Promise<void> {
  if (payment.sandbox === 1) return;
  const house = await houseMerchantId(deps, trx);
  if (house === undefined || payment.merchant_id !== house) return;
  const purchase = await findPurchase(trx, payment.order_id, { lock: deps.dialect === 'postgres' });
  if (purchase === undefined || purchase.method !== 'card') return;
  const credited = await creditPurchase(deps, trx, purchase, payment.id);
  if (credited !== undefined || purchase.payment_id === payment.id) return;
  const current = await findPurchase(trx, purchase.id);
  if (current?.status === 'paid' && current.payment_id !== payment.id) {
    await trx
      .updateTable('payments')
      .set({ reconciliation_flag: 'duplicate_completion' })
      .where('id', '=', payment.id)
      .execute();
    deps.logger.warn(
      { purchase_id: purchase.id, payment_id: payment.id },
      'a purchase already paid was paid again: payment flagged duplicate_completion, refund it',
    );
  }
}

export interface CreditedTransfer {
  purchase_id: string;
  merchant_id: string;
  counter: Counter;
  quantity: number;
  status: 'paid';
  balance_after: number;
}

/**
 * `bin/gateway purchase credit --reference REF`: the bank transfer of a purchase arrived. Credits
 * it once; a second call is refused (OperatorError, exit 1) and changes nothing.
 */
export async function creditBankTransfer(deps: Deps, rawReference: string): Promise<CreditedTransfer> {
  const reference = normalizeReference(rawReference);
  const result = await deps.transact(async (trx) => {
    const purchase = await findPurchaseByReference(trx, reference);
    if (purchase === undefined || purchase.method !== 'bank_transfer') {
      throw new OperatorError(`no bank-transfer purchase has the reference ${reference}`);
    }
    const locked = deps.dialect === 'postgres' ? await findPurchase(trx, purchase.id, { lock: true }) : purchase;
    const credited = locked?.status === 'pending' ? await creditPurchase(deps, trx, purchase, undefined) : undefined;
    if (credited === undefined) {
      const paidAt = (await findPurchase(trx, purchase.id))?.paid_at ?? 'an earlier time';
      throw new OperatorError(
        `purchase ${purchase.id} (${reference}) was already credited at ${paidAt}; nothing was changed`,
      );
    }
    return credited;
  });
  deps.dueSignal.notify();
  return {
    purchase_id: result.purchase.id,
    merchant_id: result.purchase.merchant_id,
    counter: result.purchase.counter,
    quantity: Number(result.purchase.quantity),
    status: 'paid',
    balance_after: result.balanceAfter,
  };
}

export type PurchaseLinkOutcome =
  | { readonly kind: 'redirect'; readonly url: string }
  | { readonly kind: 'paid'; readonly purchase: BillingPurchaseRow };

const OPEN_STATUSES: readonly string[] = ['pending', 'processing'];

/**
 * The one-click link of a card purchase: forwards to the checkout of its current house payment
 * while that can still be paid, else makes a fresh house payment first. A paid purchase says so.
 */
export async function openPurchaseLink(deps: Deps, purchaseId: string, token: unknown): Promise<PurchaseLinkOutcome> {
  const notFound = new ApiError('not_found', 'This payment link is not valid.');
  if (!isUuid(purchaseId)) throw notFound;
  const secret = deps.secret;
  if (!checkPurchaseLinkToken(secret, purchaseId, token)) throw notFound;
  let house: HouseAccount | undefined;
  for (let attempt = 0; attempt < 3; attempt += 1) {
    const purchase = await findPurchase(deps.db, purchaseId);
    if (purchase === undefined || purchase.method !== 'card') throw notFound;
    if (purchase.status === 'paid') return { kind: 'paid', purchase };
    if (purchase.payment_id !== null) {
      const expired = await expireIfDueNow(deps, purchase.payment_id);
      const payment = expired === undefined ? await findPaymentRow(deps.db, purchase.payment_id) : undefined;
      if (payment !== undefined && OPEN_STATUSES.includes(payment.status)) {
        return { kind: 'redirect', url: houseCheckoutUrl(deps, payment) };
      }
      if (payment?.status === 'completed' && payment.sandbox === 0) continue; // being credited: read again
    }
    house ??= await ensureHouseAccount(deps);
    const merchant = await findMerchant(deps.db, purchase.merchant_id);
    const fresh = housePaymentRow(
      deps,
      house,
      purchase,
      purchasePayLink(deps.config.publicUrl, secret, purchase.id),
      merchant?.email ?? null,
    );
    const replaced = await deps
      .transact(async (trx) => {
        await insertPayment(trx, fresh);
        const done = await replacePurchasePayment(
          trx,
          purchase.id,
          purchase.payment_id,
          fresh.id,
          toStoredInstant(deps.clock.nowMs()),
        );
        // Another click made a fresh payment first (or the purchase was paid): keep theirs.
        if (!done) throw new LinkRaced();
        return true;
      })
      .catch((error: unknown) => {
        if (error instanceof LinkRaced) return false;
        throw error;
      });
    if (replaced) return { kind: 'redirect', url: houseCheckoutUrl(deps, fresh) };
  }
  throw new ApiError('conflict', 'This purchase is being paid right now. Open the link again in a moment.', {
    headers: { 'Retry-After': '1' },
  });
}

class LinkRaced extends Error {
  override name = 'LinkRaced';
}
