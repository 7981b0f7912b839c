/**
 * The fiscal systems the gateway can issue receipts through, by slug. Each lives in its own folder
 * beside this file. Sandbox receipts are not a fiscal system: the core writes them itself
 * (gateway/receipts/sandbox.ts) and never sends them anywhere.
 */
import { ehdmFiscalSystem } from './ehdm/adapter.js';
import type { FiscalSystem } from './fiscal-system.js';

const SYSTEMS = {
  ehdm: ehdmFiscalSystem,
  // biome-ignore lint/suspicious/noExplicitAny: each adapter has its own settings type, and the core gives each its own.
} as const satisfies Record<string, FiscalSystem<any>>;

export type FiscalSystemSlug = keyof typeof SYSTEMS;
export const FISCAL_SYSTEM_SLUGS = Object.keys(SYSTEMS) as FiscalSystemSlug[];

export function isKnownFiscalSystem(slug: string): slug is FiscalSystemSlug {
  return Object.hasOwn(SYSTEMS, slug);
}

/** The system of `slug`, seen by the core without its settings' type (settings.ts validates them). */
export function fiscalSystemFor(slug: FiscalSystemSlug): FiscalSystem {
  return SYSTEMS[slug] as FiscalSystem;
}
