/**
 * Our own static HTML pages (the error docs, business verification, billing help, a paid purchase):
 * no script, inline styles only, and never shown in a frame. `X-Frame-Options: DENY` says the same
 * as `frame-ancestors 'none'` to browsers that do not read CSP.
 */
export const STATIC_PAGE_CSP = "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'";

export interface HeaderTarget {
  set(name: string, value: string): void;
}

export function setStaticPageHeaders(target: HeaderTarget): void {
  target.set('Content-Security-Policy', STATIC_PAGE_CSP);
  target.set('X-Frame-Options', 'DENY');
}
