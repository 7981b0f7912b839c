/**
 * Connect tokens (spec "Authentication" 5; docs/decisions.md "Connect tokens"): what a platform
 * plugin sends in `X-Service-Connect`. A token is a JWT the service signs (HS256) and binds to one
 * merchant, one verified domain, one platform and one environment. Only its id is stored; the row
 * is what makes it revocable. Pure: the claims a token carries and the checks that need no I/O.
 */
import { DAY_MS } from './clock.js';
import type { Environment } from './payment.js';

export const CONNECT_PLATFORMS = ['woocommerce', 'shopify'] as const;
export type ConnectPlatform = (typeof CONNECT_PLATFORMS)[number];

/** The `aud` of every connect token: a token signed for another purpose is never one. */
export const CONNECT_TOKEN_AUDIENCE = 'x-service-connect';

export const DEFAULT_CONNECT_TOKEN_DAYS = 365;
/** Longest lifetime the operator may give a token. */
export const MAX_CONNECT_TOKEN_DAYS = 3650;

/** Longest token accepted for checking at all; issued tokens are about 400 characters. */
export const MAX_CONNECT_TOKEN_LENGTH = 2048;

export function isConnectPlatform(value: unknown): value is ConnectPlatform {
  return typeof value === 'string' && (CONNECT_PLATFORMS as readonly string[]).includes(value);
}

/** The claims of a connect token (times in whole seconds since the Unix epoch). */
export interface ConnectTokenClaims {
  readonly jti: string;
  /** The merchant id. */
  readonly sub: string;
  readonly aud: typeof CONNECT_TOKEN_AUDIENCE;
  /** The bound domain's host. */
  readonly dom: string;
  readonly plt: ConnectPlatform;
  readonly env: Environment;
  readonly iat: number;
  readonly exp: number;
}

/** When a token issued at `nowMs` for `days` days expires: whole seconds, as `exp` carries it. */
export function connectTokenLifetime(nowMs: number, days: number): { issuedAtMs: number; expiresAtMs: number } {
  const issuedAtMs = Math.floor(nowMs / 1000) * 1000;
  return { issuedAtMs, expiresAtMs: issuedAtMs + days * DAY_MS };
}

/** The stored facts a verified token's claims must agree with. */
export interface ConnectTokenRecord {
  readonly id: string;
  readonly merchantId: string;
  readonly domainHost: string | null;
  readonly platform: string;
  readonly environment: string;
  readonly expiresAtMs: number;
}

/** Whether the claims say exactly what the stored token says. */
export function claimsAgreeWith(claims: ConnectTokenClaims, record: ConnectTokenRecord): boolean {
  return (
    claims.jti === record.id &&
    claims.sub === record.merchantId &&
    claims.dom === record.domainHost &&
    claims.plt === record.platform &&
    claims.env === record.environment &&
    claims.exp * 1000 === record.expiresAtMs
  );
}
