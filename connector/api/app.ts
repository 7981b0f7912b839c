/**
 * The connector's HTTP API (docs/connector.md): the plugin-facing routes authenticated by the shop's
 * connect token, the platform's key exchange callback, the gateway's webhook target, and the Shopify
 * app's routes (plugins/shopify/routes.ts). Every answer carries `X-Request-Id` and the gateway's
 * baseline headers (the gateway's request-context middleware); every refusal answers
 * `{"error": code, "message": text, "request_id": id}` (error-handler.ts).
 *
 * One of the connector's wiring files (docs/contributing.md): the only file of `connector/api/` that
 * names a platform; each route group is in `routes/`.
 */
import Router from '@koa/router';
import Koa from 'koa';
import { requestContext } from '../../gateway/api/middleware/request-context.js';
import { metricsOnMainPort, metricsRoute } from '../../gateway/observability/metrics-endpoint.js';
import { recordRequests } from '../../gateway/observability/request-metrics.js';
import { shopifyRoutes } from '../../plugins/shopify/routes.js';
import { ConnectorError } from '../errors.js';
import type { ConnectorDeps } from '../runtime/deps.js';
import { errorHandler } from './error-handler.js';
import { createPluginCallers } from './plugin-callers.js';
import type { ConnectorState } from './request.js';
import { connectionRoutes, keyExchangeRoutes } from './routes/connections.js';
import { gatewayWebhookRoutes } from './routes/gateway-webhooks.js';
import { healthRoutes } from './routes/health.js';
import { orderRoutes } from './routes/orders.js';
import { reconciliationRoutes } from './routes/reconciliation.js';

export function createConnectorApp(deps: ConnectorDeps): Koa {
  const app = new Koa<ConnectorState>({ proxy: false });
  app.silent = true;
  app.use(recordRequests(deps.metrics.requests));
  app.use(requestContext(deps.logger, deps.config.publicUrl));
  app.use(errorHandler(deps));
  const exposure = deps.config.metrics;
  if (metricsOnMainPort(exposure) && exposure.token !== undefined) {
    app.use(metricsRoute(deps.metrics.registry, exposure.token));
  }
  const callers = createPluginCallers(deps);
  const router = new Router<ConnectorState>();
  healthRoutes(router, deps);
  connectionRoutes(router, deps, callers);
  shopifyRoutes(router, deps);
  keyExchangeRoutes(router, deps);
  orderRoutes(router, deps, callers);
  reconciliationRoutes(router, deps, callers);
  gatewayWebhookRoutes(router, deps);

  app.use(router.routes());
  app.use(router.allowedMethods());
  app.use((ctx) => {
    throw new ConnectorError(404, 'not_found', `No route ${ctx.method} ${ctx.path}.`);
  });
  return app;
}
