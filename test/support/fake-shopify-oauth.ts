/**
 * Shopify's side of installing an app, as a real shop does it, on a local HTTP server:
 *
 * - the authorize page (`/admin/oauth/authorize`) checks `client_id`, `scope`, that `redirect_uri` is
 *   the app's allowed callback and that a `state` is sent, then (the merchant approves) redirects to
 *   the callback with `code, hmac, host, shop, state, timestamp`, signed with the app's secret as
 *   Shopify signs them (HMAC-SHA256, hex, over the other parameters sorted and URL-encoded);
 * - `POST /admin/oauth/access_token` refuses a wrong client id or secret and an unknown or reused
 *   code; with `expiring=1` it answers the expiring offline token shape (`access_token`, `scope`,
 *   `expires_in` 3600, `refresh_token`, `refresh_token_expires_in`), without it the old
 *   non-expiring shape; the refresh grant rotates both tokens (a used refresh token is refused);
 *   the token exchange grant (`urn:ietf:params:oauth:grant-type:token-exchange`, shopify.dev
 *   "Exchange a session token for an access token") takes an App Bridge session token of the shop
 *   (HS256 with the app secret, `aud` the client id, `dest` the shop, not expired on Shopify's own
 *   clock) and answers an offline token; any other subject token is 400 `invalid_subject_token`;
 * - a webhook sender that signs deliveries as Shopify does (base64 HMAC-SHA256 of the raw body) with
 *   its headers.
 *
 * Shops are `<name>.myshopify.com` over HTTPS: {@link FakeShopifyOAuth.fetch} sends those URLs here
 * (`/shops/<shop>/...`) and refuses any other. Shopify's `timestamp` is its wall clock, so this fake
 * uses the real time (the library checks it against the real time, within 90 s).
 * The refresh token's lifetime (90 days) is an assumption; 3600 s for the access token is documented
 * (shopify.dev changelog "Offline access tokens now support expiry and refresh").
 */
import { createHmac, randomBytes, randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export const ACCESS_TOKEN_TTL_S = 3600;
export const REFRESH_TOKEN_TTL_S = 90 * 24 * 3600;

export interface FakeShopifyApp {
  apiKey: string;
  apiSecret: string;
  /** The callback URL registered in the app's configuration (`redirect_urls`). */
  redirectUri: string;
  scopes: string[];
}

export interface TokenGrant {
  shop: string;
  grant: 'authorization_code' | 'refresh_token' | 'token_exchange';
  expiring: boolean;
  access_token: string;
}

export interface WebhookDelivery {
  url: string;
  topic: string;
  shop: string;
  /** The body: an object is JSON-encoded; a string is sent as is. */
  body: unknown;
  /** Signs with this secret instead of the app's (a forged delivery). */
  secret?: string;
  /** Replaces the signature header's value. */
  hmac?: string;
  webhookId?: string;
  apiVersion?: string;
}

export interface FakeShopifyOAuth {
  readonly url: string;
  /** `fetch` for the app: `https://<name>.myshopify.com/...` reaches this fake. */
  readonly fetch: typeof fetch;
  readonly grants: TokenGrant[];
  /** The merchant approves the app on the authorize page: answers the authorize page's response. */
  authorize(authorizeUrl: string): Promise<Response>;
  /** A callback URL as Shopify would send it, signed with `secret` (the app's unless given). */
  signedCallback(query: Record<string, string>, secret?: string): string;
  /** Whether `token` is a live access token of `shop` (for other fakes). */
  isAccessToken(shop: string, token: string): boolean;
  /** Token exchanges are refused (400 `invalid_subject_token`) while set. */
  refuseTokenExchange(refuse: boolean): void;
  sendWebhook(
    delivery: WebhookDelivery,
  ): Promise<{ status: number; body: Record<string, unknown> | null; webhookId: string }>;
  close(): Promise<void>;
}

interface Code {
  shop: string;
  used: boolean;
}

/** Shopify's `hmac` over a query it sends: HMAC-SHA256, hex, of the other parameters sorted and URL-encoded. */
export function signShopifyQuery(query: Record<string, string>, secret: string): string {
  const sorted = new URLSearchParams(Object.entries(query).sort(([a], [b]) => a.localeCompare(b)));
  return createHmac('sha256', secret).update(sorted.toString()).digest('hex');
}

export async function startFakeShopifyOAuth(app: FakeShopifyApp): Promise<FakeShopifyOAuth> {
  const codes = new Map<string, Code>();
  const refreshTokens = new Map<string, { shop: string; used: boolean }>();
  const accessTokens = new Map<string, string>();
  const grants: TokenGrant[] = [];
  let exchangeRefused = false;

  const server: Server = createServer((req, res) => {
    handle(req, res).catch((error) => {
      res.writeHead(500, { 'Content-Type': 'application/json' }).end(JSON.stringify({ errors: String(error) }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  function callbackUrl(query: Record<string, string>, secret = app.apiSecret): string {
    const { hmac: _drop, ...rest } = query;
    const params = new URLSearchParams({ ...rest, hmac: signShopifyQuery(rest, secret) });
    return `${app.redirectUri}?${params.toString()}`;
  }

  function json(res: ServerResponse, status: number, body: unknown): void {
    res.writeHead(status, { 'Content-Type': 'application/json' }).end(JSON.stringify(body));
  }

  async function handle(req: IncomingMessage, res: ServerResponse) {
    const url = new URL(req.url ?? '/', base);
    const match = /^\/shops\/([a-z0-9][a-z0-9-]*\.myshopify\.com)(\/.*)$/.exec(url.pathname);
    if (match === null) return json(res, 404, { errors: 'Not Found' });
    const [, shop, path] = match as unknown as [string, string, string];
    if (req.method === 'GET' && path === '/admin/oauth/authorize') return authorizePage(shop, url.searchParams, res);
    if (req.method === 'POST' && path === '/admin/oauth/access_token') {
      return accessToken(shop, await readBody(req), req.headers['content-type'] ?? '', res);
    }
    return json(res, 404, { errors: 'Not Found' });
  }

  function authorizePage(shop: string, query: URLSearchParams, res: ServerResponse) {
    // Shopify shows an error page for these; the merchant never gets a code.
    if (query.get('client_id') !== app.apiKey)
      return json(res, 400, { error: 'invalid_request', error_description: 'unknown client_id' });
    if (query.get('redirect_uri') !== app.redirectUri) {
      return json(res, 400, { error: 'invalid_request', error_description: 'The redirect_uri is not whitelisted' });
    }
    const scopes = (query.get('scope') ?? '').split(',').filter((s) => s !== '');
    if (scopes.length === 0 || scopes.some((s) => !app.scopes.includes(s))) {
      return json(res, 400, { error: 'invalid_scope', error_description: 'The scope is not allowed for this app' });
    }
    const state = query.get('state') ?? '';
    if (state === '') return json(res, 400, { error: 'invalid_request', error_description: 'state is required' });
    if ((query.get('grant_options[]') ?? '') !== '') {
      return json(res, 400, { error: 'invalid_request', error_description: 'this fake grants offline access only' });
    }
    const code = randomBytes(16).toString('hex');
    codes.set(code, { shop, used: false });
    const host = Buffer.from(`admin.shopify.com/store/${shop.replace(/\.myshopify\.com$/, '')}`).toString('base64');
    const location = callbackUrl({
      code,
      host,
      shop,
      state,
      timestamp: String(Math.floor(Date.now() / 1000)),
    });
    res.writeHead(302, { Location: location }).end();
  }

  function accessToken(shop: string, raw: string, contentType: string, res: ServerResponse) {
    const body: Record<string, string> = contentType.includes('application/json')
      ? (JSON.parse(raw) as Record<string, string>)
      : Object.fromEntries(new URLSearchParams(raw));
    if (body.client_id !== app.apiKey || body.client_secret !== app.apiSecret) {
      return json(res, 401, { error: 'invalid_client', error_description: 'Client authentication failed' });
    }
    if (body.grant_type === 'urn:ietf:params:oauth:grant-type:token-exchange') {
      const subject = sessionTokenShop(body.subject_token ?? '');
      if (
        exchangeRefused ||
        subject !== shop ||
        body.subject_token_type !== 'urn:ietf:params:oauth:token-type:id_token' ||
        body.requested_token_type !== 'urn:shopify:params:oauth:token-type:offline-access-token'
      ) {
        return json(res, 400, {
          error: 'invalid_subject_token',
          error_description: 'Token exchange cannot be performed due to an invalid subject token.',
        });
      }
      return json(res, 200, issue(shop, 'token_exchange', body.expiring === '1'));
    }
    if (body.grant_type === 'refresh_token') {
      const known = refreshTokens.get(body.refresh_token ?? '');
      if (known === undefined || known.used || known.shop !== shop) {
        return json(res, 400, {
          error: 'invalid_grant',
          error_description: 'The refresh token is invalid or was already used',
        });
      }
      known.used = true;
      return json(res, 200, issue(shop, 'refresh_token', true));
    }
    const code = codes.get(body.code ?? '');
    if (code === undefined || code.used || code.shop !== shop) {
      return json(res, 400, {
        error: 'invalid_request',
        error_description: 'The authorization code was not found or was already used',
      });
    }
    code.used = true;
    return json(res, 200, issue(shop, 'authorization_code', body.expiring === '1'));
  }

  /** The shop an App Bridge session token was issued for, when it is signed for this app and not expired. */
  function sessionTokenShop(token: string): string | null {
    const [head = '', payload = '', signature = ''] = token.split('.');
    const expected = createHmac('sha256', app.apiSecret).update(`${head}.${payload}`).digest('base64url');
    if (signature !== expected) return null;
    let claims: Record<string, unknown>;
    try {
      claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as Record<string, unknown>;
    } catch {
      return null;
    }
    if (claims.aud !== app.apiKey || typeof claims.exp !== 'number' || claims.exp * 1000 < Date.now()) return null;
    const dest = typeof claims.dest === 'string' ? claims.dest : '';
    return /^https:\/\/[a-z0-9][a-z0-9-]*\.myshopify\.com$/.test(dest) ? dest.slice('https://'.length) : null;
  }

  function issue(shop: string, grant: TokenGrant['grant'], expiring: boolean): Record<string, unknown> {
    const access = `shpat_${randomBytes(16).toString('hex')}`;
    accessTokens.set(access, shop);
    grants.push({ shop, grant, expiring, access_token: access });
    if (!expiring) return { access_token: access, scope: app.scopes.join(',') };
    const refresh = `shprt_${randomBytes(16).toString('hex')}`;
    refreshTokens.set(refresh, { shop, used: false });
    return {
      access_token: access,
      scope: app.scopes.join(','),
      expires_in: ACCESS_TOKEN_TTL_S,
      refresh_token: refresh,
      refresh_token_expires_in: REFRESH_TOKEN_TTL_S,
    };
  }

  const shopFetch: typeof fetch = async (input, init) => {
    const target = new URL(input instanceof Request ? input.url : String(input));
    if (target.protocol !== 'https:' || !/^[a-z0-9][a-z0-9-]*\.myshopify\.com$/.test(target.hostname)) {
      throw new TypeError(`the test fetch reaches only shops (got ${target.origin})`);
    }
    return fetch(`${base}/shops/${target.hostname}${target.pathname}${target.search}`, init);
  };

  return {
    url: base,
    fetch: shopFetch,
    grants,
    authorize: (authorizeUrl) => shopFetch(authorizeUrl, { redirect: 'manual' }),
    signedCallback: (query, secret) => callbackUrl(query, secret),
    isAccessToken: (shop, token) => accessTokens.get(token) === shop,
    refuseTokenExchange(refuse) {
      exchangeRefused = refuse;
    },
    async sendWebhook(delivery) {
      const raw = typeof delivery.body === 'string' ? delivery.body : JSON.stringify(delivery.body);
      const webhookId = delivery.webhookId ?? randomUUID();
      const hmac =
        delivery.hmac ??
        createHmac('sha256', delivery.secret ?? app.apiSecret)
          .update(raw, 'utf8')
          .digest('base64');
      const response = await fetch(delivery.url, {
        method: 'POST',
        headers: {
          'Content-Type': 'application/json',
          'X-Shopify-Hmac-Sha256': hmac,
          'X-Shopify-Topic': delivery.topic,
          'X-Shopify-Shop-Domain': delivery.shop,
          'X-Shopify-Webhook-Id': webhookId,
          'X-Shopify-API-Version': delivery.apiVersion ?? '2026-07',
          'X-Shopify-Triggered-At': new Date().toISOString(),
          'X-Shopify-Event-Id': randomUUID(),
        },
        body: raw,
      });
      const text = await response.text();
      let body: Record<string, unknown> | null = null;
      try {
        body = JSON.parse(text) as Record<string, unknown>;
      } catch {
        body = null;
      }
      return { status: response.status, body, webhookId };
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}
