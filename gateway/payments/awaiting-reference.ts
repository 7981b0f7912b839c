/**
 * Which payments wait for the id of the order that only their processor's callback names (Telcell's
 * invoice id; the processor's `settleByReference`), and the API's payment objects that say so
 * (`awaiting_processor_reference`).
 *
 * Such a payment reached the processor (it has a session there), no callback named the processor's
 * id yet, and it is not paid (processing, expired or failed): the gateway cannot ask the processor
 * about it, so it completes only when the callback comes or the merchant gives that id
 * (settle-reference.service.ts). The buyer's page, the dashboard and the API's payment object say
 * so; the connector's reconciliation lists such payments for the shop owner.
 */

import { findSession, sessionsWithoutReference } from '../../storage/processor-session.repository.js';
import { type Payment, type PaymentResponse, type PaymentStatus, toPaymentResponse } from '../domain/payment.js';
import type { Processor } from '../processors/processor.js';
import { isKnownProcessor, processorFor } from '../processors/registry.js';
import type { Deps } from '../runtime/deps.js';

/** The statuses in which a payment may still be settled with the processor's reference. */
export const SETTLEABLE_STATUSES: ReadonlySet<PaymentStatus> = new Set(['processing', 'expired', 'failed']);

/** The payment's processor when it settles by reference and the payment is not paid; undefined otherwise. */
function settlingProcessor(payment: Payment): Processor | undefined {
  if (!SETTLEABLE_STATUSES.has(payment.status)) return undefined;
  const slug = payment.processor;
  if (slug === null || !isKnownProcessor(slug)) return undefined;
  const processor = processorFor(slug);
  return processor.settleByReference === undefined ? undefined : processor;
}

/**
 * The display name of the processor the payment waits on for the reference only its callback
 * names; null when it waits for none.
 */
export async function awaitingReference(deps: Deps, payment: Payment): Promise<string | null> {
  const processor = settlingProcessor(payment);
  if (processor === undefined || payment.processor === null) return null;
  const row = await findSession(deps.db, payment.uuid, payment.processor);
  return row !== undefined && row.reference === null ? processor.displayName : null;
}

/** The uuids of `payments` that wait for their processor's reference: one query, only for those that may. */
async function awaitingAmong(deps: Deps, payments: readonly Payment[]): Promise<ReadonlySet<string>> {
  const candidates = payments.filter((payment) => settlingProcessor(payment) !== undefined);
  if (candidates.length === 0) return new Set();
  const processorOf = new Map(candidates.map((payment) => [payment.uuid, payment.processor]));
  const rows = await sessionsWithoutReference(deps.db, [...processorOf.keys()]);
  return new Set(rows.filter((row) => processorOf.get(row.payment_id) === row.processor).map((row) => row.payment_id));
}

/** The API's payment object, `awaiting_processor_reference` read from its processor session. */
export async function paymentAnswer(deps: Deps, payment: Payment): Promise<PaymentResponse> {
  const [answer] = await paymentAnswers(deps, [payment]);
  if (answer === undefined) throw new Error(`no answer for payment ${payment.uuid}`);
  return answer;
}

/** The API's payment objects of a page of payments, in their order. */
export async function paymentAnswers(deps: Deps, payments: readonly Payment[]): Promise<PaymentResponse[]> {
  const awaiting = await awaitingAmong(deps, payments);
  return payments.map((payment) => toPaymentResponse(payment, deps.config.publicUrl, awaiting.has(payment.uuid)));
}
