/**
 * What moves a payment after creation (spec "States and transitions"): the buyer choosing a method,
 * the provider's answer, a late confirmation, and expiry. Each change is one conditional update
 * (see gateway/domain/payment-lifecycle.ts) in a transaction that also writes the event it emits,
 * so a status change and its webhook are never separated, and of two racing writers one wins.
 */
import { findOrCreateCustomer } from '../../storage/customer.repository.js';
import type { Executor } from '../../storage/database.js';
import { isUniqueViolation } from '../../storage/errors.js';
import {
  findPaymentRow,
  listDuePayments,
  orderHeldByOther,
  rowToPayment,
  transitionPayment,
} from '../../storage/payment.repository.js';
import type { PaymentRow } from '../../storage/payment.table.js';
import { toStoredInstant } from '../domain/clock.js';
import { RELEASED_HOLD_CODES } from '../domain/holds.js';
import type { Payment } from '../domain/payment.js';
import {
  FINAL_STATUSES,
  type ProviderResult,
  processorFitsEnvironment,
  TRANSITIONS,
} from '../domain/payment-lifecycle.js';
import type { ProcessorSlug } from '../processors/registry.js';
import { emitWithReceipt, receiptForCompletedPayment } from '../receipts/receipts.service.js';
import type { Deps } from '../runtime/deps.js';
import { authorizedEvent, statusUpdatedEvent } from '../webhooks/events.js';
import { emitEvent } from '../webhooks/outbox.js';

export class PaymentNotFound extends Error {
  override name = 'PaymentNotFound';
}

async function currentRow(trx: Executor, paymentId: string, lock = false): Promise<PaymentRow> {
  const row = await findPaymentRow(trx, paymentId, { lock });
  if (row === undefined) throw new PaymentNotFound(`no payment ${paymentId}`);
  return row;
}

/** Writes `transaction.status.updated` (and its delivery) for a payment that just reached a final status. */
export async function emitStatusEvent(deps: Deps, trx: Executor, row: PaymentRow): Promise<void> {
  const payment = rowToPayment(row);
  if (!FINAL_STATUSES.includes(payment.status)) return;
  await emitEvent(deps, trx, row, statusUpdatedEvent(payment));
}

/**
 * The final statuses each running transaction reached, counted in the metrics once it committed
 * (a unit that rolls back counts nothing). Keyed by the transaction each unit of work receives.
 */
const reachedIn = new WeakMap<Executor, PaymentRow[]>();

/** Notes that the transaction moved a payment to a final status (`transactEmitting` counts it after commit). */
export function noteReached(trx: Executor, row: PaymentRow): void {
  reachedIn.get(trx)?.push(row);
}

function countReached(deps: Deps, rows: readonly PaymentRow[]): void {
  for (const row of rows) {
    if (
      row.status === 'authorized' ||
      row.status === 'completed' ||
      row.status === 'failed' ||
      row.status === 'expired'
    ) {
      deps.metrics.payment(row.status, row);
    }
  }
}

/** Runs `work` in a transaction, then counts the statuses it reached and wakes the dispatcher for the events it wrote. */
export async function transactEmitting<T>(deps: Deps, work: (trx: Executor) => Promise<T>): Promise<T> {
  let reached: PaymentRow[] = [];
  const result = await deps.transact((trx) => {
    reached = [];
    reachedIn.set(trx, reached);
    return work(trx);
  });
  countReached(deps, reached);
  deps.dueSignal.notify();
  return result;
}

/**
 * Expires the payment if it is open past its expiry (at `now`, by default the clock's present);
 * answers the updated row when it did.
 */
async function expireIfDue(
  deps: Deps,
  trx: Executor,
  paymentId: string,
  now = toStoredInstant(deps.clock.nowMs()),
): Promise<PaymentRow | undefined> {
  const expired = await transitionPayment(
    trx,
    paymentId,
    TRANSITIONS.expire.from,
    { status: 'expired', active_order_id: null, updated_at: now },
    { dueBy: now },
  );
  if (expired !== undefined) {
    noteReached(trx, expired);
    await emitStatusEvent(deps, trx, expired);
  }
  return expired;
}

/**
 * The buyer chose `processor` on the checkout: pending → processing. A payment already past its
 * expiry expires instead. Repeating the choice (a reload, a double click) answers the payment as it
 * is, and so does a processor of the other environment (the sandbox for a live payment, a bank for
 * a sandbox one): the environment fixed at creation never changes.
 */
export async function startProcessing(deps: Deps, paymentId: string, processor: ProcessorSlug): Promise<Payment> {
  return transactEmitting(deps, (trx) => startProcessingIn(deps, trx, paymentId, processor));
}

/** `startProcessing` inside the caller's transaction (a live processor's session is written with it). */
export async function startProcessingIn(
  deps: Deps,
  trx: Executor,
  paymentId: string,
  processor: ProcessorSlug,
): Promise<Payment> {
  const now = toStoredInstant(deps.clock.nowMs());
  const expired = await expireIfDue(deps, trx, paymentId, now);
  if (expired !== undefined) return rowToPayment(expired);
  const before = await currentRow(trx, paymentId);
  if (!processorFitsEnvironment({ sandbox: before.sandbox === 1 }, processor)) return rowToPayment(before);
  const started = await transitionPayment(trx, paymentId, TRANSITIONS.start_processing.from, {
    status: 'processing',
    processor,
    updated_at: now,
  });
  return rowToPayment(started ?? before);
}

/**
 * The provider's answer about a payment. Paid: processing → completed, or failed/expired → completed
 * (a late confirmation); a payment already completed stays as it is, so a repeated confirmation
 * changes nothing. Declined: processing → failed. No answer: the payment stays processing with the
 * reason recorded, until a later answer or its expiry. A payment found open past its expiry is
 * expired first, in the same transaction: a paid answer then completes it as a late confirmation
 * (both events are sent, expired first), any other answer leaves it expired.
 */
export async function applyProviderResult(deps: Deps, paymentId: string, result: ProviderResult): Promise<Payment> {
  try {
    return await transactEmitting(deps, (trx) => applyResult(deps, trx, paymentId, result));
  } catch (error) {
    // Two late confirmations of one order's payments raced for the order: the loser runs again and
    // now sees the order held, so it completes flagged for reconciliation.
    if (!isUniqueViolation(error)) throw error;
    return transactEmitting(deps, (trx) => applyResult(deps, trx, paymentId, result));
  }
}

async function applyResult(deps: Deps, trx: Executor, paymentId: string, result: ProviderResult): Promise<Payment> {
  const read = await currentRow(trx, paymentId, deps.dialect === 'postgres');
  // Whatever the caller saw before this transaction, the clock may have passed the expiry since.
  // One instant decides both: the expiry check and the time of the change.
  const nowMs = deps.clock.nowMs();
  const now = toStoredInstant(nowMs);
  const before = (await expireIfDue(deps, trx, paymentId, now)) ?? read;
  let changed: PaymentRow | undefined;
  switch (result.kind) {
    case 'paid': {
      // An authorized payment's hold is taken by its capture (gateway/holds/), never by a read-back.
      if (
        before.status === 'completed' ||
        before.status === 'refunded' ||
        before.status === 'pending' ||
        before.status === 'authorized'
      ) {
        break;
      }
      // Only the environment's own processors may pay it: the sandbox never pays a live payment.
      const payer = before.processor ?? result.processor;
      if (payer !== undefined && !processorFitsEnvironment({ sandbox: before.sandbox === 1 }, payer)) break;
      const customerId = await customerOf(deps, trx, before, now);
      const paid = {
        status: 'completed' as const,
        rrn: result.rrn,
        card_last4: result.cardLast4 ?? before.card_last4,
        failure_code: null,
        customer_id: customerId,
        processor: before.processor ?? result.processor ?? null,
        completed_at: now,
        updated_at: now,
      };
      changed = await transitionPayment(trx, paymentId, TRANSITIONS.complete.from, paid);
      if (changed === undefined && (TRANSITIONS.confirm_late.from as readonly string[]).includes(before.status)) {
        // A late confirmation takes the order back, unless another payment holds it meanwhile:
        // then two payments are paid for one order and a person must decide (reconciliation).
        const held = await orderHeldByOther(trx, before);
        changed = await transitionPayment(trx, paymentId, TRANSITIONS.confirm_late.from, {
          ...paid,
          active_order_id: held ? null : before.order_id,
          reconciliation_flag: held ? 'duplicate_completion' : before.reconciliation_flag,
        });
      }
      break;
    }
    case 'authorized':
      changed = await authorizeIn(deps, trx, before, result, nowMs);
      break;
    case 'declined':
      changed = await transitionPayment(trx, paymentId, TRANSITIONS.fail.from, {
        status: 'failed',
        failure_code: result.failureCode,
        card_last4: result.cardLast4 ?? before.card_last4,
        active_order_id: null,
        updated_at: now,
      });
      break;
    case 'pending': {
      const noted = await transitionPayment(trx, paymentId, ['processing'], {
        failure_code: result.failureCode,
        card_last4: result.cardLast4 ?? before.card_last4,
        updated_at: now,
      });
      return rowToPayment(noted ?? before);
    }
  }
  if (changed === undefined) return rowToPayment(await currentRow(trx, paymentId));
  noteReached(trx, changed);
  if (changed.status === 'completed') {
    await afterCompleted(deps, trx, changed);
  } else if (changed.status === 'authorized') {
    await emitEvent(deps, trx, changed, authorizedEvent(rowToPayment(changed)));
  } else {
    await emitStatusEvent(deps, trx, changed);
  }
  return rowToPayment(changed);
}

/**
 * What a payment that just became `completed` (paid, confirmed late, or a hold captured) brings, in
 * the transaction of that change: the sale receipt joins `transaction.status.updated` (a sandbox
 * one at once, a live one when issued in time), then the subscribers (billing counts it).
 */
export async function afterCompleted(deps: Deps, trx: Executor, completed: PaymentRow): Promise<void> {
  const receipt = await receiptForCompletedPayment(deps, trx, completed);
  await emitWithReceipt(deps, trx, completed, statusUpdatedEvent(rowToPayment(completed)), receipt);
  for (const subscriber of deps.paymentCompleted) await subscriber(deps, trx, completed);
}

/** The buyer's customer id once they paid (or their card is held): the one named, else one by email. */
async function customerOf(deps: Deps, trx: Executor, before: PaymentRow, now: string): Promise<string> {
  return (
    before.customer_id ??
    (await findOrCreateCustomer(trx, {
      id: `cus_${deps.ids.token(12)}`,
      merchant_id: before.merchant_id,
      environment: before.environment,
      email: before.customer_email?.toLowerCase() ?? null,
      created_at: now,
    }))
  );
}

/**
 * The processor holds a `manual` payment's amount: processing → authorized, until `holdMs` from now
 * (`capture_before`). A payment that failed or expired meanwhile is authorized late, unless the
 * gateway itself released its hold; when another payment holds the order by then, it is authorized
 * flagged for reconciliation (as a late confirmation is). An `automatic` payment is never
 * authorized: adapters answer `pending` for its hold.
 */
async function authorizeIn(
  deps: Deps,
  trx: Executor,
  before: PaymentRow,
  result: Extract<ProviderResult, { kind: 'authorized' }>,
  nowMs: number,
): Promise<PaymentRow | undefined> {
  if (before.capture_method !== 'manual') return undefined;
  const payer = before.processor ?? result.processor;
  if (payer !== undefined && !processorFitsEnvironment({ sandbox: before.sandbox === 1 }, payer)) return undefined;
  const now = toStoredInstant(nowMs);
  const held = {
    status: 'authorized' as const,
    rrn: result.rrn,
    card_last4: result.cardLast4 ?? before.card_last4,
    failure_code: null,
    customer_id: await customerOf(deps, trx, before, now),
    processor: before.processor ?? result.processor ?? null,
    authorized_amount: Number(before.amount),
    authorized_at: now,
    capture_before: toStoredInstant(nowMs + Math.max(0, result.holdMs)),
    updated_at: now,
  };
  const authorized = await transitionPayment(trx, before.id, TRANSITIONS.authorize.from, held);
  if (authorized !== undefined) return authorized;
  const late = (TRANSITIONS.authorize_late.from as readonly string[]).includes(before.status);
  if (!late || RELEASED_HOLD_CODES.includes(before.failure_code ?? '')) return undefined;
  const heldByOther = await orderHeldByOther(trx, before);
  return transitionPayment(trx, before.id, TRANSITIONS.authorize_late.from, {
    ...held,
    active_order_id: heldByOther ? null : before.order_id,
    reconciliation_flag: heldByOther ? 'duplicate_completion' : before.reconciliation_flag,
  });
}

/**
 * The merchant gives up an open payment (its order was cancelled): pending or processing → expired
 * now, with `failure_code` `cancelled`, so its checkout can no longer be paid and its order is free.
 * The `expired` event is sent as for any expiry. A processor may still confirm a payment the buyer
 * was paying at that moment: that is a late confirmation, as after any expiry. Answers the payment
 * as it is then (a final one unchanged).
 */
export async function cancelOpenPayment(deps: Deps, paymentId: string): Promise<Payment> {
  return transactEmitting(deps, async (trx) => {
    const now = toStoredInstant(deps.clock.nowMs());
    const cancelled = await transitionPayment(trx, paymentId, TRANSITIONS.expire.from, {
      status: 'expired',
      failure_code: CANCELLED,
      active_order_id: null,
      updated_at: now,
    });
    if (cancelled === undefined) return rowToPayment(await currentRow(trx, paymentId));
    noteReached(trx, cancelled);
    await emitStatusEvent(deps, trx, cancelled);
    return rowToPayment(cancelled);
  });
}

/** The `failure_code` of a payment its merchant cancelled. */
export const CANCELLED = 'cancelled';

/** Expires one payment if it is due (the checkout calls this before showing a payment). */
export async function expireIfDueNow(deps: Deps, paymentId: string): Promise<Payment | undefined> {
  const expired = await transactEmitting(deps, (trx) => expireIfDue(deps, trx, paymentId));
  return expired === undefined ? undefined : rowToPayment(expired);
}

/**
 * Expires every payment open past its expiry, up to `limit`; answers how many it expired.
 *
 * On SQLite one transaction expires them all. On PostgreSQL each payment expires in a transaction
 * of its own: a status change also moves two rows of `payment_counts` (migration 0020), always in
 * the same order, so transactions that each change one payment never wait on each other in a
 * cycle, whereas two batches of several payments could (instances expiring together). The due
 * payments are read without a lock; the expiry itself is a conditional update, so when two
 * instances reach one payment, the second finds it expired and does nothing.
 */
export async function expireDuePayments(deps: Deps, limit = 100): Promise<number> {
  const now = toStoredInstant(deps.clock.nowMs());
  if (deps.dialect === 'sqlite') {
    // Read first, outside a transaction: an idle gateway takes no write lock and wakes nobody.
    // Each payment is expired only if it is still open past its expiry when the transaction runs.
    const due = await listDuePayments(deps.db, now, limit);
    if (due.length === 0) return 0;
    return transactEmitting(deps, async (trx) => {
      let expired = 0;
      for (const id of due) {
        if ((await expireIfDue(deps, trx, id)) !== undefined) expired += 1;
      }
      return expired;
    });
  }
  let expired = 0;
  for (const id of await listDuePayments(deps.db, now, limit)) {
    if ((await transactEmitting(deps, (trx) => expireIfDue(deps, trx, id, now))) !== undefined) expired += 1;
  }
  return expired;
}
