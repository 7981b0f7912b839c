/**
 * Reading a payment's status back from its processor and applying it: what the buyer's return, a
 * callback that proves nothing by itself, and the poll job all do, since nothing unsigned changes
 * a payment.
 */
import { findSession, updateSession } from '../../storage/processor-session.repository.js';
import { toStoredInstant } from '../domain/clock.js';
import type { Payment } from '../domain/payment.js';
import type { CallPriority, Refusal } from '../processors/counterparts.js';
import type { Processor, StatusAnswer } from '../processors/processor.js';
import { isKnownProcessor, processorFor } from '../processors/registry.js';
import { toSession } from '../processors/sessions.js';
import { processorCall } from '../processors/settings.js';
import type { Deps } from '../runtime/deps.js';
import { applyProviderResult } from './lifecycle.service.js';

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
