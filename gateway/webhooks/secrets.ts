/**
 * Which secrets sign a domain's webhooks at an instant (spec "Authentication" 8, DESIGN "Secret
 * rotation"): the current one; during a rotation also the next one (`X-Service-Signature-Next`);
 * once the rotation's 24 hours are over, the next one alone, even before a job records the change.
 */
import { toStoredInstant } from '../domain/clock.js';

export interface DomainSecrets {
  readonly webhook_secret: string;
  readonly webhook_secret_next: string | null;
  readonly webhook_secret_next_at: string | null;
}

/** `[current]` or `[current, next]`. */
export function signingSecrets(domain: DomainSecrets, nowMs: number): [string] | [string, string] {
  const next = domain.webhook_secret_next;
  if (next === null) return [domain.webhook_secret];
  const at = domain.webhook_secret_next_at;
  if (at === null || at <= toStoredInstant(nowMs)) return [next];
  return [domain.webhook_secret, next];
}
