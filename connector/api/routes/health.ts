/** `GET /health` (the process answers) and `GET /ready` (the database answers and is migrated). */
import { ConnectorError, errorDetail } from '../../errors.js';
import type { ConnectorDeps } from '../../runtime/deps.js';
import { missingConnectorMigrations } from '../../storage/migrate.js';
import type { ConnectorRouter } from '../request.js';

export function healthRoutes(router: ConnectorRouter, deps: ConnectorDeps): void {
  router.get('/health', (ctx) => {
    ctx.body = { status: 'ok' };
  });

  // Ready to serve: the database answers and every migration of this version is applied.
  router.get('/ready', async (ctx) => {
    let missing: string[];
    try {
      missing = await missingConnectorMigrations(deps.db);
    } catch (error) {
      deps.logger.error({ err: errorDetail(error) }, 'database not reachable');
      throw new ConnectorError(503, 'service_unavailable', 'The database cannot be reached.', {
        reason: 'database_unreachable',
      });
    }
    if (missing.length > 0) {
      throw new ConnectorError(503, 'service_unavailable', 'The database is not migrated to this version.', {
        reason: 'migrations_pending',
        pending_migrations: missing,
      });
    }
    ctx.body = { status: 'ok', database: deps.dialect };
  });
}
