/**
 * The start of every authenticated request: who is calling (./authenticate.ts) and its count against
 * the account's per-minute limit, which `requireAuth` answers in the X-RateLimit headers.
 *
 * The longer way asks the database three times: the failed attempts from the client's address, the
 * account version (for the account cache), then the account's counter. Where the counters live in
 * the database (PostgreSQL) and the key is one the cache already holds, the three are one
 * statement (`RateLimiter.admit`): the account's counter goes up while the failures and the version
 * are read. The request is then decided exactly as the longer way would: when the address is past
 * its failure limit, or the account version is not the one the cached key was kept under (the key
 * may be revoked or changed, also when another request of this instance learnt of it first), the
 * hit is taken back and the longer way decides, from the database. A request the longer way would
 * count is counted once either way, a request it would refuse before counting is not counted.
 *
 * A route whose first work is a read of one row (a payment by its id) may give that read along
 * (`AlongsideRead`): on the one-statement way it runs in the admission's statement, for the
 * principal the cached key is, and the request is answered from its row without another round
 * trip. Whenever the longer way decides, the row is dropped and the route reads as usual.
 */
import type { CompiledQuery } from 'kysely';
import type { AlongsideRow } from '../../storage/rate-limit.repository.js';
import { keyEnvironment } from '../domain/api-keys.js';
import type { WindowCount } from '../limits/rate-limiter.js';
import { sha256Hex } from '../runtime/hashing.js';
import {
  type AuthDeps,
  acceptedKey,
  accountBucket,
  authenticate,
  type CredentialHeaders,
  failureBucket,
  keyMatches,
  keyPrincipal,
  readCredential,
} from './authenticate.js';
import type { Principal } from './principal.js';

export interface Admitted {
  readonly principal: Principal;
  /** The request's count in the account's window; `checkAccountLimit` says whether it may go on. */
  readonly counted: WindowCount;
  /** What the `AlongsideRead` found, when it ran in the admission's statement; else absent. */
  readonly alongside?: AlongsideRow;
}

/**
 * The route's first read, for the principal the request turns out to be (undefined: none to give,
 * e.g. the principal may not perform the route's operation). At most one row.
 */
export type AlongsideRead = (principal: Principal) => CompiledQuery | undefined;

/** Authenticates the request and counts it against the account's limit. */
export async function admitRequest(
  deps: AuthDeps,
  headers: CredentialHeaders,
  clientIp: string,
  alongside?: AlongsideRead,
): Promise<Admitted> {
  const quick = await admitCachedKey(deps, headers, clientIp, alongside);
  if (quick !== undefined) return quick;
  const principal = await authenticate(deps, headers, clientIp);
  return { principal, counted: await deps.limiter.hit(accountBucket(principal.merchantId)) };
}

/** The one-statement way, for a key the cache holds; undefined when the longer way must decide. */
async function admitCachedKey(
  deps: AuthDeps,
  headers: CredentialHeaders,
  clientIp: string,
  alongside: AlongsideRead | undefined,
): Promise<Admitted | undefined> {
  const { limiter } = deps;
  if (limiter.admit === undefined || limiter.takeBack === undefined) return undefined;
  const credential = readCredential(headers);
  if (credential?.kind !== 'api_key') return undefined;
  const environment = keyEnvironment(credential.key);
  if (environment === null) return undefined;
  const presentedHash = sha256Hex(credential.key);
  const keptUnder = deps.accountCache.version;
  const key = deps.accountCache.keys.get(presentedHash);
  if (!keyMatches(key, presentedHash, environment)) return undefined;
  // A live key of an unverified business is refused before anything is counted: the longer way says so.
  if (key.environment === 'live' && key.business_verified !== 1) return undefined;

  const read = alongside?.(keyPrincipal(deps, key));
  const admission = await limiter.admit(accountBucket(key.merchant_id), failureBucket(clientIp), read);
  deps.accountCache.syncTo(admission.accountVersion);
  // The key was taken from the cache under `keptUnder`; it holds only if the statement read that
  // same version. (Another request of this instance may have learnt the new version and emptied
  // the cache while this one's statement ran: `syncTo` then finds nothing moved, yet the key taken
  // is the old one.)
  const moved = admission.accountVersion !== keptUnder;
  if (moved || admission.peeked.hits >= deps.config.authFailuresPerMinute) {
    await limiter.takeBack(admission);
    return undefined;
  }
  const principal = acceptedKey(deps, key);
  return admission.alongside === undefined
    ? { principal, counted: admission.hit }
    : { principal, counted: admission.hit, alongside: admission.alongside };
}
