/** The order map: each store order, the gateway order id it is paid under, and the payments made for it. */
import type { Generated } from 'kysely';

export type StoreSync = 'none' | 'pending' | 'done' | 'failed';

/** The order map: one store order and the gateway order id it is paid under. */
export interface OrderLinkTable {
  id: string;
  connection_id: string;
  store_order_id: string;
  /** The gateway `order_id`: namespaced by the connection so two stores never collide. */
  gateway_order_id: string;
  /** The store order's total and currency when the payment was asked for. */
  amount: number;
  currency: string;
  /** The newest payment status the connector saw at the gateway. */
  gateway_status: string | null;
  /** The payment that paid the order; set once, by a conditional update. */
  paid_payment_uuid: string | null;
  /** Where marking the order paid in the store stands. */
  store_sync: StoreSync;
  sync_attempts: number;
  next_sync_at: string | null;
  last_sync_error: string | null;
  /** A problem that needs a person: `paid_twice`, `amount_mismatch`, `store_sync_failed`. */
  flag: string | null;
  /** When an unpaid order is next read back (the safety net for a lost webhook); null once final. */
  next_poll_at: string | null;
  created_at: string;
  updated_at: string;
  /** Polls in a row that failed; each one doubles the wait before the next (0003). */
  poll_failures: number;
  /** When the last gateway webhook about this order was handled (0003). */
  last_webhook_at: string | null;
  /** While in the future, one runner is marking the paid order in the store (0010). */
  sync_lease_until: string | null;
  /** The payment holding the buyer's card for the order (`capture_method: manual`), once authorized (0013). */
  hold_payment_uuid: string | null;
  /** Whole AMD held on the card. */
  authorized_amount: number | null;
  /** Until when the hold may be captured (the gateway's `capture_before`). */
  capture_before: string | null;
  /** Where the hold stands: see {@link HoldState}. */
  hold_state: HoldState | null;
  /** What the capture asks for (the same every time it is sent). */
  capture_amount: number | null;
  /** Which capture of the hold this is: 1, or more after a capture known not made (its key is spent). */
  capture_attempt: Generated<number>;
  /** When a capture whose outcome is unknown is next asked about with its key. */
  hold_check_at: string | null;
  hold_checks: Generated<number>;
  /** When the hold's note was claimed: the order is put on hold and noted once. */
  hold_noted_at: string | null;
}

/**
 * A card hold's state on the order link: `authorized` (held), `capturing` (a capture is being
 * sent), `capture_unknown` (sent, outcome not known yet), `captured`, `voided` (released with the
 * cancelled order), `expired` (ran out uncaptured).
 */
export type HoldState = 'authorized' | 'capturing' | 'capture_unknown' | 'captured' | 'voided' | 'expired';

/** Every gateway payment the connector created for an order (an order may need several tries). */
export interface OrderPaymentTable {
  uuid: string;
  link_id: string;
  status: string;
  amount: number;
  currency: string;
  /** The final status already written as a note on the store order, so it is noted once. */
  noted_status: string | null;
  created_at: string;
  updated_at: string;
}
