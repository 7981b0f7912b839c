/**
 * A call to Shopify for a session (a decision, a refund's step) that failed: tried again on the
 * schedule of ./queue.ts, or reported as failed once the schedule is used up.
 */
import { errorDetail } from '../../../connector/errors.js';
import type { ConnectorDeps } from '../../../connector/runtime/deps.js';
import { toStoredInstant } from '../../../gateway/domain/clock.js';
import { PaymentsAppsError } from './client.js';
import { ALERT_AFTER_ATTEMPTS, decisionRetryDelayMs, retryDelayMs } from './queue.js';

/**
 * Schedules the next try of a call that failed, or reports it as failed once the schedule is used up
 * (or at once when the error is not retryable). For a refund's gateway step; a session's decision
 * uses {@link failedDecision}.
 */
export async function failedAttempt(
  deps: ConnectorDeps,
  session: { id: string; shop: string },
  attempts: number,
  error: unknown,
  save: (changes: { state?: 'failed'; next_attempt_at: string | null; last_error: string }) => Promise<unknown>,
): Promise<void> {
  const message = errorDetail(error).slice(0, 500);
  const retryable = !(error instanceof PaymentsAppsError) || error.retryable;
  const delay = retryable ? retryDelayMs(attempts) : null;
  if (delay === null) {
    await save({ state: 'failed', next_attempt_at: null, last_error: message });
    deps.logger.error(
      { shop: session.shop, session: session.id, attempts, err: message },
      'Shopify session call failed for good',
    );
    return;
  }
  const retryAt = toStoredInstant(deps.clock.nowMs() + delay);
  await save({ next_attempt_at: retryAt, last_error: message });
  deps.logger.warn(
    { shop: session.shop, session: session.id, attempts, retry_at: retryAt, err: message },
    'Shopify session call failed; retried later',
  );
}

/**
 * A session's decision (resolve or reject) that Shopify did not take: sent again on the schedule of
 * ./queue.ts, then every 6 hours, until `untilMs` (a week after the decision); only then `failed`.
 * Whatever the error (no answer, throttled, a 5xx, even a refusal without `userErrors`, which a fix or
 * a new token may cure), the decision stands and the same call is made again: Shopify documents that
 * a repeated resolve or reject succeeds. Errors that no retry will cure by itself are logged as errors
 * at once, and every failure from the {@link ALERT_AFTER_ATTEMPTS}th.
 */
export async function failedDecision(
  deps: ConnectorDeps,
  session: { id: string; shop: string },
  attempts: number,
  error: unknown,
  untilMs: number,
  save: (changes: { state?: 'failed'; next_attempt_at: string | null; last_error: string }) => Promise<unknown>,
): Promise<void> {
  const message = errorDetail(error).slice(0, 500);
  const retryable = !(error instanceof PaymentsAppsError) || error.retryable;
  const nextMs = deps.clock.nowMs() + decisionRetryDelayMs(attempts);
  if (nextMs > untilMs) {
    await save({ state: 'failed', next_attempt_at: null, last_error: message });
    deps.logger.error(
      { shop: session.shop, session: session.id, attempts, err: message },
      'Shopify session call failed for good',
    );
    return;
  }
  const retryAt = toStoredInstant(nextMs);
  await save({ next_attempt_at: retryAt, last_error: message });
  const fields = { shop: session.shop, session: session.id, attempts, retry_at: retryAt, err: message };
  if (retryable && attempts < ALERT_AFTER_ATTEMPTS) {
    deps.logger.warn(fields, 'Shopify session call failed; retried later');
  } else {
    deps.logger.error(fields, 'Shopify has not taken the session decision; sent again later');
  }
}
