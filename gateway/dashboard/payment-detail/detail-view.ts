/**
 * What the payment page's routes share (./payment-detail.routes.ts, ./hold.routes.ts): finding the
 * payment of the visit's account, reading a typed amount, and rendering the page with everything
 * it shows (events, refunds, receipts, timeline, the hold) and the answer of a form that was not
 * accepted.
 *
 * A payment is looked up within the signed-in account: another account's, an unknown id or one that
 * is not a uuid are the same 404. With `?environment=test|live`, a payment of the other environment
 * is a 404 too (the payments list links with the environment it shows).
 */
import { findPaymentRow, rowToPayment } from '../../../storage/payment.repository.js';
import type { PaymentRow } from '../../../storage/payment.table.js';
import { findSaleReceiptOfPayment, listReturnsOf } from '../../../storage/receipt.repository.js';
import { listPaymentRefunds } from '../../../storage/refund.repository.js';
import type { GatewayContext } from '../../api/context.js';
import { toApiInstant } from '../../domain/clock.js';
import { ApiError } from '../../domain/errors.js';
import { AUTHORIZATION_EXPIRED, holdRanOut, VOIDED } from '../../domain/holds.js';
import { isUuid } from '../../domain/ids.js';
import { toPaymentResponse } from '../../domain/payment.js';
import { holdOperationsOf } from '../../holds/hold.service.js';
import { holdingProcessor } from '../../holds/hold-calls.js';
import { methodName } from '../../i18n/method-names.js';
import { awaitingReference } from '../../payments/awaiting-reference.js';
import { receiptPageUrl } from '../../receipts/receipts.service.js';
import { refundableNow, toRefundObject } from '../../refunds/refund.service.js';
import { eventLogOf } from '../../webhooks/event-log.service.js';
import { currentWebhookTarget } from '../../webhooks/resend.service.js';
import type { DashboardKit, SignedInVisit } from '../kit.js';
import { mayManage } from '../roles.js';
import { paymentDetailText } from './detail-parts.js';
import { type HoldForm, type HoldState, type HoldView, holdText } from './hold.pages.js';
import type { PaymentDetailMessages } from './messages.js';
import { paymentDetailPage, type ReceiptLine, type TimelineEntry } from './payment-detail.pages.js';
import type { RefundForm } from './refund.pages.js';

/** `1500`, `1,500`, `1 500` or `1500.00` → 1500; undefined when it is not a whole number of AMD of at least 1. */
export function parseAmd(raw: string): number | undefined {
  const compact = raw.trim().replace(/[\s,]/g, '');
  const match = /^(\d{1,15})(?:\.0{1,2})?$/.exec(compact);
  if (match === null) return undefined;
  const amount = Number(match[1]);
  return amount >= 1 ? amount : undefined;
}

/** The `?notice=` values the page's forms redirect with. */
const NOTICES = ['resent', 'refunded', 'settled', 'captured', 'released', 'checking'] as const;
type Notice = (typeof NOTICES)[number];

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

/** The answer of a form of the page that was not accepted, shown with the page. */
export interface PageExtra {
  readonly form?: RefundForm;
  readonly error?: string;
  readonly settle?: { readonly reference: string; readonly error: string };
  readonly hold?: HoldForm;
}

export interface PaymentPage {
  /** The payment of the visit's account (and of the asked environment, if any); undefined otherwise. */
  paymentOf(ctx: GatewayContext, visit: SignedInVisit): Promise<PaymentRow | undefined>;
  /** Sends the page of `row` with `status`. */
  render(ctx: GatewayContext, visit: SignedInVisit, row: PaymentRow, status: number, extra?: PageExtra): Promise<void>;
}

export function paymentPage(kit: DashboardKit): PaymentPage {
  const { deps } = kit;

  /** The hold of a payment created `manual` once authorized, as it is now; null for any other payment. */
  const holdOf = async (row: PaymentRow, manage: boolean, form: HoldForm | null): Promise<HoldView | null> => {
    if (row.capture_method !== 'manual' || row.authorized_amount === null) return null;
    const operations =
      (await holdOperationsOf(deps, { merchantId: row.merchant_id, environment: row.environment }, row.id)) ?? [];
    const inFlight = operations.findLast((o) => o.status === 'pending' || o.status === 'unknown');
    let state: HoldState;
    if (row.status === 'authorized') {
      if (inFlight?.reason === 'expiry' && inFlight.status === 'pending') {
        // The gateway's own release of a hold that ran out, being sent.
        state = { kind: 'ran_out' };
      } else if (inFlight !== undefined) {
        state = {
          kind: 'in_flight',
          operation: inFlight.kind,
          amount: inFlight.amount,
          unknown: inFlight.status === 'unknown',
        };
      } else {
        state = holdRanOut(rowToPayment(row), deps.clock.nowMs()) ? { kind: 'ran_out' } : { kind: 'open' };
      }
    } else if (row.status === 'completed' || row.status === 'refunded') {
      const capture = operations.findLast((o) => o.kind === 'capture' && o.status === 'succeeded');
      state = { kind: 'captured', amount: capture?.amount ?? Number(row.amount) };
    } else if (row.status === 'expired' && row.failure_code === VOIDED) {
      state = { kind: 'released' };
    } else if (row.status === 'expired' && row.failure_code === AUTHORIZATION_EXPIRED) {
      state = { kind: 'expired' };
    } else {
      return null;
    }
    return {
      paymentUuid: row.id,
      authorizedAmount: Number(row.authorized_amount),
      captureBefore: toApiInstant(row.capture_before),
      state,
      partial: (holdingProcessor(row)?.holds.partialCapture ?? false) && row.price_amount === null,
      manage,
      form,
    };
  };

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
    extra: PageExtra = {},
  ): Promise<void> => {
    const m = paymentDetailText(visit.shell);
    const manage = mayManage(visit.session.user.role);
    const [events, refunds, sale, target, awaiting, hold] = await Promise.all([
      // The deliveries' and attempts' targets as this member may see them (viewers: masked).
      eventLogOf(deps, row.id, { kind: 'dashboard_member', role: visit.session.user.role }),
      listPaymentRefunds(deps.db, row.id),
      findSaleReceiptOfPayment(deps.db, row.id),
      currentWebhookTarget(deps.db, row),
      awaitingReference(deps, rowToPayment(row)),
      holdOf(row, manage, extra.hold ?? null),
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
    const noticeKey = NOTICES.find((n): n is Notice => n === asked);
    const h = holdText(visit.shell);
    const noticeText: Record<Notice, string> = {
      resent: m.resent,
      refunded: m.refunded,
      settled: m.settled,
      captured: h.captured,
      released: h.released,
      checking: h.checking,
    };
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
        manage,
        webhookTarget: target,
        remaining: refundable instanceof ApiError || refundable.amount < 1 ? null : refundable.amount,
        form: extra.form ?? null,
        notice: noticeKey === undefined ? null : noticeText[noticeKey],
        // A hold's refusal on a payment without a hold card (nothing was ever held) is the page's error.
        error: extra.error ?? (hold === null ? (extra.hold?.error ?? extra.hold?.problem ?? null) : null),
        settle:
          awaiting === null
            ? null
            : {
                processor: methodName(visit.shell.lang, row.processor ?? '', awaiting),
                reference: extra.settle?.reference ?? '',
                error: extra.settle?.error ?? null,
              },
        hold,
      }),
    );
  };

  return { paymentOf, render };
}
