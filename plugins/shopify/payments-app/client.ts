/**
 * A small typed client of Shopify's Payments Apps GraphQL API (the library has none):
 * POST `https://<shop>/payments_apps/api/<version>/graphql.json` with the shop's offline token in
 * `X-Shopify-Access-Token`. Two layers of errors are told apart:
 *
 * - the call failed (no answer, HTTP non-2xx, a body that is not GraphQL, top-level `errors` such as
 *   THROTTLED): {@link PaymentsAppsError}, `retryable` for no answer, 429, 5xx, THROTTLED,
 *   INTERNAL_SERVER_ERROR and TIMEOUT;
 * - Shopify refused the mutation (`userErrors` not empty): answered as data, `{ ok: false }`.
 *
 * Messages never hold the token.
 */
import { isApiVersion, isShopDomain } from '../graphql.js';
import { MUTATIONS, type MutationName, type MutationPayload } from './wire.js';

export type FetchLike = (url: string, init: RequestInit) => Promise<Response>;

export class PaymentsAppsError extends Error {
  override readonly name = 'PaymentsAppsError';
  constructor(
    message: string,
    readonly retryable: boolean,
    readonly status = 0,
  ) {
    super(message);
  }
}

export interface UserError {
  field?: string[] | null;
  message: string;
  code?: string | null;
}

export type MutationResult<M extends MutationName> =
  | { ok: true; payload: MutationPayload<M> }
  | { ok: false; userErrors: UserError[] };

export interface PaymentsAppsClient {
  mutate<M extends MutationName>(name: M, variables: Record<string, unknown>): Promise<MutationResult<M>>;
}

const RETRYABLE_CODES = new Set(['THROTTLED', 'INTERNAL_SERVER_ERROR', 'TIMEOUT']);

export function createPaymentsAppsClient(options: {
  shop: string;
  apiVersion: string;
  accessToken: string;
  fetch: FetchLike;
  timeoutMs?: number;
}): PaymentsAppsClient {
  const { shop, apiVersion, accessToken } = options;
  if (!isShopDomain(shop)) throw new TypeError(`"${shop}" is not a <name>.myshopify.com shop domain`);
  if (!isApiVersion(apiVersion)) throw new TypeError(`"${apiVersion}" is not a Shopify API version`);
  const endpoint = `https://${shop}/payments_apps/api/${apiVersion}/graphql.json`;
  const timeoutMs = options.timeoutMs ?? 10_000;
  const redact = (text: string) => text.replaceAll(accessToken, '[redacted]');

  return {
    async mutate(name, variables) {
      let response: Response;
      try {
        response = await options.fetch(endpoint, {
          method: 'POST',
          headers: {
            'Content-Type': 'application/json',
            Accept: 'application/json',
            'X-Shopify-Access-Token': accessToken,
          },
          body: JSON.stringify({ query: MUTATIONS[name].query, variables }),
          redirect: 'manual',
          signal: AbortSignal.timeout(timeoutMs),
        });
      } catch (error) {
        const detail = error instanceof Error ? error.message : String(error);
        throw new PaymentsAppsError(redact(`Shopify ${name} got no answer: ${detail}`), true);
      }
      const text = await response.text().catch(() => '');
      let json: unknown = null;
      try {
        json = JSON.parse(text);
      } catch {
        // an HTML error page: the status decides
      }
      const body = (typeof json === 'object' && json !== null ? json : {}) as {
        data?: Record<string, unknown> | null;
        errors?: unknown;
      };
      const errors = Array.isArray(body.errors)
        ? (body.errors as { message?: string; extensions?: { code?: string } }[])
        : typeof body.errors === 'string'
          ? [{ message: body.errors }]
          : [];
      const described = errors.map((e) => e.message ?? '').join('; ');
      if (!response.ok) {
        const retryable = response.status === 429 || response.status >= 500;
        throw new PaymentsAppsError(
          redact(`Shopify ${name} answered ${response.status}${described ? ` (${described})` : ''}`),
          retryable,
          response.status,
        );
      }
      if (errors.length > 0) {
        const codes = errors.map((e) => e.extensions?.code ?? '');
        throw new PaymentsAppsError(
          redact(`Shopify ${name} answered GraphQL errors (${codes.filter((c) => c !== '').join(', ')}): ${described}`),
          codes.every((code) => RETRYABLE_CODES.has(code)),
          response.status,
        );
      }
      const parsed = MUTATIONS[name].payload.safeParse(body.data?.[name]);
      if (!parsed.success) {
        throw new PaymentsAppsError(`Shopify ${name} answered data that is not the mutation's payload`, false);
      }
      const payload = parsed.data as MutationPayload<typeof name>;
      if (payload.userErrors.length > 0) return { ok: false, userErrors: payload.userErrors };
      return { ok: true, payload };
    },
  };
}
