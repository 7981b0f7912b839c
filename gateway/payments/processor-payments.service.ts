/**
 * A payment at a live processor, from the buyer's choice to the processor's last word
 * (docs/processors.md "How a payment goes"):
 *
 * 1. `beginAtProcessor`: the buyer chose a processor. Its session (the order number we send) is
 *    created once; the processor registers the order; only then does the payment go processing,
 *    in one transaction with the session's reference and where the buyer goes. A processor that
 *    refuses or does not answer leaves the payment pending, so the buyer may try again or choose
 *    another method.
 * 2. The buyer comes back (`returnFromProcessor`), the processor calls (`handleProcessorCallback`),
 *    or the poll job asks (`pollSession`). Nothing unsigned changes a payment: each of
 *    these reads the status back from the processor (`readBack`), except a callback the adapter
 *    found signed with the merchant's secret where the processor has no status API.
 * 3. What the processor says is applied by the lifecycle (applyProviderResult): paid after the
 *    gateway expired the payment is a late confirmation; a repeated answer changes nothing.
 *
 * Payments left processing are polled on a bounded schedule from the session's start (`POLL_AFTER_MS`)
 * until the processor gives a final answer, so a lost callback or a buyer who never came back still
 * ends in the right status, a late confirmation included.
 */
import { findPaymentRow, rowToPayment } from '../../storage/payment.repository.js';
import {
  claimDueSessions,
  findOrCreateSession,
  findSession,
  findSessionByKey,
  updateSession,
} from '../../storage/processor-session.repository.js';
import type { ProcessorSessionRow } from '../../storage/processor-session.table.js';
import { HOUR_MS, MINUTE_MS, toStoredInstant } from '../domain/clock.js';
import type { Payment } from '../domain/payment.js';
import type { CallPriority, Refusal } from '../processors/counterparts.js';
import type {
  BuyerRedirect,
  CallbackAnswer,
  CallbackRequest,
  Processor,
  ProcessorLanguage,
  StatusAnswer,
} from '../processors/processor.js';
import { isKnownProcessor, processorFor } from '../processors/registry.js';
import { storedRedirect, toSession } from '../processors/sessions.js';
import { ProcessorNotConfigured, processorCall } from '../processors/settings.js';
import type { Deps } from '../runtime/deps.js';
import { takesCaptureMethod } from './capture-methods.js';
import { applyProviderResult, expireIfDueNow, startProcessingIn, transactEmitting } from './lifecycle.service.js';

/**
 * When the poll job reads a processing payment's status, counted from the session's start: often
 * while the buyer is likely still paying, then rarer for a day (a processor may confirm late).
 */
export const POLL_AFTER_MS: readonly number[] = [
  1 * MINUTE_MS,
  3 * MINUTE_MS,
  6 * MINUTE_MS,
  10 * MINUTE_MS,
  15 * MINUTE_MS,
  21 * MINUTE_MS,
  30 * MINUTE_MS,
  HOUR_MS,
  2 * HOUR_MS,
  4 * HOUR_MS,
  8 * HOUR_MS,
  16 * HOUR_MS,
  24 * HOUR_MS,
];

/** How long a poll claim holds a session before another instance may take it (a crashed poller). */
const POLL_LEASE_MS = 2 * MINUTE_MS;

export type BeginOutcome =
  /** Send the buyer here (the processor's page, or the gateway's own page for the sandbox). */
  | { readonly kind: 'redirect'; readonly payment: Payment; readonly redirect: BuyerRedirect }
  /** The payment is not pending any more (paid, expired, started elsewhere): show its page. */
  | { readonly kind: 'page'; readonly payment: Payment }
  /** The processor could not start the payment; it stays pending. */
  | { readonly kind: 'unavailable'; readonly payment: Payment };

function defaultOrderNumber(payment: Payment): string {
  return payment.uuid.replaceAll('-', '');
}

function pollAt(createdAtMs: number, checks: number): string | null {
  const after = POLL_AFTER_MS[checks];
  return after === undefined ? null : toStoredInstant(createdAtMs + after);
}

/** The buyer chose `slug` for a pending payment. */
export async function beginAtProcessor(
  deps: Deps,
  payment: Payment,
  slug: string,
  language: ProcessorLanguage,
): Promise<BeginOutcome> {
  if (!isKnownProcessor(slug)) return { kind: 'unavailable', payment };
  const processor: Processor = processorFor(slug);
  // Never sent to a processor that cannot take its capture method (a hold to a wallet): refused at
  // creation, and not offered by the checkout; this guards any other way in.
  if (
    !(await takesCaptureMethod(deps, slug, payment.captureMethod, {
      domainId: payment.domainId,
      live: !payment.sandbox,
    }))
  ) {
    return { kind: 'unavailable', payment };
  }
  if (processor.start === undefined) {
    // The gateway's own page (the sandbox): the payment goes processing at once.
    const started = await transactEmitting(deps, (trx) => startProcessingIn(deps, trx, payment.uuid, slug));
    const url = processor.paymentPageUrl?.(started, deps.config.publicUrl);
    return started.status === 'processing' && url !== undefined
      ? { kind: 'redirect', payment: started, redirect: { method: 'GET', url } }
      : { kind: 'page', payment: started };
  }
  if (payment.status !== 'pending') return { kind: 'page', payment };
  const expired = await expireIfDueNow(deps, payment.uuid);
  if (expired !== undefined) return { kind: 'page', payment: expired };

  const log = deps.logger.child({ payment_uuid: payment.uuid, processor: slug });
  let row: ProcessorSessionRow;
  let answer: Awaited<ReturnType<NonNullable<Processor['start']>>>;
  try {
    const call = await processorCall(deps, processor, payment, 'start', language);
    const now = toStoredInstant(deps.clock.nowMs());
    const existing = await findSession(deps.db, payment.uuid, slug);
    if (existing !== undefined) {
      row = existing;
    } else {
      // Numbered before the transaction: a sequence number is a transaction of its own.
      const orderNumber = processor.newOrderNumber
        ? await processor.newOrderNumber(call, payment)
        : defaultOrderNumber(payment);
      row = await deps.transact((trx) =>
        findOrCreateSession(trx, {
          payment_id: payment.uuid,
          processor: slug,
          order_number: orderNumber,
          checks: 0,
          created_at: now,
          updated_at: now,
        }),
      );
    }
    answer = await processor.start(call, payment, toSession(row));
  } catch (error) {
    // Settings missing or unreadable, an order number range used up, an adapter fault: the buyer
    // is told the method is unavailable; the operator finds why in the log.
    const reason = error instanceof ProcessorNotConfigured || error instanceof RangeError ? error.message : error;
    log.error({ err: reason }, 'processor could not start the payment');
    return { kind: 'unavailable', payment };
  }
  if (answer.kind !== 'redirect') {
    log.warn({ outcome: answer.kind, detail: answer.detail }, 'processor did not start the payment');
    return { kind: 'unavailable', payment };
  }
  const { redirect, reference } = answer;
  const started = await transactEmitting(deps, async (trx) => {
    const nowMs = deps.clock.nowMs();
    const moved = await startProcessingIn(deps, trx, payment.uuid, slug);
    if (moved.status !== 'processing' || moved.processor !== slug) return moved;
    await updateSession(trx, payment.uuid, slug, {
      reference: reference ?? row.reference,
      redirect: JSON.stringify(redirect),
      next_check_at: processor.status === undefined ? null : pollAt(nowMs, 0),
      updated_at: toStoredInstant(nowMs),
    });
    return moved;
  });
  if (started.status !== 'processing' || started.processor !== slug) return { kind: 'page', payment: started };
  return { kind: 'redirect', payment: started, redirect };
}

/** Where a processing payment's buyer goes back to pay, unless they already came back. */
export async function pendingRedirect(deps: Deps, payment: Payment): Promise<BuyerRedirect | null> {
  if (payment.status !== 'processing' || payment.processor === null) return null;
  const row = await findSession(deps.db, payment.uuid, payment.processor);
  if (row === undefined || row.returned_at !== null) return null;
  return storedRedirect(row);
}

/** What reading a payment's status back came to. */
export interface ReadBackResult {
  readonly payment: Payment;
  /** The processor gave a final answer (paid or declined), or there is nothing to ask. */
  readonly final: boolean;
  /** The processor was not asked: its counterpart is paused or has no room (gateway/processors/counterparts.ts). */
  readonly refused?: Refusal;
}

/**
 * Reads the payment's status back from its processor and applies it. Answers the payment as it is
 * after, and whether the processor gave a final answer (paid or declined). `priority` is
 * `background` for the poll job.
 */
export async function readBack(
  deps: Deps,
  payment: Payment,
  priority: CallPriority = 'interactive',
): Promise<ReadBackResult> {
  if (payment.processor === null || !isKnownProcessor(payment.processor)) return { payment, final: true };
  const processor: Processor = processorFor(payment.processor);
  const row = await findSession(deps.db, payment.uuid, payment.processor);
  if (processor.status === undefined || row === undefined) return { payment, final: false };
  const slug = payment.processor;
  let answer: StatusAnswer;
  let refused: Refusal | undefined;
  try {
    const call = await processorCall(deps, processor, payment, 'status', 'hy', priority);
    answer = await processor.status(call, payment, toSession(row));
    refused = call.http.refused;
  } catch (error) {
    deps.logger.error({ err: error, payment_uuid: payment.uuid }, 'processor status read failed');
    answer = { kind: 'unavailable', detail: error instanceof Error ? error.message : 'adapter fault' };
  }
  if (answer.kind === 'unavailable') {
    await deps.transact((trx) =>
      updateSession(trx, payment.uuid, slug, {
        last_error: answer.detail.slice(0, 500),
        updated_at: toStoredInstant(deps.clock.nowMs()),
      }),
    );
    return refused === undefined ? { payment, final: false } : { payment, final: false, refused };
  }
  // "Not paid yet" changes nothing: the payment stays processing until an answer or its expiry.
  if (answer.kind === 'pending') return { payment, final: false };
  const applied = await applyProviderResult(deps, payment.uuid, answer);
  return { payment: applied, final: true };
}

/**
 * The buyer came back from the processor to the payment's return page: from now on the checkout
 * waits for the outcome instead of sending them there again. The status of a payment still
 * processing, or expired meanwhile, is read back at once, so a paid buyer sees the result on the
 * next page.
 */
export async function returnFromProcessor(deps: Deps, payment: Payment): Promise<Payment> {
  const slug = payment.processor;
  if (slug === null || payment.status === 'pending') return payment;
  const now = toStoredInstant(deps.clock.nowMs());
  await deps.transact((trx) => updateSession(trx, payment.uuid, slug, { returned_at: now, updated_at: now }));
  // An expired payment may have been paid at the processor after the gateway's 20 minutes: the
  // buyer coming back is the moment to find out (a late confirmation), rather than the next poll.
  if (payment.status !== 'processing' && payment.status !== 'expired') return payment;
  return (await readBack(deps, payment)).payment;
}

/** Which payment a request to a processor's fixed return address names (Idram's SUCCESS_URL/FAIL_URL). */
export async function paymentOfReturn(
  deps: Deps,
  slug: string,
  request: CallbackRequest,
): Promise<Payment | undefined> {
  if (!isKnownProcessor(slug)) return undefined;
  const handler = processorFor(slug).callback;
  const key = handler?.identify(request) ?? null;
  if (key === null) return undefined;
  const row = await findSessionByKey(deps.db, slug, key);
  if (row === undefined) return undefined;
  const payment = await findPaymentRow(deps.db, row.payment_id);
  return payment === undefined ? undefined : rowToPayment(payment);
}

/** A processor's server called `/processors/<slug>/callback`: what it proves is applied, and it gets its answer. */
export async function handleProcessorCallback(
  deps: Deps,
  slug: string,
  request: CallbackRequest,
): Promise<CallbackAnswer | undefined> {
  if (!isKnownProcessor(slug)) return undefined;
  const processor: Processor = processorFor(slug);
  const handler = processor.callback;
  if (handler === undefined) return undefined;
  try {
    return await answerCallback(deps, processor, handler, request);
  } catch (error) {
    // What could not be recorded is refused in the processor's own terms (Idram then cancels the
    // transaction), never left to an error page a processor may read as accepted.
    deps.logger.error({ err: error, processor: slug }, 'processor callback failed');
    return handler.unknown(request);
  }
}

async function answerCallback(
  deps: Deps,
  processor: Processor,
  handler: NonNullable<Processor['callback']>,
  request: CallbackRequest,
): Promise<CallbackAnswer> {
  const slug = processor.slug;
  const log = deps.logger.child({ processor: slug });
  const key = handler.identify(request);
  const row = key === null ? undefined : await findSessionByKey(deps.db, slug, key);
  const found = row === undefined ? undefined : await findPaymentRow(deps.db, row.payment_id);
  if (row === undefined || found === undefined) {
    log.warn({ key }, 'processor callback names no payment');
    return handler.unknown(request);
  }
  // Bring the payment up to date first: one past its expiry can no longer be paid (a precheck says no).
  let payment = (await expireIfDueNow(deps, found.id)) ?? rowToPayment(found);
  let call: Awaited<ReturnType<typeof processorCall>>;
  try {
    call = await processorCall(deps, processor, payment, 'callback');
  } catch (error) {
    log.error(
      { err: error instanceof Error ? error.message : error, payment_uuid: payment.uuid },
      'callback: settings unusable',
    );
    return handler.unknown(request);
  }
  const decision = handler.decide(call, payment, toSession(row), request);
  if (decision.reference !== undefined && decision.reference !== row.reference) {
    const reference = decision.reference;
    await deps.transact((trx) =>
      updateSession(trx, row.payment_id, slug, { reference, updated_at: toStoredInstant(deps.clock.nowMs()) }),
    );
  }
  if (decision.outcome === 'read_back') {
    payment = (await readBack(deps, payment)).payment;
  } else if (decision.outcome !== null) {
    payment = await applyProviderResult(deps, payment.uuid, decision.outcome);
  }
  log.info(
    {
      payment_uuid: payment.uuid,
      outcome:
        decision.outcome === null
          ? 'none'
          : typeof decision.outcome === 'string'
            ? decision.outcome
            : decision.outcome.kind,
    },
    'processor callback',
  );
  return decision.answer(payment);
}

/**
 * Claims sessions due for a read-back (at most `limit`, none of `skipProcessors`): each is moved a lease ahead inside the
 * claiming transaction, so instances polling together ask about different payments, and one that
 * dies mid-way leaves them to the next run.
 */
export async function claimPolls(
  deps: Deps,
  limit: number,
  skipProcessors: readonly string[] = [],
): Promise<ProcessorSessionRow[]> {
  const nowMs = deps.clock.nowMs();
  const now = toStoredInstant(nowMs);
  return deps.transact(async (trx) => {
    const rows = await claimDueSessions(trx, now, limit, deps.dialect === 'postgres', skipProcessors);
    for (const row of rows) {
      await updateSession(trx, row.payment_id, row.processor, {
        next_check_at: toStoredInstant(nowMs + POLL_LEASE_MS),
        updated_at: now,
      });
    }
    return rows;
  });
}

/**
 * A spread of up to 10 s, the same for a payment every time: sessions put back while a processor's
 * calls are paused do not all fall due in the same second when it may be asked again.
 */
function spreadMs(paymentId: string): number {
  let hash = 0;
  for (const char of paymentId) hash = (hash * 31 + char.charCodeAt(0)) % 10_007;
  return hash;
}

/**
 * Reads back one claimed session's status and schedules its next read: the next step of
 * `POLL_AFTER_MS` from the session's start, or none after a final answer. A read the processor's
 * counterpart refused (its calls paused, or no room) was not made: the session is put back for when
 * it may be asked again, and the read does not count as one of its scheduled checks.
 */
export async function pollSession(deps: Deps, row: ProcessorSessionRow): Promise<void> {
  try {
    const found = await findPaymentRow(deps.db, row.payment_id);
    const payment = found === undefined ? undefined : rowToPayment(found);
    // A payment that went on at another processor, or that is already paid, needs no more asking.
    const done =
      payment === undefined ||
      payment.processor !== row.processor ||
      payment.status === 'authorized' ||
      payment.status === 'completed' ||
      payment.status === 'refunded';
    const result: { final: boolean; refused?: Refusal } = done
      ? { final: true }
      : await readBack(deps, payment, 'background');
    const nowMs = deps.clock.nowMs();
    if (result.refused !== undefined) {
      const retryMs = result.refused.retryInMs + spreadMs(row.payment_id);
      await deps.transact((trx) =>
        updateSession(trx, row.payment_id, row.processor, {
          next_check_at: toStoredInstant(nowMs + retryMs),
          updated_at: toStoredInstant(nowMs),
        }),
      );
      return;
    }
    const checks = row.checks + 1;
    await deps.transact((trx) =>
      updateSession(trx, row.payment_id, row.processor, {
        checks,
        next_check_at: result.final ? null : pollAt(Date.parse(row.created_at), checks),
        updated_at: toStoredInstant(nowMs),
      }),
    );
  } catch (error) {
    // One payment must not stop the others; its lease makes it due again shortly.
    deps.logger.error({ err: error, payment_uuid: row.payment_id }, 'processor poll failed');
  }
}
