/**
 * `POST /api/v1/payments/{uuid}/refund` and `GET /api/v1/payments/{uuid}/refunds` (spec "Payments";
 * the flow is in gateway/refunds/refund.service.ts). The refund body may be absent: no body reads
 * as `{}`, a refund of the whole remaining amount.
 */
import { Router } from '@koa/router';
import type { AuthDeps } from '../../auth/authenticate.js';
import { checkIdempotencyKey, IDEMPOTENCY_HEADER } from '../../payments/idempotency.js';
import { createRefund, listRefunds } from '../../refunds/refund.service.js';
import type { GatewayState } from '../context.js';
import { principalOf, requireAuth } from '../middleware/auth.js';
import { jsonBody } from '../middleware/json-body.js';

export function refundsRouter(deps: AuthDeps): Router<GatewayState> {
  const router = new Router<GatewayState>({ prefix: '/api/v1' });

  router.post(
    '/payments/:uuid/refund',
    requireAuth(deps, 'refunds.create'),
    jsonBody(deps.config.bodyLimitBytes),
    async (ctx) => {
      const idempotencyKey = checkIdempotencyKey(ctx.get(IDEMPOTENCY_HEADER) || undefined);
      const result = await createRefund(deps, {
        principal: principalOf(ctx),
        paymentUuid: ctx.params.uuid ?? '',
        // jsonBody reads an absent or empty body as {}; a JSON null stays null (and is refused).
        body: ctx.request.body,
        idempotencyKey,
      });
      ctx.status = result.status;
      if (result.replayed) ctx.set('Idempotent-Replayed', 'true');
      ctx.set('Cache-Control', 'no-store');
      ctx.body = result.body;
    },
  );

  router.get('/payments/:uuid/refunds', requireAuth(deps, 'payments.read'), async (ctx) => {
    ctx.set('Cache-Control', 'no-store');
    ctx.body = await listRefunds(deps, principalOf(ctx), ctx.params.uuid ?? '');
  });

  return router;
}
