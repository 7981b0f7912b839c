/**
 * Operator actions on accounts: creating a merchant (with its hosted domain and test key, also the
 * demo account at first start), verifying its business, its request limit. Used by the CLI and the
 * dashboard. Its keys, domains and processors have their own modules (api-keys.service.ts,
 * domains.service.ts, domain-processors.service.ts).
 */
import type { Executor } from '../../storage/database.js';
import { insertDomain, isVerifiedHostTaken, upsertDomainProcessor } from '../../storage/domain.repository.js';
import { isUniqueViolation } from '../../storage/errors.js';
import { countMerchants, findMerchant, insertMerchant, updateMerchant } from '../../storage/merchant.repository.js';
import { holdNamedLock } from '../../storage/transactions.js';
import type { Language } from '../checkout/i18n/index.js';
import { ACCOUNT_NAME_MAX_LENGTH, type AccountNameProblem, accountNameProblem } from '../domain/account-name.js';
import type { KeyAccess } from '../domain/api-keys.js';
import { toStoredInstant } from '../domain/clock.js';
import { isNeverVerifiable } from '../domain/hosts.js';
import type { Environment } from '../domain/payment.js';
import type { Deps } from '../runtime/deps.js';
import { sha256Hex } from '../runtime/hashing.js';
import { createKey } from './api-keys.service.js';
import { type DomainView, domainRow, newWebhookSecret, validHost } from './domains.service.js';
import { OperatorError, requireMerchant } from './operator.js';

// The merchant dashboard and the benchmarks import these from here; the code of the gateway
// imports them from their own modules.
export { type ApiKeyView, BusinessNotVerified, createApiKey, listApiKeys, revokeApiKey } from './api-keys.service.js';
export { setProcessorEnabled } from './domain-processors.service.js';
export { addDomain, findNamedDomain, requireDomain, rotateWebhookSecret, validHost } from './domains.service.js';
export { OperatorError } from './operator.js';

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

/**
 * The account's hosted domain, `<slug>-<6 hex>.<gateway host>`: six hex digits of a hash of the
 * account's id, or of the id and a number when another account's hosted domain (same name, same
 * six digits: one in 16 million per pair of accounts, so a real chance among thousands of "Shop"s)
 * holds those already. Two accounts made at the same instant onto the same name still meet the
 * unique index, whose refusal createMerchant words.
 */
async function freeHostedHost(trx: Executor, slug: string, merchantId: string, gatewayHost: string): Promise<string> {
  for (let attempt = 0; ; attempt += 1) {
    const digits = sha256Hex(attempt === 0 ? merchantId : `${merchantId}:${attempt}`).slice(0, 6);
    const host = `${slug}-${digits}.${gatewayHost}`;
    if (!(await isVerifiedHostTaken(trx, host))) return host;
  }
}

export async function createMerchant(deps: Deps, input: CreateMerchantInput): Promise<CreatedMerchant> {
  const write = writeMerchant(deps, input);
  try {
    return await deps.db.transaction().execute(write);
  } catch (error) {
    if (!isUniqueViolation(error)) throw error;
    // A verified host of another account: one of the domains asked for, or (without any) the
    // hosted domain another account made at the same moment under the same name took first.
    if (input.verifyDomains === true && (input.domains ?? []).length > 0)
      throw new OperatorError('one of the domains is already verified for another merchant');
    throw new OperatorError('another merchant was made at the same moment under the same name: try again');
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
    const hostedHost = await freeHostedHost(trx, slugOf(name), merchantId, publicHostname(deps));
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
