/**
 * A small Admin GraphQL client for one shop: POST `https://<shop>/admin/api/<version>/graphql.json`
 * with `X-Shopify-Access-Token`, answers parsed with zod, failures as PlatformError.
 *
 * Why not `shopify.clients.Graphql` of @shopify/shopify-api: it fetches through the library's global
 * runtime fetch (set once per process by an adapter import), and needs a whole `shopifyApi()` config
 * (API secret, host name) and a Session to exist. The connector needs a per-store fetch (tests route
 * the shop to a local fake; production routes it through the guarded outbound path) and a token read
 * at each call (expiring offline tokens are refreshed elsewhere), so a fetch-injectable client of
 * ~150 lines is clearer than patching the library's runtime.
 *
 * Failure classes (the connector retries `retryable` ones with backoff):
 * - HTTP 401/403: not retryable, status kept (the connector parks the store as unauthorized).
 * - HTTP 429, 5xx, network errors, timeouts: retryable.
 * - Other 4xx (404 for an API version Shopify does not serve, 400): not retryable.
 * - GraphQL `errors` with `extensions.code` THROTTLED: retried here after the wait the answer's
 *   `extensions.cost` asks for (bounded), then retryable with status 429; INTERNAL_SERVER_ERROR and
 *   TIMEOUT: retryable; any other code (ACCESS_DENIED, MAX_COST_EXCEEDED, a query Shopify refused):
 *   not retryable.
 * Messages never contain the access token.
 */
import type { z } from 'zod';
import { PlatformError } from '../../connector/platforms/platform.js';
import { graphqlAnswerSchema, type QueryCost } from './admin-wire.js';

export type FetchLike = (url: string, init: RequestInit) => Promise<Response>;

export interface AdminGraphqlOptions {
  /** `example-shop.myshopify.com`. */
  readonly shop: string;
  readonly apiVersion: string;
  /** The shop's offline access token, read at every call (it may be refreshed in between). */
  readonly accessToken: () => Promise<string>;
  readonly fetch: FetchLike;
  /** Per request; default 10 s. */
  readonly timeoutMs?: number;
  /** How many times a THROTTLED answer is retried here before it is reported; default 2. */
  readonly throttleRetries?: number;
  /** The longest wait for the bucket to refill before giving up; default 5 s. */
  readonly maxThrottleWaitMs?: number;
  /** Waits; injectable so tests do not sleep. */
  readonly sleep?: (ms: number) => Promise<void>;
  /** Told when Shopify answers with another version than the one asked for (it fell forward). */
  readonly onVersionServed?: (requested: string, served: string) => void;
}

export interface AdminGraphql {
  /** Runs one operation and answers its `data`, parsed; throws PlatformError on any failure. */
  request<T extends z.ZodType>(
    operation: string,
    query: string,
    variables: Record<string, unknown>,
    schema: T,
  ): Promise<z.output<T>>;
  /**
   * The API version Shopify executed the latest call with (its `X-Shopify-API-Version` answer
   * header), or null before any answer carried one. It differs from the version asked for when that
   * one is past its support: Shopify then serves the oldest supported version in its place.
   */
  servedVersion(): string | null;
}

/** The largest answer read from Shopify (a page of 100 orders is far below). */
export const MAX_ANSWER_BYTES = 8 * 1024 * 1024;

/**
 * A shop's permanent domain, `<name>.myshopify.com`, and nothing else: no custom domain, no IP, no
 * `admin.shopify.com` or `<name>.myshopify.io` (which the library's `sanitizeShop` accepts for
 * Shopify's own development hosts), no scheme, path, port or capitals. The name is one DNS label.
 */
export function isShopDomain(shop: string): boolean {
  return /^[a-z0-9][a-z0-9-]{0,62}\.myshopify\.com$/.test(shop);
}

/** `value` when it is a shop's permanent domain ({@link isShopDomain}), else null. */
export function shopDomainOf(value: unknown): string | null {
  return typeof value === 'string' && isShopDomain(value) ? value : null;
}

/** An API version path segment: `2026-04` or `unstable`. */
export function isApiVersion(version: string): boolean {
  return /^(\d{4}-(01|04|07|10)|unstable)$/.test(version);
}

const defaultSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Milliseconds until the bucket holds the requested cost again (at least 1 s when unknown). */
export function throttleWaitMs(cost: QueryCost | undefined): number {
  const status = cost?.throttleStatus;
  const requested = cost?.requestedQueryCost;
  if (status === null || status === undefined || requested === null || requested === undefined) return 1000;
  if (status.restoreRate <= 0) return 1000;
  const missing = Math.max(0, requested - status.currentlyAvailable);
  return Math.max(100, Math.ceil((missing / status.restoreRate) * 1000));
}

const RETRYABLE_GRAPHQL_CODES = new Set(['INTERNAL_SERVER_ERROR', 'TIMEOUT']);

export function createAdminGraphql(options: AdminGraphqlOptions): AdminGraphql {
  const { shop, apiVersion } = options;
  if (!isShopDomain(shop)) throw new TypeError(`"${shop}" is not a <name>.myshopify.com shop domain`);
  if (!isApiVersion(apiVersion)) throw new TypeError(`"${apiVersion}" is not a Shopify API version`);
  const endpoint = `https://${shop}/admin/api/${apiVersion}/graphql.json`;
  const timeoutMs = options.timeoutMs ?? 10_000;
  const throttleRetries = options.throttleRetries ?? 2;
  const maxThrottleWaitMs = options.maxThrottleWaitMs ?? 5000;
  const sleep = options.sleep ?? defaultSleep;
  let servedVersion: string | null = null;

  async function token(): Promise<string> {
    try {
      const value = await options.accessToken();
      if (value === '') throw new PlatformError(`Shopify ${shop} has no access token`, false, 401);
      return value;
    } catch (error) {
      if (error instanceof PlatformError) throw error;
      const detail = error instanceof Error ? error.message : String(error);
      throw new PlatformError(`the access token for ${shop} could not be read: ${detail}`, true);
    }
  }

  /** One POST; answers the status and the parsed JSON body (or null when it is not JSON). */
  async function post(
    accessToken: string,
    operation: string,
    body: string,
  ): Promise<{ status: number; json: unknown; retryAfter: string | null }> {
    let response: Response;
    try {
      response = await options.fetch(endpoint, {
        method: 'POST',
        headers: {
          'Content-Type': 'application/json',
          Accept: 'application/json',
          'X-Shopify-Access-Token': accessToken,
        },
        body,
        redirect: 'manual',
        signal: AbortSignal.timeout(timeoutMs),
      });
    } catch (error) {
      const timedOut = error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError');
      const detail = timedOut
        ? `no answer within ${timeoutMs} ms`
        : error instanceof Error
          ? error.message
          : String(error);
      throw new PlatformError(redact(`Shopify ${operation} failed: ${detail}`, accessToken), true);
    }
    const served = response.headers.get('x-shopify-api-version')?.trim() ?? '';
    if (isApiVersion(served)) {
      if (served !== apiVersion && served !== servedVersion) options.onVersionServed?.(apiVersion, served);
      servedVersion = served;
    }
    const length = Number(response.headers.get('content-length') ?? '0');
    if (length > MAX_ANSWER_BYTES) {
      await response.body?.cancel();
      throw new PlatformError(`Shopify ${operation} answered more than ${MAX_ANSWER_BYTES} bytes`, false);
    }
    let text: string;
    try {
      text = await response.text();
    } catch (error) {
      const detail = error instanceof Error ? error.message : String(error);
      throw new PlatformError(redact(`Shopify ${operation} answer was cut: ${detail}`, accessToken), true);
    }
    let json: unknown = null;
    try {
      json = JSON.parse(text);
    } catch {
      // Not JSON (an HTML error page): the status decides.
    }
    return { status: response.status, json, retryAfter: response.headers.get('retry-after') };
  }

  function redact(text: string, accessToken: string): string {
    return accessToken === '' ? text : text.replaceAll(accessToken, '[redacted]');
  }

  return {
    servedVersion: () => servedVersion,
    async request(operation, query, variables, schema) {
      // Every document is a named operation (`query ShopAccess ...`): that is how the tests find and
      // validate each one against Shopify's schemas (test/plugins/shopify/graphql-documents.test.ts).
      if (!new RegExp(`^\\s*(?:query|mutation)\\s+${operation}\\b`).test(query)) {
        throw new TypeError(`the GraphQL document sent as ${operation} is not the operation ${operation}`);
      }
      const body = JSON.stringify({ query, variables });
      for (let attempt = 0; ; attempt += 1) {
        const accessToken = await token();
        const { status, json, retryAfter } = await post(accessToken, operation, body);
        const parsed = graphqlAnswerSchema.safeParse(json);
        const errors = parsed.success ? parsed.data.errors : undefined;
        const describe = (fallback: string) =>
          typeof errors === 'string'
            ? errors
            : Array.isArray(errors) && errors.length > 0
              ? errors.map((error) => error.message).join('; ')
              : fallback;

        if (status < 200 || status >= 300) {
          const retryable = status === 408 || status === 429 || status >= 500;
          const hint = status === 429 && retryAfter !== null ? ` (Retry-After ${retryAfter})` : '';
          const detail =
            status >= 300 && status < 400
              ? 'a redirect; Shopify answers the shop domain itself'
              : describe('no Shopify error body');
          throw new PlatformError(
            redact(`Shopify ${operation} answered ${status} (${detail})${hint}`, accessToken),
            retryable,
            status,
          );
        }
        if (!parsed.success) {
          throw new PlatformError(
            `Shopify ${operation} answered ${status} with a body that is not GraphQL`,
            false,
            status,
          );
        }

        if (Array.isArray(errors) && errors.length > 0) {
          const codes = errors.map((error) => error.extensions?.code ?? '');
          if (codes.includes('THROTTLED')) {
            const waitMs = throttleWaitMs(parsed.data.extensions?.cost);
            if (attempt < throttleRetries && waitMs <= maxThrottleWaitMs) {
              await sleep(waitMs);
              continue;
            }
            throw new PlatformError(
              `Shopify ${operation} was throttled (the shop's query cost bucket needs about ${waitMs} ms to refill)`,
              true,
              429,
            );
          }
          const retryable = codes.every((code) => RETRYABLE_GRAPHQL_CODES.has(code));
          const named = codes.find((code) => code !== '');
          throw new PlatformError(
            redact(
              `Shopify ${operation} answered GraphQL errors${named ? ` (${named})` : ''}: ${describe('')}`,
              accessToken,
            ),
            retryable,
            named === 'ACCESS_DENIED' ? 403 : status,
          );
        }

        const data = schema.safeParse(parsed.data.data);
        if (!data.success) {
          const field = data.error.issues[0]?.path.join('.') ?? '';
          throw new PlatformError(
            `Shopify ${operation} answered data that is not what Shopify sends${field === '' ? '' : ` (at ${field})`}`,
            false,
            status,
          );
        }
        return data.data;
      }
    },
  };
}
