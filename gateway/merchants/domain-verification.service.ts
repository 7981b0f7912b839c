/**
 * Domain verification (docs/decisions.md "Domain verification"): each domain gets a random token;
 * the merchant publishes it as a DNS TXT record (`_gateway-verification.<host>`) or as an HTTPS
 * file (`https://<host>/.well-known/gateway-verification.txt`), then asks for a check. A check
 * that passes verifies the domain through `addDomain`, the path the operator's `--verified` takes,
 * so every instance sees it at its next request (account version); one that fails records why.
 * Used by the CLI (`domain verification`, `domain verify`) and the dashboard's domain pages.
 */
import type { DomainRow } from '../../storage/domain.table.js';
import { ensureDomainVerification, recordVerificationCheck } from '../../storage/domain-verification.repository.js';
import type { DomainVerificationRow } from '../../storage/domain-verification.table.js';
import { toStoredInstant } from '../domain/clock.js';
import {
  isShopifyShopHost,
  type VerificationFailure,
  type VerificationMethod,
  verificationFileUrl,
  verificationRecordName,
  verificationValue,
} from '../domain/domain-verification.js';
import { isNeverVerifiable } from '../domain/hosts.js';
import type { Deps } from '../runtime/deps.js';
import { addDomain, requireDomain } from './domains.service.js';
import { OperatorError } from './operator.js';
import { checkTxtRecord, createVerificationResolver, resolverLookup } from './verification-dns.js';
import { checkVerificationFile, type FileCheckOptions } from './verification-file.js';

/** Bytes of randomness in a token (32 base64url characters). */
const TOKEN_BYTES = 24;

export interface LastCheck {
  checked_at: string;
  method: VerificationMethod | null;
  ok: boolean;
  failure_code: string | null;
  failure_message: string | null;
}

export interface DomainVerificationView {
  merchant_id: string;
  host: string;
  verified: boolean;
  hosted: boolean;
  /** How the domain was verified: a check (`dns`, `https`), the operator's override, or by being the hosted domain. */
  verified_method: VerificationMethod | 'operator' | 'hosted' | null;
  /** When a check verified it (null for the operator's override and the hosted domain). */
  verified_at: string | null;
  token: string;
  txt_name: string;
  txt_value: string;
  file_url: string;
  file_content: string;
  last_check: LastCheck | null;
}

export interface VerificationOutcome extends DomainVerificationView {
  /** Whether this check found the token. */
  ok: boolean;
  failure: VerificationFailure | null;
}

/** Test-only transport settings: a shorter DNS wait, and the local HTTPS server's CA, port and timeout. */
export interface VerificationOptions {
  readonly dnsTimeoutMs?: number;
  readonly file?: Pick<FileCheckOptions, 'ca' | 'port' | 'timeoutMs'>;
}

function verifiedMethod(domain: DomainRow, row: DomainVerificationRow): DomainVerificationView['verified_method'] {
  if (domain.hosted === 1) return 'hosted';
  if (domain.verified !== 1) return null;
  return row.verified_method ?? 'operator';
}

function view(merchantId: string, domain: DomainRow, row: DomainVerificationRow): DomainVerificationView {
  const value = verificationValue(row.token);
  return {
    merchant_id: merchantId,
    host: domain.host,
    verified: domain.verified === 1,
    hosted: domain.hosted === 1,
    verified_method: verifiedMethod(domain, row),
    verified_at: domain.verified === 1 ? row.verified_at : null,
    token: row.token,
    txt_name: verificationRecordName(domain.host),
    txt_value: value,
    file_url: verificationFileUrl(domain.host),
    file_content: value,
    last_check:
      row.checked_at === null
        ? null
        : {
            checked_at: row.checked_at,
            method: row.check_method,
            ok: row.failure_code === null,
            failure_code: row.failure_code,
            failure_message: row.failure_message,
          },
  };
}

/** The domain's verification row, its token created on first use. */
function tokenRow(deps: Deps, domain: DomainRow): Promise<DomainVerificationRow> {
  const now = toStoredInstant(deps.clock.nowMs());
  return ensureDomainVerification(deps.db, {
    domain_id: domain.id,
    token: deps.ids.token(TOKEN_BYTES),
    verified_method: null,
    verified_at: null,
    checked_at: null,
    check_method: null,
    failure_code: null,
    failure_message: null,
    created_at: now,
    updated_at: now,
  });
}

/** What the merchant must publish, and where the domain stands. */
export async function getDomainVerification(
  deps: Deps,
  input: { merchantId: string; host: string },
): Promise<DomainVerificationView> {
  const domain = await requireDomain(deps, input.merchantId, input.host);
  return view(input.merchantId, domain, await tokenRow(deps, domain));
}

/** Refuses what no check may verify: localhost, IP addresses, single labels, and the hosted domain. */
async function checkableDomain(deps: Deps, merchantId: string, hostInput: string): Promise<DomainRow> {
  const asGiven = hostInput
    .trim()
    .toLowerCase()
    .replace(/^\[|\]$/g, '')
    .replace(/\.$/, '');
  if (isNeverVerifiable(asGiven)) {
    throw new OperatorError(`${asGiven} can never be verified (localhost and IP addresses)`);
  }
  const domain = await requireDomain(deps, merchantId, hostInput);
  if (domain.hosted === 1) {
    throw new OperatorError(
      `${domain.host} is the hosted domain: it is verified by construction and cannot be checked`,
    );
  }
  return domain;
}

async function runCheck(
  deps: Deps,
  host: string,
  method: VerificationMethod,
  expected: string,
  options: VerificationOptions,
): Promise<VerificationFailure | null> {
  const servers = deps.config.dnsServers;
  const resolver = createVerificationResolver(servers, options.dnsTimeoutMs);
  if (method === 'dns' && isShopifyShopHost(host)) {
    return {
      code: 'dns_no_record',
      message: `${host} is a Shopify shop's domain, which takes no DNS record of yours: verify it with the https method, after pasting the value in the gateway's Shopify app (docs/shopify.md).`,
    };
  }
  if (method === 'dns') return checkTxtRecord(resolver, host, expected);
  return checkVerificationFile(host, expected, {
    allowPrivate: deps.config.allowPrivateWebhooks,
    ...(servers.length > 0 ? { lookup: resolverLookup(resolver) } : {}),
    ...options.file,
  });
}

/**
 * Checks the domain by `method` now. On success the domain is verified (and stays so); the method
 * and time of the first successful check are kept. A failure is recorded and answered with its
 * reason; it never takes a verification away. Safe to repeat.
 */
export async function verifyDomain(
  deps: Deps,
  input: { merchantId: string; host: string; method: VerificationMethod },
  options: VerificationOptions = {},
): Promise<VerificationOutcome> {
  const domain = await checkableDomain(deps, input.merchantId, input.host);
  const row = await tokenRow(deps, domain);
  let failure = await runCheck(deps, domain.host, input.method, verificationValue(row.token), options);
  if (failure === null) {
    try {
      await addDomain(deps, { merchantId: input.merchantId, host: domain.host, verified: true });
    } catch (error) {
      if (!(error instanceof OperatorError)) throw error;
      failure = {
        code: 'taken',
        message: `${domain.host} is already verified for another account; contact support if it is yours.`,
      };
    }
  }
  const now = toStoredInstant(deps.clock.nowMs());
  const firstSuccess = failure === null && row.verified_at === null;
  await recordVerificationCheck(deps.db, domain.id, {
    checked_at: now,
    check_method: input.method,
    failure_code: failure?.code ?? null,
    failure_message: failure?.message ?? null,
    updated_at: now,
    ...(firstSuccess ? { verified_method: input.method, verified_at: now } : {}),
  });
  deps.logger.info(
    { merchant_id: input.merchantId, host: domain.host, method: input.method, failure: failure?.code ?? null },
    failure === null ? 'domain verification passed' : 'domain verification failed',
  );
  const current = await getDomainVerification(deps, { merchantId: input.merchantId, host: domain.host });
  return { ...current, ok: failure === null, failure };
}
