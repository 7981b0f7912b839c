/**
 * `/health`: the process is up (it answers; nothing else is checked). `/ready`: the instance can
 * serve: its database answers and every migration of this code is applied. Load balancers send
 * traffic to ready instances only. `/health/ready` is the earlier name of `/ready`.
 */
import { Router } from '@koa/router';
import { missingGatewayMigrations } from '../../../storage/migrate.js';
import { ApiError } from '../../domain/errors.js';
import type { Deps } from '../../runtime/deps.js';
import type { GatewayContext, GatewayState } from '../context.js';

export function healthRouter(deps: Deps): Router<GatewayState> {
  const router = new Router<GatewayState>();
  router.get('/health', (ctx) => {
    ctx.body = { status: 'ok' };
  });
  const ready = async (ctx: GatewayContext) => {
    let missing: string[];
    try {
      missing = await missingGatewayMigrations(deps.db);
    } catch (error) {
      deps.logger.error({ err: error }, 'database not reachable');
      throw new ApiError('service_unavailable', 'The database cannot be reached.', {
        details: { reason: 'database_unreachable' },
      });
    }
    if (missing.length > 0) {
      throw new ApiError('service_unavailable', 'The database is not migrated to this version (run gateway migrate).', {
        details: { reason: 'migrations_pending', pending_migrations: missing },
      });
    }
    ctx.body = { status: 'ok', database: deps.dialect };
  };
  router.get('/ready', ready);
  router.get('/health/ready', ready);
  return router;
}
