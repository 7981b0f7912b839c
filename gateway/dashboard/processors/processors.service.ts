/**
 * The Processors section's work: what a domain offers (read without ever opening settings), and
 * the changes, each through `setProcessorEnabled` (gateway/merchants/merchant.service.ts), the
 * service the CLI's `processor enable|disable` uses: settings validated by the adapter's schema
 * and sealed, kept when enabling again, and `position` for the checkout's order.
 */

import { findMerchantDomain } from '../../../storage/domain.repository.js';
import type { DomainRow } from '../../../storage/domain.table.js';
import {
  type DomainProcessorState,
  listDomainProcessorStates,
  listMerchantDomainSummaries,
  type MerchantDomainSummary,
  setDomainProcessorOrder,
} from '../../../storage/domain-processor-list.repository.js';
import { toStoredInstant } from '../../domain/clock.js';
import { OperatorError, setProcessorEnabled } from '../../merchants/merchant.service.js';
import {
  domainProcessors,
  isKnownProcessor,
  PROCESSOR_SLUGS,
  type ProcessorSlug,
  processorFor,
} from '../../processors/registry.js';
import type { Deps } from '../../runtime/deps.js';
import { type SettingsProblem, settingsProblems } from './settings-form.js';

export type { MerchantDomainSummary } from '../../../storage/domain-processor-list.repository.js';

/** One processor as a domain's page shows it. */
export interface ProcessorState {
  readonly slug: ProcessorSlug;
  readonly enabled: boolean;
  /** Whether the domain has had it (enabled once, with or without settings). */
  readonly installed: boolean;
  /** Whether the processor takes settings at all. */
  readonly needsSettings: boolean;
  /** Whether settings are stored (never their content). */
  readonly configured: boolean;
  /** The hosted domain's sandbox: always offered, cannot be disabled. */
  readonly alwaysOn: boolean;
}

export interface DomainProcessorsView {
  readonly domain: DomainRow;
  /** What the checkout offers, in its order. */
  readonly offered: ProcessorSlug[];
  /** Every processor the gateway supports, in the registry's order. */
  readonly processors: ProcessorState[];
  /** Whether a processor other than the sandbox is enabled. */
  readonly hasLive: boolean;
}

/** The merchant's domain of `host` (as stored, lower case), or undefined: not found or another account's. */
export async function findAccountDomain(deps: Deps, merchantId: string, host: string): Promise<DomainRow | undefined> {
  const asStored = host.trim().toLowerCase();
  if (asStored === '' || asStored.length > 253) return undefined;
  return findMerchantDomain(deps.db, merchantId, asStored);
}

export function overview(deps: Deps, merchantId: string): Promise<MerchantDomainSummary[]> {
  return listMerchantDomainSummaries(deps.db, merchantId);
}

/** What the checkout offers: the enabled processors in order, plus the hosted domain's sandbox. */
export function offeredProcessors(enabled: readonly string[], hosted: boolean): ProcessorSlug[] {
  return domainProcessors(enabled, hosted).filter(isKnownProcessor);
}

export async function domainProcessorsView(deps: Deps, domain: DomainRow): Promise<DomainProcessorsView> {
  const states = await listDomainProcessorStates(deps.db, domain.id);
  const hosted = domain.hosted === 1;
  const bySlug = new Map<string, DomainProcessorState>(states.map((s) => [s.processor, s]));
  const offered = offeredProcessors(
    states.filter((s) => s.enabled).map((s) => s.processor),
    hosted,
  );
  const processors = PROCESSOR_SLUGS.map((slug) => {
    const state = bySlug.get(slug);
    const alwaysOn = hosted && slug === 'sandbox';
    return {
      slug,
      enabled: alwaysOn || state?.enabled === true,
      installed: alwaysOn || state !== undefined,
      needsSettings: processorFor(slug).configSchema !== null,
      configured: state?.configured === true,
      alwaysOn,
    };
  });
  return { domain, offered, processors, hasLive: offered.some((slug) => slug !== 'sandbox') };
}

/** Where a newly enabled processor goes: after every enabled one. */
async function lastPosition(deps: Deps, domainId: string): Promise<number> {
  const states = await listDomainProcessorStates(deps.db, domainId);
  return Math.min(1000, Math.max(0, ...states.filter((s) => s.enabled).map((s) => s.position)) + 1);
}

export type ConfigureResult =
  | { readonly ok: true; readonly wasEnabled: boolean }
  | { readonly ok: false; readonly problems: Record<string, SettingsProblem> };

/**
 * Replaces the processor's settings on the domain and enables it (a processor newly enabled goes
 * last in the checkout's order). The settings are checked here first to name each field's problem;
 * the service checks them again and seals them.
 */
export async function configureProcessor(
  deps: Deps,
  input: { merchantId: string; domain: DomainRow; slug: ProcessorSlug; settings: Record<string, unknown> },
): Promise<ConfigureResult> {
  const processor = processorFor(input.slug);
  const problems = settingsProblems(processor, input.settings);
  if (Object.keys(problems).length > 0) return { ok: false, problems };
  const view = await domainProcessorsView(deps, input.domain);
  const wasEnabled = view.processors.find((p) => p.slug === input.slug)?.enabled === true;
  try {
    await setProcessorEnabled(deps, {
      merchantId: input.merchantId,
      host: input.domain.host,
      processor: input.slug,
      enabled: true,
      config: processor.configSchema === null ? undefined : JSON.stringify(input.settings),
      position: wasEnabled ? undefined : await lastPosition(deps, input.domain.id),
    });
  } catch (error) {
    // The service's message names fields, never values.
    if (error instanceof OperatorError)
      return { ok: false, problems: { '': { kind: 'invalid', message: error.message } } };
    throw error;
  }
  return { ok: true, wasEnabled };
}

export type SwitchResult = 'enabled' | 'disabled' | 'unchanged' | 'needs_settings' | 'always_on';

/** Enables (with the stored settings) or disables the processor on the domain. */
export async function switchProcessor(
  deps: Deps,
  input: { merchantId: string; domain: DomainRow; slug: ProcessorSlug; enabled: boolean },
): Promise<SwitchResult> {
  const view = await domainProcessorsView(deps, input.domain);
  const state = view.processors.find((p) => p.slug === input.slug);
  if (state === undefined) return 'unchanged';
  if (!input.enabled && state.alwaysOn) return 'always_on';
  if (state.enabled === input.enabled) return 'unchanged';
  if (input.enabled && state.needsSettings && !state.configured) return 'needs_settings';
  await setProcessorEnabled(deps, {
    merchantId: input.merchantId,
    host: input.domain.host,
    processor: input.slug,
    enabled: input.enabled,
    position: input.enabled ? await lastPosition(deps, input.domain.id) : undefined,
  });
  return input.enabled ? 'enabled' : 'disabled';
}

/** Moves an offered processor one place up or down the checkout's list; false when it cannot move. */
export async function moveProcessor(
  deps: Deps,
  input: { domain: DomainRow; slug: ProcessorSlug; direction: 'up' | 'down' },
): Promise<boolean> {
  return deps.transact(async (trx) => {
    const states = await listDomainProcessorStates(trx, input.domain.id);
    const order = offeredProcessors(
      states.filter((s) => s.enabled).map((s) => s.processor),
      input.domain.hosted === 1,
    );
    const index = order.indexOf(input.slug);
    const other = input.direction === 'up' ? index - 1 : index + 1;
    if (index < 0 || other < 0 || other >= order.length) return false;
    [order[index], order[other]] = [order[other] as ProcessorSlug, order[index] as ProcessorSlug];
    await setDomainProcessorOrder(trx, input.domain.id, order, toStoredInstant(deps.clock.nowMs()));
    return true;
  });
}
