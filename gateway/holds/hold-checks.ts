/**
 * The background side of holds (docs/decisions.md "Holds"):
 *
 * - status checks of captures and releases whose outcome is unknown (or still pending a minute
 *   after they were sent: the request died before settling): the hold is read back from the
 *   processor and the operation settled; never sent again;
 * - the release of holds that ran out: an `authorized` payment past `capture_before` with no
 *   operation in flight gets a release (reason `expiry`), sent once, and ends `expired` with
 *   `failure_code: authorization_expired` (reported: `transaction.status.updated`, a log line and
 *   `gateway_holds_expired_total`).
 */
import {
  claimDueHoldOperations,
  insertHoldOperation,
  listRunOutHolds,
  reserveHold,
} from '../../storage/hold-operation.repository.js';
import type { HoldOperationRow } from '../../storage/hold-operation.table.js';
import { findPaymentRow } from '../../storage/payment.repository.js';
import type { PaymentRow } from '../../storage/payment.table.js';
import { toStoredInstant } from '../domain/clock.js';
import type { Deps } from '../runtime/deps.js';
import { callHoldProcessor, readHold } from './hold-calls.js';
import { holdCheckDelayMs, settleHold } from './hold-settlement.js';

/**
 * Claims operations in flight whose check is due. The claim counts the check and schedules the
 * next one, so a check that dies is made again later.
 */
export async function claimHoldChecks(
  deps: Deps,
  limit: number,
  skipProcessors: readonly string[] = [],
): Promise<HoldOperationRow[]> {
  const nowMs = deps.clock.nowMs();
  return deps.transact((trx) =>
    claimDueHoldOperations(trx, {
      now: toStoredInstant(nowMs),
      limit,
      skipProcessors,
      lock: deps.dialect === 'postgres',
      nextCheckAt: (checks) => toStoredInstant(nowMs + holdCheckDelayMs(checks)),
    }),
  );
}

/**
 * Reads back what became of one claimed operation's hold and settles it as the request would have.
 * A read the processor's counterpart refused was not made: it does not count, and the operation is
 * checked again when the processor may be asked.
 */
export async function checkHoldOperation(deps: Deps, operation: HoldOperationRow): Promise<void> {
  try {
    const payment = await findPaymentRow(deps.db, operation.payment_id);
    if (payment === undefined) throw new Error(`hold operation ${operation.id} has no payment`);
    const { finding, refused } = await readHold(deps, operation, payment);
    if (refused !== undefined) {
      const nowMs = deps.clock.nowMs();
      await deps.db
        .updateTable('hold_operations')
        .set({
          checks: Math.max(0, Number(operation.checks) - 1),
          next_check_at: toStoredInstant(nowMs + refused.retryInMs),
          updated_at: toStoredInstant(nowMs),
        })
        .where('id', '=', operation.id)
        .where('checks', '=', operation.checks)
        .where('next_check_at', '=', operation.next_check_at)
        .execute();
      return;
    }
    if (finding.kind === 'unavailable') {
      deps.logger.warn({ hold_operation_id: operation.id, detail: finding.detail }, 'hold read-back found nothing');
    }
    await settleHold(deps, operation, { source: 'check', finding });
  } catch (error) {
    // One operation must not stop the others; its next check is already scheduled.
    deps.logger.error({ err: error, hold_operation_id: operation.id }, 'hold check failed');
  }
}

/**
 * Reserves the release of up to `limit` holds that ran out (none of `skipProcessors`): each payment
 * in a transaction of its own, by the same conditional update a void uses, so a capture or void
 * racing it, or another instance, leaves it to whoever got the hold first.
 */
export async function claimRunOutHolds(
  deps: Deps,
  limit: number,
  skipProcessors: readonly string[] = [],
): Promise<{ operation: HoldOperationRow; payment: PaymentRow }[]> {
  const nowMs = deps.clock.nowMs();
  const now = toStoredInstant(nowMs);
  const claimed: { operation: HoldOperationRow; payment: PaymentRow }[] = [];
  for (const id of await listRunOutHolds(deps.db, now, limit, skipProcessors)) {
    const reserved = await deps.transact(async (trx) => {
      const operationId = deps.ids.uuid(nowMs);
      const held = await reserveHold(trx, id, operationId, now);
      if (held === undefined) return undefined;
      const operation: HoldOperationRow = {
        id: operationId,
        payment_id: held.id,
        merchant_id: held.merchant_id,
        environment: held.environment,
        processor: held.processor ?? '',
        kind: 'release',
        reason: 'expiry',
        amount: Number(held.authorized_amount),
        status: 'pending',
        failure_code: null,
        processor_reference: null,
        checks: 0,
        // Should this run die before settling, a status check resolves the release.
        next_check_at: toStoredInstant(nowMs + holdCheckDelayMs(0)),
        created_at: now,
        updated_at: now,
        completed_at: null,
      };
      await insertHoldOperation(trx, operation);
      return { operation, payment: held };
    });
    if (reserved !== undefined) claimed.push(reserved);
  }
  return claimed;
}

/** Sends one claimed release of a hold that ran out, once, and settles it. */
export async function releaseRunOutHold(deps: Deps, operation: HoldOperationRow, payment: PaymentRow): Promise<void> {
  try {
    const attempt = await callHoldProcessor(deps, operation, payment, 'background');
    await settleHold(deps, operation, { source: 'call', attempt });
  } catch (error) {
    // Its status check (scheduled with the claim) settles it.
    deps.logger.error({ err: error, hold_operation_id: operation.id }, 'release of a hold that ran out failed');
  }
}
