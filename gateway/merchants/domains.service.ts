/**
 * A merchant's domains as the operator names and adds them, with their webhook URL and webhook
 * secret (sealed at rest), and the secret's rotation.
 */
import type { Executor } from '../../storage/database.js';
import { findMerchantDomain, insertDomain, updateDomain } from '../../storage/domain.repository.js';
import type { DomainRow } from '../../storage/domain.table.js';
import { isUniqueViolation } from '../../storage/errors.js';
import { DAY_MS, toStoredInstant } from '../domain/clock.js';
import { isNeverVerifiable, normalizeHost } from '../domain/hosts.js';
import { isPrivateHost } from '../outbound/private-addresses.js';
import type { Deps } from '../runtime/deps.js';
import { openWebhookSecrets, sealWebhookSecret, signingSecrets } from '../webhooks/secrets.js';
import { OperatorError, requireMerchant } from './operator.js';

export interface DomainView {
  host: string;
  verified: boolean;
  hosted: boolean;
  webhook_secret: string;
  webhook_url: string | null;
}

/** `whsec_` and 24 random bytes in standard base64: the form Standard Webhooks libraries decode. */
export function newWebhookSecret(deps: Deps): string {
  return `whsec_${Buffer.from(deps.ids.token(24), 'base64url').toString('base64')}`;
}

export function validHost(input: string): string {
  const host = normalizeHost(input);
  if (host === null) throw new OperatorError(`"${input}" is not a valid domain name`);
  return host;
}

/**
 * The merchant's domain an operator names (`--host`, `--domain`), and the host it stands for. The
 * hosted domain is named after PUBLIC_URL's host, which may be an IP address
 * (`shop-1a2b3c.127.0.0.1`, `shop-1a2b3c.[::1]`) or `localhost`: not a DNS name, yet the operator
 * must be able to name it as `merchant create` printed it. So the host is first looked up as the
 * merchant's domains store it, and only otherwise read as a domain name (a new domain must be one).
 */
export async function findNamedDomain(
  db: Executor,
  merchantId: string,
  input: string,
): Promise<{ host: string; domain: DomainRow | undefined }> {
  const asStored = input.trim().toLowerCase().replace(/\.$/, '');
  if (asStored !== '') {
    const domain = await findMerchantDomain(db, merchantId, asStored);
    if (domain !== undefined) return { host: domain.host, domain };
  }
  const host = validHost(input);
  return { host, domain: await findMerchantDomain(db, merchantId, host) };
}

/** A new domain's row; its webhook secret is sealed. */
export function domainRow(
  deps: Deps,
  id: string,
  merchantId: string,
  host: string,
  hosted: boolean,
  verified: boolean,
  webhookUrl: string | null,
  secret: string,
  now: string,
): DomainRow {
  return {
    id,
    merchant_id: merchantId,
    host,
    hosted: hosted ? 1 : 0,
    verified: verified ? 1 : 0,
    webhook_url: webhookUrl,
    webhook_secret: sealWebhookSecret(deps.sealer, id, secret),
    webhook_secret_next: null,
    webhook_secret_next_at: null,
    failure_email_at: null,
    max_payment_amount: null,
    velocity_limit: null,
    velocity_window_minutes: null,
    created_at: now,
    updated_at: now,
  };
}

/**
 * A webhook URL as it is stored: http(s), and not at a private place (localhost, a private IP
 * address) unless `GATEWAY_ALLOW_PRIVATE_WEBHOOKS=1`: delivery would refuse it anyway, so the
 * merchant hears it now rather than from a failed delivery.
 */
function checkWebhookUrl(url: string, allowPrivate: boolean): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new OperatorError(`--webhook-url "${url}" is not a URL`);
  }
  if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') {
    throw new OperatorError('--webhook-url must be an http(s) URL');
  }
  if (!allowPrivate && isPrivateHost(parsed.hostname)) {
    throw new OperatorError(
      `--webhook-url ${parsed.host} is a private address: webhooks are never delivered there (GATEWAY_ALLOW_PRIVATE_WEBHOOKS=1 allows it in development)`,
    );
  }
  return parsed.toString();
}

export async function addDomain(
  deps: Deps,
  input: { merchantId: string; host: string; verified: boolean; webhookUrl?: string | undefined },
): Promise<DomainView & { merchant_id: string }> {
  await requireMerchant(deps, input.merchantId);
  const { host, domain: existing } = await findNamedDomain(deps.db, input.merchantId, input.host);
  // A domain already verified (the hosted domain is, by construction) stays so; only a new
  // verification of a host that can never be one is refused.
  if (input.verified && existing?.verified !== 1 && isNeverVerifiable(host)) {
    throw new OperatorError(`${host} can never be verified (localhost and IP addresses)`);
  }
  const webhookUrl =
    input.webhookUrl === undefined ? null : checkWebhookUrl(input.webhookUrl, deps.config.allowPrivateWebhooks);
  const nowMs = deps.clock.nowMs();
  const now = toStoredInstant(nowMs);
  try {
    if (existing !== undefined) {
      // Adding a domain again updates it: verification is granted, never silently taken away.
      const verified = existing.verified === 1 || input.verified;
      await updateDomain(deps.db, existing.id, {
        verified: verified ? 1 : 0,
        webhook_url: webhookUrl ?? existing.webhook_url,
        updated_at: now,
      });
      return {
        merchant_id: input.merchantId,
        host,
        verified,
        hosted: existing.hosted === 1,
        webhook_secret: openWebhookSecrets(deps.sealer, existing.id, existing).webhook_secret,
        webhook_url: webhookUrl ?? existing.webhook_url,
      };
    }
    const secret = newWebhookSecret(deps);
    await insertDomain(
      deps.db,
      domainRow(deps, deps.ids.uuid(nowMs), input.merchantId, host, false, input.verified, webhookUrl, secret, now),
    );
    return {
      merchant_id: input.merchantId,
      host,
      verified: input.verified,
      hosted: false,
      webhook_secret: secret,
      webhook_url: webhookUrl,
    };
  } catch (error) {
    if (isUniqueViolation(error)) throw new OperatorError(`${host} is already verified for another merchant`);
    throw error;
  }
}

/** The merchant's domain the operator names; refuses an unknown merchant or domain. */
export async function requireDomain(deps: Deps, merchantId: string, hostInput: string): Promise<DomainRow> {
  await requireMerchant(deps, merchantId);
  const { host, domain } = await findNamedDomain(deps.db, merchantId, hostInput);
  if (domain === undefined) throw new OperatorError(`merchant ${merchantId} has no domain ${host}`);
  return domain;
}

/**
 * Starts a webhook secret rotation: a new secret signs `X-Service-Signature-Next` for 24 hours,
 * then replaces the current one. Rotating again during a rotation replaces the pending secret; a
 * rotation whose 24 hours are over counts as finished first.
 */
export async function rotateWebhookSecret(
  deps: Deps,
  input: { merchantId: string; host: string },
): Promise<{ webhook_secret: string; webhook_secret_next: string; next_active_at: string }> {
  const domain = await requireDomain(deps, input.merchantId, input.host);
  const nowMs = deps.clock.nowMs();
  const next = newWebhookSecret(deps);
  const activeAt = toStoredInstant(nowMs + DAY_MS);
  const [current] = signingSecrets(openWebhookSecrets(deps.sealer, domain.id, domain), nowMs);
  await updateDomain(deps.db, domain.id, {
    webhook_secret: sealWebhookSecret(deps.sealer, domain.id, current),
    webhook_secret_next: sealWebhookSecret(deps.sealer, domain.id, next),
    webhook_secret_next_at: activeAt,
    updated_at: toStoredInstant(nowMs),
  });
  return { webhook_secret: current, webhook_secret_next: next, next_active_at: activeAt };
}
