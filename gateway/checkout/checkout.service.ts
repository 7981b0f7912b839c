/**
 * What the checkout knows about a payment before it shows a page: whether its link is alive
 * (24 hours from creation), the payment brought up to date (expired if its 20 minutes are over,
 * even before the expiry job ran), and the payment methods the buyer may choose.
 */

import { type CheckoutRecord, findCheckoutByToken, listEnabledProcessors } from '../../storage/checkout.repository.js';
import { DAY_MS, toStoredInstant } from '../domain/clock.js';
import { FAILURE_CODES, type FailureCode, processorFitsEnvironment } from '../domain/payment-lifecycle.js';
import { takesCaptureMethod } from '../payments/capture-methods.js';
import { expireIfDueNow } from '../payments/lifecycle.service.js';
import { domainProcessors, isKnownProcessor, type ProcessorSlug } from '../processors/registry.js';
import type { Deps } from '../runtime/deps.js';

/** `checkout_url` stays valid this long after the payment's creation (spec rule 1). */
export const CHECKOUT_LINK_TTL_MS = DAY_MS;

/** Checkout tokens are 24 random bytes in base64url; anything else is not looked up. */
const TOKEN_FORMAT = /^[A-Za-z0-9_-]{16,64}$/;

export type CheckoutLookup =
  | { readonly kind: 'unknown' }
  /** The link is older than 24 hours. */
  | { readonly kind: 'gone'; readonly record: CheckoutRecord }
  | { readonly kind: 'open'; readonly record: CheckoutRecord };

export function linkIsDead(createdAt: string, nowMs: number): boolean {
  return Date.parse(createdAt) + CHECKOUT_LINK_TTL_MS <= nowMs;
}

export async function lookUpCheckout(deps: Deps, token: string): Promise<CheckoutLookup> {
  if (!TOKEN_FORMAT.test(token)) return { kind: 'unknown' };
  const record = await findCheckoutByToken(deps.db, token);
  if (record === undefined) return { kind: 'unknown' };
  const nowMs = deps.clock.nowMs();
  if (linkIsDead(record.payment.createdAt, nowMs)) return { kind: 'gone', record };
  const { payment } = record;
  // expireIfDueNow is a write transaction; it runs only when the payment is open and past its
  // expiry, which is exactly when it can change anything.
  const open = payment.status === 'pending' || payment.status === 'processing';
  if (open && payment.expiresAt <= toStoredInstant(nowMs)) {
    const expired = await expireIfDueNow(deps, payment.uuid);
    if (expired !== undefined) return { kind: 'open', record: { ...record, payment: expired } };
    // Another writer moved it meanwhile (paid, or expired by the job): show what it is now.
    const current = await findCheckoutByToken(deps.db, token);
    if (current !== undefined) return { kind: 'open', record: current };
  }
  return { kind: 'open', record };
}

/**
 * The methods a buyer may choose, in the domain's configured order (`processor enable --position`).
 * A payment's environment is fixed at creation: a sandbox payment can only be paid on the test
 * page, and a live one only at the live processors enabled on its domain that the gateway knows,
 * never at the sandbox (even where it is installed: the account's hosted domain, or a merchant's
 * domain where the sandbox is enabled for `processor: sandbox` payments). A `manual` payment is
 * offered only the methods that can hold it (docs/decisions.md "Holds").
 */
export async function offeredMethods(deps: Deps, record: CheckoutRecord): Promise<ProcessorSlug[]> {
  if (record.payment.sandbox) return ['sandbox'];
  const enabled = await listEnabledProcessors(deps.db, record.payment.domainId);
  const fitting = domainProcessors(enabled, record.hostedDomain)
    .filter(isKnownProcessor)
    .filter((slug) => processorFitsEnvironment(record.payment, slug));
  // Only methods that take the payment's capture method: a held payment is never sent to a wallet.
  const { captureMethod, domainId } = record.payment;
  const offered: ProcessorSlug[] = [];
  for (const slug of fitting) {
    if (await takesCaptureMethod(deps, slug, captureMethod, { domainId, live: true })) offered.push(slug);
  }
  return offered;
}

export function failureCodeOf(code: string | null): FailureCode {
  return (FAILURE_CODES as readonly string[]).includes(code ?? '') ? (code as FailureCode) : 'general_failure';
}
