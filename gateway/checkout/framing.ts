/**
 * Who may show a payment's checkout in a frame, and which `origin` an embedded checkout (the browser
 * SDK's `?embed=1&origin=<merchant page origin>`) may report its result to.
 *
 * - A payment on a merchant's verified domain: pages on that domain or its subdomains
 *   (`frame-ancestors https://host https://*.host`; embed origins http(s) on the domain).
 * - A sandbox payment on the account's hosted domain (a test key without a website): anyone, so an
 *   integrator can try the SDK from `http://localhost` (`frame-ancestors *`; any http(s) origin).
 */
import { hostLiesOn } from '../domain/hosts.js';

export type FramingPolicy = { readonly kind: 'anyone' } | { readonly kind: 'domain'; readonly host: string };

export function framingPolicy(payment: { readonly sandbox: boolean }, domain: FramingDomain): FramingPolicy {
  if (payment.sandbox && domain.hosted) return { kind: 'anyone' };
  return { kind: 'domain', host: domain.host };
}

export interface FramingDomain {
  readonly host: string;
  readonly hosted: boolean;
}

/** The `frame-ancestors` sources; `'none'` when no payment is known (an unknown link). */
export function frameAncestors(policy: FramingPolicy | null): string {
  if (policy === null) return "'none'";
  if (policy.kind === 'anyone') return '*';
  return `https://${policy.host} https://*.${policy.host}`;
}

/** The origin exactly as a browser serialises it (`https://shop.am`, no path), else null. */
export function parseOrigin(value: unknown): URL | null {
  if (typeof value !== 'string' || value.length > 300) return null;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return null;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return null;
  if (url.origin !== value) return null;
  return url;
}

/** Whether an embedding page at `origin` may receive this payment's results. */
export function embedOriginAllowed(policy: FramingPolicy, origin: string): boolean {
  const url = parseOrigin(origin);
  if (url === null) return false;
  if (policy.kind === 'anyone') return true;
  return hostLiesOn(url.hostname.toLowerCase(), policy.host);
}
