/**
 * `/health`: the process is up. `/health/ready`: it can reach its database (for load balancers).
 */
import { Router } from '@koa/router';
import { sql } from 'kysely';
import { ApiError } from '../../domain/errors.js';
import type { Deps } from '../../runtime/deps.js';
import type { GatewayState } from '../context.js';

export function healthRouter(deps: Deps): Router<GatewayState> {
  const router = new Router<GatewayState>({ prefix: '/health' });
  router.get('/', (ctx) => {
    ctx.body = { status: 'ok' };
  });
  router.get('/ready', async (ctx) => {
    try {
      await sql`select 1`.execute(deps.db);
    } catch (error) {
      deps.logger.error({ err: error }, 'database not reachable');
      throw new ApiError('service_unavailable', 'The database cannot be reached.');
    }
    ctx.body = { status: 'ok', database: deps.dialect };
  });
  return router;
}
