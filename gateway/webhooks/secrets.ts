/**
 * A domain's webhook signing secrets.
 *
 * Which secrets sign at an instant (spec "Authentication" 8, DESIGN "Secret rotation"): the current
 * one; during a rotation also the next one (`X-Service-Signature-Next`); once the rotation's 24 hours
 * are over, the next one alone, even before a job records the change.
 *
 * At rest they are sealed with the gateway's sealing key (gateway/runtime/sealing.ts), bound to their
 * domain, so a copy of the database alone cannot sign a webhook. Both columns share one context, so
 * the end of a rotation may move the next secret into the current one without opening it. A value
 * an earlier version stored in clear (`whsec_…`) is still used, and sealed at the next start.
 */

import type { Executor } from '../../storage/database.js';
import { findDomainsWithClearWebhookSecrets, resealDomainSecrets } from '../../storage/domain.repository.js';
import { toStoredInstant } from '../domain/clock.js';
import { isSealed, type Sealer } from '../runtime/sealing.js';

export interface DomainSecrets {
  readonly webhook_secret: string;
  readonly webhook_secret_next: string | null;
  readonly webhook_secret_next_at: string | null;
}

/** `[current]` or `[current, next]`, from opened secrets. */
export function signingSecrets(domain: DomainSecrets, nowMs: number): [string] | [string, string] {
  const next = domain.webhook_secret_next;
  if (next === null) return [domain.webhook_secret];
  const at = domain.webhook_secret_next_at;
  if (at === null || at <= toStoredInstant(nowMs)) return [next];
  return [domain.webhook_secret, next];
}

function context(domainId: string): string {
  return `domains:${domainId}:webhook_secret`;
}

/** A webhook secret as it is stored for the domain. */
export function sealWebhookSecret(sealer: Sealer, domainId: string, secret: string): string {
  return sealer.seal(secret, context(domainId));
}

function openSecret(sealer: Sealer, domainId: string, stored: string): string {
  return isSealed(stored) ? sealer.open(stored, context(domainId)) : stored;
}

/** The domain's stored secrets, opened. */
export function openWebhookSecrets(sealer: Sealer, domainId: string, stored: DomainSecrets): DomainSecrets {
  return {
    webhook_secret: openSecret(sealer, domainId, stored.webhook_secret),
    webhook_secret_next:
      stored.webhook_secret_next === null ? null : openSecret(sealer, domainId, stored.webhook_secret_next),
    webhook_secret_next_at: stored.webhook_secret_next_at,
  };
}

/** Seals every webhook secret still stored in clear; answers how many domains it changed. Safe to repeat. */
export async function sealClearWebhookSecrets(db: Executor, sealer: Sealer): Promise<number> {
  let changed = 0;
  for (const domain of await findDomainsWithClearWebhookSecrets(db)) {
    const seal = (value: string | null) =>
      value === null || isSealed(value) ? value : sealWebhookSecret(sealer, domain.id, value);
    const sealed = await resealDomainSecrets(db, domain, {
      webhook_secret: seal(domain.webhook_secret) as string,
      webhook_secret_next: seal(domain.webhook_secret_next),
    });
    if (sealed) changed += 1;
  }
  return changed;
}
