/**
 * Who is calling (spec "Authentication"): a secret key in `X-Service-Key` or
 * `Authorization: Bearer`, or a platform connect token in `X-Service-Connect`. Failed attempts are
 * counted per client address; past the limit every attempt from that address is refused for the
 * rest of the minute. A live key or live connect token of an unverified business is refused before
 * anything else runs. An accepted credential's last use is recorded on the side (last-use.ts).
 */
import { findActiveKeyByHash, type KeyWithMerchant } from '../../storage/api-key.repository.js';
import { verifyConnectToken } from '../connect/connect-token.service.js';
import { keyEnvironment } from '../domain/api-keys.js';
import { ApiError } from '../domain/errors.js';
import type { RateLimiter, WindowCount } from '../limits/rate-limiter.js';
import type { Deps } from '../runtime/deps.js';
import { safeEqual, sha256Hex } from '../runtime/hashing.js';
import { recordLastUse } from './last-use.js';
import type { ApiKeyPrincipal, Principal } from './principal.js';

export interface CredentialHeaders {
  readonly serviceKey: string | undefined;
  readonly authorization: string | undefined;
  readonly connectToken: string | undefined;
}

export interface AuthDeps extends Deps {
  readonly limiter: RateLimiter;
}

type Credential = { kind: 'api_key'; key: string } | { kind: 'connect_token'; token: string } | null;

export function readCredential(headers: CredentialHeaders): Credential {
  const serviceKey = headers.serviceKey?.trim();
  if (serviceKey) return { kind: 'api_key', key: serviceKey };
  const authorization = headers.authorization?.trim();
  if (authorization) {
    const match = /^Bearer\s+(\S+)$/i.exec(authorization);
    return { kind: 'api_key', key: match?.[1] ?? '' };
  }
  const connect = headers.connectToken?.trim();
  if (connect) return { kind: 'connect_token', token: connect };
  return null;
}

export async function authenticate(deps: AuthDeps, headers: CredentialHeaders, clientIp: string): Promise<Principal> {
  const failures = await deps.limiter.peek(failureBucket(clientIp));
  if (failures.hits >= deps.config.authFailuresPerMinute) {
    throw tooManyAttempts(failures.resetSeconds);
  }
  const fail = async (error: ApiError): Promise<never> => {
    const counted = await deps.limiter.hit(failureBucket(clientIp));
    if (counted.hits > deps.config.authFailuresPerMinute) throw tooManyAttempts(counted.resetSeconds);
    throw error;
  };

  const credential = readCredential(headers);
  if (credential === null) {
    return fail(
      new ApiError(
        'missing_credentials',
        'Send your secret key in the X-Service-Key header or as Authorization: Bearer <key>.',
      ),
    );
  }
  // Whatever changed since the last request (here, through the CLI or on another instance) counts now.
  await deps.accountCache.sync();
  if (credential.kind === 'connect_token') {
    const checked = await verifyConnectToken(deps, credential.token);
    if (!checked.ok) return fail(new ApiError('invalid_connect_token', checked.message));
    const { token } = checked;
    if (token.environment === 'live' && !token.businessVerified) {
      throw verificationRequired(deps, 'Live connect tokens need a verified business. Use a test token until then.');
    }
    void recordLastUse(deps, 'connect_token', token.id);
    return {
      kind: 'connect_token',
      tokenId: token.id,
      merchantId: token.merchantId,
      environment: token.environment,
      domain: token.domain,
      platform: token.platform,
      rateLimitPerMinute: token.rateLimitPerMinute ?? deps.config.rateLimitPerMinute,
    };
  }
  const environment = keyEnvironment(credential.key);
  if (environment === null) {
    return fail(new ApiError('invalid_api_key', 'The API key is malformed: keys start with sk_live_ or sk_test_.'));
  }
  const presentedHash = sha256Hex(credential.key);
  const key = await deps.accountCache.keys.getOrLoad(presentedHash, () => findActiveKeyByHash(deps.db, presentedHash));
  if (!keyMatches(key, presentedHash, environment)) {
    return fail(new ApiError('invalid_api_key', 'The API key is not recognised or has been revoked.'));
  }
  if (key.environment === 'live' && key.business_verified !== 1)
    throw verificationRequired(deps, 'Live keys need a verified business. Use a test key until then.');
  return acceptedKey(deps, key);
}

/** Whether the stored key is the one presented (its hash, compared in constant time) for its environment. */
export function keyMatches(
  key: KeyWithMerchant | undefined,
  presentedHash: string,
  environment: string,
): key is KeyWithMerchant {
  return key !== undefined && safeEqual(key.key_hash, presentedHash) && key.environment === environment;
}

/** The principal of an active key that matched and may be used; its last use recorded on the side. */
export function acceptedKey(deps: AuthDeps, key: KeyWithMerchant): ApiKeyPrincipal {
  void recordLastUse(deps, 'api_key', key.id);
  return keyPrincipal(deps, key);
}

/** The caller a key is, before anything is recorded of its use. */
export function keyPrincipal(deps: Pick<AuthDeps, 'config'>, key: KeyWithMerchant): ApiKeyPrincipal {
  return {
    kind: 'api_key',
    keyId: key.id,
    merchantId: key.merchant_id,
    environment: key.environment,
    access: key.access,
    rateLimitPerMinute: key.rate_limit_per_minute ?? deps.config.rateLimitPerMinute,
  };
}

function verificationRequired(deps: AuthDeps, message: string): ApiError {
  return new ApiError('VERIFICATION_REQUIRED', message, {
    details: { verification_url: `${deps.config.publicUrl}/docs/verification` },
  });
}

function tooManyAttempts(resetSeconds: number): ApiError {
  return new ApiError(
    'too_many_attempts',
    `Too many failed authentications from this address. Retry in ${resetSeconds} seconds.`,
    { headers: { 'Retry-After': String(resetSeconds) } },
  );
}

export interface AccountLimit {
  readonly limit: number;
  readonly remaining: number;
  readonly resetSeconds: number;
}

/** The bucket of an account's per-minute limit. */
export function accountBucket(merchantId: string): string {
  return `account:${merchantId}`;
}

/** The failed authentications from one client address. */
export function failureBucket(clientIp: string): string {
  return `auth-failures:${clientIp}`;
}

/** The limit's answer to a request counted `counted`: its headers' figures, or `rate_limited`. */
export function checkAccountLimit(principal: Principal, counted: WindowCount): AccountLimit {
  const limit = principal.rateLimitPerMinute;
  if (counted.hits > limit) {
    throw new ApiError(
      'rate_limited',
      `More than ${limit} requests in a minute for this account. Retry in ${counted.resetSeconds} seconds.`,
      {
        headers: {
          'Retry-After': String(counted.resetSeconds),
          'X-RateLimit-Limit': String(limit),
          'X-RateLimit-Remaining': '0',
          'X-RateLimit-Reset': String(counted.resetSeconds),
        },
      },
    );
  }
  return { limit, remaining: limit - counted.hits, resetSeconds: counted.resetSeconds };
}
