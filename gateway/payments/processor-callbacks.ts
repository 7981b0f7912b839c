/**
 * A processor's server calling the gateway (`/processors/<slug>/callback`) or sending the buyer to
 * its fixed return address: the session it names, the adapter's decision (apply a signed outcome,
 * or read the status back), and the answer in the processor's own terms.
 */
import { findPaymentRow, rowToPayment } from '../../storage/payment.repository.js';
import { findSessionByKey, updateSession } from '../../storage/processor-session.repository.js';
import { toStoredInstant } from '../domain/clock.js';
import type { Payment } from '../domain/payment.js';
import type { CallbackAnswer, CallbackRequest, Processor } from '../processors/processor.js';
import { isKnownProcessor, processorFor } from '../processors/registry.js';
import { toSession } from '../processors/sessions.js';
import { processorCall } from '../processors/settings.js';
import type { Deps } from '../runtime/deps.js';
import { applyProviderResult, expireIfDueNow } from './lifecycle.service.js';
import { readBack } from './processor-read-back.js';

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
