/**
 * What a platform is to the connector: a driver that knows how to open the platform's API for one
 * store (from its URL and the credentials the key exchange or the app install gave), how the shop
 * owner grants those credentials, and the prefix that namespaces the store's orders at the gateway.
 * Each platform (plugins/<platform>/driver.ts) implements it; registry.ts lists them.
 */
import type { GuardedAgents } from '../../gateway/outbound/guarded-agents.js';
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

/**
 * What a platform installed as an app (Shopify) needs besides its stored credentials: the access
 * token comes from the app's sessions (refreshed when due), not from the connection row, and its API
 * lives on fixed public hosts reached with `fetch`. Key-exchange platforms ignore it.
 */
export interface PlatformAccess {
  /** The shop's current access token; throws a ConnectorError when the app must be authorized again. */
  readonly accessToken?: (shop: string) => Promise<string>;
  /** The fetch for calls to the platform's own hosts (tests route it to a local fake). */
  readonly fetch?: (url: string, init: RequestInit) => Promise<Response>;
  /** The platform API version the app calls with (whatever version a connection was saved with). */
  readonly apiVersion?: string;
  /** Told when the platform answered a store's call with another API version than the one asked for. */
  readonly onVersionServed?: (store: string, requested: string, served: string) => void;
}

export interface PlatformDriver {
  /** As in connect tokens: `woocommerce`. */
  readonly slug: string;
  /** Gateway order ids of this platform's stores start with `<prefix>-<connection id>-`. */
  readonly orderPrefix: string;
  /**
   * Opens the store's API. Calls to an address the shop owner chose (WooCommerce) go through
   * `agents` (private addresses refused); see each driver for the hosts it calls.
   */
  open(
    storeUrl: string,
    credentials: Readonly<Record<string, string>>,
    agents: GuardedAgents,
    access: PlatformAccess,
  ): StorePlatform;
  /** Where the shop owner approves giving the connector API access; null when the platform has no key exchange. */
  authorizeUrl(input: AuthorizeInput): string | null;
  /** Where the platform sends the shop owner after approving, unless the plugin names a page. */
  defaultReturnUrl(storeUrl: string): string;
  /** The credentials the platform posted to the connector's callback; null when the body is not that. */
  parseKeyDelivery(body: unknown): KeyDelivery | null;
}
