/**
 * Host names as the domain rules see them: lower case, no port, no trailing dot, IDNs in
 * punycode. A payment's URLs "lie on" a domain when their host is the domain or a subdomain of it.
 */
const LABEL = /^(?!-)[a-z0-9-]{1,63}(?<!-)$/;
const IPV4 = /^\d{1,3}(\.\d{1,3}){3}$/;

/** An IPv4 or IPv6 literal (as URL parsing leaves it, brackets removed). */
export function isIpLiteral(host: string): boolean {
  return IPV4.test(host) || host.includes(':');
}

/** Normalises a bare host name; answers null when it is not a usable DNS name. */
export function normalizeHost(input: string): string | null {
  const trimmed = input.trim().toLowerCase().replace(/\.$/, '');
  if (trimmed === '' || trimmed.length > 253 || /[/?#@:\s\\\u0000-\u001f\u007f]/.test(trimmed)) return null;
  let host: string;
  try {
    host = new URL(`http://${trimmed}`).hostname;
  } catch {
    return null;
  }
  if (isIpLiteral(host)) return null;
  if (!host.split('.').every((label) => LABEL.test(label))) return null;
  return host;
}

/** The host of an absolute http(s) URL, normalised; null when the URL is not one. */
export function hostOfUrl(url: string): string | null {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return null;
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return null;
  const host = parsed.hostname.replace(/^\[|\]$/g, '');
  if (host === '') return null;
  return host.toLowerCase().replace(/\.$/, '');
}

/** `localhost`, its subdomains and IP literals can never be verified as a merchant's domain. */
export function isNeverVerifiable(host: string): boolean {
  return host === 'localhost' || host.endsWith('.localhost') || isIpLiteral(host) || !host.includes('.');
}

export function hostLiesOn(host: string, domain: string): boolean {
  return host === domain || host.endsWith(`.${domain}`);
}
