/**
 * The first step of a refund (refund.service.ts): in one transaction, one conditional update takes
 * the amount from what is still free on the payment (`amount - refunded_amount -
 * refund_reserved_amount`), the refund row is written `pending`, and the `Idempotency-Key` is bound
 * to that refund.
 */
import { findPayment, findPaymentRow, type PaymentScope } from '../../storage/payment.repository.js';
import type { PaymentRow } from '../../storage/payment.table.js';
import { insertRefund, reserveRefundAmount, reserveRemainingAmount } from '../../storage/refund.repository.js';
import type { RefundRow } from '../../storage/refund.table.js';
import { parseRefundBody, type RefundBody } from '../api/schemas/refund.schema.js';
import { toStoredInstant } from '../domain/clock.js';
import { ApiError } from '../domain/errors.js';
import { isUuid } from '../domain/ids.js';
import type { CompleteKey } from '../payments/idempotency.js';
import type { Deps } from '../runtime/deps.js';
import { refundCheckDelayMs } from './check-schedule.js';
import { refusalFor } from './refusals.js';

/** What an `Idempotency-Key` of a refund stores: the refund it is bound to (answered in its current state). */
export function boundKeyBody(refundId: string): { refund_uuid: string } {
  return { refund_uuid: refundId };
}

export interface Reservation {
  readonly refund: RefundRow;
  readonly payment: PaymentRow;
}

/** Steps before the processor: find, validate, check, then reserve in one conditional update. */
export async function reserve(
  deps: Deps,
  scope: PaymentScope,
  paymentUuid: string,
  rawBody: unknown,
  complete: CompleteKey,
): Promise<Reservation> {
  const payment = isUuid(paymentUuid) ? await findPayment(deps.db, scope, paymentUuid) : undefined;
  if (payment === undefined) throw new ApiError('not_found', `No payment ${paymentUuid} for this key.`);
  const body: RefundBody = parseRefundBody(rawBody);

  // The conditional update is the guard; a failed one is explained from a fresh read. An in-flight
  // refund that ends between the two may leave nothing to explain: then try again (bounded).
  for (let attempt = 0; attempt < 3; attempt++) {
    const reservation = await deps.transact(async (trx): Promise<Reservation | undefined> => {
      const current = await findPaymentRow(trx, payment.uuid);
      if (current === undefined) throw new ApiError('not_found', `No payment ${paymentUuid} for this key.`);
      const refusal = refusalFor(current, body.amount);
      if (refusal !== undefined) throw refusal;

      const nowMs = deps.clock.nowMs();
      const now = toStoredInstant(nowMs);
      const reserved =
        body.amount === undefined
          ? await reserveRemainingAmount(trx, payment.uuid, now)
          : await reserveRefundAmount(trx, payment.uuid, body.amount, now);
      if (reserved === undefined) {
        const after = await findPaymentRow(trx, payment.uuid);
        const lost = after === undefined ? undefined : refusalFor(after, body.amount);
        if (lost !== undefined) throw lost;
        return undefined;
      }
      const amount = body.amount ?? Number(reserved.amount) - Number(reserved.refunded_amount);
      const refund: RefundRow = {
        id: deps.ids.uuid(nowMs),
        payment_id: reserved.id,
        merchant_id: reserved.merchant_id,
        environment: reserved.environment,
        processor: reserved.processor ?? '',
        amount,
        reason: body.reason,
        status: 'pending',
        failure_code: null,
        processor_reference: null,
        checks: 0,
        // Should this request die before settling, a status check resolves the refund.
        next_check_at: toStoredInstant(nowMs + refundCheckDelayMs(0)),
        created_at: now,
        updated_at: now,
        completed_at: null,
      };
      await insertRefund(trx, refund);
      await complete(trx, { status: 201, body: boundKeyBody(refund.id) });
      return { refund, payment: reserved };
    });
    if (reservation !== undefined) return reservation;
  }
  throw new ApiError(
    'refund_in_progress',
    `Other refunds of payment ${payment.uuid} are changing it right now. Read the payment back and retry.`,
  );
}
