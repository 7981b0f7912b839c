/**
 * Processor calls as the metrics count them: every call observed by processor and operation, and
 * the calls without a usable answer counted by reason (a stub client answers as each case needs).
 */
import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../../gateway/domain/clock.js';
import { GatewayMetrics } from '../../../gateway/observability/gateway-metrics.js';
import { measuredProcessorHttp } from '../../../gateway/observability/processor-calls.js';
import { ProcessorCallError, type ProcessorHttp, type ProcessorReply } from '../../../gateway/processors/http.js';
import { createLogger } from '../../../gateway/runtime/logger.js';
import type { Executor } from '../../../storage/database.js';

function stubHttp(answer: () => Promise<ProcessorReply>): ProcessorHttp {
  return { request: answer, close: () => {} };
}

async function metricValue(metrics: GatewayMetrics, name: string, labels: Record<string, string>): Promise<number> {
  const metric = metrics.registry.getSingleMetric(name);
  if (metric === undefined) throw new Error(`no metric ${name}`);
  const { values } = await metric.get();
  return values
    .filter((v) => Object.entries(labels).every(([key, value]) => v.labels[key] === value))
    .reduce((sum, v) => sum + v.value, 0);
}

describe('measured processor calls', () => {
  // The queue gauges read the database only when scraped; these tests never scrape.
  const metrics = () =>
    new GatewayMetrics({ db: {} as Executor, clock: new ManualClock(0), logger: createLogger('silent') });
  const call = { method: 'GET', url: 'https://processor.test/status', timeoutMs: 1000 } as const;

  it('observes an answered call without counting an error', async () => {
    const m = metrics();
    const http = measuredProcessorHttp(
      stubHttp(async () => ({ status: 200, headers: {}, body: '{}' })),
      m,
      'ameria',
      'status',
    );
    expect((await http.request(call)).status).toBe(200);
    const labels = { processor: 'ameria', operation: 'status' };
    expect(await metricValue(m, 'gateway_processor_call_duration_seconds', { ...labels, le: '+Inf' })).toBe(1);
    expect(await metricValue(m, 'gateway_processor_call_errors_total', labels)).toBe(0);
  });

  it('counts a 5xx answer as server_error and passes the answer on', async () => {
    const m = metrics();
    const http = measuredProcessorHttp(
      stubHttp(async () => ({ status: 502, headers: {}, body: 'bad gateway' })),
      m,
      'arca',
      'start',
    );
    expect((await http.request(call)).status).toBe(502);
    expect(
      await metricValue(m, 'gateway_processor_call_errors_total', {
        processor: 'arca',
        operation: 'start',
        reason: 'server_error',
      }),
    ).toBe(1);
  });

  it.each([
    [new ProcessorCallError('no answer within 1000 ms', true, 'TIMEOUT'), 'timeout'],
    [new ProcessorCallError('connection refused', false, 'ECONNREFUSED'), 'unreachable'],
    [new ProcessorCallError('the answer was cut off', true), 'no_answer'],
  ])('counts a call that failed with %s as %s and rethrows it', async (error, reason) => {
    const m = metrics();
    const http = measuredProcessorHttp(
      stubHttp(async () => {
        throw error;
      }),
      m,
      'idram',
      'refund',
    );
    await expect(http.request(call)).rejects.toBe(error);
    expect(
      await metricValue(m, 'gateway_processor_call_errors_total', { processor: 'idram', operation: 'refund', reason }),
    ).toBe(1);
    expect(
      await metricValue(m, 'gateway_processor_call_duration_seconds', {
        processor: 'idram',
        operation: 'refund',
        le: '+Inf',
      }),
    ).toBe(1);
  });
});
