/**
 * `gateway domain limits --merchant ID --host HOST [...]`: shows or changes a domain's payment
 * limits (docs/decisions.md, "Payment limits"). `--json` prints
 * `{merchant_id, host, max_amount, velocity_limit, velocity_window_minutes, domain_settings}`:
 * the limits in force, and what the domain itself set (null: the service-wide default).
 */
import {
  type DomainLimitsChange,
  type DomainLimitsView,
  getDomainLimits,
  setDomainLimits,
} from '../../merchants/domain-limits.service.js';
import type { Deps } from '../../runtime/deps.js';

function describe(view: DomainLimitsView): string {
  const own = view.domain_settings;
  const origin = (value: number | null) => (value === null ? 'default' : 'set for the domain');
  const velocity =
    view.velocity_limit === 0
      ? `no velocity limit (${origin(own.velocity_limit)})`
      : `at most ${view.velocity_limit} payments per buyer in ${view.velocity_window_minutes} minutes (${origin(own.velocity_limit)} / ${origin(own.velocity_window_minutes)})`;
  return `Limits of ${view.host}: largest payment ${view.max_amount} AMD (${origin(own.max_amount)}); ${velocity}.`;
}

export function domainLimits(
  merchantId: string,
  host: string,
  change: DomainLimitsChange,
): (deps: Deps) => Promise<{ json: unknown; text: string }> {
  const changes = Object.values(change).some((value) => value !== undefined);
  return async (deps) => {
    const view = changes
      ? await setDomainLimits(deps, { merchantId, host, ...change })
      : await getDomainLimits(deps, { merchantId, host });
    return { json: view, text: describe(view) };
  };
}
