/**
 * A payment whose processor names its own id of the order only in a callback (Telcell: the invoice
 * id), settled with that id when the callback was lost (`POST /api/v1/payments/{uuid}/processor_reference`,
 * docs/processors.md "Telcell", "A lost callback").
 *
 * Without the callback the gateway cannot ask the processor anything (Telcell's `check_bill` is keyed
 * by the invoice, and neither the order number the gateway sent nor the buyer's return carries it),
 * so a paid payment would wait and expire. The merchant (or the buyer, through the merchant) knows
 * the invoice id: given here, the processor is asked about it, the answer must name this payment's
 * order (and, when paid, its amount), and then it is applied as a callback's would have been: the
 * id is stored as the session's reference, and a paid invoice completes the payment, late if the
 * payment had expired meanwhile. Nothing the merchant says is taken on trust.
 */

import { isUniqueViolation } from '../../storage/errors.js';
import { findPayment, type PaymentScope } from '../../storage/payment.repository.js';
import { findSession, updateSession } from '../../storage/processor-session.repository.js';
import { processorReferenceSchema, settleReferenceBodySchema } from '../api/schemas/settle-reference.schema.js';
import { parseOr422 } from '../api/schemas/validation.js';
import type { Principal } from '../auth/principal.js';
import { toStoredInstant } from '../domain/clock.js';
import { ApiError } from '../domain/errors.js';
import { isUuid } from '../domain/ids.js';
import type { PaymentResponse } from '../domain/payment.js';
import { isKnownProcessor, processorFor } from '../processors/registry.js';
import { toSession } from '../processors/sessions.js';
import { ProcessorNotConfigured, processorCall } from '../processors/settings.js';
import type { Deps } from '../runtime/deps.js';
import { paymentAnswer, SETTLEABLE_STATUSES } from './awaiting-reference.js';
import { applyProviderResult, expireIfDueNow } from './lifecycle.service.js';
import { scopeOf } from './payment-scope.js';

/** `POST /api/v1/payments/{uuid}/processor_reference`: the body is read as every other write's (422 naming each field). */
export async function settleWithProcessorReference(
  deps: Deps,
  principal: Principal,
  uuid: string,
  body: unknown,
): Promise<PaymentResponse> {
  const { reference } = parseOr422(settleReferenceBodySchema, body);
  return settleInScope(deps, scopeOf(principal), uuid, reference);
}

/** Settles a payment of `scope` (an API key's, or a dashboard account's) with the processor's reference. */
export async function settleInScope(
  deps: Deps,
  scope: PaymentScope,
  uuid: string,
  given: unknown,
): Promise<PaymentResponse> {
  const reference = parseOr422(processorReferenceSchema, given, 'reference');
  const found = isUuid(uuid) ? await findPayment(deps.db, scope, uuid) : undefined;
  if (found === undefined) throw new ApiError('not_found', `No payment ${uuid} for this key.`);
  let payment = (await expireIfDueNow(deps, found.uuid)) ?? found;
  const slug = payment.processor;
  const processor = slug !== null && isKnownProcessor(slug) ? processorFor(slug) : undefined;
  if (slug === null || processor?.settleByReference === undefined) {
    throw new ApiError(
      'conflict',
      "Only a payment at a processor that names the order only in its callback (Telcell) is settled with the processor's reference.",
    );
  }
  if (!SETTLEABLE_STATUSES.has(payment.status)) {
    throw new ApiError('conflict', `The payment is ${payment.status}: there is nothing to settle.`);
  }
  const row = await findSession(deps.db, payment.uuid, slug);
  if (row === undefined) throw new ApiError('conflict', `The payment never reached ${processor.displayName}.`);
  if (row.reference !== null && row.reference !== reference) {
    throw new ApiError(
      'conflict',
      `${processor.displayName} already named this payment's order ${row.reference}; it is read back with that.`,
    );
  }
  let call: Awaited<ReturnType<typeof processorCall>>;
  try {
    call = await processorCall(deps, processor, payment, 'status');
  } catch (error) {
    if (!(error instanceof ProcessorNotConfigured)) throw error;
    throw new ApiError('processor_unavailable', `${processor.displayName} is not set up for this payment's domain.`);
  }
  const answer = await processor.settleByReference(call, payment, { ...toSession(row), reference });
  if (answer.kind === 'unavailable') {
    deps.logger.warn(
      { payment_uuid: payment.uuid, processor: slug, detail: answer.detail },
      'settling with a reference: not confirmed',
    );
    throw new ApiError(
      'processor_unavailable',
      `${processor.displayName} did not confirm ${reference} as this payment's order (${answer.detail}). Nothing was changed.`,
    );
  }
  const now = toStoredInstant(deps.clock.nowMs());
  try {
    await deps.transact((trx) => updateSession(trx, payment.uuid, slug, { reference, updated_at: now }));
  } catch (error) {
    if (!isUniqueViolation(error)) throw error;
    throw new ApiError('conflict', `Another payment already holds ${processor.displayName}'s ${reference}.`);
  }
  if (answer.kind !== 'pending') payment = await applyProviderResult(deps, payment.uuid, answer);
  deps.logger.info(
    { payment_uuid: payment.uuid, processor: slug, outcome: answer.kind, status: payment.status },
    'payment settled with the processor reference the merchant gave',
  );
  return paymentAnswer(deps, payment);
}
