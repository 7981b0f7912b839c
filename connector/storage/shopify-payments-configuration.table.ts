/**
 * `due`: the call is to be made (retried from the row); `sent`: Shopify took it; `failed`: Shopify
 * refused it (`userErrors`), a person looks.
 */
export type ShopifyPaymentsConfigurationState = 'due' | 'sent' | 'failed';

/**
 * A shop's `paymentsAppConfigure` (0007): `ready` 1 once the merchant saved the payments app's
 * settings, 0 when the connection was removed or the shop moved to the manual bridge.
 */
export interface ShopifyPaymentsConfigurationTable {
  shop: string;
  ready: number;
  /** What Shopify shows the merchant in Settings > Payments to name the gateway account. */
  external_handle: string | null;
  state: ShopifyPaymentsConfigurationState;
  attempts: number;
  next_attempt_at: string | null;
  last_error: string | null;
  /** When Shopify last took a configuration of this shop. */
  configured_at: string | null;
  updated_at: string;
}
