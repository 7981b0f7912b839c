/**
 * The gateway's domain verification of the shop (docs/shopify.md "Embedded app API"): the value the
 * gateway's dashboard shows for the shop's domain, saved from the app's page and served at
 * {@link VERIFICATION_FILE} through the app proxy on the shop's storefront.
 */
import { z } from 'zod';
import type { ConnectorDeps } from '../../../connector/runtime/deps.js';
import { findShopifyShop, saveGatewayVerification } from '../../../connector/storage/shopify-shop.repository.js';
import { toStoredInstant } from '../../../gateway/domain/clock.js';
import type { ShopifyRuntime } from '../runtime.js';
import { installedShop } from './installed-shop.js';

/** The value the gateway's dashboard shows for a domain's verification (`gateway-verification=<token>`). */
export const domainVerificationSchema = z.object({
  value: z
    .string()
    .trim()
    .regex(/^gateway-verification=[A-Za-z0-9_-]{16,128}$/, {
      error: 'paste the whole value the gateway shows, gateway-verification=…',
    })
    .nullable(),
});

export interface DomainVerificationResponse {
  shop: string;
  /** What the shop serves (null: nothing yet). */
  value: string | null;
  /** Where the gateway reads it: the app proxy on the shop's storefront. */
  file_url: string;
}

/** `GET /shopify/api/domain-verification`. */
export async function readDomainVerification(
  deps: ConnectorDeps,
  shopify: ShopifyRuntime,
  shop: string,
): Promise<DomainVerificationResponse> {
  const row = await installedShop(deps, shop);
  return {
    shop,
    value: row.gateway_verification,
    file_url: `https://${shop}${shopify.app.config.appProxyPath}/${VERIFICATION_FILE}`,
  };
}

/**
 * `PUT /shopify/api/domain-verification`: the value the gateway shows for this shop's domain, served
 * at {@link VERIFICATION_FILE} through the app proxy until replaced or cleared (null). Only the shop's
 * own admin can set it (session token), which is what makes the file prove the shop is theirs.
 */
export async function saveDomainVerification(
  deps: ConnectorDeps,
  shopify: ShopifyRuntime,
  shop: string,
  input: z.output<typeof domainVerificationSchema>,
): Promise<DomainVerificationResponse> {
  await installedShop(deps, shop);
  await saveGatewayVerification(deps.db, shop, input.value, toStoredInstant(deps.clock.nowMs()));
  deps.logger.info({ shop, set: input.value !== null }, 'gateway domain verification value saved');
  return readDomainVerification(deps, shopify, shop);
}

/** The file name under the app proxy path, as the gateway fetches it. */
export const VERIFICATION_FILE = 'gateway-verification.txt';

/** What the storefront serves at the file (through the app proxy), or null: 404. */
export async function servedVerification(deps: ConnectorDeps, shop: string): Promise<string | null> {
  const row = await findShopifyShop(deps.db, shop);
  if (row === undefined || row.status !== 'installed') return null;
  return row.gateway_verification;
}
