/**
 * Secret API keys: `sk_live_` or `sk_test_` followed by 43 base64url characters (32 random bytes).
 * Only a SHA-256 hash of the key is stored, with a display prefix and the last four characters.
 */
import type { Environment } from './payment.js';

export type KeyAccess = 'full' | 'payments';

export const KEY_PREFIXES: Readonly<Record<Environment, string>> = { live: 'sk_live_', test: 'sk_test_' };

const KEY_PATTERN = /^sk_(live|test)_[A-Za-z0-9_-]{20,100}$/;

export function keyEnvironment(key: string): Environment | null {
  const match = KEY_PATTERN.exec(key);
  if (match === null) return null;
  return match[1] === 'live' ? 'live' : 'test';
}

export function composeKey(environment: Environment, secret: string): string {
  return `${KEY_PREFIXES[environment]}${secret}`;
}

/** What is kept in clear to recognise a key in lists: `sk_test_AbCd…` and the last four. */
export function keyHint(key: string): { prefix: string; last4: string } {
  return { prefix: key.slice(0, 12), last4: key.slice(-4) };
}

/** How a key is named on pages, in the CLI's lists and in the audit log: `sk_test_AbCd…wxyz`. */
export function keyLabel(hint: { prefix: string; last4: string }): string {
  return `${hint.prefix}…${hint.last4}`;
}
