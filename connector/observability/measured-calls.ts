/**
 * The connector's outbound calls as the metrics see them: a store opened through
 * `deps.openPlatform` and a gateway client from `deps.gateway` record each call's operation,
 * outcome and duration. Only the calls are wrapped; what they answer passes through unchanged.
 */
import { type GatewayClient, GatewayError } from '../gateway-client/client.js';
import { PlatformError, type StorePlatform } from '../platforms/platform.js';
import type { CallOutcome, ConnectorMetrics } from './connector-metrics.js';

/** A refusal is an answer that will not change on retry; anything else failed is "unavailable". */
function outcomeOf(error: unknown): CallOutcome {
  if (error instanceof PlatformError) return error.retryable ? 'unavailable' : 'refused';
  if (error instanceof GatewayError) return error.retryable ? 'unavailable' : 'refused';
  return 'unavailable';
}

async function measured<T>(call: () => Promise<T>, record: (outcome: CallOutcome, seconds: number) => void) {
  // A duration, not business time: the monotonic clock is right here.
  const started = process.hrtime.bigint();
  const seconds = () => Number(process.hrtime.bigint() - started) / 1e9;
  try {
    const result = await call();
    record('ok', seconds());
    return result;
  } catch (error) {
    record(outcomeOf(error), seconds());
    throw error;
  }
}

const STORE_OPERATIONS = [
  'getOrder',
  'listOrders',
  'markPaid',
  'placeOnHold',
  'addNote',
  'recordRefund',
  'deleteRefund',
  'checkAccess',
] as const;

export function measuredStore(store: StorePlatform, metrics: ConnectorMetrics): StorePlatform {
  const wrapped: Record<string, unknown> = {};
  for (const operation of STORE_OPERATIONS) {
    const method = store[operation] as ((...args: unknown[]) => Promise<unknown>) | undefined;
    if (method === undefined) continue; // an operation the platform does not have
    wrapped[operation] = (...args: unknown[]) =>
      measured(
        () => method.apply(store, args),
        (outcome, seconds) => metrics.storeCall(store.platform, operation, outcome, seconds),
      );
  }
  return Object.assign(Object.create(store) as StorePlatform, wrapped);
}

const GATEWAY_OPERATIONS = [
  'createPayment',
  'getPayment',
  'cancelPayment',
  'getOrderPayment',
  'refundPayment',
  'listRefunds',
  'capturePayment',
  'voidPayment',
  'connectToken',
] as const satisfies readonly (keyof GatewayClient)[];

export function measuredGatewayClient(client: GatewayClient, metrics: ConnectorMetrics): GatewayClient {
  const wrapped: Record<string, unknown> = {};
  for (const operation of GATEWAY_OPERATIONS) {
    const method = client[operation] as (...args: unknown[]) => Promise<unknown>;
    wrapped[operation] = (...args: unknown[]) =>
      measured(
        () => method.apply(client, args),
        (outcome, seconds) => metrics.gatewayCall(operation, outcome, seconds),
      );
  }
  return { ...client, ...wrapped } as GatewayClient;
}
