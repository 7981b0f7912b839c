/**
 * A domain's settings for a processor (`processor enable --config JSON`): validated by the
 * adapter's zod schema, kept sealed with the service secret in `domain_processors.config` (bound to
 * the domain and the processor, so a value copied to another row does not open), never printed back
 * or logged. And the `ProcessorCall` an adapter receives: those settings opened, the HTTP client,
 * the gateway's return and callback addresses for the payment.
 */
import { findDomainProcessor } from '../../storage/domain.repository.js';
import { nextSequenceValue } from '../../storage/processor-session.repository.js';
import type { Payment } from '../domain/payment.js';
import type { ProcessorOperation } from '../observability/gateway-metrics.js';
import { measuredProcessorHttp } from '../observability/processor-calls.js';
import type { Deps } from '../runtime/deps.js';
import type { Sealer } from '../runtime/sealing.js';
import { InvalidSettings, openSettingsJson, parseSettingsJson } from '../runtime/settings-json.js';
import type { CallPriority, GuardedHttp } from './counterparts.js';
import type { Processor, ProcessorCall, ProcessorLanguage } from './processor.js';

/** Settings that do not pass the adapter's schema. The message names fields, never their values. */
export class InvalidProcessorSettings extends InvalidSettings {
  override readonly name = 'InvalidProcessorSettings';
}

/** The processor has no usable settings on the payment's domain (never enabled with them, or unreadable). */
export class ProcessorNotConfigured extends Error {
  override readonly name = 'ProcessorNotConfigured';
}

/**
 * Whether `value` is an http(s) address a processor may be reached at, for the adapters' settings
 * schemas: no user or password, no fragment, no query unless `query`, and a path ending in
 * `pathEnd` when given (checked on the text as written too, so an encoded path cannot pass).
 */
export function isProcessorAddress(value: string, options: { pathEnd?: string; query?: boolean } = {}): boolean {
  if (!URL.canParse(value)) return false;
  const url = new URL(value);
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return false;
  if (url.username !== '' || url.password !== '' || url.hash !== '') return false;
  if (options.query !== true && url.search !== '') return false;
  const { pathEnd } = options;
  return pathEnd === undefined || (url.pathname.endsWith(pathEnd) && value.endsWith(pathEnd));
}

function settingsContext(domainId: string, slug: string): string {
  return `domain_processors:${domainId}:${slug}:config`;
}

/**
 * Validates `text` (JSON) against the processor's schema; answers the normalised settings as
 * JSON, or null for a processor that takes none.
 */
export function parseProcessorSettings(processor: Processor, text: string | undefined): string | null {
  const schema = processor.configSchema;
  if (schema === null) {
    if (text !== undefined) throw new InvalidProcessorSettings(`${processor.slug} takes no --config`);
    return null;
  }
  if (text === undefined) throw new InvalidProcessorSettings(`${processor.slug} needs --config JSON`);
  try {
    return parseSettingsJson(schema, processor.slug, text);
  } catch (error) {
    if (error instanceof InvalidSettings) throw new InvalidProcessorSettings(error.message);
    throw error;
  }
}

export function sealProcessorSettings(sealer: Sealer, domainId: string, slug: string, json: string): string {
  return sealer.seal(json, settingsContext(domainId, slug));
}

/** The domain's settings for the processor, opened and validated again (a schema may have tightened). */
export async function loadProcessorSettings<C>(deps: Deps, processor: Processor<C>, domainId: string): Promise<C> {
  const schema = processor.configSchema;
  if (schema === null) return null as C;
  const row = await findDomainProcessor(deps.db, domainId, processor.slug);
  if (row?.config == null) throw new ProcessorNotConfigured(`${processor.slug} has no settings on domain ${domainId}`);
  const settings = openSettingsJson(deps.sealer, row.config, settingsContext(domainId, processor.slug), schema);
  if (settings === null) {
    throw new ProcessorNotConfigured(
      `${processor.slug} settings of domain ${domainId} do not open with this secret or are no longer valid`,
    );
  }
  return settings;
}

/** The address the buyer comes back to from any processor: the payment's own return page. */
export function processorReturnUrl(publicUrl: string, payment: Payment): string {
  return `${publicUrl}/checkout/${payment.checkoutToken}/return`;
}

export function processorCallbackUrl(publicUrl: string, slug: string): string {
  return `${publicUrl}/processors/${slug}/callback`;
}

/**
 * Everything one call of `processor` about `payment` needs. Its HTTP calls are measured as
 * `operation` and admitted by the processor's counterpart at the address called (bounded
 * concurrency and a breaker, ./counterparts.ts): `priority` is `background` for the poll and
 * check jobs, whose calls yield to the ones a buyer or a merchant is waiting for. The call's
 * `http.refused` says why a request was not made, when it was refused.
 */
export async function processorCall<C>(
  deps: Deps,
  processor: Processor<C>,
  payment: Payment,
  operation: ProcessorOperation,
  language: ProcessorLanguage = 'hy',
  priority: CallPriority = 'interactive',
): Promise<ProcessorCall<C> & { readonly http: GuardedHttp }> {
  const config = await loadProcessorSettings(deps, processor, payment.domainId);
  const publicUrl = deps.config.publicUrl;
  return {
    config,
    http: deps.counterparts.http(
      measuredProcessorHttp(deps.processorHttp, deps.metrics, processor.slug, operation),
      processor.slug,
      priority,
    ),
    returnUrl: processorReturnUrl(publicUrl, payment),
    callbackUrl: processorCallbackUrl(publicUrl, processor.slug),
    language,
    secondsLeft: Math.max(0, Math.floor((Date.parse(payment.expiresAt) - deps.clock.nowMs()) / 1000)),
    sequence: async (range) =>
      (await deps.transact((trx) => nextSequenceValue(trx, payment.domainId, processor.slug, range))) ?? null,
  };
}
