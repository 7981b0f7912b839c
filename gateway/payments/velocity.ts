/**
 * The velocity limit at payment creation (docs/decisions.md, "Payment limits"): at most N payments
 * per buyer per window on one domain. Counted inside the transaction that inserts the payment, so
 * the count and the insert agree: SQLite runs those transactions one at a time, and on PostgreSQL
 * a transaction-scoped advisory lock per (domain, sandbox flag, buyer) makes concurrent requests
 * for one buyer count one after the other. Requests for different buyers never wait on each other.
 */
import { createHash } from 'node:crypto';
import type { Executor } from '../../storage/database.js';
import { type BuyerPayments, listRecentBuyerPayments, lockBuyerPayments } from '../../storage/payment.repository.js';
import { MINUTE_MS, toStoredInstant } from '../domain/clock.js';
import { ApiError } from '../domain/errors.js';
import { velocityRetryAfterSeconds } from '../domain/payment-limits.js';
import type { Deps } from '../runtime/deps.js';

export interface VelocityCheck extends BuyerPayments {
  /** The domain's host, for the message. */
  readonly host: string;
  /** How the buyer was identified, for the message. */
  readonly identifiedBy: 'customer_id' | 'customer_email';
  /** At least 1 (a limit of 0 is no check at all). */
  readonly limit: number;
  readonly windowMinutes: number;
}

/** A 64-bit advisory lock key for the buyer's payments on the domain (a collision only makes two buyers wait). */
function lockKey(check: BuyerPayments): bigint {
  const digest = createHash('sha256')
    .update(`velocity\0${check.domainId}\0${check.sandbox}\0${check.buyerKey}`)
    .digest();
  return digest.readBigInt64BE(0);
}

/**
 * Refuses with `velocity_exceeded` when the buyer already has `limit` payments on the domain created
 * in the `windowMinutes` before `nowMs`. Runs inside the creating transaction (`trx`).
 */
export async function assertVelocityAllows(
  deps: Deps,
  trx: Executor,
  check: VelocityCheck,
  nowMs: number,
): Promise<void> {
  if (deps.dialect === 'postgres') await lockBuyerPayments(trx, lockKey(check));
  const after = toStoredInstant(nowMs - check.windowMinutes * MINUTE_MS);
  const recent = await listRecentBuyerPayments(trx, check, after, check.limit);
  const oldestCounted = recent[check.limit - 1];
  if (oldestCounted === undefined) return;
  const retryAfter = velocityRetryAfterSeconds(Date.parse(oldestCounted), check.windowMinutes, nowMs);
  throw new ApiError(
    'velocity_exceeded',
    `This buyer (by ${check.identifiedBy}) already has ${check.limit} payments on ${check.host} in the last ${check.windowMinutes} minutes, the most allowed. Another payment fits in ${retryAfter} seconds.`,
    {
      details: {
        velocity_limit: check.limit,
        velocity_window_minutes: check.windowMinutes,
        retry_after: retryAfter,
      },
      headers: { 'Retry-After': String(retryAfter) },
    },
  );
}
