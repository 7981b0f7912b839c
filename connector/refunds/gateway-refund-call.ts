/**
 * Sending a store refund to the gateway, the same request under the same idempotency key every
 * time (so asking again never refunds twice), and recording what became of it: succeeded, refused
 * (nothing was refunded), or unknown (kept, to be settled later: settle-unknown.ts).
 */
import { toStoredInstant } from '../../gateway/domain/clock.js';
import { gatewayOf } from '../connections/connection-access.js';
import { fromGatewayError } from '../connections/plugin-auth.js';
import { ConnectorError } from '../errors.js';
import { GatewayError, type RefundResult } from '../gateway-client/client.js';
import type { ConnectorDeps } from '../runtime/deps.js';
import type { StoreConnection } from '../storage/connection.repository.js';
import { type RefundRecord, updateRefund } from '../storage/refund-record.repository.js';
import { refundCheckDelayMs } from './check-backoff.js';

export type GatewayOutcome =
  | { readonly kind: 'succeeded'; readonly refund: RefundResult }
  | {
      readonly kind: 'refused';
      readonly error: unknown;
      /** Who refused it: the gateway itself (nothing left to refund, ...) or the processor (declined). */
      readonly by: 'gateway' | 'processor';
    }
  | { readonly kind: 'unknown'; readonly uuid: string | null; readonly refundedAmount: number };

/** The gateway's refusals that are the processor's answer; the others are the gateway's own rules. */
const PROCESSOR_REFUSALS: ReadonlySet<string> = new Set(['refund_declined', 'processor_unavailable']);

/**
 * Sends a store refund to the gateway (the same request under the same idempotency key every time,
 * so asking again never refunds twice) and records what became of it.
 */
export async function askGateway(
  deps: ConnectorDeps,
  connection: StoreConnection,
  paymentUuid: string,
  record: RefundRecord,
): Promise<GatewayOutcome> {
  const nowMs = deps.clock.nowMs();
  const now = toStoredInstant(nowMs);
  let result: RefundResult;
  try {
    result = await gatewayOf(deps, connection).refundPayment(
      paymentUuid,
      { amount: record.amount, ...(record.reason ? { reason: record.reason } : {}) },
      { idempotencyKey: `store-refund:${record.id}` },
    );
  } catch (error) {
    const unknownRefund = error instanceof GatewayError ? unknownOutcome(error) : null;
    if (unknownRefund === null) {
      // A refusal (declined, processor unavailable, nothing left...): known to have refunded nothing.
      const by = error instanceof GatewayError && PROCESSOR_REFUSALS.has(error.code) ? 'processor' : 'gateway';
      return { kind: 'refused', error: fromGatewayError(error), by };
    }
    await markUnknown(deps, record, unknownRefund.uuid, nowMs);
    return {
      kind: 'unknown',
      uuid: unknownRefund.uuid ?? record.gateway_refund_uuid,
      refundedAmount: unknownRefund.refundedAmount,
    };
  }
  if (result.status === 'failed') {
    return {
      kind: 'refused',
      by: 'processor',
      error: new ConnectorError(
        422,
        result.failure_code ?? 'refund_failed',
        `The gateway could not refund the payment (${result.failure_code ?? 'failed'}); nothing was refunded.`,
      ),
    };
  }
  if (result.status !== 'succeeded') {
    await markUnknown(deps, record, result.uuid, nowMs);
    return { kind: 'unknown', uuid: result.uuid, refundedAmount: result.refunded_amount };
  }
  await updateRefund(deps.db, record.id, {
    gateway_refund_uuid: result.uuid,
    status: 'succeeded',
    next_check_at: null,
    updated_at: now,
  });
  return { kind: 'succeeded', refund: result };
}

/**
 * Whether a failed refund call leaves its outcome unknown: the gateway did not answer (or failed
 * itself), or it answered `refund_outcome_unknown` (the processor did not). Answers the refund's
 * uuid when the gateway named it.
 */
function unknownOutcome(error: GatewayError): { uuid: string | null; refundedAmount: number } | null {
  if (error.retryable && error.status !== 429) return { uuid: null, refundedAmount: 0 };
  if (error.code !== 'refund_outcome_unknown') return null;
  const refund = error.body.refund as { uuid?: unknown } | undefined;
  const payment = error.body as { refunded_amount?: unknown };
  return {
    uuid: typeof refund?.uuid === 'string' ? refund.uuid : null,
    refundedAmount: typeof payment.refunded_amount === 'number' ? payment.refunded_amount : 0,
  };
}

async function markUnknown(
  deps: ConnectorDeps,
  record: RefundRecord,
  uuid: string | null,
  nowMs: number,
): Promise<void> {
  const checks = record.status === 'unknown' ? record.checks : 0;
  await updateRefund(deps.db, record.id, {
    ...(uuid !== null ? { gateway_refund_uuid: uuid } : {}),
    status: 'unknown',
    checks,
    next_check_at: toStoredInstant(nowMs + refundCheckDelayMs(checks)),
    updated_at: toStoredInstant(nowMs),
  });
  deps.logger.warn(
    { link_id: record.link_id, refund_record: record.id, refund_uuid: uuid },
    'store refund outcome unknown: kept, to be settled with the gateway',
  );
}
