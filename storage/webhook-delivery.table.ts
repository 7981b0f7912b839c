import type { Insertable, Selectable } from 'kysely';

/**
 * One event on its way to one URL. `id` is the body's `delivery_id`: the same for every attempt,
 * so receivers de-duplicate on it.
 */
export interface WebhookDeliveryTable {
  id: string;
  event_id: string;
  merchant_id: string;
  domain_id: string;
  url: string;
  /** `pending` (due at `next_attempt_at`, or being sent), `delivered`, or `failed` for good. */
  status: 'pending' | 'delivered' | 'failed';
  /** Attempts started so far; a claim counts one before sending. */
  attempts: number;
  /** When the next attempt is due; while one is being sent, when its claim lapses. Null once done. */
  next_attempt_at: string | null;
  last_attempt_at: string | null;
  last_status_code: number | null;
  last_error: string | null;
  delivered_at: string | null;
  created_at: string;
  updated_at: string;
}

export type WebhookDeliveryRow = Selectable<WebhookDeliveryTable>;
export type NewWebhookDeliveryRow = Insertable<WebhookDeliveryTable>;
