/**
 * Dashboard passwords: scrypt (node:crypto) with a random 16-byte salt per password. The stored
 * form carries its parameters, `scrypt$<log2 N>$<r>$<p>$<salt>$<hash>` (base64url), so they can be
 * raised later without breaking stored hashes. N = 2^16 by default (`GATEWAY_PASSWORD_HASH_COST`),
 * r = 8, p = 1: 64 MiB and a few hundred milliseconds per hash, in the thread pool (never on the
 * event loop).
 */
import { randomBytes, type ScryptOptions, scrypt, timingSafeEqual } from 'node:crypto';

import { DEFAULT_PASSWORD_HASH_COST } from '../config.js';

const R = 8;
const P = 1;
const KEY_BYTES = 32;
const SALT_BYTES = 16;

export const PASSWORD_MIN_LENGTH = 10;
/** Longer inputs are refused before hashing (scrypt reads the whole password). */
export const PASSWORD_MAX_LENGTH = 200;

export type PasswordProblem = 'too_short' | 'too_long' | 'is_email';

/** What is wrong with a new password, or null: at least 10 characters, at most 200, not the email. */
export function passwordProblem(password: string, email: string): PasswordProblem | null {
  const length = [...password].length;
  if (length < PASSWORD_MIN_LENGTH) return 'too_short';
  if (length > PASSWORD_MAX_LENGTH) return 'too_long';
  if (password.trim().toLowerCase() === email.trim().toLowerCase()) return 'is_email';
  return null;
}

function derive(password: string, salt: Buffer, log2N: number, r: number, p: number): Promise<Buffer> {
  const N = 2 ** log2N;
  const options: ScryptOptions = { N, r, p, maxmem: 128 * N * r * p + 16 * 1024 * 1024 };
  return new Promise((resolve, reject) => {
    scrypt(password.normalize('NFC'), salt, KEY_BYTES, options, (error, key) => (error ? reject(error) : resolve(key)));
  });
}

/** A new password's stored form, at `log2N` (the service's `passwordHashCost`). */
export async function hashPassword(password: string, log2N = DEFAULT_PASSWORD_HASH_COST): Promise<string> {
  const salt = randomBytes(SALT_BYTES);
  const key = await derive(password, salt, log2N, R, P);
  return ['scrypt', log2N, R, P, salt.toString('base64url'), key.toString('base64url')].join('$');
}

/** Hashes of no one's password, by cost: a sign-in for an unknown email verifies against one, taking as long. */
const decoys = new Map<number, Promise<string>>();

/**
 * Whether `password` matches `stored`; with `stored` undefined, spends the time of a hash at
 * `decoyLog2N` (the cost new passwords get, so an unknown email takes as long as a known one) and
 * answers false.
 */
export async function verifyPassword(
  password: string,
  stored: string | undefined,
  decoyLog2N = DEFAULT_PASSWORD_HASH_COST,
): Promise<boolean> {
  let decoy = decoys.get(decoyLog2N);
  if (decoy === undefined) {
    decoy = hashPassword(randomBytes(18).toString('base64url'), decoyLog2N);
    decoys.set(decoyLog2N, decoy);
  }
  const hash = stored ?? (await decoy);
  const parts = hash.split('$');
  if (parts.length !== 6 || parts[0] !== 'scrypt') return false;
  const [log2N, r, p] = parts.slice(1, 4).map(Number) as [number, number, number];
  if (![log2N, r, p].every((n) => Number.isInteger(n) && n > 0) || log2N > 22) return false;
  const expected = Buffer.from(parts[5] as string, 'base64url');
  const key = await derive(password, Buffer.from(parts[4] as string, 'base64url'), log2N, r, p);
  return stored !== undefined && key.length === expected.length && timingSafeEqual(key, expected);
}
