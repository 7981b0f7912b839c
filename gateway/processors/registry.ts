/**
 * The processors the gateway can route payments to, by slug. Each lives in its own folder beside
 * this file; a slug is listed here once its processor exists. `sandbox` is the test provider: it
 * never contacts a bank.
 */
import { ameriaProcessor } from './ameria/adapter.js';
import { arcaProcessor } from './arca/adapter.js';
import { fastshiftProcessor } from './fastshift/adapter.js';
import { idramProcessor } from './idram/adapter.js';
import type { Processor } from './processor.js';
import { sandboxProcessor } from './sandbox/adapter.js';
import { telcellProcessor } from './telcell/adapter.js';

const PROCESSORS = {
  sandbox: sandboxProcessor,
  ameria: ameriaProcessor,
  arca: arcaProcessor,
  idram: idramProcessor,
  telcell: telcellProcessor,
  fastshift: fastshiftProcessor,
  // biome-ignore lint/suspicious/noExplicitAny: each adapter has its own settings type, and the core gives each its own.
} as const satisfies Record<string, Processor<any>>;

export type ProcessorSlug = keyof typeof PROCESSORS;
export const PROCESSOR_SLUGS = Object.keys(PROCESSORS) as ProcessorSlug[];

export function isKnownProcessor(slug: string): slug is ProcessorSlug {
  return Object.hasOwn(PROCESSORS, slug);
}

/** What a domain offers: its enabled processors, plus the sandbox on the account's hosted domain, which always offers it. */
export function domainProcessors(enabled: readonly string[], hosted: boolean): string[] {
  return hosted && !enabled.includes('sandbox') ? [...enabled, 'sandbox'] : [...enabled];
}

/** The processor of `slug`, seen by the core without its settings' type (settings.ts validates them). */
export function processorFor(slug: ProcessorSlug): Processor {
  return PROCESSORS[slug] as Processor;
}
