/**
 * A domain's payment limits (docs/decisions.md, "Payment limits"): its largest amount and its
 * velocity limit. What a domain leaves unset follows the service-wide defaults. The CLI
 * (`gateway domain limits`) calls these, and so will the dashboard. A change moves the account
 * version, so every instance applies it from the next request.
 */
import { rowToDomainLimits, updateDomain } from '../../storage/domain.repository.js';
import { toStoredInstant } from '../domain/clock.js';
import {
  type DomainLimitSettings,
  effectiveLimits,
  MAX_VELOCITY_LIMIT,
  MAX_VELOCITY_WINDOW_MINUTES,
} from '../domain/payment-limits.js';
import type { Deps } from '../runtime/deps.js';
import { requireDomain } from './domains.service.js';
import { OperatorError } from './operator.js';

export interface DomainLimitsView {
  merchant_id: string;
  host: string;
  /** The limits in force (the domain's, else the defaults). */
  max_amount: number;
  /** 0: no velocity limit. */
  velocity_limit: number;
  velocity_window_minutes: number;
  /** What the domain itself set; null follows the service-wide default. */
  domain_settings: { max_amount: number | null; velocity_limit: number | null; velocity_window_minutes: number | null };
}

/** A change: a number sets the domain's own value, null returns to the default, undefined leaves it. */
export interface DomainLimitsChange {
  maxAmount?: number | null | undefined;
  velocityLimit?: number | null | undefined;
  velocityWindowMinutes?: number | null | undefined;
}

function view(deps: Deps, merchantId: string, host: string, settings: DomainLimitSettings): DomainLimitsView {
  // What live payments meet (sandbox payments skip the default velocity limit: effectiveLimits).
  const limits = effectiveLimits(settings, deps.config, { sandbox: false });
  return {
    merchant_id: merchantId,
    host,
    max_amount: limits.maxAmount,
    velocity_limit: limits.velocityLimit,
    velocity_window_minutes: limits.velocityWindowMinutes,
    domain_settings: {
      max_amount: settings.maxPaymentAmount,
      velocity_limit: settings.velocityLimit,
      velocity_window_minutes: settings.velocityWindowMinutes,
    },
  };
}

function checkWhole(value: number | null | undefined, name: string, min: number, max: number): void {
  if (value === null || value === undefined) return;
  if (!Number.isSafeInteger(value) || value < min || value > max) {
    throw new OperatorError(`${name} must be a whole number from ${min} to ${max}`);
  }
}

export async function getDomainLimits(
  deps: Deps,
  input: { merchantId: string; host: string },
): Promise<DomainLimitsView> {
  const domain = await requireDomain(deps, input.merchantId, input.host);
  return view(deps, input.merchantId, domain.host, rowToDomainLimits(domain));
}

/**
 * Sets a domain's limits. The largest amount may only be lower than (or equal to) the service-wide
 * `GATEWAY_MAX_PAYMENT_AMOUNT`; the velocity limit is 0 (off) to 10000 payments per 1 to 10080 minutes.
 */
export async function setDomainLimits(
  deps: Deps,
  input: { merchantId: string; host: string } & DomainLimitsChange,
): Promise<DomainLimitsView> {
  checkWhole(input.maxAmount, '--max-amount', 1, deps.config.maxPaymentAmount);
  checkWhole(input.velocityLimit, '--velocity', 0, MAX_VELOCITY_LIMIT);
  checkWhole(input.velocityWindowMinutes, '--velocity-window-minutes', 1, MAX_VELOCITY_WINDOW_MINUTES);
  const domain = await requireDomain(deps, input.merchantId, input.host);
  const current = rowToDomainLimits(domain);
  const next: DomainLimitSettings = {
    maxPaymentAmount: input.maxAmount === undefined ? current.maxPaymentAmount : input.maxAmount,
    velocityLimit: input.velocityLimit === undefined ? current.velocityLimit : input.velocityLimit,
    velocityWindowMinutes:
      input.velocityWindowMinutes === undefined ? current.velocityWindowMinutes : input.velocityWindowMinutes,
  };
  await updateDomain(deps.db, domain.id, {
    max_payment_amount: next.maxPaymentAmount,
    velocity_limit: next.velocityLimit,
    velocity_window_minutes: next.velocityWindowMinutes,
    updated_at: toStoredInstant(deps.clock.nowMs()),
  });
  return view(deps, input.merchantId, domain.host, next);
}
