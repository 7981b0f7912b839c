/**
 * A stand-in for shops' storefronts (`https://<name>.myshopify.com`) with the app's proxy, as the
 * buyer meets them coming back from the gateway. One HTTP server on 127.0.0.1 plays every shop: the
 * `Host` header names the shop, as on Shopify.
 *
 * - `GET <proxy path>/<rest>` (`/apps/connector-pay/...`): forwarded to `<proxy url>/<rest>` with the
 *   buyer's query (and `Accept-Language`) plus what Shopify adds and signs (shopify.dev "Authenticate app proxies"): `shop`,
 *   `logged_in_customer_id` (empty: no customer signed in), `path_prefix`, `timestamp` and
 *   `signature` (HMAC-SHA256 hex with the app secret over the sorted `name=value` pairs, values of a
 *   repeated name joined with `,`). The app's answer (status, `Location`, `Content-Type`, body) is
 *   passed back to the buyer. Only GET and HEAD are proxied here; the app's pages need nothing else.
 * - A shop given a primary domain: its myshopify address answers 301 to the same path there.
 * - Anything else: the shop's own pages (a checkout, the thank-you page), answered 200 with a page
 *   naming the path, so a test sees the buyer arrive there.
 */
import { createHmac } from 'node:crypto';
import { createServer, type IncomingMessage, request, type ServerResponse } from 'node:http';
import { createServer as createTlsServer } from 'node:https';
import type { AddressInfo } from 'node:net';

export interface StorefrontVisit {
  status: number;
  location: string | null;
  contentType: string | null;
  body: string;
}

export interface FakeShopifyStorefront {
  /** `http://127.0.0.1:<port>`: the server every shop's storefront is on. */
  readonly url: string;
  /** Proxied requests as the app received them (path and query), newest last. */
  readonly forwarded: { shop: string; url: string }[];
  /** The buyer's browser opens `https://<shop>/...` (redirects not followed; HTTP mode only). */
  visit(url: string, headers?: Record<string, string>): Promise<StorefrontVisit>;
  /**
   * The shop has a primary domain: its myshopify address answers 301 to the same path there, as
   * Shopify does (the test server's port kept in the address, where Shopify's would be 443).
   */
  setPrimaryDomain(shop: string, primary: string): void;
  close(): Promise<void>;
}

export interface FakeStorefrontOptions {
  apiSecret: string;
  /** `[app_proxy]` prefix and subpath, as a path: `/apps/connector-pay`. */
  proxyPath: string;
  /** `[app_proxy] url`: where Shopify forwards (the connector's `/shopify/proxy`). */
  proxyUrl: () => string;
  /** Shopify's clock for `timestamp`, in seconds. */
  nowS: () => number;
  /** Serve HTTPS with this certificate (for the gateway's checks of a shop's domain) instead of HTTP. */
  tls?: { cert: string; key: string };
}

export function signProxyQuery(secret: string, params: [string, string][]): string {
  const byName = new Map<string, string[]>();
  for (const [name, value] of params) byName.set(name, [...(byName.get(name) ?? []), value]);
  const message = [...byName].map(([name, values]) => `${name}=${values.join(',')}`);
  message.sort();
  return createHmac('sha256', secret).update(message.join('')).digest('hex');
}

export async function startFakeShopifyStorefront(options: FakeStorefrontOptions): Promise<FakeShopifyStorefront> {
  const forwarded: { shop: string; url: string }[] = [];
  const primaryOf = new Map<string, string>();
  const shopOf = new Map<string, string>();
  let port = 0;

  const serve = async (req: IncomingMessage, res: ServerResponse) => {
    const host = (req.headers.host ?? '').replace(/:\d+$/, '').toLowerCase();
    const primary = primaryOf.get(host);
    if (primary !== undefined) {
      res.writeHead(301, { Location: `https://${primary}:${port}${req.url ?? '/'}` }).end();
      return;
    }
    const shop = shopOf.get(host) ?? host;
    const url = new URL(req.url ?? '/', `https://${shop}`);
    if (!url.pathname.startsWith(`${options.proxyPath}/`)) {
      res.writeHead(200, { 'Content-Type': 'text/html' }).end(`<h1>${shop}</h1><p>Shop page ${url.pathname}</p>`);
      return;
    }
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.writeHead(405).end();
      return;
    }
    const params = [...url.searchParams.entries()];
    params.push(
      ['shop', shop],
      ['logged_in_customer_id', ''],
      ['path_prefix', options.proxyPath],
      ['timestamp', String(Math.floor(options.nowS()))],
    );
    const query = new URLSearchParams(params);
    query.append('signature', signProxyQuery(options.apiSecret, params));
    const target = `${options.proxyUrl()}${url.pathname.slice(options.proxyPath.length)}?${query}`;
    forwarded.push({ shop, url: target });
    // The buyer's browser headers Shopify passes on (not its cookies).
    const language = req.headers['accept-language'];
    const answer = await fetch(target, {
      method: req.method,
      redirect: 'manual',
      headers: typeof language === 'string' ? { 'Accept-Language': language } : {},
    });
    const headers: Record<string, string> = {};
    for (const name of ['location', 'content-type', 'cache-control']) {
      const value = answer.headers.get(name);
      if (value !== null) headers[name] = value;
    }
    res.writeHead(answer.status, headers).end(Buffer.from(await answer.arrayBuffer()));
  };

  const handle = (req: IncomingMessage, res: ServerResponse) => {
    serve(req, res).catch((error: unknown) => {
      res.writeHead(502, { 'Content-Type': 'text/plain' }).end(`storefront proxy failed: ${String(error)}`);
    });
  };
  const server = options.tls === undefined ? createServer(handle) : createTlsServer(options.tls, handle);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;

  return {
    url: `${options.tls === undefined ? 'http' : 'https'}://127.0.0.1:${port}`,
    forwarded,
    setPrimaryDomain(shop, primary) {
      primaryOf.set(shop, primary);
      shopOf.set(primary, shop);
    },
    visit(address, headers = {}) {
      const target = new URL(address);
      if (target.protocol !== 'https:') throw new Error(`a storefront is https only: ${address}`);
      if (options.tls !== undefined) throw new Error('visit() plays the buyer in HTTP mode only');
      return new Promise<StorefrontVisit>((resolve, reject) => {
        const req = request(
          {
            host: '127.0.0.1',
            port,
            path: `${target.pathname}${target.search}`,
            headers: { ...headers, Host: target.host },
          },
          (res) => {
            const chunks: Buffer[] = [];
            res.on('data', (chunk: Buffer) => chunks.push(chunk));
            res.on('end', () =>
              resolve({
                status: res.statusCode ?? 0,
                location: res.headers.location ?? null,
                contentType: res.headers['content-type'] ?? null,
                body: Buffer.concat(chunks).toString('utf8'),
              }),
            );
            res.on('error', reject);
          },
        );
        req.on('error', reject);
        req.end();
      });
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
