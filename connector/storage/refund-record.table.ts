/** Refunds the connector knows of, from either side, so none is recorded twice. */
export interface RefundRecordTable {
  id: string;
  connection_id: string;
  link_id: string;
  /** Null while a refund started in the store is on its way to the gateway. */
  gateway_refund_uuid: string | null;
  store_refund_id: string | null;
  amount: number;
  /** `store`: started in the store admin; `gateway`: made at the gateway and recorded in the store. */
  origin: 'store' | 'gateway';
  created_at: string;
  updated_at: string;
  /** Where it stands at the gateway (0009): `pending`, `succeeded`, `unknown` until settled, `failed`. */
  status: RefundRecordStatus;
  /** The reason sent with a store refund, to ask again with the very same request. */
  reason: string | null;
  /** When an `unknown` refund is next checked; null otherwise. */
  next_check_at: string | null;
  /** Checks of an `unknown` refund so far: each waits longer. */
  checks: number;
}

export type RefundRecordStatus = 'pending' | 'succeeded' | 'unknown' | 'failed';
