/**
 * One webhook delivery from Shopify, verified and parsed (webhooks.ts), and what handles a topic:
 * the shape the topic handlers (bridge.ts, compliance.ts and webhooks.ts itself) share.
 */
import type { ConnectorDeps } from '../../connector/runtime/deps.js';
import type { ShopifyRuntime } from './runtime.js';

export interface ShopifyDelivery {
  /** The permanent `<name>.myshopify.com` domain, from `X-Shopify-Shop-Domain`. */
  shop: string;
  /** As Shopify names it, e.g. `app/uninstalled`. */
  topic: string;
  webhookId: string;
  apiVersion: string;
  payload: unknown;
}

export type ShopifyTopicHandler = (
  deps: ConnectorDeps,
  shopify: ShopifyRuntime,
  delivery: ShopifyDelivery,
) => Promise<void>;
