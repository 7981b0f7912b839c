/**
 * The calls a hold's capture or release makes to its processor: the capture or release itself (sent
 * once, never retried) and the read-back of a hold whose operation's outcome is unknown. The
 * domain's settings are read for each call; settings that are missing or no longer open send
 * nothing (`unavailable`).
 */
import type { HoldOperationRow } from '../../storage/hold-operation.table.js';
import { rowToPayment } from '../../storage/payment.repository.js';
import type { PaymentRow } from '../../storage/payment.table.js';
import type { Payment } from '../domain/payment.js';
import type { CallPriority, GuardedHttp, Refusal } from '../processors/counterparts.js';
import type {
  HoldAttempt,
  HoldFinding,
  HoldRequest,
  Processor,
  ProcessorCall,
  ProcessorHolds,
} from '../processors/processor.js';
import { isKnownProcessor, processorFor } from '../processors/registry.js';
import { paymentSession } from '../processors/sessions.js';
import { ProcessorNotConfigured, processorCall } from '../processors/settings.js';
import type { Deps } from '../runtime/deps.js';

type HoldingProcessor = Processor & { readonly holds: ProcessorHolds<unknown> };

/** The processor of a payment when it can hold payments. */
export function holdingProcessor(row: Pick<PaymentRow, 'processor'>): HoldingProcessor | undefined {
  if (row.processor === null || !isKnownProcessor(row.processor)) return undefined;
  const processor = processorFor(row.processor);
  return processor.holds === undefined ? undefined : (processor as HoldingProcessor);
}

async function holdCall(
  deps: Deps,
  processor: Processor,
  payment: Payment,
  operation: 'capture' | 'release' | 'hold_status',
  priority: CallPriority,
): Promise<(ProcessorCall<unknown> & { readonly http: GuardedHttp }) | undefined> {
  try {
    return await processorCall(deps, processor, payment, operation, 'hy', priority);
  } catch (error) {
    if (!(error instanceof ProcessorNotConfigured)) throw error;
    deps.logger.error({ err: error.message, payment_uuid: payment.uuid }, 'hold: processor settings unusable');
    return undefined;
  }
}

async function holdRequest(deps: Deps, operation: HoldOperationRow, payment: Payment): Promise<HoldRequest> {
  return {
    operationId: operation.id,
    kind: operation.kind,
    payment,
    session: await paymentSession(deps.db, payment),
    amount: Number(operation.amount),
  };
}

/** Sends the capture or release once. An adapter that throws may have sent it: the outcome is unknown. */
export async function callHoldProcessor(
  deps: Deps,
  operation: HoldOperationRow,
  row: PaymentRow,
  priority: CallPriority,
): Promise<HoldAttempt> {
  const processor = holdingProcessor(row);
  // Checked before reserving; only a registry change in between could get here. Nothing was sent.
  if (processor === undefined) return { kind: 'unavailable' };
  try {
    const payment = rowToPayment(row);
    const call = await holdCall(deps, processor, payment, operation.kind, priority);
    if (call === undefined) return { kind: 'unavailable' };
    const request = await holdRequest(deps, operation, payment);
    return operation.kind === 'capture'
      ? await processor.holds.capture(call, request)
      : await processor.holds.release(call, request);
  } catch (error) {
    deps.logger.error({ err: error, hold_operation_id: operation.id }, 'processor hold call failed');
    return { kind: 'unknown' };
  }
}

/**
 * Reads back what became of the hold of an operation whose outcome is unknown. `refused`: the
 * processor's counterpart did not let the read be made (paused, or no room).
 */
export async function readHold(
  deps: Deps,
  operation: HoldOperationRow,
  row: PaymentRow,
): Promise<{ finding: HoldFinding; refused?: Refusal }> {
  const processor = holdingProcessor(row);
  if (processor === undefined) return { finding: { kind: 'unavailable', detail: 'no processor with holds' } };
  try {
    const payment = rowToPayment(row);
    const call = await holdCall(deps, processor, payment, 'hold_status', 'background');
    if (call === undefined) return { finding: { kind: 'unavailable', detail: 'settings unusable' } };
    const finding = await processor.holds.status(call, await holdRequest(deps, operation, payment));
    const refused = call.http.refused;
    return refused === undefined ? { finding } : { finding, refused };
  } catch (error) {
    deps.logger.error({ err: error, hold_operation_id: operation.id }, 'processor hold read failed');
    return { finding: { kind: 'unavailable', detail: error instanceof Error ? error.message : 'adapter fault' } };
  }
}
