/**
 * Processor calls as the metrics see them: the HTTP client an adapter receives for one operation
 * records each call's duration, and the calls that got no usable answer with their reason.
 */
import { ProcessorCallError, type ProcessorHttp } from '../processors/http.js';
import type { GatewayMetrics, ProcessorCallFailure, ProcessorOperation } from './gateway-metrics.js';

function failureOf(error: unknown): ProcessorCallFailure {
  if (error instanceof ProcessorCallError) {
    if (error.code === 'TIMEOUT') return 'timeout';
    if (!error.reached) return 'unreachable';
  }
  return 'no_answer';
}

/** `http` with every request measured as `processor`'s `operation`. */
export function measuredProcessorHttp(
  http: ProcessorHttp,
  metrics: GatewayMetrics,
  processor: string,
  operation: ProcessorOperation,
): ProcessorHttp {
  return {
    async request(call) {
      // A duration, not business time: the monotonic clock is right here.
      const started = process.hrtime.bigint();
      const seconds = () => Number(process.hrtime.bigint() - started) / 1e9;
      try {
        const reply = await http.request(call);
        metrics.processorCall(processor, operation, seconds(), reply.status >= 500 ? 'server_error' : null);
        return reply;
      } catch (error) {
        metrics.processorCall(processor, operation, seconds(), failureOf(error));
        throw error;
      }
    },
    close: () => http.close(),
  };
}
