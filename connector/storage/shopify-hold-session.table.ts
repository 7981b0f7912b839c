/** The Shopify payments app's capture and void sessions of an authorized payment session (0012). */

/**
 * `call_due`: the gateway's capture or void is to be asked (again, with the same idempotency key:
 * a first call, or one whose outcome is not known yet); `resolve_due` / `reject_due`: decided, the
 * mutation is on its way (retried from this row); `resolved` / `rejected`: Shopify took it; `failed`:
 * Shopify kept refusing, or the gateway's outcome stayed unknown for a week (a person looks).
 */
export type ShopifyHoldSessionState = 'call_due' | 'resolve_due' | 'reject_due' | 'resolved' | 'rejected' | 'failed';

/** A capture session (`POST /shopify/payments/captures`) or void session (`/voids`), idempotent on `id`. */
export interface ShopifyHoldSessionTable {
  /** Shopify's session `id`: the idempotency key (also of the gateway call, `shopify-capture:<id>`). */
  id: string;
  kind: 'capture' | 'void';
  /** `gid://shopify/CaptureSession/<id>` or `gid://shopify/VoidSession/<id>`: what the mutations take. */
  gid: string;
  shop: string;
  /** The authorized payment session (Shopify's `payment_id`, a bare session id). */
  payment_id: string;
  /** The capture's decimal string as Shopify sent it; null for a void. */
  amount: string | null;
  currency: string | null;
  test: number;
  state: ShopifyHoldSessionState;
  /** The decision as JSON, as for payment sessions. */
  resolution: string | null;
  /** Calls made to the gateway for this session (all with the same idempotency key). */
  gateway_calls: number;
  /** Calls to the Payments Apps API for the current decision. */
  attempts: number;
  next_attempt_at: string | null;
  last_error: string | null;
  /** The `Shopify-Api-Version` Shopify sent the session with. */
  api_version: string | null;
  /** When the decision was taken: its resolve or reject is sent until a week after. */
  decided_at: string | null;
  created_at: string;
  updated_at: string;
}
