/**
 * `/api/v1/payments` and `/api/v1/orders/{order_id}/payment` (spec "Payments"), and a payment's
 * events with their webhook deliveries, the resend of one of them, the cancelling of an open
 * payment, a payment settled with the processor's reference when its callback was lost, and the
 * capture and void of a held payment (additions; docs/decisions.md "Holds").
 */
import { Router } from '@koa/router';
import type { AuthDeps } from '../../auth/authenticate.js';
import type { Principal } from '../../auth/principal.js';
import { captureFromApi, voidFromApi } from '../../holds/hold.service.js';
import { cancelPayment } from '../../payments/cancel.service.js';
import { checkIdempotencyKey, IDEMPOTENCY_HEADER } from '../../payments/idempotency.js';
import { createPayment } from '../../payments/payment.service.js';
import { getOrderPayment, getPayment, getPaymentRead, listPaymentsPage } from '../../payments/payment-reads.service.js';
import { settleWithProcessorReference } from '../../payments/settle-reference.service.js';
import { listPaymentEventLog } from '../../webhooks/event-log.service.js';
import { resendPaymentEvent } from '../../webhooks/resend.service.js';
import type { GatewayContext, GatewayState } from '../context.js';
import { sendIdempotent } from '../idempotent-answer.js';
import { principalOf, requireAuth } from '../middleware/auth.js';
import { jsonBody } from '../middleware/json-body.js';
import { listPaymentsSchema } from '../schemas/payment.schema.js';
import { parseOr422 } from '../schemas/validation.js';

export function paymentsRouter(deps: AuthDeps): Router<GatewayState> {
  const router = new Router<GatewayState>({ prefix: '/api/v1' });

  router.post('/payments', requireAuth(deps, 'payments.create'), jsonBody(deps.config.bodyLimitBytes), async (ctx) => {
    const idempotencyKey = checkIdempotencyKey(ctx.get(IDEMPOTENCY_HEADER) || undefined);
    const result = await createPayment(deps, {
      principal: principalOf(ctx),
      body: ctx.request.body,
      origin: ctx.get('Origin') || undefined,
      idempotencyKey,
    });
    sendIdempotent(ctx, result);
  });

  router.get('/payments', requireAuth(deps, 'payments.read'), async (ctx) => {
    const query = parseOr422(listPaymentsSchema, ctx.query, 'query');
    const carried = Object.entries(ctx.query)
      .filter(([name, value]) => name !== 'page' && typeof value === 'string')
      .map(([name, value]) => [name, value as string] as const);
    ctx.set('Cache-Control', 'no-store');
    ctx.body = await listPaymentsPage(deps, principalOf(ctx), query, {
      path: `${deps.config.publicUrl}/api/v1/payments`,
      query: carried,
    });
  });

  // The payment is read in the admission's statement where it can be: one round trip.
  const paymentRead = {
    alongside: (ctx: GatewayContext, principal: Principal) => getPaymentRead(deps, principal, ctx.params.uuid ?? ''),
  };
  router.get('/payments/:uuid', requireAuth(deps, 'payments.read', paymentRead), async (ctx) => {
    ctx.set('Cache-Control', 'no-store');
    ctx.body = await getPayment(deps, principalOf(ctx), ctx.params.uuid ?? '', ctx.state.alongside);
  });

  router.post('/payments/:uuid/cancel', requireAuth(deps, 'payments.create'), async (ctx) => {
    ctx.set('Cache-Control', 'no-store');
    ctx.body = await cancelPayment(deps, principalOf(ctx), ctx.params.uuid ?? '');
  });

  for (const [action, run] of [
    ['capture', captureFromApi],
    ['void', voidFromApi],
  ] as const) {
    router.post(
      `/payments/:uuid/${action}`,
      requireAuth(deps, 'payments.capture'),
      jsonBody(deps.config.bodyLimitBytes),
      async (ctx) => {
        const idempotencyKey = checkIdempotencyKey(ctx.get(IDEMPOTENCY_HEADER) || undefined);
        const result = await run(deps, {
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
  }

  router.get('/payments/:uuid/events', requireAuth(deps, 'payments.read'), async (ctx) => {
    ctx.set('Cache-Control', 'no-store');
    ctx.body = await listPaymentEventLog(deps, principalOf(ctx), ctx.params.uuid ?? '');
  });

  router.post('/payments/:uuid/events/:event_id/resend', requireAuth(deps, 'webhooks.resend'), async (ctx) => {
    ctx.status = 202;
    ctx.body = await resendPaymentEvent(deps, principalOf(ctx), ctx.params.uuid ?? '', ctx.params.event_id ?? '');
  });

  router.post(
    '/payments/:uuid/processor_reference',
    requireAuth(deps, 'payments.settle'),
    jsonBody(deps.config.bodyLimitBytes),
    async (ctx) => {
      ctx.set('Cache-Control', 'no-store');
      ctx.body = await settleWithProcessorReference(deps, principalOf(ctx), ctx.params.uuid ?? '', ctx.request.body);
    },
  );

  router.get('/orders/:order_id/payment', requireAuth(deps, 'payments.read'), async (ctx) => {
    ctx.set('Cache-Control', 'no-store');
    ctx.body = await getOrderPayment(deps, principalOf(ctx), ctx.params.order_id ?? '');
  });

  return router;
}
