/**
 * `gateway domain limits --merchant ID --host HOST [...]`: shows or changes a domain's payment
 * limits (docs/decisions.md, "Payment limits"). `--json` prints
 * `{merchant_id, host, max_amount, velocity_limit, velocity_window_minutes, domain_settings}`:
 * the limits in force, and what the domain itself set (null: the service-wide default).
 */
import { MAX_VELOCITY_LIMIT, MAX_VELOCITY_WINDOW_MINUTES } from '../../domain/payment-limits.js';
import {
  type DomainLimitsChange,
  type DomainLimitsView,
  getDomainLimits,
  setDomainLimits,
} from '../../merchants/domain-limits.service.js';
import type { Run } from '../command.js';
import { UsageError, type Values, wholeNumber } from '../options.js';

function describe(view: DomainLimitsView): string {
  const own = view.domain_settings;
  const origin = (value: number | null) => (value === null ? 'default' : 'set for the domain');
  const velocity =
    view.velocity_limit === 0
      ? `no velocity limit (${origin(own.velocity_limit)})`
      : `at most ${view.velocity_limit} payments per buyer in ${view.velocity_window_minutes} minutes (${origin(own.velocity_limit)} / ${origin(own.velocity_window_minutes)})`;
  return `Limits of ${view.host}: largest payment ${view.max_amount} AMD (${origin(own.max_amount)}); ${velocity}.`;
}

export function domainLimits(merchantId: string, host: string, change: DomainLimitsChange): Run {
  const changes = Object.values(change).some((value) => value !== undefined);
  return async (deps) => {
    const view = changes
      ? await setDomainLimits(deps, { merchantId, host, ...change })
      : await getDomainLimits(deps, { merchantId, host });
    return { json: view, text: describe(view) };
  };
}

/** The change the flags ask for: a number sets, null returns to the default, undefined keeps. */
export function limitsChange(values: Values): DomainLimitsChange {
  if (values.default === true && values['max-amount'] !== undefined) {
    throw new UsageError('--max-amount and --default exclude each other');
  }
  const velocityGiven = values.velocity !== undefined || values['velocity-window-minutes'] !== undefined;
  const velocityFlags = [velocityGiven, values['no-velocity'] === true, values['default-velocity'] === true];
  if (velocityFlags.filter(Boolean).length > 1) {
    throw new UsageError(
      '--velocity/--velocity-window-minutes, --no-velocity and --default-velocity exclude each other',
    );
  }
  const maxAmount = values.default === true ? null : wholeNumber(values, 'max-amount', 1, Number.MAX_SAFE_INTEGER);
  if (values['no-velocity'] === true) return { maxAmount, velocityLimit: 0 };
  if (values['default-velocity'] === true) return { maxAmount, velocityLimit: null, velocityWindowMinutes: null };
  return {
    maxAmount,
    velocityLimit: wholeNumber(values, 'velocity', 0, MAX_VELOCITY_LIMIT),
    velocityWindowMinutes: wholeNumber(values, 'velocity-window-minutes', 1, MAX_VELOCITY_WINDOW_MINUTES),
  };
}
