/**
 * When a refund in flight is checked at its processor: its first check is due a minute after it
 * was sent (in case the request that sent it dies before settling), then on a back-off.
 */
import { HOUR_MS, MINUTE_MS } from '../domain/clock.js';

/**
 * Delay before the next status check of a refund in flight, after `checks` checks: 1 minute after
 * the refund was sent, then 5 and 30 minutes, then every 6 hours.
 */
export function refundCheckDelayMs(checks: number): number {
  if (checks <= 0) return MINUTE_MS;
  if (checks === 1) return 5 * MINUTE_MS;
  if (checks === 2) return 30 * MINUTE_MS;
  return 6 * HOUR_MS;
}
