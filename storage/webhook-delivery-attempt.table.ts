import type { Insertable, Selectable } from 'kysely';

/**
 * One attempt of a webhook delivery (migration 0022): when it started, where it went, how long the
 * receiver took, what it answered. Written by the dispatcher in the transaction that records the
 * delivery's outcome, so a delivery and its attempts never disagree.
 */
export interface WebhookDeliveryAttemptTable {
  id: string;
  delivery_id: string;
  /** 1 for the first attempt; the delivery's `attempts` count when it was claimed. */
  attempt: number;
  /** The target of this attempt (the delivery's URL). */
  url: string;
  /** On the service clock. */
  started_at: string;
  /** Measured with a monotonic timer, from sending to the answer (or the error). */
  duration_ms: number;
  /** Null when no answer came (timeout, refused connection, refused address). */
  http_status: number | null;
  /** Short and without credentials (URLs masked), at most {@link ATTEMPT_ERROR_MAX} characters. */
  error: string | null;
  /** `delivered`, `retry` (another attempt is scheduled) or `failed` (the delivery was given up). */
  outcome: 'delivered' | 'failed' | 'retry';
}

export const ATTEMPT_ERROR_MAX = 300;

export type WebhookDeliveryAttemptRow = Selectable<WebhookDeliveryAttemptTable>;
export type NewWebhookDeliveryAttemptRow = Insertable<WebhookDeliveryAttemptTable>;
