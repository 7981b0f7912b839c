/** The order map: each store order, the gateway order id it is paid under, and the payments made for it. */

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
}

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
