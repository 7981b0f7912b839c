/**
 * Domain verification as the merchant sees it (docs/decisions.md "Domain verification"): where to
 * publish the token, what to publish, and the reasons a check fails. Pure: the checks themselves
 * live in gateway/merchants/.
 */

export type VerificationMethod = 'dns' | 'https';
export const VERIFICATION_METHODS: readonly VerificationMethod[] = ['dns', 'https'];

/** The label the TXT record is published under, in front of the domain. */
export const VERIFICATION_RECORD_LABEL = '_gateway-verification';
/** Where the file is served on the domain (always over HTTPS, on the default port). */
export const VERIFICATION_FILE_PATH = '/.well-known/gateway-verification.txt';
const VALUE_PREFIX = 'gateway-verification=';

/** The TXT record's name: `_gateway-verification.<host>`. */
export function verificationRecordName(host: string): string {
  return `${VERIFICATION_RECORD_LABEL}.${host}`;
}

/**
 * A Shopify shop's own domain. Shopify serves no file of the merchant's at `/.well-known/` and takes
 * no DNS record under `myshopify.com`, so such a domain publishes the file through the gateway's
 * Shopify app instead (docs/shopify.md "Verifying the shop's domain at the gateway"): the app's
 * proxy path on the shop's storefront.
 */
export const SHOPIFY_SHOP_SUFFIX = '.myshopify.com';
/** The file on a Shopify shop: the connector answers it through Shopify's app proxy. */
export const SHOPIFY_VERIFICATION_FILE_PATH = '/apps/connector-pay/gateway-verification.txt';

export function isShopifyShopHost(host: string): boolean {
  return host.endsWith(SHOPIFY_SHOP_SUFFIX) && host.length > SHOPIFY_SHOP_SUFFIX.length;
}

export function verificationFileUrl(host: string): string {
  return `https://${host}${isShopifyShopHost(host) ? SHOPIFY_VERIFICATION_FILE_PATH : VERIFICATION_FILE_PATH}`;
}

/** What the merchant publishes, as the TXT record's value and as the file's content. */
export function verificationValue(token: string): string {
  return `${VALUE_PREFIX}${token}`;
}

/** Why a check did not verify the domain; stable codes the dashboard and the CLI show. */
export type VerificationFailureCode =
  | 'dns_no_record'
  | 'dns_wrong_value'
  | 'dns_timeout'
  | 'dns_servfail'
  | 'dns_error'
  | 'https_not_found'
  | 'https_redirect'
  | 'https_wrong_content'
  | 'https_too_large'
  | 'https_tls_error'
  | 'https_private_address'
  | 'https_timeout'
  | 'https_unreachable'
  | 'taken';

export interface VerificationFailure {
  readonly code: VerificationFailureCode;
  /** What went wrong and what to do, in the merchant's terms. */
  readonly message: string;
}
