/**
 * A payment's page (nav `payments`):
 *
 * - `GET  /dashboard/payments/:uuid`                            every field, items, receipts, the
 *                                                               timeline, the hold, the webhook
 *                                                               events with their deliveries, the
 *                                                               refunds, and (owners and admins) the
 *                                                               refund form
 * - `POST /dashboard/payments/:uuid/events/:eventId/resend`     queues a new signed delivery of the
 *                                                               event (resend.service.ts, as the API
 *                                                               and `bin/gateway webhook resend` do)
 * - `POST /dashboard/payments/:uuid/processor_reference`        settles a payment whose processor's
 *                                                               notice never named the order (Telcell's
 *                                                               invoice) with the reference the merchant
 *                                                               gives (settle-reference.service.ts)
 * - `POST /dashboard/payments/:uuid/refund`                     without `confirm=yes`: checks the
 *                                                               amount and asks to confirm, with a
 *                                                               fresh idempotency key in the form;
 *                                                               with it: refunds through the API's
 *                                                               refund service under that key
 * - `POST /dashboard/payments/:uuid/capture`, `…/void`          the hold's capture and release
 *                                                               (./hold.routes.ts)
 *
 * Webhook targets (deliveries and attempts) are shown in clear to owners and admins and masked to
 * viewers, by the one rule of gateway/domain/masked-url.ts. Finding the payment and rendering the
 * page: ./detail-view.ts.
 */
import { findOutboxEvent } from '../../../storage/outbox-event.repository.js';
import { findPaymentRow, rowToPayment } from '../../../storage/payment.repository.js';
import { MAX_REFUND_REASON_LENGTH } from '../../api/schemas/refund.schema.js';
import { ApiError } from '../../domain/errors.js';
import { isUuid } from '../../domain/ids.js';
import { formatAmd } from '../../i18n/format.js';
import { methodName } from '../../i18n/method-names.js';
import { awaitingReference } from '../../payments/awaiting-reference.js';
import { settleInScope } from '../../payments/settle-reference.service.js';
import { DASHBOARD_REFUND_IDEMPOTENCY_SCOPE, refundableNow, refundPayment } from '../../refunds/refund.service.js';
import { resendAccountEvent } from '../../webhooks/resend.service.js';
import type { SectionRoutes } from '../kit.js';
import { paymentDetailText } from './detail-parts.js';
import { parseAmd, paymentPage } from './detail-view.js';
import { holdRoutes } from './hold.routes.js';
import type { PaymentDetailMessages } from './messages.js';
import { type RefundForm, refundConfirmPage } from './refund.pages.js';

/** The refusal of a refund in the reader's words, and the status the page is answered with. */
function refusalText(
  m: PaymentDetailMessages,
  error: ApiError,
): { text: string; status: number; field?: 'amount' | 'reason' } {
  switch (error.code) {
    case 'amount_exceeds_remaining': {
      const remaining = Number(error.details.remaining_amount ?? 0);
      return { text: m.amountTooLarge(remaining), status: 422, field: 'amount' };
    }
    case 'invalid_amount':
      return { text: m.amountInvalid, status: 422, field: 'amount' };
    case 'validation_failed':
      return { text: m.reasonTooLong, status: 422, field: 'reason' };
    case 'not_refundable':
    case 'already_refunded':
    case 'refund_not_supported':
    case 'refund_in_progress':
    case 'refund_declined':
    case 'processor_unavailable':
    case 'refund_outcome_unknown':
      return { text: m.refusals[error.code], status: error.code === 'refund_declined' ? 422 : 409 };
    case 'conflict':
      return { text: m.refusals.refund_in_progress, status: 409 };
    default:
      return { text: m.refusals.other, status: 409 };
  }
}

export const paymentDetailRoutes: SectionRoutes = (router, kit) => {
  const { deps } = kit;
  const page = paymentPage(kit);
  const { paymentOf, render } = page;

  router.get('/dashboard/payments/:uuid', async (ctx) => {
    const visit = await kit.signedIn(ctx, 'payments');
    if (!visit) return;
    const row = await paymentOf(ctx, visit);
    if (row === undefined) return kit.notFound(ctx, visit);
    ctx.set('Cache-Control', 'no-store');
    await render(ctx, visit, row, 200);
  });

  router.post('/dashboard/payments/:uuid/events/:eventId/resend', kit.formGuard, async (ctx) => {
    const visit = await kit.manager(ctx, 'payments');
    if (!visit) return;
    const row = await paymentOf(ctx, visit);
    const eventId = ctx.params.eventId ?? '';
    const event = row !== undefined && isUuid(eventId) ? await findOutboxEvent(deps.db, eventId) : undefined;
    if (row === undefined || event === undefined || event.payment_id !== row.id) return kit.notFound(ctx, visit);
    try {
      await resendAccountEvent(deps, visit.merchantId, row.id, event.id);
    } catch (error) {
      if (!(error instanceof ApiError) || error.code !== 'no_webhook_target') throw error;
      return render(ctx, visit, row, 409, { error: paymentDetailText(visit.shell).noWebhookTarget });
    }
    await kit.audit(ctx, visit, 'webhook.resent', `${event.event} ${event.id} (payment ${row.id})`);
    kit.redirect(ctx, `/dashboard/payments/${row.id}?notice=resent#events`);
  });

  router.post('/dashboard/payments/:uuid/processor_reference', kit.formGuard, async (ctx) => {
    const visit = await kit.manager(ctx, 'payments');
    if (!visit) return;
    const row = await paymentOf(ctx, visit);
    if (row === undefined) return kit.notFound(ctx, visit);
    const m = paymentDetailText(visit.shell);
    const reference = kit.field(ctx, 'reference').trim();
    try {
      await settleInScope(deps, { merchantId: visit.merchantId, environment: row.environment }, row.id, reference);
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      const awaiting = (await awaitingReference(deps, rowToPayment(row))) ?? row.processor ?? '';
      const processor = methodName(visit.shell.lang, row.processor ?? '', awaiting);
      const text =
        error.code === 'validation_failed'
          ? m.settleInvalid
          : error.code === 'processor_unavailable'
            ? m.settleNotConfirmed(processor)
            : m.settleConflict;
      const after = (await findPaymentRow(deps.db, row.id)) ?? row;
      return render(ctx, visit, after, error.code === 'validation_failed' ? 422 : 409, {
        settle: { reference, error: text },
      });
    }
    await kit.audit(ctx, visit, 'payment.settled', `payment ${row.id} with the processor's reference ${reference}`);
    kit.redirect(ctx, `/dashboard/payments/${row.id}?notice=settled`);
  });

  router.post('/dashboard/payments/:uuid/refund', kit.formGuard, async (ctx) => {
    const visit = await kit.manager(ctx, 'payments');
    if (!visit) return;
    const row = await paymentOf(ctx, visit);
    if (row === undefined) return kit.notFound(ctx, visit);
    const m = paymentDetailText(visit.shell);
    const rawAmount = kit.field(ctx, 'amount');
    const reason = kit.field(ctx, 'reason').trim();
    const amount = parseAmd(rawAmount);
    const problems: RefundForm['problems'] = {
      ...(amount === undefined ? { amount: m.amountInvalid } : {}),
      ...(reason.length > MAX_REFUND_REASON_LENGTH ? { reason: m.reasonTooLong } : {}),
    };
    const form: RefundForm = { amount: rawAmount, reason, problems, error: null };
    if (amount === undefined || Object.keys(problems).length > 0) return render(ctx, visit, row, 422, { form });

    if (kit.field(ctx, 'confirm') !== 'yes') {
      // Checked here so the confirmation never offers what the refund would refuse; checked again
      // by the refund itself.
      const refundable = refundableNow(row);
      if (refundable instanceof ApiError) {
        const refusal = refusalText(m, refundable);
        return render(ctx, visit, row, refusal.status, { form: { ...form, error: refusal.text } });
      }
      if (!refundable.partial && amount !== refundable.amount) {
        return render(ctx, visit, row, 422, {
          form: { ...form, problems: { amount: m.wholeOnly(refundable.amount) } },
        });
      }
      if (amount > refundable.amount) {
        return render(ctx, visit, row, 422, {
          form: { ...form, problems: { amount: m.amountTooLarge(refundable.amount) } },
        });
      }
      return kit.send(
        ctx,
        visit.shell,
        200,
        refundConfirmPage(visit.shell, {
          paymentUuid: row.id,
          orderId: row.order_id,
          amount,
          reason,
          key: deps.ids.token(24),
        }),
      );
    }

    const key = kit.field(ctx, 'refund_key');
    if (!/^[A-Za-z0-9_-]{16,64}$/.test(key)) return render(ctx, visit, row, 422, { form });
    try {
      const answer = await refundPayment(deps, {
        scope: { merchantId: visit.merchantId, environment: row.environment },
        keyScope: {
          merchantId: visit.merchantId,
          environment: row.environment,
          scope: DASHBOARD_REFUND_IDEMPOTENCY_SCOPE,
        },
        paymentUuid: row.id,
        body: { amount, reason: reason === '' ? null : reason },
        idempotencyKey: key,
      });
      if (!answer.replayed) {
        await kit.audit(
          ctx,
          visit,
          'refund.created',
          `${formatAmd('en', answer.body.amount)} of payment ${row.id} (refund ${answer.body.uuid})`,
        );
      }
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      const refusal = refusalText(m, error);
      const after = (await findPaymentRow(deps.db, row.id)) ?? row;
      const problemsAfter = refusal.field === undefined ? {} : { [refusal.field]: refusal.text };
      return render(ctx, visit, after, refusal.status, {
        form: { ...form, problems: problemsAfter, error: refusal.field === undefined ? refusal.text : null },
      });
    }
    kit.redirect(ctx, `/dashboard/payments/${row.id}?notice=refunded#refunds`);
  });

  holdRoutes(router, kit, page);
};
