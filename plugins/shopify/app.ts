/**
 * The Shopify app's `@shopify/shopify-api` instance: embedded, offline sessions, the connector's
 * public URL as its host. The library calls Shopify through its abstract fetch (a process-wide
 * setting of the library): production passes the real `fetch`, tests one that sends
 * `https://<shop>.myshopify.com` to a local fake. One connector per process owns it.
 *
 * The library stamps token expiry with the wall clock; the connector decides expiry with its own
 * clock, so the fetch notes each token grant's lifetimes (`expires_in`, `refresh_token_expires_in`)
 * and {@link ShopifyApp.stampExpiry} sets the session's dates from them.
 */
import '@shopify/shopify-api/adapters/node';
import { LogSeverity, type Session, type Shopify, shopifyApi } from '@shopify/shopify-api';
import { setAbstractFetchFunc } from '@shopify/shopify-api/runtime';
import type { Logger } from 'pino';
import type { ShopifyConfig } from '../../connector/config.js';
import type { Clock } from '../../gateway/domain/clock.js';

export const AUTH_PATH = '/shopify/auth';
export const CALLBACK_PATH = '/shopify/auth/callback';
export const WEBHOOKS_PATH = '/shopify/webhooks';

export interface ShopifyApp {
  readonly api: Shopify;
  readonly config: ShopifyConfig;
  /** Sets `expires`/`refreshTokenExpires` from the token grant's lifetimes, on the connector's clock. */
  stampExpiry(session: Session): void;
}

interface TokenLifetimes {
  expiresInS: number | undefined;
  refreshExpiresInS: number | undefined;
}

export interface ShopifyAppOptions {
  config: ShopifyConfig;
  /** The connector's public URL: its host and scheme are the app's. */
  publicUrl: string;
  clock: Clock;
  logger: Logger;
  /** Replaces `fetch` for the library's calls to Shopify (tests). */
  fetch?: typeof fetch;
}

export function createShopifyApp(options: ShopifyAppOptions): ShopifyApp {
  const { config, clock, logger } = options;
  const url = new URL(options.publicUrl);
  const grants = new Map<string, TokenLifetimes>();
  const base = options.fetch ?? globalThis.fetch;
  setAbstractFetchFunc(async (input: string | URL | Request, init?: RequestInit) => {
    const response = await base(input, init);
    if (response.ok && new URL(requestUrl(input)).pathname === '/admin/oauth/access_token') {
      noteGrant(grants, await response.clone().text());
    }
    return response;
  });
  const api = shopifyApi({
    apiKey: config.apiKey,
    apiSecretKey: config.apiSecret,
    scopes: [...config.scopes],
    hostName: url.host,
    hostScheme: url.protocol === 'http:' ? 'http' : 'https',
    apiVersion: config.apiVersion,
    isEmbeddedApp: true,
    logger: {
      level: LogSeverity.Warning,
      httpRequests: false,
      timestamps: false,
      // The library's messages name shops and steps, never the secret or tokens (httpRequests is off).
      log: async (severity, message) => {
        if (severity <= LogSeverity.Warning) logger.warn({ source: 'shopify-api' }, message);
      },
    },
  });
  return {
    api,
    config,
    stampExpiry(session) {
      const lifetimes = session.accessToken === undefined ? undefined : grants.get(session.accessToken);
      // Not seen (cannot happen through this fetch): the library's wall-clock dates stay.
      if (lifetimes === undefined || session.accessToken === undefined) return;
      grants.delete(session.accessToken);
      const nowMs = clock.nowMs();
      session.expires = lifetimes.expiresInS === undefined ? undefined : new Date(nowMs + lifetimes.expiresInS * 1000);
      if (session.refreshToken !== undefined) {
        session.refreshTokenExpires =
          lifetimes.refreshExpiresInS === undefined ? undefined : new Date(nowMs + lifetimes.refreshExpiresInS * 1000);
      }
    },
  };
}

function requestUrl(input: string | URL | Request): string {
  if (typeof input === 'string') return input;
  if (input instanceof URL) return input.href;
  return input.url;
}

function noteGrant(grants: Map<string, TokenLifetimes>, text: string): void {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return;
  }
  if (typeof body !== 'object' || body === null) return;
  const grant = body as Record<string, unknown>;
  if (typeof grant.access_token !== 'string') return;
  const seconds = (value: unknown) => (typeof value === 'number' && value > 0 ? value : undefined);
  // A grant is read once, right after the call that asked for it; a few stay only if a call failed.
  if (grants.size > 100) grants.clear();
  grants.set(grant.access_token, {
    expiresInS: seconds(grant.expires_in),
    refreshExpiresInS: seconds(grant.refresh_token_expires_in),
  });
}
