/**
 * Requests by route and status, with their latency, for any Koa service of the project (the
 * gateway and the connector). The route label is the pattern of the router layer that answered
 * (`/api/v1/payments/:uuid`), never the raw path, so a scraper sees a bounded set of series; a
 * request no route took (a 404, a wrong method) is counted as `unmatched`.
 */
import type { Context, Next } from 'koa';
import { Counter, Histogram, type Registry } from 'prom-client';

/** Seconds: from a cached read (a few ms) to a processor's slowest answer. */
export const LATENCY_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];

export const UNMATCHED_ROUTE = 'unmatched';

export interface RequestMetrics {
  readonly requests: Counter<'method' | 'route' | 'status'>;
  readonly duration: Histogram<'method' | 'route' | 'status'>;
}

/** Registers `<prefix>_http_requests_total` and `<prefix>_http_request_duration_seconds`. */
export function requestMetrics(registry: Registry, prefix: string): RequestMetrics {
  const labelNames = ['method', 'route', 'status'] as const;
  return {
    requests: new Counter({
      name: `${prefix}_http_requests_total`,
      help: 'HTTP requests answered, by method, route pattern and status.',
      labelNames,
      registers: [registry],
    }),
    duration: new Histogram({
      name: `${prefix}_http_request_duration_seconds`,
      help: 'Time from receiving a request to its answer, by method, route pattern and status.',
      labelNames,
      buckets: LATENCY_BUCKETS,
      registers: [registry],
    }),
  };
}

/** The pattern of the route that answered (set by @koa/router), else `unmatched`. */
export function routeLabel(ctx: Context): string {
  const matched = (ctx as Context & { _matchedRoute?: unknown })._matchedRoute;
  return typeof matched === 'string' ? matched : UNMATCHED_ROUTE;
}

/** Methods outside this list are one label, so a client cannot invent series. */
const KNOWN_METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);

/** Mounted first: sees the final status, after the error middleware wrote it. */
export function recordRequests(metrics: RequestMetrics) {
  return async function withRequestMetrics(ctx: Context, next: Next): Promise<void> {
    // A duration, not business time: the monotonic clock is right here.
    const started = process.hrtime.bigint();
    try {
      await next();
    } finally {
      const labels = {
        method: KNOWN_METHODS.has(ctx.method) ? ctx.method : 'OTHER',
        route: routeLabel(ctx),
        status: String(ctx.status),
      };
      metrics.requests.inc(labels);
      metrics.duration.observe(labels, Number(process.hrtime.bigint() - started) / 1e9);
    }
  };
}
