/**
 * The service's own account (the "house account") and what it sells: purchases of units.
 *
 * - The house account is an ordinary merchant named "Payment Gateway (house account)", with a
 *   verified business and unlimited units, created once on first need; its id is kept in
 *   `service_settings` (`billing_house_merchant_id`). Card purchases are real live payments on its
 *   hosted domain, paid through the same hosted checkout as any other payment. The operator enables
 *   real processors on that hosted domain (`processor enable --host <house hosted domain>`); the
 *   sandbox it always has is never offered to these live payments, and never pays one.
 * - A card purchase's one-click link `{PUBLIC_URL}/billing/purchases/{id}/pay?t={token}` stays usable
 *   while the purchase is pending: it forwards to the checkout of the purchase's current house
 *   payment, and makes a fresh one when that payment expired (checkouts expire after 20 minutes)
 *   or failed. The token is HMAC-SHA256(service secret, purchase id), so a
 *   link cannot be made up for another purchase.
 * - Bank-transfer purchases carry a reference like `GW-7K3M-9Q2D` (an alphabet without 0/O, 1/I/L
 *   and U), unique, typed by the operator into `bin/gateway purchase credit --reference`.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import type { BillingPurchaseRow } from '../../storage/billing.table.js';
import { findPurchaseByReference, type NewPurchaseRow } from '../../storage/billing-purchase.repository.js';
import type { Executor } from '../../storage/database.js';
import type { PaymentRow } from '../../storage/payment.table.js';
import { getOrCreateSetting } from '../../storage/service-setting.repository.js';
import { type Counter, purchaseAmount } from '../domain/billing.js';
import { toApiInstant, toStoredInstant } from '../domain/clock.js';
import { checkoutUrl } from '../domain/payment.js';
import { createMerchant } from '../merchants/merchant.service.js';
import { newPaymentRow } from '../payments/new-payment-row.js';
import type { Deps } from '../runtime/deps.js';

export const HOUSE_ACCOUNT_NAME = 'Payment Gateway (house account)';
export const HOUSE_SETTING = 'billing_house_merchant_id';

export interface HouseAccount {
  readonly merchantId: string;
  /** The house account's hosted domain: where purchase payments are taken. */
  readonly domainId: string;
}

/** The house merchant id once known (it never changes), per database handle. */
const knownHouse = new WeakMap<object, string>();

/** The house account's id, or undefined while none was created. */
export async function houseMerchantId(deps: Deps, db: Executor): Promise<string | undefined> {
  const cached = knownHouse.get(deps.db);
  if (cached !== undefined) return cached;
  const row = await db
    .selectFrom('service_settings')
    .select('value')
    .where('name', '=', HOUSE_SETTING)
    .executeTakeFirst();
  if (row !== undefined) knownHouse.set(deps.db, row.value);
  return row?.value;
}

/**
 * The house account, created on first call. Several instances racing each create a merchant, but
 * only the first setting written wins and every instance uses that one (a loser's merchant is left
 * unused). Runs its own transactions: call it outside any transaction.
 */
export async function ensureHouseAccount(deps: Deps): Promise<HouseAccount> {
  let merchantId = await houseMerchantId(deps, deps.db);
  if (merchantId === undefined) {
    const created = await createMerchant(deps, { name: HOUSE_ACCOUNT_NAME, verifyBusiness: true, unlimited: true });
    merchantId = await getOrCreateSetting(
      deps.db,
      HOUSE_SETTING,
      created.merchant_id,
      toStoredInstant(deps.clock.nowMs()),
    );
    knownHouse.set(deps.db, merchantId);
  }
  const domain = await deps.db
    .selectFrom('domains')
    .select('id')
    .where('merchant_id', '=', merchantId)
    .where('hosted', '=', 1)
    .executeTakeFirst();
  if (domain === undefined) throw new Error(`house account ${merchantId} has no hosted domain`);
  return { merchantId, domainId: domain.id };
}

function linkMac(secret: string, purchaseId: string): Buffer {
  return createHmac('sha256', secret).update(`billing-purchase-pay|${purchaseId}`).digest();
}

/** The one-click payment link of a card purchase. */
export function purchasePayLink(publicUrl: string, secret: string, purchaseId: string): string {
  return `${publicUrl}/billing/purchases/${encodeURIComponent(purchaseId)}/pay?t=${linkMac(secret, purchaseId).toString('base64url')}`;
}

export function checkPurchaseLinkToken(secret: string, purchaseId: string, token: unknown): boolean {
  if (typeof token !== 'string' || !/^[A-Za-z0-9_-]{43}$/.test(token)) return false;
  const given = Buffer.from(token, 'base64url');
  const expected = linkMac(secret, purchaseId);
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/** No 0/O, 1/I/L or U: a reference read aloud or typed from a bank statement is unambiguous. */
const REFERENCE_ALPHABET = '23456789ABCDEFGHJKMNPQRSTVWXYZ';

function randomReference(deps: Deps): string {
  const chars: string[] = [];
  while (chars.length < 8) {
    for (const byte of Buffer.from(deps.ids.token(16), 'base64url')) {
      // 240 = 8 × 30: rejecting the rest keeps every symbol equally likely.
      if (byte < 240 && chars.length < 8) chars.push(REFERENCE_ALPHABET[byte % 30] as string);
    }
  }
  return `GW-${chars.slice(0, 4).join('')}-${chars.slice(4).join('')}`;
}

/** What an operator may type for a reference: any case, spaces, with or without the dashes. */
export function normalizeReference(input: string): string {
  const compact = input.toUpperCase().replace(/[\s-]+/g, '');
  if (/^GW[0-9A-Z]{8}$/.test(compact)) return `GW-${compact.slice(2, 6)}-${compact.slice(6)}`;
  return input.trim().toUpperCase();
}

export function isPresetQuantity(deps: Deps, quantity: number): boolean {
  return deps.config.billing.presetQuantities.includes(quantity);
}

/** A new pending purchase: card for a preset quantity, else a bank transfer with a fresh reference. */
export async function newPurchaseRow(
  deps: Deps,
  db: Executor,
  input: {
    merchantId: string;
    counter: Counter;
    quantity: number;
    source: 'api' | 'auto_topup';
    paymentMethodId: string | null;
  },
): Promise<NewPurchaseRow> {
  const nowMs = deps.clock.nowMs();
  const now = toStoredInstant(nowMs);
  const card = isPresetQuantity(deps, input.quantity);
  let reference: string | null = null;
  if (!card) {
    do reference = randomReference(deps);
    while ((await findPurchaseByReference(db, reference)) !== undefined);
  }
  return {
    id: deps.ids.uuid(nowMs),
    merchant_id: input.merchantId,
    counter: input.counter,
    quantity: input.quantity,
    amount_amd: purchaseAmount(input.counter, input.quantity, deps.config.billing),
    method: card ? 'card' : 'bank_transfer',
    status: 'pending',
    source: input.source,
    payment_id: null,
    reference,
    payment_method_id: input.paymentMethodId,
    created_at: now,
    updated_at: now,
    paid_at: null,
  };
}

/**
 * A live payment on the house account that pays `purchase`: order id = the purchase id, returning
 * to the purchase's link (which then says the purchase is paid). It does not hold its order
 * (`active_order_id` null), so an expired or failed attempt never blocks a fresh one; a
 * purchase is credited once however many of its payments complete (see purchases.service.ts).
 */
export function housePaymentRow(
  deps: Deps,
  house: HouseAccount,
  purchase: Pick<BillingPurchaseRow, 'id' | 'counter' | 'quantity' | 'amount_amd'>,
  payLink: string,
  customerEmail: string | null,
): PaymentRow {
  return newPaymentRow(deps, {
    merchant_id: house.merchantId,
    key_environment: 'live',
    sandbox: 0,
    domain_id: house.domainId,
    order_id: purchase.id,
    active_order_id: null,
    amount: Number(purchase.amount_amd),
    currency: 'AMD',
    processor: null,
    redirect_mode: 'hosted',
    customer_id: null,
    customer_email: customerEmail,
    customer_name: null,
    description: `${Number(purchase.quantity)} ${purchase.counter} units`,
    return_url: payLink,
    cancel_url: null,
    callback_url: null,
  });
}

export function houseCheckoutUrl(deps: Deps, payment: Pick<PaymentRow, 'checkout_token'>): string {
  return checkoutUrl(deps.config.publicUrl, { checkoutToken: payment.checkout_token });
}

/** The purchase object of the API. */
export interface PurchaseResponse {
  id: string;
  counter: Counter;
  quantity: number;
  amount_amd: number;
  currency: 'AMD';
  method: 'card' | 'bank_transfer';
  status: 'pending' | 'paid';
  source: string;
  checkout_url: string | null;
  reference: string | null;
  created_at: string;
  paid_at: string | null;
}

export function toPurchaseResponse(row: BillingPurchaseRow, payLink: string | null): PurchaseResponse {
  return {
    id: row.id,
    counter: row.counter,
    quantity: Number(row.quantity),
    amount_amd: Number(row.amount_amd),
    currency: 'AMD',
    method: row.method,
    status: row.status,
    source: row.source,
    checkout_url: row.method === 'card' ? payLink : null,
    reference: row.method === 'bank_transfer' ? row.reference : null,
    created_at: toApiInstant(row.created_at) as string,
    paid_at: toApiInstant(row.paid_at),
  };
}
