/**
 * The timing of receipt tries (issuer.ts): how long a try is leased, when a try with an unknown
 * outcome is searched for, the back-off after tries that issued nothing, and how many tries or
 * searches come before the merchant is told.
 */
import { HOUR_MS, MINUTE_MS } from '../domain/clock.js';

/** How long a claimed try belongs to its instance: well above the adapters' 20 s answer wait. */
export const TRY_LEASE_MS = 2 * MINUTE_MS;
/** How long after a try with an unknown outcome the register is searched for its receipt. */
export const SEARCH_AFTER_MS = MINUTE_MS;
/** Waits before the next try after a try that issued nothing, by tries made so far; the last repeats. */
export const RETRY_AFTER_MS = [
  MINUTE_MS,
  2 * MINUTE_MS,
  5 * MINUTE_MS,
  10 * MINUTE_MS,
  30 * MINUTE_MS,
  HOUR_MS,
  2 * HOUR_MS,
  4 * HOUR_MS,
  6 * HOUR_MS,
] as const;
/**
 * Tries one claim makes on one register: they go out one after another, each waiting up to the
 * adapter's 20 s, so that all of them end well within their lease.
 */
export const MAX_TRIES_PER_REGISTER = 4;
/** A return whose sale is not issued yet waits; the sale's issuing makes it due at once. */
export const RETURN_WAITS_FOR_SALE_MS = HOUR_MS;
/** Undecided searches of one receipt before the merchant is asked to decide. */
export const SEARCHES_BEFORE_ALERT = 3;
/** Tries that issued nothing before the merchant is told that receipts are not being issued. */
export const TRIES_BEFORE_ALERT = 3;

export function retryDelayMs(tries: number): number {
  const index = Math.min(Math.max(tries, 1), RETRY_AFTER_MS.length) - 1;
  return RETRY_AFTER_MS[index] as number;
}
