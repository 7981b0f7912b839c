/**
 * The processors the gateway can route payments to, by slug. Each lives in its own folder beside
 * this file (adapter, wire shapes, mapping); a slug is listed here once its processor exists.
 * `sandbox` is the test provider: it never contacts a bank.
 */
export const PROCESSOR_SLUGS = ['sandbox'] as const;
export type ProcessorSlug = (typeof PROCESSOR_SLUGS)[number];

export function isKnownProcessor(slug: string): slug is ProcessorSlug {
  return (PROCESSOR_SLUGS as readonly string[]).includes(slug);
}
