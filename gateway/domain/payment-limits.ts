/**
 * The limits a payment must fit at creation (docs/decisions.md, "Payment limits"): the largest
 * amount, and the velocity limit (payments per buyer per window on one domain). Each domain may set
 * its own; what it leaves unset follows the service-wide defaults, even when those change later.
 */
import { MINUTE_MS } from './clock.js';

export const MAX_VELOCITY_LIMIT = 10_000;
/** A week: the longest velocity window. */
export const MAX_VELOCITY_WINDOW_MINUTES = 7 * 24 * 60;

/** The service-wide defaults (`GATEWAY_MAX_PAYMENT_AMOUNT`, `GATEWAY_VELOCITY_LIMIT`, `GATEWAY_VELOCITY_WINDOW_MINUTES`). */
export interface DefaultLimits {
  readonly maxPaymentAmount: number;
  /** 0: no velocity limit. */
  readonly velocityLimit: number;
  readonly velocityWindowMinutes: number;
}

/** What a domain set; null follows the default. */
export interface DomainLimitSettings {
  readonly maxPaymentAmount: number | null;
  readonly velocityLimit: number | null;
  readonly velocityWindowMinutes: number | null;
}

export interface PaymentLimits {
  /** Largest amount in AMD: the domain's, but never above the service-wide one. */
  readonly maxAmount: number;
  /** Payments per buyer per window; 0: off. */
  readonly velocityLimit: number;
  readonly velocityWindowMinutes: number;
}

/**
 * The limits of one payment on `domain`. The service-wide velocity limit guards real cards: it
 * applies to live payments only. A sandbox payment is limited only by a velocity limit its domain
 * set itself (so an integrator can try `velocity_exceeded`), never by the default: test traffic
 * reuses one test buyer far more often than any real one.
 */
export function effectiveLimits(
  domain: DomainLimitSettings,
  defaults: DefaultLimits,
  payment: { readonly sandbox: boolean },
): PaymentLimits {
  const ownMax = domain.maxPaymentAmount;
  return {
    maxAmount: ownMax === null ? defaults.maxPaymentAmount : Math.min(ownMax, defaults.maxPaymentAmount),
    velocityLimit: domain.velocityLimit ?? (payment.sandbox ? 0 : defaults.velocityLimit),
    velocityWindowMinutes: domain.velocityWindowMinutes ?? defaults.velocityWindowMinutes,
  };
}

/**
 * Who the buyer is, as far as the gateway can tell at creation (it never sees a card before the
 * processor's page): the merchant's `customer_id` as sent, else `customer_email` trimmed and in
 * lower case; null when the request names neither, and then no velocity limit applies.
 */
export function buyerKey(input: { customerId: string | null; customerEmail: string | null }): string | null {
  if (input.customerId !== null) return `customer:${input.customerId}`;
  if (input.customerEmail !== null) return `email:${input.customerEmail.trim().toLowerCase()}`;
  return null;
}

/**
 * Whole seconds until one more payment fits: when the `limit`-th newest payment of the window
 * (created at `oldestCountedMs`) leaves it. At least 1.
 */
export function velocityRetryAfterSeconds(oldestCountedMs: number, windowMinutes: number, nowMs: number): number {
  return Math.max(1, Math.ceil((oldestCountedMs + windowMinutes * MINUTE_MS - nowMs) / 1000));
}
