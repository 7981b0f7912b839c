/**
 * A payment's page (nav `payments`):
 *
 * - `GET  /dashboard/payments/:uuid`                            every field, items, receipts, the
 *                                                               timeline, the webhook events with
 *                                                               their deliveries, the refunds, and
 *                                                               (owners and admins) the refund form
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
 *
 * Webhook targets (deliveries and attempts) are shown in clear to owners and admins and masked to
 * viewers, by the one rule of gateway/domain/masked-url.ts.
 *
 * A payment is looked up within the signed-in account: another account's, an unknown id or one that
 * is not a uuid are the same 404. With `?environment=test|live`, a payment of the other environment
 * is a 404 too (the payments list links with the environment it shows).
 */
import { findOutboxEvent } from '../../../storage/outbox-event.repository.js';
import { findPaymentRow, rowToPayment } from '../../../storage/payment.repository.js';
import type { PaymentRow } from '../../../storage/payment.table.js';
import { findSaleReceiptOfPayment, listReturnsOf } from '../../../storage/receipt.repository.js';
import { listPaymentRefunds } from '../../../storage/refund.repository.js';
import type { GatewayContext } from '../../api/context.js';
import { MAX_REFUND_REASON_LENGTH } from '../../api/schemas/refund.schema.js';
import { ApiError } from '../../domain/errors.js';
import { isUuid } from '../../domain/ids.js';
import { toPaymentResponse } from '../../domain/payment.js';
import { formatAmd } from '../../i18n/format.js';
import { methodName } from '../../i18n/method-names.js';
import { awaitingReference } from '../../payments/awaiting-reference.js';
import { settleInScope } from '../../payments/settle-reference.service.js';
import { receiptPageUrl } from '../../receipts/receipts.service.js';
import {
  DASHBOARD_REFUND_IDEMPOTENCY_SCOPE,
  refundableNow,
  refundPayment,
  toRefundObject,
} from '../../refunds/refund.service.js';
import { eventLogOf } from '../../webhooks/event-log.service.js';
import { currentWebhookTarget, resendAccountEvent } from '../../webhooks/resend.service.js';
import type { SectionRoutes, SignedInVisit } from '../kit.js';
import { mayManage } from '../roles.js';
import { paymentDetailText } from './detail-parts.js';
import type { PaymentDetailMessages } from './messages.js';
import { paymentDetailPage, type ReceiptLine, type TimelineEntry } from './payment-detail.pages.js';
import { type RefundForm, refundConfirmPage } from './refund.pages.js';

const NOTICES = { resent: 'resent', refunded: 'refunded', settled: 'settled' } as const;

/** `1500`, `1,500`, `1 500` or `1500.00` → 1500; undefined when it is not a whole number of AMD of at least 1. */
export function parseAmd(raw: string): number | undefined {
  const compact = raw.trim().replace(/[\s,]/g, '');
  const match = /^(\d{1,15})(?:\.0{1,2})?$/.exec(compact);
  if (match === null) return undefined;
  const amount = Number(match[1]);
  return amount >= 1 ? amount : undefined;
}

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

/** The status changes of a payment: its creation, then each event it emitted (they are written with each change). */
function timelineOf(
  m: PaymentDetailMessages,
  row: PaymentRow,
  events: Awaited<ReturnType<typeof eventLogOf>>,
): TimelineEntry[] {
  const entries: TimelineEntry[] = [{ at: row.created_at, text: m.timelineCreated }];
  for (const event of events) {
    if (event.event === 'payment.refunded') {
      entries.push({ at: event.created_at, text: m.timelineRefunded(event.body.refund?.amount ?? 0) });
    } else {
      const status = event.body.transaction.status;
      entries.push({ at: event.created_at, text: m.timelineStatus(m.statuses[status] ?? status) });
    }
  }
  if (row.status === 'pending') entries.push({ at: row.expires_at, text: m.timelineExpires });
  return entries;
}

export const paymentDetailRoutes: SectionRoutes = (router, kit) => {
  const { deps } = kit;

  /** The payment of the visit's account (and of the asked environment, if any); undefined otherwise. */
  const paymentOf = async (ctx: GatewayContext, visit: SignedInVisit): Promise<PaymentRow | undefined> => {
    const uuid = ctx.params.uuid ?? '';
    const row = isUuid(uuid) ? await findPaymentRow(deps.db, uuid) : undefined;
    if (row === undefined || row.merchant_id !== visit.merchantId) return undefined;
    const environment = kit.query(ctx, 'environment');
    if (environment !== undefined && environment !== row.environment) return undefined;
    return row;
  };

  const render = async (
    ctx: GatewayContext,
    visit: SignedInVisit,
    row: PaymentRow,
    status: number,
    extra: { form?: RefundForm; error?: string; settle?: { reference: string; error: string } } = {},
  ) => {
    const m = paymentDetailText(visit.shell);
    const [events, refunds, sale, target, awaiting] = await Promise.all([
      // The deliveries' and attempts' targets as this member may see them (viewers: masked).
      eventLogOf(deps, row.id, { kind: 'dashboard_member', role: visit.session.user.role }),
      listPaymentRefunds(deps.db, row.id),
      findSaleReceiptOfPayment(deps.db, row.id),
      currentWebhookTarget(deps.db, row),
      awaitingReference(deps, rowToPayment(row)),
    ]);
    const receipts: ReceiptLine[] = [];
    if (sale !== undefined) {
      const line = (r: typeof sale, kind: ReceiptLine['kind']): ReceiptLine => ({
        kind,
        status: r.status,
        amount: Number(r.card_amount) + Number(r.cash_amount),
        url: r.status === 'issued' ? receiptPageUrl(kit.publicUrl, r.public_token) : null,
      });
      receipts.push(line(sale, 'sale'), ...(await listReturnsOf(deps.db, sale.id)).map((r) => line(r, 'return')));
    }
    const refundable = refundableNow(row);
    const asked = kit.query(ctx, 'notice');
    const noticeKey =
      asked !== undefined && Object.hasOwn(NOTICES, asked) ? NOTICES[asked as keyof typeof NOTICES] : null;
    kit.send(
      ctx,
      visit.shell,
      status,
      paymentDetailPage(visit.shell, {
        payment: toPaymentResponse(rowToPayment(row), kit.publicUrl, awaiting !== null),
        events,
        refunds: refunds.map(toRefundObject),
        receipts,
        timeline: timelineOf(m, row, events),
        manage: mayManage(visit.session.user.role),
        webhookTarget: target,
        remaining: refundable instanceof ApiError || refundable.amount < 1 ? null : refundable.amount,
        form: extra.form ?? null,
        notice: noticeKey === null ? null : m[noticeKey],
        error: extra.error ?? null,
        settle:
          awaiting === null
            ? null
            : {
                processor: methodName(visit.shell.lang, row.processor ?? '', awaiting),
                reference: extra.settle?.reference ?? '',
                error: extra.settle?.error ?? null,
              },
      }),
    );
  };

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
};
