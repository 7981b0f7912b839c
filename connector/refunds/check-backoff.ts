/** When a store refund whose outcome is unknown is asked about again at the gateway. */
import { HOUR_MS, MINUTE_MS } from '../../gateway/domain/clock.js';

/** Waits before each check of a refund whose outcome is unknown; the last repeats. */
export const REFUND_CHECK_BACKOFF_MS: readonly number[] = [
  MINUTE_MS,
  5 * MINUTE_MS,
  30 * MINUTE_MS,
  2 * HOUR_MS,
  6 * HOUR_MS,
];

export function refundCheckDelayMs(checks: number): number {
  return REFUND_CHECK_BACKOFF_MS[Math.min(checks, REFUND_CHECK_BACKOFF_MS.length - 1)] as number;
}
