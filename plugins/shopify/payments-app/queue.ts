/**
 * The retry schedule of calls to the Payments Apps API, as data: after the 1st failed call wait 1
 * minute, then 5, 30, 2 hours, 6 hours. A call is claimed by moving its `next_attempt_at` a lease
 * ahead, so the webhook path and the job (or two instances) do not send the same mutation at once.
 *
 * A session's decision (resolve or reject) is sent until Shopify takes it, as Shopify asks of
 * payments apps: past the schedule it is sent again every 6 hours, for {@link FINALIZE_FOR_MS} after
 * the decision; only then, or when Shopify refuses it (`userErrors`), is it `failed` for a person to
 * settle. The merchant is told (the app's page, the connection's health) once
 * {@link ALERT_AFTER_ATTEMPTS} calls did not go through.
 */
import { DAY_MS, HOUR_MS, MINUTE_MS } from '../../../gateway/domain/clock.js';

export const RETRY_DELAYS_MS: readonly number[] = [
  1 * MINUTE_MS,
  5 * MINUTE_MS,
  30 * MINUTE_MS,
  2 * HOUR_MS,
  6 * HOUR_MS,
];

/** How long a claimed call may take before another may try it. */
export const CLAIM_LEASE_MS = 2 * MINUTE_MS;

/** How long after its decision a session's resolve or reject is still sent again. */
export const FINALIZE_FOR_MS = 7 * DAY_MS;

/** Failed calls after which a decision Shopify has not taken is shown to the merchant (about 36 minutes). */
export const ALERT_AFTER_ATTEMPTS = 3;

/** The wait after `attempts` failed calls, or null when it is time to give up. */
export function retryDelayMs(attempts: number): number | null {
  return RETRY_DELAYS_MS[attempts - 1] ?? null;
}

/** The wait after `attempts` failed calls of a decision: the schedule, then its last step again. */
export function decisionRetryDelayMs(attempts: number): number {
  return RETRY_DELAYS_MS[Math.min(attempts, RETRY_DELAYS_MS.length) - 1] ?? MINUTE_MS;
}
