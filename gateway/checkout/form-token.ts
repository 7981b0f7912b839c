/**
 * Form tokens against cross-site and replayed form posts: `<issuedAtMs>.<mac>` where mac is
 * HMAC-SHA256(service secret, `<checkout token>|<purpose>|<issuedAtMs>`), base64url. A token is
 * good for one payment and one form, for 24 hours; it is compared in constant time. Sending a form
 * twice is harmless: the lifecycle is idempotent.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { DAY_MS } from '../domain/clock.js';

export type FormPurpose = 'method' | 'sandbox';

export const FORM_TOKEN_TTL_MS = DAY_MS;
/** Clocks of several instances may differ a little; a token from further ahead is refused. */
const CLOCK_SKEW_MS = 60_000;

export type FormTokenCheck =
  | { readonly ok: true }
  | { readonly ok: false; readonly reason: 'missing' | 'malformed' | 'tampered' | 'expired' };

function mac(secret: string, checkoutToken: string, purpose: FormPurpose, issuedAtMs: number): Buffer {
  return createHmac('sha256', secret).update(`${checkoutToken}|${purpose}|${issuedAtMs}`).digest();
}

export function issueFormToken(secret: string, checkoutToken: string, purpose: FormPurpose, nowMs: number): string {
  const issuedAt = Math.floor(nowMs);
  return `${issuedAt}.${mac(secret, checkoutToken, purpose, issuedAt).toString('base64url')}`;
}

export function checkFormToken(
  secret: string,
  checkoutToken: string,
  purpose: FormPurpose,
  value: unknown,
  nowMs: number,
): FormTokenCheck {
  if (typeof value !== 'string' || value === '') return { ok: false, reason: 'missing' };
  const match = /^(\d{1,16})\.([A-Za-z0-9_-]{43})$/.exec(value);
  if (match === null) return { ok: false, reason: 'malformed' };
  const issuedAt = Number(match[1]);
  const given = Buffer.from(match[2] as string, 'base64url');
  const expected = mac(secret, checkoutToken, purpose, issuedAt);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return { ok: false, reason: 'tampered' };
  if (issuedAt > nowMs + CLOCK_SKEW_MS || nowMs - issuedAt >= FORM_TOKEN_TTL_MS)
    return { ok: false, reason: 'expired' };
  return { ok: true };
}
