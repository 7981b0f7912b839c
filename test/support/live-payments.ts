/**
 * A test-only way to complete a live (non-sandbox) payment: no real processor exists in tests, so
 * this router stands in for one. It is mounted only by tests through `startTestGateway`'s `routers`
 * option and lives under test/, so production can never reach it.
 *
 * - `POST /test-only/payments/:uuid/complete`: pending → processing with the processor slug
 *   `test_live_standin` (not `sandbox`, which would make it a sandbox payment), then the provider
 *   answers paid through `applyProviderResult`, exactly as a real processor's answer is applied.
 * - `POST /test-only/payments/:uuid/fail`: the same, with a decline.
 * - `POST /test-only/payments/:uuid/confirm`: a (late) paid answer for a payment in any status.
 * Each answers the payment (`rowToPayment`) as JSON; 409 when the payment is not a live
 * non-sandbox pending payment (complete/fail), 404 when unknown.
 */
import { randomInt } from 'node:crypto';
import { Router } from '@koa/router';
import type { GatewayState } from '../../gateway/api/context.js';
import { toStoredInstant } from '../../gateway/domain/clock.js';
import type { ProviderResult } from '../../gateway/domain/payment-lifecycle.js';
import { applyProviderResult } from '../../gateway/payments/lifecycle.service.js';
import type { Deps } from '../../gateway/runtime/deps.js';
import { findPaymentRow, transitionPayment } from '../../storage/payment.repository.js';
import type { ApiResponse, TestGateway } from './gateway.js';

export const STANDIN_PROCESSOR = 'test_live_standin';

function rrn(): string {
  return String(randomInt(100_000_000_000, 999_999_999_999));
}

export interface LivePaymentsRouter {
  readonly router: Router<GatewayState>;
  /** Gives the router the running gateway's deps (they exist only once it started). */
  bind(deps: Deps): void;
}

export function livePaymentsRouter(): LivePaymentsRouter {
  let bound: Deps | undefined;
  const deps = (): Deps => {
    if (bound === undefined) throw new Error('livePaymentsRouter used before bind(deps)');
    return bound;
  };
  const router = new Router<GatewayState>({ prefix: '/test-only/payments' });

  const startAndAnswer = async (id: string, result: ProviderResult): Promise<{ status: number; body: unknown }> => {
    const d = deps();
    const started = await d.transact(async (trx) => {
      const row = await findPaymentRow(trx, id);
      if (row === undefined) return 'missing' as const;
      if (row.environment !== 'live' || row.sandbox !== 0) return 'not_live' as const;
      const moved = await transitionPayment(trx, id, ['pending'], {
        status: 'processing',
        processor: STANDIN_PROCESSOR,
        updated_at: toStoredInstant(d.clock.nowMs()),
      });
      return moved === undefined ? ('not_pending' as const) : ('ok' as const);
    });
    if (started !== 'ok') return { status: started === 'missing' ? 404 : 409, body: { error: started } };
    return { status: 200, body: await applyProviderResult(d, id, result) };
  };

  router.post('/:uuid/complete', async (ctx) => {
    const answer = await startAndAnswer(ctx.params.uuid ?? '', { kind: 'paid', rrn: rrn(), cardLast4: '4242' });
    ctx.status = answer.status;
    ctx.body = answer.body;
  });
  router.post('/:uuid/fail', async (ctx) => {
    const answer = await startAndAnswer(ctx.params.uuid ?? '', {
      kind: 'declined',
      failureCode: 'declined',
      cardLast4: '4242',
    });
    ctx.status = answer.status;
    ctx.body = answer.body;
  });
  router.post('/:uuid/confirm', async (ctx) => {
    const id = ctx.params.uuid ?? '';
    const d = deps();
    if ((await findPaymentRow(d.db, id)) === undefined) {
      ctx.status = 404;
      ctx.body = { error: 'missing' };
      return;
    }
    ctx.body = await applyProviderResult(d, id, { kind: 'paid', rrn: rrn(), cardLast4: '4242' });
  });

  return {
    router,
    bind(d) {
      bound = d;
    },
  };
}

/** Completes a live payment through the stand-in processor (answers the HTTP response as is). */
export async function completeLivePayment(t: TestGateway, uuid: string): Promise<ApiResponse> {
  return t.call('POST', `/test-only/payments/${uuid}/complete`);
}
