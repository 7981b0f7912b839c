/**
 * `POST /api/v1/payments/{uuid}/cancel` (an addition, docs/decisions.md "Cancelling a payment"): the
 * merchant, or a store's connection, gives up an open payment whose order was cancelled, so its
 * checkout can no longer be paid (lifecycle.service.ts `cancelOpenPayment`). Cancelling one already
 * cancelled, expired or failed answers it as it is; a paid one is 409 `payment_not_cancellable`
 * (refund it instead).
 */

import { findPayment } from '../../storage/payment.repository.js';
import type { Principal } from '../auth/principal.js';
import { ApiError } from '../domain/errors.js';
import { isUuid } from '../domain/ids.js';
import type { PaymentResponse } from '../domain/payment.js';
import type { Deps } from '../runtime/deps.js';
import { paymentAnswer } from './awaiting-reference.js';
import { cancelOpenPayment } from './lifecycle.service.js';
import { scopeOf } from './payment-scope.js';

export async function cancelPayment(deps: Deps, principal: Principal, uuid: string): Promise<PaymentResponse> {
  const payment = isUuid(uuid) ? await findPayment(deps.db, scopeOf(principal), uuid) : undefined;
  if (payment === undefined) throw new ApiError('not_found', `No payment ${uuid} for this key.`);
  const after = await cancelOpenPayment(deps, payment.uuid);
  if (after.status === 'completed' || after.status === 'refunded') {
    throw new ApiError(
      'payment_not_cancellable',
      `The payment is ${after.status}: the buyer paid, so it cannot be cancelled. Refund it instead.`,
      { details: { payment_status: after.status } },
    );
  }
  if (after.status === 'authorized') {
    throw new ApiError(
      'payment_not_cancellable',
      `The payment is authorized: the buyer's card holds its amount. Void it instead (POST /api/v1/payments/${after.uuid}/void).`,
      { details: { payment_status: after.status } },
    );
  }
  return paymentAnswer(deps, after);
}
