/**
 * `/api/v1/payment_links` (an addition, docs/api.md "Payment links"): create (with an optional
 * `Idempotency-Key`, like payments), list (the payments list's paging), read one (with its latest
 * payments) and deactivate. Full-access and payments-only keys may use them; connect tokens may not.
 */
import { Router } from '@koa/router';
import type { AuthDeps } from '../../auth/authenticate.js';
import {
  createPaymentLink,
  deactivatePaymentLinkForKey,
  getPaymentLink,
  listPaymentLinksPage,
} from '../../payment-links/payment-link.service.js';
import { checkIdempotencyKey, IDEMPOTENCY_HEADER } from '../../payments/idempotency.js';
import type { GatewayState } from '../context.js';
import { sendIdempotent } from '../idempotent-answer.js';
import { principalOf, requireAuth } from '../middleware/auth.js';
import { jsonBody } from '../middleware/json-body.js';
import { listPaymentLinksSchema } from '../schemas/payment-link.schema.js';
import { parseOr422 } from '../schemas/validation.js';

export function paymentLinksRouter(deps: AuthDeps): Router<GatewayState> {
  const router = new Router<GatewayState>({ prefix: '/api/v1' });
  const guard = requireAuth(deps, 'payment_links.manage');

  router.post('/payment_links', guard, jsonBody(deps.config.bodyLimitBytes), async (ctx) => {
    const idempotencyKey = checkIdempotencyKey(ctx.get(IDEMPOTENCY_HEADER) || undefined);
    const result = await createPaymentLink(deps, {
      principal: principalOf(ctx),
      body: ctx.request.body,
      idempotencyKey,
    });
    sendIdempotent(ctx, result);
  });

  router.get('/payment_links', guard, async (ctx) => {
    const query = parseOr422(listPaymentLinksSchema, ctx.query, 'query');
    const carried = Object.entries(ctx.query)
      .filter(([name, value]) => name !== 'page' && typeof value === 'string')
      .map(([name, value]) => [name, value as string] as const);
    ctx.set('Cache-Control', 'no-store');
    ctx.body = await listPaymentLinksPage(deps, principalOf(ctx), query, {
      path: `${deps.config.publicUrl}/api/v1/payment_links`,
      query: carried,
    });
  });

  router.get('/payment_links/:id', guard, async (ctx) => {
    ctx.set('Cache-Control', 'no-store');
    ctx.body = await getPaymentLink(deps, principalOf(ctx), ctx.params.id ?? '');
  });

  router.post('/payment_links/:id/deactivate', guard, async (ctx) => {
    ctx.set('Cache-Control', 'no-store');
    ctx.body = await deactivatePaymentLinkForKey(deps, principalOf(ctx), ctx.params.id ?? '');
  });

  return router;
}
