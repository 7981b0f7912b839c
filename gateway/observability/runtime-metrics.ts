/**
 * What every service reports besides its own figures (docs/operations.md "Metrics"): the process
 * and the Node.js runtime (prom-client's default metrics: CPU, memory, heap, event-loop lag,
 * garbage collection, handles, file descriptors, `nodejs_version_info`), and `<service>_build_info`,
 * a gauge of 1 labelled with the version that runs.
 *
 * The default metrics describe the process, not a service: they are collected once per process, in
 * one registry of their own, and each service's registry includes them. Collecting them again per
 * service would start another event-loop monitor and garbage-collection observer each time, for
 * ever (tests start many services in one process).
 */
import { collectDefaultMetrics, Gauge, Registry } from 'prom-client';
import { productVersion } from '../runtime/version.js';

let processRegistry: Registry | undefined;

function processMetrics(): Registry {
  if (processRegistry === undefined) {
    processRegistry = new Registry();
    collectDefaultMetrics({ register: processRegistry });
  }
  return processRegistry;
}

/** Adds the process's metrics and `<prefix>_build_info` to a service's registry. */
export function registerRuntimeMetrics(registry: Registry, prefix: 'gateway' | 'connector'): void {
  const shared = processMetrics();
  for (const { name } of shared.getMetricsAsArray()) {
    const metric = shared.getSingleMetric(name);
    if (metric !== undefined) registry.registerMetric(metric);
  }
  const build = new Gauge({
    name: `${prefix}_build_info`,
    help: `Always 1; its version label is the version of the ${prefix} that runs.`,
    labelNames: ['version'],
    registers: [registry],
  });
  build.set({ version: productVersion() }, 1);
}
