/**
 * What Shopify sends with a payments app call (a payment or a refund session): its three headers,
 * and a body shaped as Shopify sends it (else 400 `invalid_request`, with the fields named).
 */
import { ConnectorError } from '../../../connector/errors.js';
import { shopDomainOf } from '../graphql.js';

export interface SessionHeaders {
  shop: string;
  requestId: string;
  apiVersion: string;
}

/** The three headers Shopify sends (all required); the shop exactly `<name>.myshopify.com`. */
export function sessionHeaders(get: (name: string) => string): SessionHeaders {
  const raw = {
    shop: get('shopify-shop-domain'),
    requestId: get('shopify-request-id'),
    apiVersion: get('shopify-api-version'),
  };
  const missing = Object.entries({
    'Shopify-Shop-Domain': raw.shop,
    'Shopify-Request-Id': raw.requestId,
    'Shopify-Api-Version': raw.apiVersion,
  })
    .filter(([, value]) => value.trim() === '')
    .map(([name]) => name);
  if (missing.length > 0) {
    throw new ConnectorError(400, 'missing_headers', `Shopify's headers are missing: ${missing.join(', ')}.`);
  }
  const shop = shopDomainOf(raw.shop.trim());
  if (shop === null) throw new ConnectorError(400, 'invalid_shop', 'Shopify-Shop-Domain is not a shop domain.');
  return { shop, requestId: raw.requestId.trim(), apiVersion: raw.apiVersion.trim() };
}

export function parseBody<T>(
  schema: {
    safeParse(
      value: unknown,
    ): { success: true; data: T } | { success: false; error: { issues: { path: PropertyKey[]; message: string }[] } };
  },
  value: unknown,
): T {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const errors: Record<string, string[]> = {};
  for (const issue of result.error.issues) {
    const field = issue.path.length > 0 ? issue.path.map(String).join('.') : 'body';
    errors[field] = [...(errors[field] ?? []), issue.message];
  }
  throw new ConnectorError(400, 'invalid_request', 'The request is not shaped as Shopify sends it.', { errors });
}
