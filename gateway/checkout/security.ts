/**
 * Headers every checkout answer carries: a nonce-based Content-Security-Policy (no inline script or
 * style runs without the page's nonce; forms post only to ourselves; framing per `framing.ts`, and
 * `X-Frame-Options: DENY` when no one may frame the page), no caching, no referrer, no sniffing.
 */
import { randomBytes } from 'node:crypto';
import { type FramingPolicy, frameAncestors } from './framing.js';

export function newNonce(): string {
  return randomBytes(18).toString('base64');
}

/**
 * `form-action` also governs where a form's POST may redirect (Chromium): our POSTs redirect only to
 * our own pages, under `'self'` or the public URL (the same origin unless a proxy rewrites hosts).
 * The one page whose form posts elsewhere (the handoff to a processor that takes a form, Idram)
 * names that processor's origin in `formOrigin`.
 */
export function contentSecurityPolicy(
  nonce: string,
  framing: FramingPolicy | null,
  publicOrigin: string,
  formOrigin: string | null = null,
): string {
  return [
    "default-src 'none'",
    `script-src 'nonce-${nonce}'`,
    `style-src 'nonce-${nonce}'`,
    "img-src 'self' data:",
    `form-action 'self' ${publicOrigin}${formOrigin === null ? '' : ` ${formOrigin}`}`,
    "base-uri 'none'",
    `frame-ancestors ${frameAncestors(framing)}`,
  ].join('; ');
}

export interface HeaderTarget {
  set(name: string, value: string): void;
}

export function setPageHeaders(
  target: HeaderTarget,
  nonce: string,
  framing: FramingPolicy | null,
  publicOrigin: string,
  formOrigin: string | null = null,
): void {
  target.set('Content-Security-Policy', contentSecurityPolicy(nonce, framing, publicOrigin, formOrigin));
  // `frame-ancestors 'none'`, said again to browsers that do not read CSP. A page the merchant's
  // site may frame must not get it: the header has no form that names allowed origins.
  if (framing === null) target.set('X-Frame-Options', 'DENY');
  target.set('Cache-Control', 'no-store');
  target.set('Referrer-Policy', 'no-referrer');
  target.set('X-Content-Type-Options', 'nosniff');
}
