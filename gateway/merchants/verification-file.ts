/**
 * The HTTPS side of domain verification: GET `https://<host>/.well-known/gateway-verification.txt`
 * through the outbound guard (gateway/outbound/: no private or loopback address unless
 * `GATEWAY_ALLOW_PRIVATE_WEBHOOKS=1`, as for webhooks), with a short timeout, a small size cap and
 * no redirect followed; the content must be the verification value exactly, surrounding
 * whitespace aside. A Shopify shop's domain (`*.myshopify.com`) publishes it through the app proxy
 * instead, and may be redirected to the shop's primary domain on the same path.
 */
import type { LookupFunction } from 'node:net';
import { isShopifyShopHost, type VerificationFailure, verificationFileUrl } from '../domain/domain-verification.js';
import { maskedUrl } from '../domain/masked-url.js';
import { createGuardedAgents } from '../outbound/guarded-agents.js';
import { createProcessorHttp, ProcessorCallError } from '../processors/http.js';
import { safeEqual } from '../runtime/hashing.js';

export const FILE_TIMEOUT_MS = 5_000;
/** The file holds one line; anything much larger is not it. */
export const MAX_FILE_BYTES = 4 * 1024;
const SHOWN_CHARS = 80;
const TLS_CODE = /^(CERT_|DEPTH_ZERO_SELF_SIGNED|SELF_SIGNED_CERT|UNABLE_TO_|ERR_TLS_|ERR_SSL_|HOSTNAME_MISMATCH)/;

export interface FileCheckOptions {
  /** `GATEWAY_ALLOW_PRIVATE_WEBHOOKS=1`: development only. */
  readonly allowPrivate: boolean;
  /** Name resolution (the verification resolver when DNS servers are configured, else the system's). */
  readonly lookup?: LookupFunction;
  readonly timeoutMs?: number;
  /** Tests only: the certificate authority (PEM) the local server's certificate is signed by. */
  readonly ca?: string;
  /** Tests only: the port of the local server (the check always uses 443 otherwise). */
  readonly port?: number;
}

function callFailure(url: string, error: ProcessorCallError, timeoutMs: number): VerificationFailure {
  const code = error.code ?? '';
  if (code === 'TIMEOUT') {
    return { code: 'https_timeout', message: `${url} did not answer within ${timeoutMs / 1000} s.` };
  }
  if (code === 'TOO_LARGE') {
    return {
      code: 'https_too_large',
      message: `${url} is larger than ${MAX_FILE_BYTES} bytes: it must hold the verification value only.`,
    };
  }
  if (code === 'PRIVATE_ADDRESS') {
    return {
      code: 'https_private_address',
      message: `${url} was not fetched: ${error.message.replace(/^refused: /, '')}; the domain must resolve to a public address.`,
    };
  }
  if (TLS_CODE.test(code)) {
    return {
      code: 'https_tls_error',
      message: `The HTTPS certificate of ${url} was not accepted (${code}); it must be valid for the domain and issued by a public authority.`,
    };
  }
  return { code: 'https_unreachable', message: `${url} could not be reached (${error.message}).` };
}

/**
 * How many redirects a Shopify shop's file may take: Shopify sends `<name>.myshopify.com` on to the
 * shop's primary domain, keeping the path. Other domains: none.
 */
export const SHOPIFY_MAX_REDIRECTS = 2;

/**
 * The next URL when a Shopify shop's storefront redirects: https, the same path and query (the app
 * proxy answers there for the same shop, whatever the domain); anything else is not followed.
 */
function shopRedirect(from: URL, location: string | undefined): URL | null {
  if (location === undefined) return null;
  let next: URL;
  try {
    next = new URL(location, from);
  } catch {
    return null;
  }
  if (next.protocol !== 'https:' || next.pathname !== from.pathname || next.search !== from.search) return null;
  return next;
}

/** Whether the file on `host` holds `expected`; answers why not, or null. */
export async function checkVerificationFile(
  host: string,
  expected: string,
  options: FileCheckOptions,
): Promise<VerificationFailure | null> {
  const shownUrl = verificationFileUrl(host);
  const target = new URL(shownUrl);
  if (options.port !== undefined) target.port = String(options.port);
  const timeoutMs = options.timeoutMs ?? FILE_TIMEOUT_MS;
  const agents = createGuardedAgents({
    allowPrivate: options.allowPrivate,
    keepAlive: false,
    ...(options.lookup ? { lookup: options.lookup } : {}),
  });
  const client = createProcessorHttp({ allowPrivate: options.allowPrivate, agents });
  const fetchFile = (url: URL) =>
    client.request({
      method: 'GET',
      url: url.toString(),
      headers: { 'User-Agent': 'PaymentGateway-DomainVerification/1.0', Accept: 'text/plain' },
      timeoutMs,
      maxAnswerBytes: MAX_FILE_BYTES,
      ...(options.ca === undefined ? {} : { tls: { ca: options.ca } }),
    });
  try {
    let url = target;
    let redirectsLeft = isShopifyShopHost(host) ? SHOPIFY_MAX_REDIRECTS : 0;
    let reply = await fetchFile(url);
    for (; reply.status >= 300 && reply.status < 400 && redirectsLeft > 0; redirectsLeft -= 1) {
      const next = shopRedirect(url, reply.headers.location);
      if (next === null) break;
      url = next;
      reply = await fetchFile(url);
    }
    if (reply.status >= 300 && reply.status < 400) {
      const location = reply.headers.location;
      const shown = location === undefined ? null : maskedUrl(location, url);
      return {
        code: 'https_redirect',
        message: `${shownUrl} redirects (HTTP ${reply.status}${shown ? ` to ${shown}` : ''}); redirects are not followed: serve the file at this exact address.`,
      };
    }
    if (reply.status < 200 || reply.status >= 300) {
      return {
        code: 'https_not_found',
        message: `${shownUrl} answered HTTP ${reply.status}; publish the file there with the verification value.`,
      };
    }
    const content = reply.body.trim();
    if (safeEqual(content, expected)) return null;
    const found = content.length > SHOWN_CHARS ? `${content.slice(0, SHOWN_CHARS)}…` : content;
    return {
      code: 'https_wrong_content',
      message: `${shownUrl} does not hold the verification value (found "${found}"); it must hold exactly the value shown.`,
    };
  } catch (error) {
    if (error instanceof ProcessorCallError) return callFailure(shownUrl, error, timeoutMs);
    throw error;
  } finally {
    client.close();
  }
}
