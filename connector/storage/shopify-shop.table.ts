/** Shops that installed the Shopify app, their webhook deliveries already handled, their customers' data requests. */

export type ShopifyShopStatus = 'installed' | 'uninstalled';

/** A shop that installed the Shopify app (0004). */
export interface ShopifyShopTable {
  /** The permanent `<name>.myshopify.com` domain. */
  shop: string;
  status: ShopifyShopStatus;
  installed_at: string;
  uninstalled_at: string | null;
  /** When the shop's data was deleted (`shop/redact`, or 48 h after uninstall). */
  redacted_at: string | null;
  scopes: string;
  /** The store connection made from the app's embedded page; null until then. */
  connection_id: string | null;
  /** The gateway's domain verification value the owner saved (`gateway-verification=<token>`), public. */
  gateway_verification: string | null;
  updated_at: string;
}

/** Shopify webhook deliveries already handled (de-duplication on `X-Shopify-Webhook-Id`). */
export interface ShopifyWebhookDeliveryTable {
  webhook_id: string;
  shop: string;
  topic: string;
  received_at: string;
}

/** `customers/data_request`: what the connector holds for the customer, for the merchant to read. */
export interface ShopifyDataRequestTable {
  id: string;
  shop: string;
  /** Shopify's `data_request.id`. */
  data_request_id: string;
  /** Shopify's customer id (no email or phone is kept). */
  customer_id: string;
  /** The export (JSON): the orders asked about and what the connector holds for each. */
  export: string;
  requested_at: string;
}
