/**
 * `GET /api/v1/customers` and `GET /api/v1/customers/{id}` (additions; docs/decisions.md
 * "Customers"): the customer records of the key's merchant and environment. Full-access keys only.
 */
import { Router } from '@koa/router';
import type { AuthDeps } from '../../auth/authenticate.js';
import { getCustomer, listCustomersPage } from '../../customers/customer.service.js';
import type { GatewayState } from '../context.js';
import { principalOf, requireAuth } from '../middleware/auth.js';
import { listCustomersSchema } from '../schemas/customer.schema.js';
import { parseOr422 } from '../schemas/validation.js';

export function customersRouter(deps: AuthDeps): Router<GatewayState> {
  const router = new Router<GatewayState>({ prefix: '/api/v1' });

  router.get('/customers', requireAuth(deps, 'customers.read'), async (ctx) => {
    const query = parseOr422(listCustomersSchema, ctx.query, 'query');
    const principal = principalOf(ctx);
    const carried = Object.entries(ctx.query)
      .filter(([name, value]) => name !== 'page' && typeof value === 'string')
      .map(([name, value]) => [name, value as string] as const);
    ctx.set('Cache-Control', 'no-store');
    ctx.body = await listCustomersPage(
      deps,
      { merchantId: principal.merchantId, environment: principal.environment },
      query,
      { path: `${deps.config.publicUrl}/api/v1/customers`, query: carried },
    );
  });

  router.get('/customers/:id', requireAuth(deps, 'customers.read'), async (ctx) => {
    ctx.set('Cache-Control', 'no-store');
    ctx.body = await getCustomer(deps, principalOf(ctx), ctx.params.id ?? '');
  });

  return router;
}
