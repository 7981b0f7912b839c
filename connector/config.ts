/**
 * The connector's configuration, read once from the environment at start.
 *
 * | variable | default | meaning |
 * |---|---|---|
 * | `CONNECTOR_PORT` | 8090 | port to listen on |
 * | `CONNECTOR_HOST` | 127.0.0.1 | address to listen on (`0.0.0.0` to accept connections from other machines) |
 * | `CONNECTOR_PUBLIC_URL` | `http://localhost:$CONNECTOR_PORT` | how stores and the gateway reach it (key exchange callback, webhook target) |
 * | `CONNECTOR_DATABASE_URL` | `sqlite:./data/connector.sqlite` | its own database (`sqlite:` or `postgres://`) |
 * | `GATEWAY_URL` | `http://localhost:8080` | the gateway's API origin |
 * | `GATEWAY_SECRET` | SQLite: generated into a file beside the database by `serve` (other commands read that file and refuse when there is none); PostgreSQL: required | the key that encrypts stored tokens and platform credentials is derived from it (gateway/runtime/service-secret.ts) |
 * | `CONNECTOR_JOB_INTERVAL_SECONDS` | 15 | how often due work (store retries, polling, reconciliation) is looked for; 0 turns the loop off |
 * | `GATEWAY_ALLOW_PRIVATE_WEBHOOKS` | unset | `1` lets store calls reach loopback and private addresses (the gateway's flag of the same name does it for webhooks). Development only |
 * | `CONNECTOR_METRICS_TOKEN` | unset | bearer token for `GET /metrics` (at least 16 characters); unset (and no port): `/metrics` answers 404 |
 * | `CONNECTOR_METRICS_PORT` | unset | serve `/metrics` on this port (on `CONNECTOR_HOST`) instead of the public one; the token, when set, is still required |
 * | `LOG_LEVEL` | info | pino level |
 * | `SHOPIFY_API_KEY` | unset | the Shopify app's client id; with the secret it turns the Shopify routes on (`/shopify/...`) |
 * | `SHOPIFY_API_SECRET` | unset | the Shopify app's client secret (OAuth, webhook HMACs); never logged |
 * | `SHOPIFY_SCOPES` | `read_orders,write_orders` | the access scopes asked for at install |
 * | `SHOPIFY_API_VERSION` | `2026-07` | the Admin and Payments Apps API version: one of the supported versions (plugins/shopify/api-versions.ts) |
 * | `SHOPIFY_PAYMENTS_MTLS_CA`, `_CERT`, `_KEY`, `_PORT` | unset, 8443 | the payments app's mTLS listener (docs/shopify.md) |
 * | `SHOPIFY_PAYMENTS_TRUST_PROXY` | unset | `1`: a proxy checks Shopify's client certificate; session routes trust private addresses |
 * | `SHOPIFY_APP_PROXY_PATH` | `/apps/connector-pay` | the app proxy's path on the shop's storefront (`<prefix>/<subpath>` of `[app_proxy]`): the payments app's return and cancel pages |
 */
import { ApiVersion } from '@shopify/shopify-api';
import { metricsExposure } from '../gateway/config.js';
import type { MetricsExposure } from '../gateway/observability/metrics-endpoint.js';
import { DEFAULT_API_VERSION, SUPPORTED_API_VERSIONS } from '../plugins/shopify/api-versions.js';
import { type PaymentsAppTransport, paymentsAppTransport } from '../plugins/shopify/payments-app/mtls.js';

/** The Shopify app's settings; absent when `SHOPIFY_API_KEY`/`SHOPIFY_API_SECRET` are not set (feature off). */
export interface ShopifyConfig {
  readonly apiKey: string;
  readonly apiSecret: string;
  readonly scopes: readonly string[];
  readonly apiVersion: ApiVersion;
  /** How Shopify's calls to the payments app are authenticated (plugins/shopify/payments-app/mtls.ts). */
  readonly payments: PaymentsAppTransport;
  /** The app proxy's path on the storefront, `/<prefix>/<subpath>` (plugins/shopify/payments-app/app-proxy.ts). */
  readonly appProxyPath: string;
}

export const DEFAULT_SHOPIFY_SCOPES = 'read_orders,write_orders';
export const DEFAULT_SHOPIFY_API_VERSION = DEFAULT_API_VERSION;
export const DEFAULT_SHOPIFY_APP_PROXY_PATH = '/apps/connector-pay';

export interface ConnectorConfig {
  readonly port: number;
  readonly host: string;
  readonly publicUrl: string;
  readonly databaseUrl: string;
  readonly gatewayUrl: string;
  readonly secret: string | undefined;
  readonly jobIntervalMs: number;
  /**
   * Store calls may reach loopback and private networks (`GATEWAY_ALLOW_PRIVATE_WEBHOOKS=1`, the
   * gateway's development flag, so one flag serves a machine where everything runs on localhost).
   */
  readonly allowPrivateStores: boolean;
  readonly logLevel: string;
  /** The name the shop owner sees when approving the key exchange. */
  readonly appName: string;
  /** The payment method id our plugin registers in the store (WooCommerce gateway id). */
  readonly paymentMethodId: string;
  /** The Shopify app (install, sessions, webhooks); undefined turns its routes off. */
  readonly shopify: ShopifyConfig | undefined;
  /** Who may read `/metrics` (`CONNECTOR_METRICS_TOKEN`, `CONNECTOR_METRICS_PORT`); neither: nobody. */
  readonly metrics: MetricsExposure;
}

export const DEFAULT_CONNECTOR_DATABASE_URL = 'sqlite:./data/connector.sqlite';

export function loadConnectorConfig(env: Record<string, string | undefined> = process.env): ConnectorConfig {
  const port = integer(env.CONNECTOR_PORT, 8090, 'CONNECTOR_PORT', 0, 65_535);
  const publicUrl = (env.CONNECTOR_PUBLIC_URL || `http://localhost:${port}`).replace(/\/+$/, '');
  httpUrl(publicUrl, 'CONNECTOR_PUBLIC_URL');
  const gatewayUrl = (env.GATEWAY_URL || 'http://localhost:8080').replace(/\/+$/, '');
  httpUrl(gatewayUrl, 'GATEWAY_URL');
  return {
    port,
    host: env.CONNECTOR_HOST || '127.0.0.1',
    publicUrl,
    databaseUrl: env.CONNECTOR_DATABASE_URL || DEFAULT_CONNECTOR_DATABASE_URL,
    gatewayUrl,
    secret: env.GATEWAY_SECRET || undefined,
    jobIntervalMs: integer(env.CONNECTOR_JOB_INTERVAL_SECONDS, 15, 'CONNECTOR_JOB_INTERVAL_SECONDS', 0, 86_400) * 1000,
    allowPrivateStores: env.GATEWAY_ALLOW_PRIVATE_WEBHOOKS === '1' || env.GATEWAY_ALLOW_PRIVATE_WEBHOOKS === 'true',
    logLevel: env.LOG_LEVEL || 'info',
    appName: 'Armenian payment gateway',
    paymentMethodId: 'armenian_gateway',
    shopify: shopifyConfig(env),
    metrics: metricsExposure(env, 'CONNECTOR'),
  };
}

function shopifyConfig(env: Record<string, string | undefined>): ShopifyConfig | undefined {
  const apiKey = env.SHOPIFY_API_KEY?.trim() ?? '';
  const apiSecret = env.SHOPIFY_API_SECRET?.trim() ?? '';
  if (apiKey === '' && apiSecret === '') return undefined;
  if (apiKey === '' || apiSecret === '') {
    throw new Error('SHOPIFY_API_KEY and SHOPIFY_API_SECRET are set together (or neither, to turn Shopify off)');
  }
  const scopes = (env.SHOPIFY_SCOPES || DEFAULT_SHOPIFY_SCOPES)
    .split(',')
    .map((scope) => scope.trim())
    .filter((scope) => scope !== '');
  if (scopes.length === 0 || scopes.some((scope) => !/^(unauthenticated_)?[a-z_]+$/.test(scope))) {
    throw new Error(`SHOPIFY_SCOPES must be a comma-separated list of scopes such as ${DEFAULT_SHOPIFY_SCOPES}`);
  }
  const version = env.SHOPIFY_API_VERSION || DEFAULT_SHOPIFY_API_VERSION;
  // A version the app's documents are validated against (and the library knows).
  const known = Object.values(ApiVersion) as string[];
  const usable = SUPPORTED_API_VERSIONS.filter((supported) => known.includes(supported));
  if (!(usable as readonly string[]).includes(version)) {
    throw new Error(`SHOPIFY_API_VERSION must be one of ${usable.join(', ')} (got ${version})`);
  }
  const appProxyPath = (env.SHOPIFY_APP_PROXY_PATH || DEFAULT_SHOPIFY_APP_PROXY_PATH).replace(/\/+$/, '');
  // Shopify's prefixes; a subpath of letters, digits, `_` and `-`, up to 30, not a reserved word.
  const proxy = /^\/(apps|a|community|tools)\/([A-Za-z0-9_-]{1,30})$/.exec(appProxyPath);
  if (proxy === null || ['admin', 'services', 'password', 'login'].includes(proxy[2] ?? '')) {
    throw new Error(
      `SHOPIFY_APP_PROXY_PATH must be /<apps|a|community|tools>/<subpath> as in the app's [app_proxy] (got ${appProxyPath})`,
    );
  }
  return {
    apiKey,
    apiSecret,
    scopes,
    apiVersion: version as ApiVersion,
    payments: paymentsAppTransport(env),
    appProxyPath,
  };
}

function integer(raw: string | undefined, fallback: number, name: string, min: number, max: number): number {
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min || value > max) {
    throw new Error(`${name} must be an integer from ${min} to ${max} (got ${raw})`);
  }
  return value;
}

function httpUrl(value: string, name: string): void {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new Error(`${name} must be an http(s) URL (got ${value})`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new Error(`${name} must be an http(s) URL (got ${value})`);
}
