/**
 * A domain's receipts settings (`receipts enable --config JSON`): the fiscal system and its
 * settings, validated by the adapter's zod schema, kept sealed in `domain_receipts.config` (bound
 * to the domain and the system, so a value copied to another row does not open), never printed
 * back or logged. `test` is a domain that issues sandbox receipts only.
 */
import type { Executor } from '../../storage/database.js';
import { findDomainReceipts } from '../../storage/receipt.repository.js';
import type { CallPriority } from '../processors/counterparts.js';
import type { Deps } from '../runtime/deps.js';
import type { Sealer } from '../runtime/sealing.js';
import { openSettingsJson, parseSettingsJson } from '../runtime/settings-json.js';
import type { FiscalCall, FiscalSystem } from './fiscal-system.js';
import { type FiscalSystemSlug, fiscalSystemFor, isKnownFiscalSystem } from './registry.js';

/** The value of `domain_receipts.system` for a domain that issues sandbox receipts only. */
export const TEST_ONLY = 'test';

function settingsContext(domainId: string, slug: string): string {
  return `domain_receipts:${domainId}:${slug}:config`;
}

export function parseReceiptSettings(slug: FiscalSystemSlug, text: string): string {
  return parseSettingsJson(fiscalSystemFor(slug).configSchema, slug, text);
}

export function sealReceiptSettings(sealer: Sealer, domainId: string, slug: string, json: string): string {
  return sealer.seal(json, settingsContext(domainId, slug));
}

/**
 * What a domain issues: `none` (receipts not enabled), `test` (sandbox receipts only), or a fiscal
 * system with its opened settings; `broken` when the settings no longer open or pass (a changed
 * service secret, a tightened schema): nothing can be issued until they are given again.
 */
export type DomainReceipts =
  | { readonly kind: 'none' }
  | { readonly kind: 'test' }
  | {
      readonly kind: 'fiscal';
      readonly slug: FiscalSystemSlug;
      readonly system: FiscalSystem;
      readonly call: FiscalCall<unknown>;
    }
  | { readonly kind: 'broken'; readonly detail: string };

/**
 * The domain's receipts settings, opened. A fiscal system's calls are admitted by its counterpart at
 * the address called (./../processors/counterparts.ts): `background` for the issuer's tries and
 * searches, `interactive` for a check a person asked for.
 */
export async function domainReceipts(
  deps: Deps,
  db: Executor,
  domainId: string | null,
  priority: CallPriority = 'background',
): Promise<DomainReceipts> {
  if (domainId === null) return { kind: 'none' };
  const row = await findDomainReceipts(db, domainId);
  if (row === undefined) return { kind: 'none' };
  if (row.system === TEST_ONLY) return { kind: 'test' };
  if (!isKnownFiscalSystem(row.system) || row.config === null) {
    return { kind: 'broken', detail: `unknown fiscal system ${row.system}` };
  }
  const system = fiscalSystemFor(row.system);
  const config = openSettingsJson(deps.sealer, row.config, settingsContext(domainId, row.system), system.configSchema);
  if (config === null) {
    return {
      kind: 'broken',
      detail: `the ${row.system} settings of this domain do not open with this secret or are no longer valid: enable receipts again`,
    };
  }
  return {
    kind: 'fiscal',
    slug: row.system,
    system,
    call: { config, http: deps.counterparts.http(deps.processorHttp, row.system, priority) },
  };
}
