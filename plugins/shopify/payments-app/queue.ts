/**
 * The retry schedule of calls to the Payments Apps API, as data: after the 1st failed call wait 1
 * minute, then 5, 30, 2 hours, 6 hours; a 6th failure is reported (state `failed`, logged as an
 * error) for a person to look at. A call is claimed by moving its `next_attempt_at` a lease ahead,
 * so the webhook path and the job (or two instances) do not send the same mutation at once.
 */
import { HOUR_MS, MINUTE_MS } from '../../../gateway/domain/clock.js';

export const RETRY_DELAYS_MS: readonly number[] = [
  1 * MINUTE_MS,
  5 * MINUTE_MS,
  30 * MINUTE_MS,
  2 * HOUR_MS,
  6 * HOUR_MS,
];

/** How long a claimed call may take before another may try it. */
export const CLAIM_LEASE_MS = 2 * MINUTE_MS;

/** The wait after `attempts` failed calls, or null when it is time to give up. */
export function retryDelayMs(attempts: number): number | null {
  return RETRY_DELAYS_MS[attempts - 1] ?? null;
}
