/**
 * When an unpaid order is read back from the gateway, in case its webhook never comes: first soon
 * after its payment is created, then at an interval for a while, waiting longer after failed polls.
 * The read-back itself is the due work's (connector/jobs/due-work.ts).
 */
import { DAY_MS, HOUR_MS, MINUTE_MS } from '../../gateway/domain/clock.js';

/** First read-back of an unpaid order, in case its webhook never comes. */
export const FIRST_POLL_MS = 2 * MINUTE_MS;
export const POLL_INTERVAL_MS = 5 * MINUTE_MS;
/** An order still unpaid this long after its first payment is no longer polled (reconciliation still sees it). */
export const POLL_FOR_MS = 2 * DAY_MS;

/** After a failed poll the wait doubles from this, up to {@link POLL_BACKOFF_MAX_MS}; a success resets it. */
export const POLL_BACKOFF_FIRST_MS = 5 * MINUTE_MS;
export const POLL_BACKOFF_MAX_MS = 6 * HOUR_MS;

/** The wait after `failures` failed polls in a row (1 or more). */
export function pollRetryDelayMs(failures: number): number {
  return Math.min(POLL_BACKOFF_FIRST_MS * 2 ** Math.max(0, failures - 1), POLL_BACKOFF_MAX_MS);
}
