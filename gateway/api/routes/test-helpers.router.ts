/**
 * Test helpers (DESIGN.md "Test helpers"): drive sandbox payments from an integration's tests. They
 * exist for test keys only; a live key gets 404 as if the routes did not exist, and a connect token
 * 403 `insufficient_scope` (a platform plugin has no use for them).
 *
 * - `POST /api/v1/test_helpers/payments/{uuid}/pay {card_number}`: the test payment page's code path.
 * - `POST /api/v1/test_helpers/payments/{uuid}/confirm`: a late provider confirmation.
 * - `POST /api/v1/test_helpers/clock/advance {seconds}`: only with `GATEWAY_CLOCK=manual`; moves the
 *   test clock, which every instance and CLI run on the database reads (gateway/runtime/test-clock.ts),
 *   and runs the work that became due before answering.
 */
import { Router } from '@koa/router';
import { findPayment } from '../../../storage/payment.repository.js';
import type { AuthDeps } from '../../auth/authenticate.js';
import type { Principal } from '../../auth/principal.js';
import { isMovable, toApiInstant, toStoredInstant } from '../../domain/clock.js';
import { ApiError, validationFailed } from '../../domain/errors.js';
import { isUuid } from '../../domain/ids.js';
import type { Payment } from '../../domain/payment.js';
import type { Scheduler } from '../../jobs/scheduler.js';
import { paymentAnswer } from '../../payments/awaiting-reference.js';
import { applyProviderResult, expireIfDueNow, startProcessing } from '../../payments/lifecycle.service.js';
import { scopeOf } from '../../payments/payment-scope.js';
import { payWithTestCard } from '../../payments/test-card.service.js';
import { SANDBOX_HOLD_MS, sandboxRrn } from '../../processors/sandbox/adapter.js';
import type { GatewayContext, GatewayState } from '../context.js';
import { requireAuth } from '../middleware/auth.js';
import { jsonBody } from '../middleware/json-body.js';
import { advanceClockSchema, testCardSchema } from '../schemas/test-helpers.schema.js';
import { parseOr422 } from '../schemas/validation.js';

function testPrincipal(ctx: GatewayContext): Principal {
  const principal = ctx.state.principal;
  if (principal === undefined || principal.environment !== 'test') {
    throw new ApiError('not_found', `No route for ${ctx.method} ${ctx.path}.`);
  }
  return principal;
}

async function sandboxPayment(deps: AuthDeps, principal: Principal, uuid: string): Promise<Payment> {
  const payment = isUuid(uuid) ? await findPayment(deps.db, scopeOf(principal), uuid) : undefined;
  if (payment === undefined) throw new ApiError('not_found', `No payment ${uuid} for this key.`);
  return payment;
}

export function testHelpersRouter(deps: AuthDeps, scheduler: Scheduler): Router<GatewayState> {
  const router = new Router<GatewayState>({ prefix: '/api/v1/test_helpers' });
  const guard = requireAuth(deps, 'test_helpers.use');
  const body = jsonBody(deps.config.bodyLimitBytes);

  router.post('/payments/:uuid/pay', guard, body, async (ctx) => {
    const principal = testPrincipal(ctx);
    const payment = await sandboxPayment(deps, principal, ctx.params.uuid ?? '');
    const input = ctx.request.body;
    // A body that is not an object carries no card number: refused as a missing one.
    const isObject = typeof input === 'object' && input !== null && !Array.isArray(input);
    const { card_number } = parseOr422(testCardSchema, isObject ? input : {});
    const paid = await payWithTestCard(deps, payment, card_number);
    if (!paid.ok) throw validationFailed({ card_number: [paid.reason] });
    ctx.set('Cache-Control', 'no-store');
    ctx.body = await paymentAnswer(deps, paid.payment);
  });

  router.post('/payments/:uuid/confirm', guard, body, async (ctx) => {
    const principal = testPrincipal(ctx);
    let payment = await sandboxPayment(deps, principal, ctx.params.uuid ?? '');
    payment = (await expireIfDueNow(deps, payment.uuid)) ?? payment;
    if (payment.status === 'pending') payment = await startProcessing(deps, payment.uuid, 'sandbox');
    if (payment.status === 'processing' || payment.status === 'failed' || payment.status === 'expired') {
      const confirmed = { rrn: sandboxRrn(deps.ids), cardLast4: payment.cardLast4 ?? '1111', processor: 'sandbox' };
      // A `manual` payment is confirmed as held (authorized), as its processor would answer.
      payment = await applyProviderResult(
        deps,
        payment.uuid,
        payment.captureMethod === 'manual'
          ? { kind: 'authorized', holdMs: SANDBOX_HOLD_MS, ...confirmed }
          : { kind: 'paid', ...confirmed },
      );
    }
    ctx.set('Cache-Control', 'no-store');
    ctx.body = await paymentAnswer(deps, payment);
  });

  router.post('/clock/advance', guard, body, async (ctx) => {
    testPrincipal(ctx);
    const clock = deps.clock;
    if (!deps.config.manualClock || !isMovable(clock)) {
      throw new ApiError('not_found', 'The clock helper needs the server started with GATEWAY_CLOCK=manual.');
    }
    const { seconds } = parseOr422(advanceClockSchema, ctx.request.body);
    await clock.advance(seconds * 1000);
    await scheduler.runDueNow();
    ctx.set('Cache-Control', 'no-store');
    ctx.body = { now: toApiInstant(toStoredInstant(clock.nowMs())) };
  });

  return router;
}
