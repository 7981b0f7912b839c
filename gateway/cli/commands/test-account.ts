/**
 * The account `listen` and `trigger` act for, in test mode: named by one of its test keys
 * (`--api-key sk_test_…`, the key `npm start` prints) or by its id (`--merchant ID`), optionally
 * narrowed to one of its domains (`--host HOST`).
 */
import { findActiveKeyByHash } from '../../../storage/api-key.repository.js';
import { findMerchant } from '../../../storage/merchant.repository.js';
import type { ApiKeyPrincipal } from '../../auth/principal.js';
import { keyEnvironment } from '../../domain/api-keys.js';
import { requireDomain } from '../../merchants/domains.service.js';
import { OperatorError } from '../../merchants/operator.js';
import type { Deps } from '../../runtime/deps.js';
import { sha256Hex } from '../../runtime/hashing.js';

/** The flags that name the account, as given. */
export interface AccountFlags {
  readonly apiKey: string | undefined;
  readonly merchantId: string | undefined;
  readonly host: string | undefined;
}

/** The flags as the command line gives them (`--api-key`, `--merchant`, `--host`). */
export interface AccountValues {
  readonly 'api-key'?: string | undefined;
  readonly merchant?: string | undefined;
  readonly host?: string | undefined;
}

/** Exactly one of `--api-key` and `--merchant`; `usage` makes the command line's refusal. */
export function accountFlags(values: AccountValues, usage: (message: string) => Error): AccountFlags {
  const apiKey = values['api-key'] === '' ? undefined : values['api-key'];
  const merchantId = values.merchant === '' ? undefined : values.merchant;
  if (apiKey !== undefined && merchantId !== undefined) throw usage('give --api-key or --merchant, not both');
  if (apiKey === undefined && merchantId === undefined) {
    throw usage('--api-key (a test key, sk_test_...) or --merchant is required');
  }
  return { apiKey, merchantId, host: values.host === '' ? undefined : values.host };
}

export interface TestAccount {
  /** The account acting in test mode, as a test key does. */
  readonly principal: ApiKeyPrincipal;
  /** The domain `--host` names, or null: every domain of the account. */
  readonly domain: { readonly id: string; readonly host: string } | null;
}

export async function findTestAccount(deps: Deps, flags: AccountFlags): Promise<TestAccount> {
  let principal: ApiKeyPrincipal;
  if (flags.apiKey !== undefined) {
    const environment = keyEnvironment(flags.apiKey);
    if (environment === null) throw new OperatorError('--api-key is not an API key: keys start with sk_test_');
    if (environment === 'live') {
      throw new OperatorError('--api-key is a live key: only test events are sent, give a test key (sk_test_...)');
    }
    const key = await findActiveKeyByHash(deps.db, sha256Hex(flags.apiKey));
    if (key === undefined || key.environment !== 'test') {
      throw new OperatorError('--api-key is not recognised or has been revoked');
    }
    principal = {
      kind: 'api_key',
      keyId: key.id,
      merchantId: key.merchant_id,
      environment: 'test',
      access: key.access,
      rateLimitPerMinute: key.rate_limit_per_minute ?? deps.config.rateLimitPerMinute,
    };
  } else {
    const merchantId = flags.merchantId ?? '';
    const merchant = await findMerchant(deps.db, merchantId);
    if (merchant === undefined) throw new OperatorError(`no merchant with id ${merchantId}`);
    // The operator acts as the merchant's full-access test key would.
    principal = {
      kind: 'api_key',
      keyId: 'operator',
      merchantId,
      environment: 'test',
      access: 'full',
      rateLimitPerMinute: merchant.rate_limit_per_minute ?? deps.config.rateLimitPerMinute,
    };
  }
  if (flags.host === undefined) return { principal, domain: null };
  const domain = await requireDomain(deps, principal.merchantId, flags.host);
  return { principal, domain: { id: domain.id, host: domain.host } };
}
