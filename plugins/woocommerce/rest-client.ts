/**
 * The WooCommerce REST API (wc/v3) as the platform calls it: the official client, signing each
 * request with the store's consumer key pair (OAuth 1.0a over http, HTTP Basic over https), through
 * the guarded agents of gateway/outbound, never following a redirect nor using a proxy from the
 * environment. A failed call becomes a PlatformError whose message never carries the key pair.
 */
import * as wooCommerceRestApiModule from '@woocommerce/woocommerce-rest-api';
import type { z } from 'zod';
import { PlatformError } from '../../connector/platforms/platform.js';
import type { GuardedAgents } from '../../gateway/outbound/guarded-agents.js';
import { errorDataStatus, errorSchema } from './wire.js';

export interface WooCommercePlatformOptions {
  /** The store's home URL (`https://shop.example`, or with the WordPress sub-folder). */
  readonly storeUrl: string;
  readonly consumerKey: string;
  readonly consumerSecret: string;
  /** Per request. */
  readonly timeoutMs?: number;
  /** The agents every store call goes through (gateway/outbound: private addresses refused). */
  readonly agents: Pick<GuardedAgents, 'http' | 'https'>;
}

/** WooCommerce answers at most 100 items per page. */
const PAGE_SIZE = 100;
/** A bound on pages followed in one listing (100 000 orders), against a store that never stops paging. */
const MAX_PAGES = 1000;

interface HttpAnswer {
  readonly status: number;
  readonly data: unknown;
  readonly headers: Record<string, unknown>;
}

interface WooClient {
  get(endpoint: string, params?: Record<string, unknown>): Promise<HttpAnswer>;
  post(endpoint: string, data: unknown, params?: Record<string, unknown>): Promise<HttpAnswer>;
  put(endpoint: string, data: unknown, params?: Record<string, unknown>): Promise<HttpAnswer>;
  delete(endpoint: string, params?: Record<string, unknown>): Promise<HttpAnswer>;
}

type WooClientConstructor = new (options: {
  url: string;
  consumerKey: string;
  consumerSecret: string;
  version: 'wc/v3';
  timeout: number;
  axiosConfig: Record<string, unknown>;
}) => WooClient;

/**
 * The client's constructor. The package is CommonJS with `exports.default = class`, so from ESM it
 * sits at `.default.default` (module namespace -> module.exports -> class); a loader that unwraps
 * `__esModule` puts it one level higher.
 */
function clientConstructor(module: unknown): WooClientConstructor {
  let candidate: unknown = module;
  for (let depth = 0; depth < 3 && candidate !== null && candidate !== undefined; depth += 1) {
    if (typeof candidate === 'function') return candidate as WooClientConstructor;
    candidate = (candidate as { default?: unknown }).default;
  }
  throw new Error('@woocommerce/woocommerce-rest-api does not export its client class');
}

const WooCommerceRestApi = clientConstructor(wooCommerceRestApiModule);

interface AxiosLikeError {
  readonly isAxiosError: true;
  readonly code?: string;
  readonly message?: string;
  readonly response?: { readonly status: number; readonly data: unknown; readonly headers?: Record<string, unknown> };
}

export function isAxiosLikeError(error: unknown): error is AxiosLikeError {
  return typeof error === 'object' && error !== null && (error as { isAxiosError?: unknown }).isAxiosError === true;
}

/**
 * How an error answer is reported: its status and whether trying again may help. WordPress answers
 * HTTP 500 for any `WP_Error` whose data is a bare number, so a 500 whose body names a 4xx (a refund
 * for an order the store does not have: `woocommerce_rest_invalid_order_id`, `data: 404`) is that
 * 4xx; and a refund WooCommerce refused to create (`woocommerce_rest_cannot_create_order_refund`,
 * e.g. "Invalid refund amount.") is refused again on retry, unless WooCommerce asks to try again.
 */
function errorOutcome(status: number, data: unknown): { status: number; retryable: boolean } {
  const parsed = errorSchema.safeParse(data);
  if (parsed.success && status === 500) {
    const named = errorDataStatus(parsed.data);
    if (named !== null && named >= 400 && named < 500) return { status: named, retryable: false };
    if (parsed.data.code === 'woocommerce_rest_cannot_create_order_refund') {
      return { status, retryable: /try again/i.test(parsed.data.message) };
    }
  }
  return { status, retryable: status === 408 || status === 429 || status >= 500 };
}

/** The WordPress REST error code of an answer, when its body is one. */
export function errorCode(data: unknown): string | null {
  const parsed = errorSchema.safeParse(data);
  return parsed.success ? parsed.data.code : null;
}

/**
 * The largest answer read from a store. A page of 100 orders is well under 2 MiB; a store that
 * answers more is refused before the connector holds it all in memory.
 */
export const MAX_STORE_ANSWER_BYTES = 8 * 1024 * 1024;

export function createWooRestClient(options: WooCommercePlatformOptions) {
  const { consumerKey, consumerSecret } = options;
  const timeoutMs = options.timeoutMs ?? 10_000;
  const store = new URL(options.storeUrl);
  if (store.protocol !== 'https:' && store.protocol !== 'http:') {
    throw new TypeError('the WooCommerce store URL must be an http(s) URL');
  }
  if (consumerKey === '' || consumerSecret === '') throw new TypeError('the WooCommerce consumer key pair is empty');
  const storeUrl = `${store.origin}${store.pathname.replace(/\/+$/, '')}`;

  const client = new WooCommerceRestApi({
    url: storeUrl,
    consumerKey,
    consumerSecret,
    version: 'wc/v3',
    timeout: timeoutMs,
    // A redirect (http -> https, another host) would change the signed URL or carry the credentials
    // elsewhere: it is reported instead of followed. The guarded agents decide where a call may
    // connect; a proxy from the environment would connect in their place, so none is used.
    axiosConfig: {
      maxRedirects: 0,
      maxContentLength: MAX_STORE_ANSWER_BYTES,
      proxy: false,
      httpAgent: options.agents.http,
      httpsAgent: options.agents.https,
    },
  });

  /** The text with the key pair blanked out, wherever it came from. */
  function redact(text: string): string {
    return text.replaceAll(consumerSecret, '[redacted]').replaceAll(consumerKey, '[redacted]');
  }

  function failure(message: string, retryable: boolean, status: number | null = null): PlatformError {
    return new PlatformError(redact(message), retryable, status);
  }

  /** A failed call as a PlatformError. */
  function callFailure(action: string, error: unknown): PlatformError {
    if (error instanceof PlatformError) return error;
    if (!isAxiosLikeError(error)) {
      const detail = error instanceof Error ? error.message : String(error);
      return failure(`WooCommerce ${action} failed: ${detail}`, true);
    }
    const response = error.response;
    if (response === undefined) {
      if (/maxContentLength/.test(error.message ?? '')) {
        return failure(`WooCommerce ${action} answered more than ${MAX_STORE_ANSWER_BYTES} bytes`, false);
      }
      const timedOut = error.code === 'ECONNABORTED' || error.code === 'ETIMEDOUT';
      const detail = timedOut ? `no answer within ${timeoutMs} ms` : (error.message ?? error.code ?? 'network error');
      return failure(`WooCommerce ${action} failed: ${detail}`, true);
    }
    const { status, retryable } = errorOutcome(response.status, response.data);
    const parsed = errorSchema.safeParse(response.data);
    let detail = parsed.success ? `${parsed.data.code}: ${parsed.data.message}` : 'no WooCommerce error body';
    if (response.status >= 300 && response.status < 400) {
      const location = response.headers?.location;
      let target = 'another address';
      if (typeof location === 'string') {
        try {
          const url = new URL(location, storeUrl);
          target = `${url.origin}${url.pathname}`;
        } catch {
          // An unreadable Location header: the generic wording stays.
        }
      }
      detail = `redirects to ${target}; configure the store URL WordPress answers at`;
    }
    return failure(`WooCommerce ${action} answered ${response.status} (${detail})`, retryable, status);
  }

  async function call(action: string, run: () => Promise<HttpAnswer>): Promise<HttpAnswer> {
    try {
      return await run();
    } catch (error) {
      throw callFailure(action, error);
    }
  }

  function parse<T extends z.ZodType>(action: string, schema: T, answer: HttpAnswer): z.output<T> {
    const parsed = schema.safeParse(answer.data);
    if (!parsed.success) {
      const field = parsed.error.issues[0]?.path.join('.') ?? '';
      throw failure(
        `WooCommerce ${action} answered ${answer.status} with a body that is not what WooCommerce sends${field === '' ? '' : ` (at ${field})`}`,
        false,
        answer.status,
      );
    }
    return parsed.data;
  }

  /** Every page of a collection, following `X-WP-TotalPages`. */
  async function allPages<T extends z.ZodType<unknown[]>>(
    action: string,
    endpoint: string,
    schema: T,
    params: Record<string, unknown>,
  ): Promise<z.output<T>[number][]> {
    const items: z.output<T>[number][] = [];
    for (let page = 1; page <= MAX_PAGES; page += 1) {
      const answer = await call(action, () => client.get(endpoint, { ...params, per_page: PAGE_SIZE, page }));
      const list = parse(action, schema, answer);
      items.push(...list);
      const header = answer.headers['x-wp-totalpages'];
      const totalPages =
        typeof header === 'string' && /^\d+$/.test(header.trim())
          ? Number(header)
          : list.length < PAGE_SIZE
            ? page
            : page + 1;
      if (page >= totalPages || list.length === 0) break;
    }
    return items;
  }

  return { client, failure, callFailure, call, parse, allPages };
}
