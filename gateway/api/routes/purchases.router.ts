/**
 * Purchases and auto top-up (spec "Billing"): `POST /api/v1/billing/purchases`,
 * `GET /api/v1/billing/purchases/{id}` (an addition), `PUT /api/v1/billing/auto-topup/{counter}`,
 * and the one-click payment link of a card purchase, `GET /billing/purchases/{id}/pay?t=...`
 * (no key: the signed token is the credential).
 */
import { Router } from '@koa/router';
import type { AuthDeps } from '../../auth/authenticate.js';
import { configureAutoTopup } from '../../billing/auto-topup.service.js';
import { createPurchase, getPurchase, openPurchaseLink } from '../../billing/purchases.service.js';
import { escapeHtml } from '../../checkout/html.js';
import { checkIdempotencyKey, IDEMPOTENCY_HEADER } from '../../payments/idempotency.js';
import type { GatewayState } from '../context.js';
import { sendIdempotent } from '../idempotent-answer.js';
import { principalOf, requireAuth } from '../middleware/auth.js';
import { jsonBody } from '../middleware/json-body.js';
import { setStaticPageHeaders } from '../page-headers.js';

export function purchasesRouter(deps: AuthDeps): Router<GatewayState> {
  const router = new Router<GatewayState>();

  router.post(
    '/api/v1/billing/purchases',
    requireAuth(deps, 'billing.purchase'),
    jsonBody(deps.config.bodyLimitBytes),
    async (ctx) => {
      const result = await createPurchase(deps, {
        principal: principalOf(ctx),
        body: ctx.request.body,
        idempotencyKey: checkIdempotencyKey(ctx.get(IDEMPOTENCY_HEADER) || undefined),
      });
      sendIdempotent(ctx, result);
    },
  );

  router.get('/api/v1/billing/purchases/:id', requireAuth(deps, 'billing.read'), async (ctx) => {
    ctx.set('Cache-Control', 'no-store');
    ctx.body = await getPurchase(deps, principalOf(ctx), ctx.params.id ?? '');
  });

  router.put(
    '/api/v1/billing/auto-topup/:counter',
    requireAuth(deps, 'billing.configure'),
    jsonBody(deps.config.bodyLimitBytes),
    async (ctx) => {
      ctx.set('Cache-Control', 'no-store');
      ctx.body = await configureAutoTopup(deps, principalOf(ctx), ctx.params.counter ?? '', ctx.request.body);
    },
  );

  router.get('/billing/purchases/:id/pay', async (ctx) => {
    const outcome = await openPurchaseLink(deps, ctx.params.id ?? '', ctx.query.t);
    ctx.set('Cache-Control', 'no-store');
    ctx.set('Referrer-Policy', 'no-referrer');
    if (outcome.kind === 'redirect') {
      ctx.redirect(outcome.url);
      return;
    }
    const p = outcome.purchase;
    setStaticPageHeaders(ctx);
    ctx.type = 'text/html; charset=utf-8';
    ctx.body = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Purchase paid</title></head><body><h1>Purchase paid</h1><p>${escapeHtml(`${Number(p.quantity)} ${p.counter} units were added to your balance.`)}</p></body></html>`;
  });

  return router;
}
