/** The Shopify payments app's sessions: payment sessions, the one paid session of a checkout group, refund sessions. */

/**
 * Where a Shopify payment session stands (0005). `open`: the gateway payment exists, nothing decided;
 * `pending`: Shopify was told the payment is still processing (`paymentSessionPending`);
 * `resolve_due` / `reject_due`: decided, the mutation is on its way (retried from this row);
 * `resolved` / `rejected`: Shopify took it; `failed`: Shopify kept refusing or failing (a person looks).
 */
export type ShopifyPaymentSessionState =
  | 'open'
  | 'pending'
  | 'resolve_due'
  | 'reject_due'
  | 'resolved'
  | 'rejected'
  | 'failed';

/** A payment session Shopify started (`POST /shopify/payments/sessions`), idempotent on `id`. */
export interface ShopifyPaymentSessionTable {
  /** Shopify's session `id`: the idempotency key. */
  id: string;
  /** `gid://shopify/PaymentSession/<id>`: what the mutations take. */
  gid: string;
  /** Shopify's `group`: attempts to pay one checkout; at most one of them is resolved. */
  payment_group: string;
  shop: string;
  connection_id: string;
  /** The decimal string as Shopify sent it. */
  amount: string;
  /** The same amount in whole AMD (what the gateway payment is for). */
  amount_amd: number;
  currency: string;
  test: number;
  /** `sale`, or `authorization` (a held gateway payment, captured or voided by Shopify's capture and void sessions). */
  kind: string;
  cancel_url: string;
  gateway_payment_uuid: string | null;
  /** The gateway checkout the buyer is sent to (the answer's `redirect_url`). */
  checkout_url: string | null;
  state: ShopifyPaymentSessionState;
  /** The decision as JSON: `{"action":"resolve"}` or `{"action":"reject","code":...,"message":...}`. */
  resolution: string | null;
  /** Shopify's `nextAction.context.redirectUrl` after resolve, reject or pending. */
  next_action_url: string | null;
  /** `refund_needed`: a second paid session of an already resolved group (money taken twice). */
  flag: string | null;
  /** Calls to the Payments Apps API for the current decision. */
  attempts: number;
  next_attempt_at: string | null;
  /** When the gateway payment is next read back (a lost webhook); null once decided. */
  next_poll_at: string | null;
  last_error: string | null;
  created_at: string;
  updated_at: string;
  /** The `Shopify-Api-Version` Shopify sent the session with (0007); null on rows from before. */
  api_version: string | null;
  /** The buyer's locale from the session's `customer.locale` (0007), for the return page. */
  locale: string | null;
  /** When the decision (resolve or reject) was taken (0007): its finalization is retried from then. */
  decided_at: string | null;
}

/** The one session of a checkout group that was paid first: the only one resolved (0005). */
export interface ShopifyPaymentGroupTable {
  payment_group: string;
  session_id: string;
  claimed_at: string;
}

/**
 * `refund_due`: the gateway refund is to be made (retried); `resolve_due` / `reject_due`, `resolved`,
 * `rejected`, `failed` as for payment sessions.
 */
export type ShopifyRefundSessionState =
  | 'refund_due'
  | 'resolve_due'
  | 'reject_due'
  | 'resolved'
  | 'rejected'
  | 'failed';

/** A refund session (`POST /shopify/payments/refunds`), idempotent on `id` (0005). */
export interface ShopifyRefundSessionTable {
  id: string;
  gid: string;
  shop: string;
  /** The payment session refunded (Shopify's `payment_id`, a session id). */
  payment_id: string;
  amount: string;
  currency: string;
  gateway_refund_uuid: string | null;
  state: ShopifyRefundSessionState;
  resolution: string | null;
  attempts: number;
  next_attempt_at: string | null;
  last_error: string | null;
  created_at: string;
  updated_at: string;
  /** The `Shopify-Api-Version` Shopify sent the refund session with (0007). */
  api_version: string | null;
}
