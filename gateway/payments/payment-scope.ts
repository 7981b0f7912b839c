/**
 * What a caller (an API key or a connect token) may see of payments, and the scope of its
 * `Idempotency-Key`s: the one place that turns a principal into both.
 */
import type { PaymentScope } from '../../storage/payment.repository.js';
import type { Principal } from '../auth/principal.js';
import type { IdempotencyScope } from './idempotency.js';

/**
 * What the caller may see: its merchant's payments of its environment (a live API key also reads
 * back, one at a time, the sandbox payments it made with `processor: sandbox`); a connect token's,
 * of its domain and its environment only.
 */
export function scopeOf(principal: Principal): PaymentScope {
  const scope = { merchantId: principal.merchantId, environment: principal.environment };
  return principal.kind === 'connect_token'
    ? { ...scope, domainId: principal.domain.id }
    : { ...scope, readsOwnSandbox: true };
}

/**
 * The `Idempotency-Key` scope of an operation: a connect token's keys are its domain's own, so a
 * key can never replay an answer about another domain's payment.
 */
export function idempotencyScopeOf(principal: Principal, operation: string): IdempotencyScope {
  return {
    merchantId: principal.merchantId,
    environment: principal.environment,
    scope: principal.kind === 'connect_token' ? `${operation}@${principal.domain.id}` : operation,
  };
}
