import type { Insertable, Selectable } from 'kysely';

export interface IdempotencyKeyTable {
  id: string;
  merchant_id: string;
  environment: 'live' | 'test';
  /** The operation the key belongs to, e.g. `payments.create`: one key may not be reused across operations. */
  scope: string;
  idempotency_key: string;
  /** SHA-256 of the canonical request body; a retry with another body is refused. */
  request_hash: string;
  state: 'processing' | 'completed';
  response_status: number | null;
  response_body: string | null;
  /** A `processing` record past this instant was abandoned (its process died) and may be taken over. */
  locked_until: string;
  created_at: string;
  expires_at: string;
}

export type IdempotencyKeyRow = Selectable<IdempotencyKeyTable>;
export type NewIdempotencyKeyRow = Insertable<IdempotencyKeyTable>;
