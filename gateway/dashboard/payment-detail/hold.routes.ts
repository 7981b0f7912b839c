/**
 * The hold of a payment created `manual`, from its page (owners and admins; viewers are refused
 * with 403 like every change):
 *
 * - `POST /dashboard/payments/:uuid/capture`   `amount` (whole AMD, at most the hold): without
 *                                              `confirm=yes`, checks it with the service's own rules
 *                                              and asks to confirm, with a fresh `capture_key`; with
 *                                              it, captures through `capturePayment`
 *                                              (gateway/holds/hold.service.ts, as the API's
 *                                              `POST /api/v1/payments/{uuid}/capture`) under that key
 * - `POST /dashboard/payments/:uuid/void`      the same for the release (`release_key`, `voidPayment`)
 *
 * The keys live in the dashboard's own idempotency scopes: a double submit, or a resent
 * confirmation, sends nothing more and answers the first operation as it is now. An operation the
 * processor did not answer is shown as being checked (the page's notice and its hold), never as a
 * failure. A refusal is said at the top of the page and beside its form: an amount problem is 422
 * on the field, a processor's decline 422, a state that forbids it 409 (as refunds on the page).
 */
import type { Router } from '@koa/router';
import { findPaymentRow } from '../../../storage/payment.repository.js';
import type { PaymentRow } from '../../../storage/payment.table.js';
import type { GatewayContext, GatewayState } from '../../api/context.js';
import { ApiError } from '../../domain/errors.js';
import {
  assertHoldActionable,
  capturePayment,
  DASHBOARD_CAPTURE_IDEMPOTENCY_SCOPE,
  DASHBOARD_VOID_IDEMPOTENCY_SCOPE,
  voidPayment,
} from '../../holds/hold.service.js';
import { formatAmd } from '../../i18n/format.js';
import type { DashboardKit, SignedInVisit } from '../kit.js';
import { type PaymentPage, parseAmd } from './detail-view.js';
import type { HoldMessages } from './hold.messages.js';
import { captureConfirmPage, type HoldForm, holdText, releaseConfirmPage } from './hold.pages.js';

/** The confirmation forms' keys: what `deps.ids.token(24)` makes, and no other shape. */
const KEY_SHAPE = /^[A-Za-z0-9_-]{16,64}$/;

/**
 * A refusal in the reader's words, the page's status, and whether it is the amount's problem.
 * `row` is the payment as the request found it: one that was never held holds nothing, whatever
 * its status.
 */
function refusalOf(
  h: HoldMessages,
  error: ApiError,
  row: PaymentRow,
): { text: string; status: number; field: boolean } {
  const authorized = Number(row.authorized_amount ?? 0);
  const state = (text: string) => ({ text, status: 409, field: false });
  switch (error.code) {
    case 'invalid_amount':
      return { text: h.amountInvalid, status: 422, field: true };
    case 'amount_exceeds_authorized':
      return {
        text: h.amountTooLarge(Number(error.details.authorized_amount ?? authorized)),
        status: 422,
        field: true,
      };
    case 'validation_failed':
      // The only field of a capture: a smaller amount of a payment captured whole.
      return { text: h.captureWhole(authorized), status: 422, field: true };
    case 'capture_declined':
      return { text: h.refusals.capture_declined, status: 422, field: false };
    case 'void_declined':
      return { text: h.refusals.void_declined, status: 422, field: false };
    case 'authorization_expired':
      return state(h.refusals.authorization_expired);
    case 'payment_not_authorized': {
      const status = error.details.payment_status;
      if (row.authorized_amount === null) return state(h.refusals.not_authorized);
      if (status === 'completed' || status === 'refunded') return state(h.refusals.already_captured);
      if (status === 'expired') return state(h.refusals.already_released);
      return state(h.refusals.not_authorized);
    }
    case 'processor_unavailable':
      return state(h.refusals.processor_unavailable);
    case 'hold_operation_in_progress':
    case 'conflict':
      return state(h.refusals.in_progress);
    default:
      return state(h.refusals.other);
  }
}

export function holdRoutes(router: Router<GatewayState>, kit: DashboardKit, page: PaymentPage): void {
  const { deps } = kit;

  /** Answers an ApiError of the service: unknown outcomes as being checked, refusals on the page. */
  const answerRefusal = async (
    ctx: GatewayContext,
    visit: SignedInVisit,
    row: PaymentRow,
    form: HoldForm,
    error: unknown,
  ): Promise<void> => {
    if (!(error instanceof ApiError)) throw error;
    if (error.code === 'not_found') return kit.notFound(ctx, visit);
    if (error.code === 'capture_outcome_unknown' || error.code === 'void_outcome_unknown') {
      return kit.redirect(ctx, `/dashboard/payments/${row.id}?notice=checking#hold`);
    }
    const refusal = refusalOf(holdText(visit.shell), error, row);
    const after = (await findPaymentRow(deps.db, row.id)) ?? row;
    return page.render(ctx, visit, after, refusal.status, {
      hold: refusal.field ? { ...form, problem: refusal.text } : { ...form, error: refusal.text },
    });
  };

  /** The visit and payment of a hold's POST, or undefined once answered (sign in, 403, 404). */
  const begin = async (ctx: GatewayContext): Promise<{ visit: SignedInVisit; row: PaymentRow } | undefined> => {
    const visit = await kit.manager(ctx, 'payments');
    if (!visit) return undefined;
    const row = await page.paymentOf(ctx, visit);
    if (row === undefined) {
      kit.notFound(ctx, visit);
      return undefined;
    }
    return { visit, row };
  };

  const keyScope = (visit: SignedInVisit, row: PaymentRow, scope: string) => ({
    merchantId: visit.merchantId,
    environment: row.environment,
    scope,
  });

  router.post('/dashboard/payments/:uuid/capture', kit.formGuard, async (ctx) => {
    const asked = await begin(ctx);
    if (asked === undefined) return;
    const { visit, row } = asked;
    const h = holdText(visit.shell);
    const rawAmount = kit.field(ctx, 'amount');
    const amount = parseAmd(rawAmount);
    const form: HoldForm = { action: 'capture', amount: rawAmount, problem: null, error: null };
    if (amount === undefined) return page.render(ctx, visit, row, 422, { hold: { ...form, problem: h.amountInvalid } });
    const authorized = Number(row.authorized_amount ?? 0);

    if (kit.field(ctx, 'confirm') !== 'yes') {
      // Checked here so the confirmation never offers what the capture would refuse; checked again
      // by the capture itself.
      try {
        await assertHoldActionable(deps.db, row, 'capture', amount, deps.clock.nowMs());
      } catch (error) {
        return answerRefusal(ctx, visit, row, form, error);
      }
      return kit.send(
        ctx,
        visit.shell,
        200,
        captureConfirmPage(visit.shell, {
          paymentUuid: row.id,
          orderId: row.order_id,
          amount,
          authorizedAmount: authorized,
          key: deps.ids.token(24),
        }),
      );
    }

    const key = kit.field(ctx, 'capture_key');
    if (!KEY_SHAPE.test(key)) return page.render(ctx, visit, row, 422, { hold: { ...form, error: h.refusals.other } });
    try {
      const answer = await capturePayment(deps, {
        scope: { merchantId: visit.merchantId, environment: row.environment },
        keyScope: keyScope(visit, row, DASHBOARD_CAPTURE_IDEMPOTENCY_SCOPE),
        paymentUuid: row.id,
        body: { amount },
        idempotencyKey: key,
      });
      if (!answer.replayed) {
        const captured = answer.body.charge?.amount ?? answer.body.amount;
        await kit.audit(
          ctx,
          visit,
          'payment.captured',
          `${formatAmd('en', captured)} of payment ${row.id} (held ${formatAmd('en', authorized)})`,
        );
      }
    } catch (error) {
      return answerRefusal(ctx, visit, row, form, error);
    }
    kit.redirect(ctx, `/dashboard/payments/${row.id}?notice=captured#hold`);
  });

  router.post('/dashboard/payments/:uuid/void', kit.formGuard, async (ctx) => {
    const asked = await begin(ctx);
    if (asked === undefined) return;
    const { visit, row } = asked;
    const h = holdText(visit.shell);
    const form: HoldForm = { action: 'release', amount: '', problem: null, error: null };
    const authorized = Number(row.authorized_amount ?? 0);

    if (kit.field(ctx, 'confirm') !== 'yes') {
      try {
        await assertHoldActionable(deps.db, row, 'release', undefined, deps.clock.nowMs());
      } catch (error) {
        return answerRefusal(ctx, visit, row, form, error);
      }
      return kit.send(
        ctx,
        visit.shell,
        200,
        releaseConfirmPage(visit.shell, {
          paymentUuid: row.id,
          orderId: row.order_id,
          amount: authorized,
          authorizedAmount: authorized,
          key: deps.ids.token(24),
        }),
      );
    }

    const key = kit.field(ctx, 'release_key');
    if (!KEY_SHAPE.test(key)) return page.render(ctx, visit, row, 422, { hold: { ...form, error: h.refusals.other } });
    try {
      const answer = await voidPayment(deps, {
        scope: { merchantId: visit.merchantId, environment: row.environment },
        keyScope: keyScope(visit, row, DASHBOARD_VOID_IDEMPOTENCY_SCOPE),
        paymentUuid: row.id,
        body: {},
        idempotencyKey: key,
      });
      if (!answer.replayed) {
        await kit.audit(ctx, visit, 'payment.released', `payment ${row.id} (${formatAmd('en', authorized)} released)`);
      }
    } catch (error) {
      return answerRefusal(ctx, visit, row, form, error);
    }
    kit.redirect(ctx, `/dashboard/payments/${row.id}?notice=released#hold`);
  });
}
