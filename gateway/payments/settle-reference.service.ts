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
import type { Principal } from '../auth/principal.js';
import { toStoredInstant } from '../domain/clock.js';
import { ApiError, UNKNOWN_FIELD, validationFailed } from '../domain/errors.js';
import { isUuid } from '../domain/ids.js';
import { type Payment, type PaymentResponse, toPaymentResponse } from '../domain/payment.js';
import { isKnownProcessor, processorFor } from '../processors/registry.js';
import { toSession } from '../processors/sessions.js';
import { ProcessorNotConfigured, processorCall } from '../processors/settings.js';
import type { Deps } from '../runtime/deps.js';
import { applyProviderResult, expireIfDueNow } from './lifecycle.service.js';
import { scopeOf } from './payment.service.js';

/** What a processor's id of an order may look like (Telcell's invoice ids are digits). */
const REFERENCE = /^[A-Za-z0-9._-]{1,64}$/;

export async function settleWithProcessorReference(
  deps: Deps,
  principal: Principal,
  uuid: string,
  body: unknown,
): Promise<PaymentResponse> {
  const input =
    typeof body === 'object' && body !== null && !Array.isArray(body) ? (body as Record<string, unknown>) : {};
  // A body names only the API's fields (docs/decisions.md "Request bodies name only the API's fields").
  const unknown = Object.keys(input).filter((field) => field !== 'reference');
  if (unknown.length > 0) throw validationFailed(Object.fromEntries(unknown.map((field) => [field, [UNKNOWN_FIELD]])));
  return settleInScope(deps, scopeOf(principal), uuid, input.reference);
}

/**
 * The display name of the processor a payment waits on for the reference only its callback names
 * (no verified callback named it yet, and the payment is not paid): the dashboard then offers to
 * settle it. Null otherwise.
 */
export async function awaitingReference(deps: Deps, payment: Payment): Promise<string | null> {
  if (payment.status !== 'processing' && payment.status !== 'expired' && payment.status !== 'failed') return null;
  const slug = payment.processor;
  if (slug === null || !isKnownProcessor(slug)) return null;
  const processor = processorFor(slug);
  if (processor.settleByReference === undefined) return null;
  const row = await findSession(deps.db, payment.uuid, slug);
  return row !== undefined && row.reference === null ? processor.displayName : null;
}

/** Settles a payment of `scope` (an API key's, or a dashboard account's) with the processor's reference. */
export async function settleInScope(
  deps: Deps,
  scope: PaymentScope,
  uuid: string,
  given: unknown,
): Promise<PaymentResponse> {
  const reference = typeof given === 'string' ? given.trim() : '';
  if (!REFERENCE.test(reference)) {
    throw validationFailed({
      reference: ["must be the processor's id of the order: 1 to 64 letters, digits, dots, dashes or underscores"],
    });
  }
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
  if (payment.status === 'pending' || payment.status === 'completed' || payment.status === 'refunded') {
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
  return toPaymentResponse(payment, deps.config.publicUrl);
}
