/**
 * A payment at a live processor, from the buyer's choice to the processor's last word
 * (docs/processors.md "How a payment goes"):
 *
 * 1. `beginAtProcessor`: the buyer chose a processor. Its session (the order number we send) is
 *    created once; the processor registers the order; only then does the payment go processing,
 *    in one transaction with the session's reference and where the buyer goes. A processor that
 *    refuses or does not answer leaves the payment pending, so the buyer may try again or choose
 *    another method.
 * 2. The buyer comes back (`returnFromProcessor`), the processor calls (`handleProcessorCallback`,
 *    processor-callbacks.ts), or the poll job asks (`pollSession`, processor-polls.ts). Nothing
 *    unsigned changes a payment: each of these reads the status back from the processor
 *    (`readBack`, processor-read-back.ts), except a callback the adapter found signed with the
 *    merchant's secret where the processor has no status API.
 * 3. What the processor says is applied by the lifecycle (applyProviderResult): paid after the
 *    gateway expired the payment is a late confirmation; a repeated answer changes nothing.
 *
 * Payments left processing are polled on a bounded schedule from the session's start (`POLL_AFTER_MS`,
 * processor-polls.ts) until the processor gives a final answer, so a lost callback or a buyer who
 * never came back still ends in the right status, a late confirmation included.
 */
import { findOrCreateSession, findSession, updateSession } from '../../storage/processor-session.repository.js';
import type { ProcessorSessionRow } from '../../storage/processor-session.table.js';
import { toStoredInstant } from '../domain/clock.js';
import type { Payment } from '../domain/payment.js';
import type { BuyerRedirect, Processor, ProcessorLanguage } from '../processors/processor.js';
import { isKnownProcessor, processorFor } from '../processors/registry.js';
import { storedRedirect, toSession } from '../processors/sessions.js';
import { ProcessorNotConfigured, processorCall } from '../processors/settings.js';
import type { Deps } from '../runtime/deps.js';
import { takesCaptureMethod } from './capture-methods.js';
import { expireIfDueNow, startProcessingIn, transactEmitting } from './lifecycle.service.js';
import { pollAt } from './processor-polls.js';
import { readBack } from './processor-read-back.js';

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
