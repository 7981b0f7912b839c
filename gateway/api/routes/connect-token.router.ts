/**
 * `GET /api/v1/connect_token` (an addition): a connect token reads what it is bound to (merchant,
 * domain, platform, environment, lifetime) and the signing secrets of its domain's webhooks, which
 * the connector needs to verify the webhooks it receives. Only a connect token may call it.
 */
import { Router } from '@koa/router';
import type { AuthDeps } from '../../auth/authenticate.js';
import { introspectConnectToken } from '../../connect/connect-token.service.js';
import type { GatewayState } from '../context.js';
import { connectTokenOf, requireConnectToken } from '../middleware/auth.js';

export function connectTokenRouter(deps: AuthDeps): Router<GatewayState> {
  const router = new Router<GatewayState>({ prefix: '/api/v1' });

  router.get('/connect_token', requireConnectToken(deps), async (ctx) => {
    ctx.set('Cache-Control', 'no-store');
    ctx.body = await introspectConnectToken(deps, connectTokenOf(ctx));
  });

  return router;
}
