/**
 * Where a service's metrics are read (docs/operations.md "Metrics"): `GET /metrics` in the
 * Prometheus text format, never public by default. With a token set, scrapers send
 * `Authorization: Bearer <token>` (compared in constant time); with a metrics port set, the route
 * is served on its own listener (bound to the service's host) and not on the public one. With
 * neither, `/metrics` does not exist (404).
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Context, Next } from 'koa';
import type { Registry } from 'prom-client';

export const METRICS_PATH = '/metrics';

export interface MetricsExposure {
  /** Bearer token scrapers must send; undefined: none asked (only with a separate port). */
  readonly token: string | undefined;
  /** A separate listener for `/metrics`; undefined: on the service's own port (token required). */
  readonly port: number | undefined;
}

/** Whether `/metrics` is answered on the service's own port. */
export function metricsOnMainPort(exposure: MetricsExposure): boolean {
  return exposure.port === undefined && exposure.token !== undefined;
}

/** Constant-time check of an `Authorization` header against the token (hashes first: equal lengths). */
export function bearerMatches(header: string | undefined, token: string): boolean {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header ?? '');
  const sent = createHash('sha256')
    .update(match?.[1] ?? '')
    .digest();
  const expected = createHash('sha256').update(token).digest();
  return timingSafeEqual(sent, expected) && match !== null;
}

interface MetricsAnswer {
  readonly status: number;
  readonly contentType: string;
  readonly body: string;
  readonly headers: Readonly<Record<string, string>>;
}

async function answerScrape(registry: Registry, token: string | undefined, authorization: string | undefined) {
  if (token !== undefined && !bearerMatches(authorization, token)) {
    return {
      status: 401,
      contentType: 'text/plain; charset=utf-8',
      body: 'Send the metrics token as Authorization: Bearer <token>.\n',
      headers: { 'WWW-Authenticate': 'Bearer realm="metrics"' },
    } satisfies MetricsAnswer;
  }
  return {
    status: 200,
    contentType: registry.contentType,
    body: await registry.metrics(),
    headers: {},
  } satisfies MetricsAnswer;
}

/** Koa middleware answering `GET /metrics` on the service's own port (mount only when `metricsOnMainPort`). */
export function metricsRoute(registry: Registry, token: string) {
  return async function serveMetrics(ctx: Context, next: Next): Promise<void> {
    if (ctx.path !== METRICS_PATH || (ctx.method !== 'GET' && ctx.method !== 'HEAD')) return next();
    (ctx as Context & { _matchedRoute?: string })._matchedRoute = METRICS_PATH;
    const answer = await answerScrape(registry, token, ctx.get('Authorization') || undefined);
    ctx.status = answer.status;
    for (const [name, value] of Object.entries(answer.headers)) ctx.set(name, value);
    ctx.set('Cache-Control', 'no-store');
    ctx.type = answer.contentType;
    ctx.body = answer.body;
  };
}

export interface MetricsListener {
  readonly url: string;
  close(): Promise<void>;
}

/** The separate metrics listener: `/metrics` and nothing else. */
export async function startMetricsListener(
  registry: Registry,
  exposure: MetricsExposure & { readonly port: number },
  host: string,
): Promise<MetricsListener> {
  const server: Server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0];
    if (path !== METRICS_PATH || (req.method !== 'GET' && req.method !== 'HEAD')) {
      res.writeHead(404, { 'Content-Type': 'text/plain; charset=utf-8' }).end('Not found.\n');
      return;
    }
    answerScrape(registry, exposure.token, req.headers.authorization).then(
      (answer) => {
        res.writeHead(answer.status, {
          ...answer.headers,
          'Content-Type': answer.contentType,
          'Cache-Control': 'no-store',
        });
        res.end(req.method === 'HEAD' ? undefined : answer.body);
      },
      () => res.writeHead(500, { 'Content-Type': 'text/plain; charset=utf-8' }).end('Metrics failed.\n'),
    );
  });
  server.listen(exposure.port, host);
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
