/**
 * Which of the merchant's domains a request belongs to (spec "Domains"): the browser `Origin`
 * header, else the `domain` body field, else the host of `return_url`. The service's own
 * documentation origin is skipped, so requests sent from our docs are decided by the body.
 * A connect token decides alone: its requests belong to the domain it is bound to.
 * Pure: the caller supplies the merchant's domains.
 */
import { ApiError } from './errors.js';
import { hostLiesOn, hostOfUrl, isNeverVerifiable, normalizeHost } from './hosts.js';

export type DomainSource = 'origin' | 'domain' | 'return_url';

export interface DomainCandidate {
  readonly host: string;
  readonly source: DomainSource;
}

export interface DomainSignals {
  /** The raw `Origin` header, if any. */
  readonly origin: string | undefined;
  /** The `domain` body field, already validated as a host name. */
  readonly domainField: string | undefined;
  readonly returnUrl: string;
  /** Origin of the service's documentation, e.g. `https://pay.example.am`. */
  readonly docsOrigin: string;
}

export interface MerchantDomain {
  readonly id: string;
  readonly host: string;
  readonly verified: boolean;
  readonly hosted: boolean;
}

export function originHost(origin: string | undefined, docsOrigin: string): string | null {
  if (origin === undefined || origin === '' || origin === 'null') return null;
  let parsed: URL;
  try {
    parsed = new URL(origin);
  } catch {
    return null;
  }
  if (parsed.origin === docsOrigin) return null;
  return hostOfUrl(parsed.origin);
}

export function pickDomainCandidate(signals: DomainSignals): DomainCandidate | null {
  const fromOrigin = originHost(signals.origin, signals.docsOrigin);
  if (fromOrigin !== null) return { host: fromOrigin, source: 'origin' };
  if (signals.domainField !== undefined) {
    const host = normalizeHost(signals.domainField);
    if (host !== null) return { host, source: 'domain' };
  }
  const fromReturnUrl = hostOfUrl(signals.returnUrl);
  if (fromReturnUrl !== null) return { host: fromReturnUrl, source: 'return_url' };
  return null;
}

/** The verified domain a host lies on; the most specific one when several match. */
export function verifiedDomainFor<D extends MerchantDomain>(host: string, domains: readonly D[]): D | null {
  let best: D | null = null;
  for (const domain of domains) {
    if (!domain.verified || !hostLiesOn(host, domain.host)) continue;
    if (best === null || domain.host.length > best.host.length) best = domain;
  }
  return best;
}

export interface LiveDomainInput<D extends MerchantDomain> {
  readonly signals: DomainSignals;
  /** URLs that must lie on a verified domain, by field name (`return_url`, `cancel_url`, ...). */
  readonly urls: Readonly<Record<string, string | undefined>>;
  readonly domains: readonly D[];
}

/** Resolves the domain of a live request, or throws the spec's 403. */
export function resolveLiveDomain<D extends MerchantDomain>(input: LiveDomainInput<D>): D {
  const candidate = pickDomainCandidate(input.signals);
  if (candidate === null) {
    throw new ApiError(
      'domain_required',
      'No domain could be determined: send the Origin header, the domain field or a return_url on your verified domain.',
    );
  }
  const domain = verifiedDomainFor(candidate.host, input.domains);
  if (domain === null) {
    const registered = input.domains.some((d) => hostLiesOn(candidate.host, d.host));
    throw new ApiError(
      'domain_not_registered',
      registered
        ? `The domain ${candidate.host} (from ${candidate.source}) is registered but not verified yet.`
        : `The domain ${candidate.host} (from ${candidate.source}) is not a domain of this account.`,
      { details: { domain: candidate.host } },
    );
  }
  if (candidate.source === 'origin' && input.signals.domainField !== undefined) {
    const named = normalizeHost(input.signals.domainField);
    if (named === null || !hostLiesOn(named, domain.host)) {
      throw new ApiError(
        'domain_mismatch',
        `The domain field (${input.signals.domainField}) does not match the Origin of the request (${candidate.host}).`,
        { details: { field: 'domain' } },
      );
    }
  }
  for (const [field, url] of Object.entries(input.urls)) {
    if (url === undefined) continue;
    const host = hostOfUrl(url);
    if (host === null || isNeverVerifiable(host) || verifiedDomainFor(host, input.domains) === null) {
      throw new ApiError(
        'domain_mismatch',
        `${field} must lie on a verified domain of this account; ${host ?? url} is not one.`,
        { details: { field } },
      );
    }
  }
  return domain;
}

/**
 * Test keys need no domain: a sandbox payment binds to the domain the request names when that is a
 * verified domain of the merchant, and to the account's hosted domain otherwise. Its URLs may point
 * anywhere, localhost included.
 */
export function resolveTestDomain<D extends MerchantDomain>(signals: DomainSignals, domains: readonly D[]): D {
  const candidate = pickDomainCandidate(signals);
  const named = candidate === null ? null : verifiedDomainFor(candidate.host, domains);
  if (named !== null) return named;
  const hosted = domains.find((d) => d.hosted);
  if (hosted === undefined) throw new Error('every merchant has a hosted domain');
  return hosted;
}

export interface BoundDomainInput<D extends MerchantDomain> {
  /** The domain the connect token is bound to. */
  readonly boundDomainId: string;
  /** The `domain` body field, already validated as a host name. */
  readonly domainField: string | undefined;
  /** URLs that must lie on the bound domain, by field name (live tokens: `return_url`, `cancel_url`). */
  readonly urls: Readonly<Record<string, string | undefined>>;
  readonly domains: readonly D[];
}

/**
 * The domain of a request made with a connect token: always the token's own. A `domain` field must
 * name it (or a host that resolves to it), and the given URLs must lie on it; anything else is 403
 * `domain_mismatch`.
 */
export function resolveBoundDomain<D extends MerchantDomain>(input: BoundDomainInput<D>): D {
  const domain = input.domains.find((d) => d.id === input.boundDomainId && d.verified);
  if (domain === undefined) {
    throw new ApiError(
      'domain_not_registered',
      "The connect token's domain is no longer a verified domain of this account.",
    );
  }
  if (input.domainField !== undefined) {
    const named = normalizeHost(input.domainField);
    if (named === null || verifiedDomainFor(named, input.domains)?.id !== domain.id) {
      throw new ApiError(
        'domain_mismatch',
        `The domain field (${input.domainField}) names another domain than the connect token's (${domain.host}).`,
        { details: { field: 'domain' } },
      );
    }
  }
  for (const [field, url] of Object.entries(input.urls)) {
    if (url === undefined) continue;
    const host = hostOfUrl(url);
    if (host === null || !hostLiesOn(host, domain.host)) {
      throw new ApiError(
        'domain_mismatch',
        `${field} must lie on ${domain.host}, the domain of this connect token; ${host ?? url} is not on it.`,
        { details: { field } },
      );
    }
  }
  return domain;
}
