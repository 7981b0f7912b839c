/** Reconciliation runs, their findings, the findings already noted on their orders, and connections backing off. */

export interface ReconciliationRunTable {
  id: string;
  connection_id: string;
  range_from: string;
  range_to: string;
  repair: number;
  orders_checked: number;
  started_at: string;
  /** While `status` is `running` this holds `started_at` (the column is not null); answered as null. */
  finished_at: string;
  /** `running`, `finished` or `failed` (0003). */
  status: string;
  /** Why a failed run failed: what could not be reached (no secrets). */
  error: string | null;
  /** `scheduled`, `plugin` or `cli` (0003). */
  trigger: string;
}

export interface ReconciliationFindingTable {
  id: string;
  run_id: string;
  kind: string;
  store_order_id: string;
  payment_uuid: string | null;
  detail: string;
  /** `repaired` or `flagged`. */
  action: string;
  created_at: string;
  /** The number the shop owner sees (0003; null in runs made before). */
  order_number: string | null;
}

/** Findings already written as an order note: once per (order, kind, payment) across runs. */
export interface ReconciliationNoteTable {
  connection_id: string;
  store_order_id: string;
  kind: string;
  /** The finding's payment uuid, or `-` when it names none. */
  payment_key: string;
  created_at: string;
}

/** A connection whose scheduled reconciliation runs keep failing; deleted by the next success. */
export interface ReconciliationBackoffTable {
  connection_id: string;
  /** Failed runs in a row. */
  failures: number;
  last_failed_at: string;
  /** Why the last run failed, for the operator (never answered to a caller). */
  last_error: string;
  /** No scheduled run starts before this. */
  retry_at: string;
}
