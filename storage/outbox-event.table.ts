import type { Insertable, Selectable } from 'kysely';

export interface OutboxEventTable {
  id: string;
  merchant_id: string;
  environment: 'live' | 'test';
  domain_id: string;
  payment_id: string;
  /** `transaction.status.updated` or `payment.refunded`. */
  event: string;
  livemode: number;
  /** The event body without `delivery_id` and `timestamp` (set per delivery), as JSON. */
  payload: string;
  created_at: string;
}

export type OutboxEventRow = Selectable<OutboxEventTable>;
export type NewOutboxEventRow = Insertable<OutboxEventTable>;
