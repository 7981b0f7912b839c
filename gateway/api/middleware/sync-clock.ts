/**
 * Under the database's test clock (`GATEWAY_CLOCK=manual`), every request first reads the clock's
 * latest time, so an advance made through another instance or the CLI counts from the next request
 * on. When the database cannot be read, the request goes on with the time read last: `/health`
 * still answers, and a route that needs the database fails there in its own way.
 */
import type { Middleware } from 'koa';
import type { Logger } from 'pino';
import type { Clock } from '../../domain/clock.js';
import type { GatewayState } from '../context.js';

export function syncClock(clock: Clock, logger: Logger): Middleware<GatewayState> {
  return async (_ctx, next) => {
    try {
      await clock.sync?.();
    } catch (error) {
      logger.debug({ err: error }, 'test clock not read; the time read last stands');
    }
    await next();
  };
}
