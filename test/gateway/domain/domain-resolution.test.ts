/**
 * Which of the merchant's domains a request belongs to (spec "Domains"): Origin, then the `domain`
 * field, then the host of `return_url`, the documentation origin skipped; the 403s of live keys;
 * test keys binding to the hosted domain.
 */
import { describe, expect, it } from 'vitest';
import {
  type DomainSignals,
  type MerchantDomain,
  originHost,
  pickDomainCandidate,
  resolveLiveDomain,
  resolveTestDomain,
  verifiedDomainFor,
} from '../../../gateway/domain/domain-resolution.js';
import { ApiError } from '../../../gateway/domain/errors.js';

const DOCS = 'https://pay.example.am';

const HOSTED: MerchantDomain = { id: 'd-hosted', host: 'coffee-1a2b3c.pay.example.am', verified: true, hosted: true };
const SHOP: MerchantDomain = { id: 'd-shop', host: 'shop.am', verified: true, hosted: false };
const EU: MerchantDomain = { id: 'd-eu', host: 'eu.shop.am', verified: true, hosted: false };
const BLOG: MerchantDomain = { id: 'd-blog', host: 'blog.am', verified: true, hosted: false };
const PENDING: MerchantDomain = { id: 'd-pending', host: 'pending.am', verified: false, hosted: false };
const DOMAINS = [HOSTED, SHOP, EU, BLOG, PENDING];

function signals(overrides: Partial<DomainSignals> = {}): DomainSignals {
  return {
    origin: undefined,
    domainField: undefined,
    returnUrl: 'https://shop.am/done',
    docsOrigin: DOCS,
    ...overrides,
  };
}

/** Runs `fn`, expects an ApiError, and answers it. */
function apiErrorOf(fn: () => unknown): ApiError {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(ApiError);
    return error as ApiError;
  }
  throw new Error('expected an ApiError, nothing was thrown');
}

function live(sig: Partial<DomainSignals>, urls: Record<string, string | undefined> = {}, domains = DOMAINS) {
  const s = signals(sig);
  return resolveLiveDomain({ signals: s, urls: { return_url: s.returnUrl, ...urls }, domains });
}

describe('originHost', () => {
  it.each([
    ['https://shop.am', 'shop.am'],
    ['https://WWW.Shop.am:8443', 'www.shop.am'],
    ['http://localhost:3000', 'localhost'],
  ])('reads %s as %s', (origin, host) => {
    expect(originHost(origin, DOCS)).toBe(host);
  });

  it.each([[undefined], [''], ['null'], ['not an origin'], ['ftp://shop.am'], [DOCS], [`${DOCS}:443`]])(
    'answers null for %j',
    (origin) => {
      expect(originHost(origin, DOCS)).toBeNull();
    },
  );

  it('does not skip another port or scheme of the documentation host', () => {
    expect(originHost('http://pay.example.am', DOCS)).toBe('pay.example.am');
    expect(originHost('https://pay.example.am:8443', DOCS)).toBe('pay.example.am');
  });
});

describe('pickDomainCandidate', () => {
  it('takes the Origin first', () => {
    expect(pickDomainCandidate(signals({ origin: 'https://blog.am', domainField: 'shop.am' }))).toEqual({
      host: 'blog.am',
      source: 'origin',
    });
  });

  it('takes the domain field when there is no Origin', () => {
    expect(pickDomainCandidate(signals({ domainField: 'Blog.AM' }))).toEqual({ host: 'blog.am', source: 'domain' });
  });

  it('takes the host of return_url last', () => {
    expect(pickDomainCandidate(signals({ returnUrl: 'https://www.shop.am/x' }))).toEqual({
      host: 'www.shop.am',
      source: 'return_url',
    });
  });

  it('skips the documentation origin and an opaque origin', () => {
    expect(pickDomainCandidate(signals({ origin: DOCS, domainField: 'blog.am' }))).toEqual({
      host: 'blog.am',
      source: 'domain',
    });
    expect(pickDomainCandidate(signals({ origin: 'null' }))).toEqual({ host: 'shop.am', source: 'return_url' });
  });

  it('skips an unusable domain field', () => {
    expect(pickDomainCandidate(signals({ domainField: 'not a host' }))).toEqual({
      host: 'shop.am',
      source: 'return_url',
    });
  });

  it('answers null when nothing names a host', () => {
    expect(pickDomainCandidate(signals({ returnUrl: 'not a url' }))).toBeNull();
  });
});

describe('verifiedDomainFor', () => {
  it('finds the verified domain a host lies on', () => {
    expect(verifiedDomainFor('shop.am', DOMAINS)).toBe(SHOP);
    expect(verifiedDomainFor('www.shop.am', DOMAINS)).toBe(SHOP);
  });

  it('prefers the most specific verified domain', () => {
    expect(verifiedDomainFor('eu.shop.am', DOMAINS)).toBe(EU);
    expect(verifiedDomainFor('checkout.eu.shop.am', DOMAINS)).toBe(EU);
    expect(verifiedDomainFor('checkout.eu.shop.am', [EU, SHOP])).toBe(EU);
  });

  it('ignores unverified domains and hosts that only look alike', () => {
    expect(verifiedDomainFor('pending.am', DOMAINS)).toBeNull();
    expect(verifiedDomainFor('evilshop.am', DOMAINS)).toBeNull();
    expect(verifiedDomainFor('shop.am.evil.com', DOMAINS)).toBeNull();
    expect(verifiedDomainFor('localhost', DOMAINS)).toBeNull();
  });
});

describe('resolveLiveDomain', () => {
  it('resolves the domain of return_url when nothing else is sent', () => {
    expect(live({ returnUrl: 'https://www.shop.am/done' })).toBe(SHOP);
  });

  it('resolves the domain of the Origin, URLs on any verified domain', () => {
    expect(live({ origin: 'https://blog.am', returnUrl: 'https://shop.am/done' })).toBe(BLOG);
  });

  it('resolves the domain named by the domain field', () => {
    expect(live({ domainField: 'eu.shop.am', returnUrl: 'https://eu.shop.am/done' })).toBe(EU);
  });

  it('accepts subdomains for every URL', () => {
    const domain = live(
      { returnUrl: 'https://www.shop.am/done' },
      { cancel_url: 'https://m.shop.am/cart', callback_url: 'https://hooks.blog.am/pay' },
    );
    expect(domain).toBe(SHOP);
  });

  it('skips absent optional URLs', () => {
    expect(live({}, { cancel_url: undefined, callback_url: undefined })).toBe(SHOP);
  });

  it('answers domain_required when no domain can be determined', () => {
    const error = apiErrorOf(() => live({ returnUrl: 'not a url' }));
    expect(error.code).toBe('domain_required');
    expect(error.status).toBe(403);
  });

  it('answers domain_not_registered for a host of no domain of the merchant', () => {
    const error = apiErrorOf(() => live({ returnUrl: 'https://stranger.am/done' }));
    expect(error.code).toBe('domain_not_registered');
    expect(error.status).toBe(403);
    expect(error.details).toEqual({ domain: 'stranger.am' });
    expect(error.message).toContain('not a domain of this account');
  });

  it('answers domain_not_registered for a registered but unverified domain, saying so', () => {
    const error = apiErrorOf(() => live({ returnUrl: 'https://www.pending.am/done' }));
    expect(error.code).toBe('domain_not_registered');
    expect(error.details).toEqual({ domain: 'www.pending.am' });
    expect(error.message).toContain('not verified');
  });

  it('answers domain_not_registered for an Origin outside the domains, whatever the body says', () => {
    const error = apiErrorOf(() =>
      live({ origin: 'https://stranger.am', domainField: 'shop.am', returnUrl: 'https://shop.am/done' }),
    );
    expect(error.code).toBe('domain_not_registered');
    expect(error.details).toEqual({ domain: 'stranger.am' });
    expect(error.message).toContain('origin');
  });

  it('never resolves localhost', () => {
    const error = apiErrorOf(() => live({ returnUrl: 'http://localhost:3000/done' }));
    expect(error.code).toBe('domain_not_registered');
  });

  it('answers domain_mismatch when the domain field disagrees with the Origin', () => {
    const error = apiErrorOf(() => live({ origin: 'https://shop.am', domainField: 'blog.am' }));
    expect(error.code).toBe('domain_mismatch');
    expect(error.status).toBe(403);
    expect(error.details).toEqual({ field: 'domain' });
  });

  it('accepts a domain field that names the Origin domain or a subdomain of it', () => {
    expect(live({ origin: 'https://shop.am', domainField: 'shop.am' })).toBe(SHOP);
    expect(live({ origin: 'https://www.shop.am', domainField: 'www.shop.am' })).toBe(SHOP);
    expect(live({ origin: 'https://shop.am', domainField: 'SHOP.AM.' })).toBe(SHOP);
  });

  it('answers domain_mismatch for a domain field that names a parent of the Origin domain', () => {
    const error = apiErrorOf(() => live({ origin: 'https://eu.shop.am', domainField: 'shop.am' }));
    expect(error.code).toBe('domain_mismatch');
    expect(error.details).toEqual({ field: 'domain' });
  });

  it.each([
    ['return_url', 'http://localhost:3000/done'],
    ['return_url', 'https://stranger.am/done'],
    ['return_url', 'https://www.pending.am/done'],
    ['cancel_url', 'https://evilshop.am/cart'],
    ['cancel_url', 'http://127.0.0.1/cart'],
    ['callback_url', 'https://shop.am.evil.com/hook'],
    ['callback_url', 'http://[::1]:4000/hook'],
    ['callback_url', 'not a url'],
  ])('answers domain_mismatch for %s %s', (field, url) => {
    const error = apiErrorOf(() =>
      live(
        { domainField: 'shop.am', returnUrl: field === 'return_url' ? url : 'https://shop.am/done' },
        {
          [field]: url,
        },
      ),
    );
    expect(error.code).toBe('domain_mismatch');
    expect(error.details).toEqual({ field });
  });

  it('never accepts localhost URLs, even if a localhost domain were marked verified', () => {
    const local: MerchantDomain = { id: 'd-local', host: 'localhost', verified: true, hosted: false };
    const error = apiErrorOf(() =>
      live({ domainField: 'shop.am' }, { callback_url: 'http://localhost:4000/hook' }, [...DOMAINS, local]),
    );
    expect(error.code).toBe('domain_mismatch');
    expect(error.details).toEqual({ field: 'callback_url' });
  });

  it('checks the domain before the URLs', () => {
    const error = apiErrorOf(() =>
      live({ returnUrl: 'https://stranger.am/done' }, { callback_url: 'http://localhost/hook' }),
    );
    expect(error.code).toBe('domain_not_registered');
  });
});

describe('resolveTestDomain', () => {
  it('binds to the hosted domain when nothing names a verified domain', () => {
    expect(resolveTestDomain(signals({ returnUrl: 'http://localhost:3000/done' }), DOMAINS)).toBe(HOSTED);
    expect(resolveTestDomain(signals({ returnUrl: 'https://stranger.am/done' }), DOMAINS)).toBe(HOSTED);
  });

  it('binds to the verified domain that the request names', () => {
    expect(resolveTestDomain(signals({ origin: 'https://blog.am' }), DOMAINS)).toBe(BLOG);
    expect(resolveTestDomain(signals({ domainField: 'eu.shop.am', returnUrl: 'http://localhost/' }), DOMAINS)).toBe(EU);
    expect(resolveTestDomain(signals({ returnUrl: 'https://www.shop.am/done' }), DOMAINS)).toBe(SHOP);
  });

  it('binds to the hosted domain when the named domain is unverified or unknown', () => {
    expect(resolveTestDomain(signals({ domainField: 'pending.am' }), DOMAINS)).toBe(HOSTED);
    expect(resolveTestDomain(signals({ origin: 'https://stranger.am' }), DOMAINS)).toBe(HOSTED);
  });

  it('never throws a domain error', () => {
    expect(() =>
      resolveTestDomain(
        signals({ origin: 'https://shop.am', domainField: 'blog.am', returnUrl: 'not a url' }),
        DOMAINS,
      ),
    ).not.toThrow();
  });

  it('fails loudly when the merchant has no hosted domain', () => {
    expect(() => resolveTestDomain(signals({ returnUrl: 'http://localhost/' }), [SHOP])).toThrow(/hosted domain/);
  });
});
