/**
 * The processor side of a refund: which processor can refund a payment through its API, and the
 * call a refund (or its status check) makes with the domain's settings.
 */
import { rowToPayment } from '../../storage/payment.repository.js';
import type { PaymentRow } from '../../storage/payment.table.js';
import type { Payment } from '../domain/payment.js';
import type { CallPriority, GuardedHttp } from '../processors/counterparts.js';
import type { Processor, ProcessorCall } from '../processors/processor.js';
import { isKnownProcessor, processorFor } from '../processors/registry.js';
import { ProcessorNotConfigured, processorCall } from '../processors/settings.js';
import type { Deps } from '../runtime/deps.js';

/** The processor of a payment when it can refund this payment through its API. */
export function refundingProcessor(row: PaymentRow): (Processor & Required<Pick<Processor, 'refund'>>) | undefined {
  if (row.processor === null || !isKnownProcessor(row.processor)) return undefined;
  const processor = processorFor(row.processor);
  if (processor.refund === undefined) return undefined;
  if (processor.canRefund !== undefined && !processor.canRefund(rowToPayment(row))) return undefined;
  return processor as Processor & Required<Pick<Processor, 'refund'>>;
}

/**
 * The call a refund (or its status check) makes, with the domain's settings; undefined when they
 * are missing or no longer open (nothing is sent: the processor cannot be asked).
 */
export async function refundCall(
  deps: Deps,
  processor: Processor,
  payment: Payment,
  priority: CallPriority = 'interactive',
): Promise<(ProcessorCall<unknown> & { readonly http: GuardedHttp }) | undefined> {
  try {
    return await processorCall(deps, processor, payment, 'refund', 'hy', priority);
  } catch (error) {
    if (!(error instanceof ProcessorNotConfigured)) throw error;
    deps.logger.error({ err: error.message, payment_uuid: payment.uuid }, 'refund: processor settings unusable');
    return undefined;
  }
}
