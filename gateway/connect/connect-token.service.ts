/**
 * Connect tokens (spec "Authentication" 5; docs/decisions.md "Connect tokens"): the operator issues
 * one per store with `gateway connect-token create`, bound to one merchant, one of its verified
 * domains, one platform and one environment; the store's plugin (through the connector) sends it in
 * `X-Service-Connect`. A token is checked twice: its signature and expiry, then its stored row
 * (revocation, the domain still verified, the claims agreeing with the row). Rows are held in the
 * account cache like keys: a revocation made anywhere (this process, the CLI, another instance)
 * is seen by the next request.
 */
import {
  type ConnectTokenWithAccount,
  findConnectToken,
  findConnectTokenWithAccount,
  insertConnectToken,
  listMerchantConnectTokens,
  markConnectTokenRevoked,
} from '../../storage/connect-token.repository.js';
import { findDomainSecrets, listMerchantDomainsWithProcessors } from '../../storage/domain.repository.js';
import { findMerchant } from '../../storage/merchant.repository.js';
import type { ConnectTokenPrincipal } from '../auth/principal.js';
import { toApiInstant, toStoredInstant } from '../domain/clock.js';
import {
  CONNECT_PLATFORMS,
  CONNECT_TOKEN_AUDIENCE,
  type ConnectPlatform,
  claimsAgreeWith,
  connectTokenLifetime,
  DEFAULT_CONNECT_TOKEN_DAYS,
  isConnectPlatform,
  MAX_CONNECT_TOKEN_DAYS,
} from '../domain/connect-tokens.js';
import type { Environment } from '../domain/payment.js';
import { BusinessNotVerified } from '../merchants/api-keys.service.js';
import { findNamedDomain } from '../merchants/domains.service.js';
import { OperatorError } from '../merchants/operator.js';
import type { Deps } from '../runtime/deps.js';
import { openWebhookSecrets, signingSecrets } from '../webhooks/secrets.js';
import { readConnectToken, signConnectToken } from './connect-token.jwt.js';

export interface CreateConnectTokenInput {
  readonly merchantId: string;
  /** Host of a verified domain of the merchant (its hosted domain counts). */
  readonly domain: string;
  readonly platform: string;
  readonly environment?: Environment;
  readonly expiresInDays?: number;
  /** Refuse a live token (BusinessNotVerified) unless the business is verified. */
  readonly liveNeedsVerifiedBusiness?: boolean;
}

export interface CreatedConnectToken {
  /** The token itself: shown once, never stored. */
  connect_token: string;
  id: string;
  merchant_id: string;
  domain: string;
  platform: ConnectPlatform;
  environment: Environment;
  expires_at: string;
}

export async function createConnectToken(deps: Deps, input: CreateConnectTokenInput): Promise<CreatedConnectToken> {
  if (!isConnectPlatform(input.platform)) {
    throw new OperatorError(`unknown platform "${input.platform}" (one of ${CONNECT_PLATFORMS.join(', ')})`);
  }
  const platform = input.platform;
  const environment = input.environment ?? 'test';
  if (environment !== 'test' && environment !== 'live') {
    throw new OperatorError(`environment must be test or live (got "${String(environment)}")`);
  }
  const days = input.expiresInDays ?? DEFAULT_CONNECT_TOKEN_DAYS;
  if (!Number.isInteger(days) || days < 1 || days > MAX_CONNECT_TOKEN_DAYS) {
    throw new OperatorError(`the lifetime must be 1 to ${MAX_CONNECT_TOKEN_DAYS} days (got ${days})`);
  }
  const merchant = await findMerchant(deps.db, input.merchantId);
  if (merchant === undefined) throw new OperatorError(`no merchant with id ${input.merchantId}`);
  if (input.liveNeedsVerifiedBusiness === true && environment === 'live' && merchant.business_verified !== 1) {
    throw new BusinessNotVerified(`merchant ${merchant.id} is not verified: live tokens need a verified business`);
  }
  const { host, domain } = await findNamedDomain(deps.db, merchant.id, input.domain);
  if (domain === undefined) throw new OperatorError(`merchant ${merchant.id} has no domain ${host}`);
  if (domain.verified !== 1) {
    throw new OperatorError(`${host} is not verified yet: a connect token needs a verified domain`);
  }

  const nowMs = deps.clock.nowMs();
  const { issuedAtMs, expiresAtMs } = connectTokenLifetime(nowMs, days);
  const id = deps.ids.uuid(nowMs);
  const expiresAt = toStoredInstant(expiresAtMs);
  await insertConnectToken(deps.db, {
    id,
    merchant_id: merchant.id,
    domain_id: domain.id,
    platform,
    environment,
    created_at: toStoredInstant(nowMs),
    expires_at: expiresAt,
    revoked_at: null,
  });
  const token = await signConnectToken(deps.secret, {
    jti: id,
    sub: merchant.id,
    aud: CONNECT_TOKEN_AUDIENCE,
    dom: domain.host,
    plt: platform,
    env: environment,
    iat: issuedAtMs / 1000,
    exp: expiresAtMs / 1000,
  });
  return {
    connect_token: token,
    id,
    merchant_id: merchant.id,
    domain: domain.host,
    platform,
    environment,
    expires_at: toApiInstant(expiresAt) as string,
  };
}

/**
 * The hosts a store's token may be issued for on the dashboard: the merchant's own verified
 * domains, in the order they were added. The hosted domain is left out (no store runs there; the
 * CLI may still name it).
 */
export async function storeDomainsForTokens(deps: Deps, merchantId: string): Promise<string[]> {
  const domains = await listMerchantDomainsWithProcessors(deps.db, merchantId);
  return domains.filter((domain) => domain.verified === 1 && domain.hosted !== 1).map((domain) => domain.host);
}

/** Revokes a token; revoking it again answers the first revocation's time. */
export async function revokeConnectToken(deps: Deps, id: string): Promise<{ id: string; revoked_at: string }> {
  const existing = await findConnectToken(deps.db, id);
  if (existing === undefined) throw new OperatorError(`no connect token with id ${id}`);
  if (existing.revoked_at === null) {
    await markConnectTokenRevoked(deps.db, id, toStoredInstant(deps.clock.nowMs()));
  }
  const revoked = await findConnectToken(deps.db, id);
  if (revoked?.revoked_at == null) throw new Error(`connect token ${id} was not revoked`);
  return { id, revoked_at: toApiInstant(revoked.revoked_at) as string };
}

export interface ConnectTokenView {
  id: string;
  domain: string | null;
  platform: ConnectPlatform;
  environment: Environment;
  created_at: string;
  expires_at: string;
  revoked_at: string | null;
  /** When it last authenticated a request (to the minute); null: never. */
  last_used_at: string | null;
}

export async function listConnectTokens(
  deps: Deps,
  merchantId: string,
): Promise<{ connect_tokens: ConnectTokenView[] }> {
  const merchant = await findMerchant(deps.db, merchantId);
  if (merchant === undefined) throw new OperatorError(`no merchant with id ${merchantId}`);
  const rows = await listMerchantConnectTokens(deps.db, merchantId);
  return {
    connect_tokens: rows.map((row) => ({
      id: row.id,
      domain: row.domain_host,
      platform: row.platform,
      environment: row.environment,
      created_at: toApiInstant(row.created_at) as string,
      expires_at: toApiInstant(row.expires_at) as string,
      revoked_at: toApiInstant(row.revoked_at),
      last_used_at: toApiInstant(row.last_used_at),
    })),
  };
}

/** A token that passed every check: what the request it authenticates may rely on. */
export interface VerifiedConnectToken {
  readonly id: string;
  readonly merchantId: string;
  readonly environment: Environment;
  readonly platform: ConnectPlatform;
  readonly domain: { readonly id: string; readonly host: string };
  readonly businessVerified: boolean;
  /** The merchant's own per-minute limit, null for the service default. */
  readonly rateLimitPerMinute: number | null;
}

export type ConnectTokenCheck =
  | { readonly ok: true; readonly token: VerifiedConnectToken }
  | { readonly ok: false; readonly message: string };

const NOT_RECOGNISED = 'The connect token is not recognised. Create a new one for the store.';

function refused(message: string): ConnectTokenCheck {
  return { ok: false, message };
}

/** Checks a token sent in `X-Service-Connect`; a refusal carries the message the client sees. */
export async function verifyConnectToken(deps: Deps, token: string): Promise<ConnectTokenCheck> {
  const reading = await readConnectToken(deps.secret, token, deps.clock.nowMs());
  if (!reading.ok) {
    switch (reading.reason) {
      case 'expired':
        return refused('The connect token has expired. Create a new one for the store.');
      case 'signature':
        return refused('The connect token was not issued by this service: its signature does not match.');
      case 'malformed':
        return refused('The connect token is malformed. Send it exactly as it was issued.');
    }
  }
  const { claims } = reading;
  const row = await deps.accountCache.connectTokens.getOrLoad(claims.jti, () =>
    findConnectTokenWithAccount(deps.db, claims.jti),
  );
  if (row === undefined || !agrees(claims, row)) return refused(NOT_RECOGNISED);
  // The expiry was checked with the signature: the claims agree with the row, `exp` included.
  if (row.revoked_at !== null) return refused('The connect token has been revoked. Create a new one for the store.');
  if (row.domain_host === null || row.domain_verified !== 1 || row.domain_merchant_id !== row.merchant_id) {
    return refused(`The connect token's domain is no longer a verified domain of the account.`);
  }
  return {
    ok: true,
    token: {
      id: row.id,
      merchantId: row.merchant_id,
      environment: row.environment,
      platform: row.platform,
      domain: { id: row.domain_id, host: row.domain_host },
      businessVerified: row.business_verified === 1,
      rateLimitPerMinute: row.rate_limit_per_minute,
    },
  };
}

function agrees(claims: Parameters<typeof claimsAgreeWith>[0], row: ConnectTokenWithAccount): boolean {
  return claimsAgreeWith(claims, {
    id: row.id,
    merchantId: row.merchant_id,
    domainHost: row.domain_host,
    platform: row.platform,
    environment: row.environment,
    expiresAtMs: Date.parse(row.expires_at),
  });
}

export interface ConnectTokenIntrospection {
  id: string;
  merchant_id: string;
  domain: string;
  platform: ConnectPlatform;
  environment: Environment;
  livemode: boolean;
  created_at: string;
  expires_at: string;
  /** The domain's webhook signing secret, and during a rotation the next one. */
  webhook_secrets: string[];
}

/** `GET /api/v1/connect_token`: what the token is bound to, and how to verify its domain's webhooks. */
export async function introspectConnectToken(
  deps: Deps,
  principal: ConnectTokenPrincipal,
): Promise<ConnectTokenIntrospection> {
  const row = await findConnectToken(deps.db, principal.tokenId);
  const secrets = await findDomainSecrets(deps.db, principal.domain.id);
  if (row === undefined || secrets === undefined) throw new Error(`connect token ${principal.tokenId} vanished`);
  return {
    id: row.id,
    merchant_id: row.merchant_id,
    domain: principal.domain.host,
    platform: row.platform,
    environment: row.environment,
    livemode: row.environment === 'live',
    created_at: toApiInstant(row.created_at) as string,
    expires_at: toApiInstant(row.expires_at) as string,
    webhook_secrets: [
      ...signingSecrets(openWebhookSecrets(deps.sealer, principal.domain.id, secrets), deps.clock.nowMs()),
    ],
  };
}
