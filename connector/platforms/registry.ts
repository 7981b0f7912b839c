/**
 * The platforms the connector can serve. Each driver knows how to open the platform's API for one
 * store (from its URL and the credentials the key exchange delivered), how the shop owner grants
 * those credentials, and the prefix that namespaces the store's orders at the gateway.
 */
import type { GuardedAgents } from '../../gateway/outbound/guarded-agents.js';
import { wooCommerceDriver } from '../../plugins/woocommerce/driver.js';
import type { StorePlatform } from './platform.js';

export interface AuthorizeInput {
  readonly storeUrl: string;
  readonly appName: string;
  /** The one-time value the platform sends back with the credentials. */
  readonly userId: string;
  readonly returnUrl: string;
  readonly callbackUrl: string;
}

export interface KeyDelivery {
  /** The one-time value from the authorize URL. */
  readonly userId: string;
  /** What `open` needs later, kept encrypted. */
  readonly credentials: Readonly<Record<string, string>>;
}

export interface PlatformDriver {
  /** As in connect tokens: `woocommerce`. */
  readonly slug: string;
  /** Gateway order ids of this platform's stores start with `<prefix>-<connection id>-`. */
  readonly orderPrefix: string;
  /** Opens the store's API; every call it makes goes through `agents` (private addresses refused). */
  open(storeUrl: string, credentials: Readonly<Record<string, string>>, agents: GuardedAgents): StorePlatform;
  /** Where the shop owner approves giving the connector API access. */
  authorizeUrl(input: AuthorizeInput): string;
  /** Where the platform sends the shop owner after approving, unless the plugin names a page. */
  defaultReturnUrl(storeUrl: string): string;
  /** The credentials the platform posted to the connector's callback; null when the body is not that. */
  parseKeyDelivery(body: unknown): KeyDelivery | null;
}

const DRIVERS: ReadonlyMap<string, PlatformDriver> = new Map([[wooCommerceDriver.slug, wooCommerceDriver]]);

export function platformDriver(slug: string): PlatformDriver | undefined {
  return DRIVERS.get(slug);
}
