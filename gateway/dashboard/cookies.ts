/**
 * The dashboard's cookies, all `Path=/dashboard`, HttpOnly, SameSite=Lax, and Secure when the
 * service is public over https. Written by hand: Koa refuses a Secure cookie on a plain connection,
 * which is what a service behind a TLS-terminating proxy sees.
 */
export const SESSION_COOKIE = 'dashboard_session';
/** A signed-out browser's random value, which its form tokens are bound to. */
export const FORM_COOKIE = 'dashboard_form';
export const LANGUAGE_COOKIE = 'dashboard_lang';

export const COOKIE_PATH = '/dashboard';

export interface CookieOptions {
  readonly secure: boolean;
  /** Seconds; absent: until the browser closes; 0: delete. */
  readonly maxAgeSeconds?: number;
}

export function cookieHeader(name: string, value: string, options: CookieOptions): string {
  const parts = [`${name}=${value}`, `Path=${COOKIE_PATH}`, 'HttpOnly', 'SameSite=Lax'];
  if (options.secure) parts.push('Secure');
  if (options.maxAgeSeconds !== undefined) parts.push(`Max-Age=${options.maxAgeSeconds}`);
  return parts.join('; ');
}
