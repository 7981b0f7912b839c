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

export function requestContext(logger: Logger) {
  return async function withRequestContext(ctx: GatewayContext, next: Next): Promise<void> {
    const started = process.hrtime.bigint();
    ctx.state.requestId = newRequestId();
    ctx.set('X-Request-Id', ctx.state.requestId);
    ctx.set('X-Content-Type-Options', 'nosniff');
    ctx.set('Referrer-Policy', 'no-referrer');
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
