/**
 * Gives every request an id (`X-Request-Id`, quoted in error bodies and logs), baseline security
 * headers, and one access-log line. Secrets never reach the log: only method, path, status, timing
 * and the account.
 */
import { randomBytes } from 'node:crypto';
import type { Next } from 'koa';
import type { Logger } from 'pino';
import type { GatewayContext } from '../context.js';

/** Random per process, so ids of several instances never collide; a counter within the process. */
const PROCESS_PREFIX = randomBytes(6).toString('base64url');
let sequence = 0;

export function newRequestId(): string {
  sequence += 1;
  return `req_${PROCESS_PREFIX}${sequence.toString(36).padStart(6, '0')}`;
}

/** One year: browsers keep to https for that long after any answer of the service. */
export const HSTS_MAX_AGE_SECONDS = 365 * 24 * 3600;

/**
 * Headers every answer carries, including those written outside Koa (see `client-errors.ts`).
 * `Strict-Transport-Security` only when the service is public over https (browsers ignore it over
 * http), without `includeSubDomains`: other services under the public host's domain are not ours.
 */
export function baselineHeaders(publicUrl: string): Readonly<Record<string, string>> {
  return {
    'X-Content-Type-Options': 'nosniff',
    'Referrer-Policy': 'no-referrer',
    ...(publicUrl.startsWith('https:') ? { 'Strict-Transport-Security': `max-age=${HSTS_MAX_AGE_SECONDS}` } : {}),
  };
}

export function requestContext(logger: Logger, publicUrl: string) {
  const baseline = Object.entries(baselineHeaders(publicUrl));
  return async function withRequestContext(ctx: GatewayContext, next: Next): Promise<void> {
    const started = process.hrtime.bigint();
    ctx.state.requestId = newRequestId();
    ctx.set('X-Request-Id', ctx.state.requestId);
    for (const [name, value] of baseline) ctx.set(name, value);
    try {
      await next();
    } finally {
      if (logger.isLevelEnabled('info')) {
        logger.info(
          {
            request_id: ctx.state.requestId,
            method: ctx.method,
            path: ctx.path,
            status: ctx.status,
            ms: Number(process.hrtime.bigint() - started) / 1e6,
            merchant_id: ctx.state.principal?.merchantId,
          },
          'request',
        );
      }
    }
  };
}
