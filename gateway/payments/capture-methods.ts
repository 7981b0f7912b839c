/**
 * Which processors take which capture method (docs/decisions.md "Holds"). Only a processor with
 * holds (`Processor.holds`: the card processors and the sandbox) takes `manual`; the wallets
 * (Idram, Telcell, FastShift) have no holds. A processor's domain settings may narrow it further (an
 * Ameriabank terminal the bank set up for two-stage payments takes `manual` ones only). A payment
 * asking for what its processor cannot do is refused at creation, before the buyer leaves, and the
 * checkout offers only the methods that take its capture method.
 */
import { validationFailed } from '../domain/errors.js';
import type { CaptureMethod } from '../domain/payment.js';
import { isKnownProcessor, processorFor } from '../processors/registry.js';
import { loadProcessorSettings, ProcessorNotConfigured } from '../processors/settings.js';
import type { Deps } from '../runtime/deps.js';

/**
 * Whether `slug` takes `method`: by what it can do, and, for a live payment (`live`), by the
 * domain's settings when the processor reads them. Settings that do not open answer by what the
 * processor can do (the start then fails on them, as for any payment).
 */
export async function takesCaptureMethod(
  deps: Deps,
  slug: string,
  method: CaptureMethod,
  where: { readonly domainId: string; readonly live: boolean },
): Promise<boolean> {
  if (!isKnownProcessor(slug)) return false;
  const processor = processorFor(slug);
  if (processor.holds === undefined) return method === 'automatic';
  const narrowed = processor.holds.captureMethods;
  if (narrowed === undefined || !where.live) return true;
  try {
    return narrowed(await loadProcessorSettings(deps, processor, where.domainId)).includes(method);
  } catch (error) {
    if (error instanceof ProcessorNotConfigured) return true;
    throw error;
  }
}

/**
 * At creation: a payment's capture method must be one its processor takes (the named one), or,
 * for `manual` without a named processor, one that at least one of the domain's methods (`offered`)
 * takes. Refused with 422 `validation_failed` naming `capture_method`.
 */
export async function assertCaptureMethodTaken(
  deps: Deps,
  input: {
    readonly captureMethod: CaptureMethod;
    readonly named: string | undefined;
    readonly offered: readonly string[];
    readonly domainId: string;
    readonly host: string;
    readonly live: boolean;
  },
): Promise<void> {
  const { captureMethod, named } = input;
  const where = { domainId: input.domainId, live: input.live };
  if (named !== undefined) {
    if (await takesCaptureMethod(deps, named, captureMethod, where)) return;
    const holds = isKnownProcessor(named) && processorFor(named).holds !== undefined;
    throw validationFailed(
      {
        capture_method: [
          holds
            ? `"${captureMethod}" is not taken by ${named} on ${input.host}: its terminal is set up for ${captureMethod === 'manual' ? 'one-stage' : 'two-stage'} payments only`
            : `"manual" is not possible with ${named}: it cannot hold a payment; use a card processor (ameria, arca) or leave capture_method out`,
        ],
      },
      `The processor ${named} does not take capture_method "${captureMethod}".`,
    );
  }
  if (captureMethod === 'automatic') return;
  for (const slug of input.offered) {
    if (await takesCaptureMethod(deps, slug, 'manual', where)) return;
  }
  throw validationFailed(
    {
      capture_method: [
        `"manual" is not possible on ${input.host}: none of its payment methods (${input.offered.join(', ') || 'none'}) can hold a payment`,
      ],
    },
    `No payment method of ${input.host} can hold a payment.`,
  );
}
