/** The processors a merchant's domain offers, with their settings (sealed at rest) and order. */
import { findDomainProcessor, upsertDomainProcessor } from '../../storage/domain.repository.js';
import { toStoredInstant } from '../domain/clock.js';
import { isKnownProcessor, processorFor } from '../processors/registry.js';
import { InvalidProcessorSettings, parseProcessorSettings, sealProcessorSettings } from '../processors/settings.js';
import type { Deps } from '../runtime/deps.js';
import { requireDomain } from './domains.service.js';
import { OperatorError } from './operator.js';

/**
 * Enables or disables a processor on a domain. Enabling validates `config` (JSON) with the
 * processor's schema and stores it sealed; enabling again without `config` keeps the stored
 * settings, and a processor that needs settings cannot be enabled without any. Disabling keeps them.
 * `position` orders the checkout's list (ascending, then by slug).
 */
export async function setProcessorEnabled(
  deps: Deps,
  input: {
    merchantId: string;
    host: string;
    processor: string;
    enabled: boolean;
    config?: string | undefined;
    position?: number | undefined;
  },
): Promise<{ merchant_id: string; host: string; processor: string; enabled: boolean; position: number }> {
  if (!isKnownProcessor(input.processor)) throw new OperatorError(`unknown processor "${input.processor}"`);
  const processor = processorFor(input.processor);
  if (
    input.position !== undefined &&
    (!Number.isInteger(input.position) || input.position < 0 || input.position > 1000)
  ) {
    throw new OperatorError('--position must be a whole number from 0 to 1000');
  }
  const domain = await requireDomain(deps, input.merchantId, input.host);
  if (domain.hosted === 1 && input.processor === 'sandbox' && !input.enabled) {
    throw new OperatorError('the hosted domain always offers the sandbox');
  }
  if (!input.enabled && input.config !== undefined) throw new OperatorError('--config is given when enabling');
  let settings: string | null = null;
  if (input.enabled) {
    const stored = await findDomainProcessor(deps.db, domain.id, input.processor);
    const keep = input.config === undefined && processor.configSchema !== null && stored?.config != null;
    if (!keep) {
      try {
        settings = parseProcessorSettings(processor, input.config);
      } catch (error) {
        if (error instanceof InvalidProcessorSettings) throw new OperatorError(error.message);
        throw error;
      }
    }
  }
  const sealed = settings === null ? null : sealProcessorSettings(deps.sealer, domain.id, input.processor, settings);
  await upsertDomainProcessor(
    deps.db,
    {
      domain_id: domain.id,
      processor: input.processor,
      enabled: input.enabled ? 1 : 0,
      config: sealed,
      position: input.position ?? null,
    },
    toStoredInstant(deps.clock.nowMs()),
  );
  const row = await findDomainProcessor(deps.db, domain.id, input.processor);
  return {
    merchant_id: input.merchantId,
    host: domain.host,
    processor: input.processor,
    enabled: input.enabled,
    position: Number(row?.position ?? 0),
  };
}
