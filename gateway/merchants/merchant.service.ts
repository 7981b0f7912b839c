/**
 * Operator actions on accounts: merchants, their API keys, domains, webhook secrets and
 * processors. Used by the CLI (and the demo account at first start).
 */
import { insertApiKey, listMerchantKeys, revokeKey } from '../../storage/api-key.repository.js';
import type { Executor } from '../../storage/database.js';
import {
  findDomainProcessor,
  findMerchantDomain,
  insertDomain,
  updateDomain,
  upsertDomainProcessor,
} from '../../storage/domain.repository.js';
import type { DomainRow } from '../../storage/domain.table.js';
import { isUniqueViolation } from '../../storage/errors.js';
import { countMerchants, findMerchant, insertMerchant, updateMerchant } from '../../storage/merchant.repository.js';
import { holdNamedLock } from '../../storage/transactions.js';
import type { Language } from '../checkout/i18n/index.js';
import { ACCOUNT_NAME_MAX_LENGTH, type AccountNameProblem, accountNameProblem } from '../domain/account-name.js';
import { composeKey, type KeyAccess, keyHint } from '../domain/api-keys.js';
import { DAY_MS, toStoredInstant } from '../domain/clock.js';
import { isNeverVerifiable, normalizeHost } from '../domain/hosts.js';
import type { Environment } from '../domain/payment.js';
import { isPrivateHost } from '../outbound/private-addresses.js';
import { isKnownProcessor, processorFor } from '../processors/registry.js';
import { InvalidProcessorSettings, parseProcessorSettings, sealProcessorSettings } from '../processors/settings.js';
import type { Deps } from '../runtime/deps.js';
import { sha256Hex } from '../runtime/hashing.js';
import { openWebhookSecrets, sealWebhookSecret, signingSecrets } from '../webhooks/secrets.js';

/** A mistake in what the operator asked for; the CLI prints the message and exits non-zero. */
export class OperatorError extends Error {
  override name = 'OperatorError';
}

export interface CreatedKey {
  key: string;
  key_id: string;
  environment: Environment;
  access: KeyAccess;
}

export interface DomainView {
  host: string;
  verified: boolean;
  hosted: boolean;
  webhook_secret: string;
  webhook_url: string | null;
}

export interface CreatedMerchant {
  merchant_id: string;
  hosted_domain: string;
  keys: Array<{ key: string; environment: Environment; access: KeyAccess }>;
  domains: Array<Omit<DomainView, 'webhook_url'>>;
}

export interface CreateMerchantInput {
  name: string;
  email?: string | undefined;
  domains?: string[];
  verifyDomains?: boolean;
  verifyBusiness?: boolean;
  unlimited?: boolean;
  /** The language of the service's emails to the merchant (default English). */
  language?: Language | undefined;
}

/** Why `--name` was refused, in the operator's words (the dashboard words its own). */
const NAME_PROBLEMS: Readonly<Record<AccountNameProblem, string>> = {
  required: `--name must be 1 to ${ACCOUNT_NAME_MAX_LENGTH} characters`,
  too_long: `--name must be 1 to ${ACCOUNT_NAME_MAX_LENGTH} characters`,
  forbidden_characters: '--name may not hold < or >, nor control or invisible characters',
  looks_like_link: '--name may not look like a web address (no "://" or "www.")',
};

function slugOf(name: string): string {
  const slug = name
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 30)
    .replace(/-+$/, '');
  return slug === '' ? 'merchant' : slug;
}

function publicHostname(deps: Deps): string {
  return new URL(deps.config.publicUrl).hostname;
}

/** `whsec_` and 24 random bytes in standard base64: the form Standard Webhooks libraries decode. */
function newWebhookSecret(deps: Deps): string {
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

async function createKey(
  deps: Deps,
  db: Executor,
  merchantId: string,
  environment: Environment,
  access: KeyAccess,
  nowMs: number,
): Promise<CreatedKey> {
  const key = composeKey(environment, deps.ids.token(32));
  const hint = keyHint(key);
  const keyId = deps.ids.uuid(nowMs);
  await insertApiKey(db, {
    id: keyId,
    merchant_id: merchantId,
    environment,
    access,
    key_hash: sha256Hex(key),
    key_prefix: hint.prefix,
    key_last4: hint.last4,
    created_at: toStoredInstant(nowMs),
    revoked_at: null,
  });
  return { key, key_id: keyId, environment, access };
}

export async function createMerchant(deps: Deps, input: CreateMerchantInput): Promise<CreatedMerchant> {
  const write = writeMerchant(deps, input);
  try {
    return await deps.db.transaction().execute(write);
  } catch (error) {
    if (isUniqueViolation(error))
      throw new OperatorError('one of the domains is already verified for another merchant');
    throw error;
  }
}

/**
 * The demo merchant `serve` makes on an empty database (a test key to try the API at once); null
 * when the database holds a merchant already. Instances started together on one empty database
 * make one: the count and the creation run in one transaction under the first-start lock.
 */
export async function createDemoMerchantIfEmpty(deps: Deps): Promise<CreatedMerchant | null> {
  const write = writeMerchant(deps, { name: DEMO_MERCHANT_NAME });
  return deps.transact(async (trx) => {
    await holdNamedLock(trx, deps.dialect, 'gateway:first-start');
    if ((await countMerchants(trx)) > 0) return null;
    return write(trx);
  });
}

export const DEMO_MERCHANT_NAME = 'Demo Shop';

/** Checks `input`, then answers the work that writes the merchant, its domains and its test key. */
function writeMerchant(deps: Deps, input: CreateMerchantInput): (trx: Executor) => Promise<CreatedMerchant> {
  const name = input.name.trim();
  const nameProblem = accountNameProblem(name);
  if (nameProblem !== null) throw new OperatorError(NAME_PROBLEMS[nameProblem]);
  if (input.email !== undefined && !/^[^@\s]+@[^@\s]+\.[^@\s]+$/.test(input.email)) {
    throw new OperatorError(`--email "${input.email}" is not an email address`);
  }
  const hosts = (input.domains ?? []).map(validHost);
  if (input.verifyDomains) {
    const local = hosts.find(isNeverVerifiable);
    if (local !== undefined) throw new OperatorError(`${local} can never be verified (localhost and IP addresses)`);
  }
  return async (trx) => {
    const nowMs = deps.clock.nowMs();
    const now = toStoredInstant(nowMs);
    const merchantId = deps.ids.uuid(nowMs);
    const hostedHost = `${slugOf(name)}-${sha256Hex(merchantId).slice(0, 6)}.${publicHostname(deps)}`;
    await insertMerchant(trx, {
      id: merchantId,
      name,
      email: input.email ?? null,
      business_verified: input.verifyBusiness ? 1 : 0,
      unlimited: input.unlimited ? 1 : 0,
      rate_limit_per_minute: null,
      language: input.language ?? 'en',
      created_at: now,
      updated_at: now,
    });
    const domains: CreatedMerchant['domains'] = [];
    const hostedId = deps.ids.uuid(nowMs);
    const hostedSecret = newWebhookSecret(deps);
    await insertDomain(trx, domainRow(deps, hostedId, merchantId, hostedHost, true, true, null, hostedSecret, now));
    await upsertDomainProcessor(
      trx,
      { domain_id: hostedId, processor: 'sandbox', enabled: 1, config: null, position: null },
      now,
    );
    domains.push({ host: hostedHost, verified: true, hosted: true, webhook_secret: hostedSecret });
    for (const host of new Set(hosts)) {
      const secret = newWebhookSecret(deps);
      const verified = input.verifyDomains === true;
      await insertDomain(
        trx,
        domainRow(deps, deps.ids.uuid(nowMs), merchantId, host, false, verified, null, secret, now),
      );
      domains.push({ host, verified, hosted: false, webhook_secret: secret });
    }
    const key = await createKey(deps, trx, merchantId, 'test', 'full', nowMs);
    return {
      merchant_id: merchantId,
      hosted_domain: hostedHost,
      keys: [{ key: key.key, environment: key.environment, access: key.access }],
      domains,
    };
  };
}

/** A new domain's row; its webhook secret is sealed. */
function domainRow(
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

async function requireMerchant(deps: Deps, merchantId: string) {
  const merchant = await findMerchant(deps.db, merchantId);
  if (merchant === undefined) throw new OperatorError(`no merchant with id ${merchantId}`);
  return merchant;
}

/**
 * A live key or live connect token asked for an account whose business is not verified yet, where
 * the caller refuses it (the dashboard; the operator's CLI may issue them, see docs/decisions.md
 * "API keys and connect tokens on the dashboard": such a key is refused by the API until then).
 */
export class BusinessNotVerified extends OperatorError {
  override name = 'BusinessNotVerified';
}

export async function createApiKey(
  deps: Deps,
  input: {
    merchantId: string;
    environment: Environment;
    access: KeyAccess;
    /** Refuse a live key (BusinessNotVerified) unless the business is verified. */
    liveNeedsVerifiedBusiness?: boolean;
  },
): Promise<CreatedKey & { merchant_id: string }> {
  const merchant = await requireMerchant(deps, input.merchantId);
  if (input.liveNeedsVerifiedBusiness === true && input.environment === 'live' && merchant.business_verified !== 1) {
    throw new BusinessNotVerified(`merchant ${input.merchantId} is not verified: live keys need a verified business`);
  }
  const key = await createKey(deps, deps.db, input.merchantId, input.environment, input.access, deps.clock.nowMs());
  return { ...key, merchant_id: input.merchantId };
}

export interface ApiKeyView {
  key_id: string;
  environment: Environment;
  access: KeyAccess;
  /** What is kept in clear: `sk_test_AbCd` and the last four characters. */
  prefix: string;
  last4: string;
  created_at: string;
  last_used_at: string | null;
  revoked_at: string | null;
}

/** The merchant's keys (never the keys themselves), revoked ones too, newest first. */
export async function listApiKeys(deps: Deps, merchantId: string): Promise<ApiKeyView[]> {
  await requireMerchant(deps, merchantId);
  const rows = await listMerchantKeys(deps.db, merchantId);
  return rows.map((row) => ({
    key_id: row.id,
    environment: row.environment,
    access: row.access,
    prefix: row.key_prefix,
    last4: row.key_last4,
    created_at: row.created_at,
    last_used_at: row.last_used_at,
    revoked_at: row.revoked_at,
  }));
}

/**
 * Revokes a key: the write moves the account version (storage/migrations/0006-account-version.ts),
 * so the next request on any instance is refused with it.
 */
export async function revokeApiKey(
  deps: Deps,
  input: { merchantId: string; keyId: string },
): Promise<{ merchant_id: string; key_id: string; revoked: true }> {
  await requireMerchant(deps, input.merchantId);
  const revoked = await revokeKey(deps.db, input.merchantId, input.keyId, toStoredInstant(deps.clock.nowMs()));
  if (!revoked) throw new OperatorError(`merchant ${input.merchantId} has no active key ${input.keyId}`);
  return { merchant_id: input.merchantId, key_id: input.keyId, revoked: true };
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

/**
 * Marks the merchant's business verified: live keys and live connect tokens work from the next
 * request on. `db` is a transaction when the caller records more in the same one (the business
 * verification request, its audit entry and emails: business-review.ts).
 */
export async function verifyBusiness(
  deps: Deps,
  merchantId: string,
  db: Executor = deps.db,
): Promise<{ merchant_id: string; business_verified: true }> {
  if ((await findMerchant(db, merchantId)) === undefined) throw new OperatorError(`no merchant with id ${merchantId}`);
  await updateMerchant(db, merchantId, {
    business_verified: 1,
    updated_at: toStoredInstant(deps.clock.nowMs()),
  });
  return { merchant_id: merchantId, business_verified: true };
}

/** The operator raises (or restores, with null) the per-minute request limit of one account. */
export async function setRateLimit(
  deps: Deps,
  merchantId: string,
  perMinute: number | null,
): Promise<{ merchant_id: string; rate_limit_per_minute: number }> {
  await requireMerchant(deps, merchantId);
  await updateMerchant(deps.db, merchantId, {
    rate_limit_per_minute: perMinute,
    updated_at: toStoredInstant(deps.clock.nowMs()),
  });
  return { merchant_id: merchantId, rate_limit_per_minute: perMinute ?? deps.config.rateLimitPerMinute };
}

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
