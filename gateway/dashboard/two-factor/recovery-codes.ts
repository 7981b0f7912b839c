/**
 * Recovery codes: ten per user, each 12 characters of Crockford's base32 (60 random bits), shown
 * once as `xxxx-xxxx-xxxx`. Only an HMAC-SHA256 under the service secret, bound to the user, is
 * stored, so a copy of the database alone does not let anyone test guesses.
 */
import { createHmac } from 'node:crypto';
import type { DashboardRecoveryCodeTable } from '../../../storage/dashboard-two-factor.table.js';
import { toStoredInstant } from '../../domain/clock.js';
import type { Deps } from '../../runtime/deps.js';

export const RECOVERY_CODE_COUNT = 10;
const ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
const CODE_LENGTH = 12;

/** A new code, formatted for reading (lower case, in groups of four). */
function newCode(deps: Deps): string {
  // 8 random bytes: the first 60 of their 64 bits, 5 by 5, pick the characters (no bias).
  let bits = BigInt(`0x${Buffer.from(deps.ids.token(8), 'base64url').toString('hex')}`);
  let code = '';
  for (let i = 0; i < CODE_LENGTH; i += 1) {
    code += ALPHABET[Number(bits & 31n)];
    bits >>= 5n;
  }
  return code.toLowerCase().replace(/(.{4})(?!$)/g, '$1-');
}

/** A code as typed (any case, spaces or dashes, O for 0, I or L for 1), or null when it cannot be one. */
export function normalizeRecoveryCode(typed: string): string | null {
  const code = typed.toUpperCase().replace(/[\s-]/g, '').replace(/O/g, '0').replace(/[IL]/g, '1');
  if (code.length !== CODE_LENGTH) return null;
  for (const char of code) if (!ALPHABET.includes(char)) return null;
  return code;
}

export function recoveryCodeHash(deps: Deps, userId: string, normalized: string): string {
  return createHmac('sha256', deps.secret).update(`dashboard-recovery|${userId}|${normalized}`).digest('hex');
}

/** New codes for the user: the codes to show once, and the rows to store. */
export function newRecoveryCodes(
  deps: Deps,
  userId: string,
): { readonly codes: string[]; readonly rows: DashboardRecoveryCodeTable[] } {
  const nowMs = deps.clock.nowMs();
  const codes: string[] = [];
  const rows: DashboardRecoveryCodeTable[] = [];
  while (codes.length < RECOVERY_CODE_COUNT) {
    const code = newCode(deps);
    if (codes.includes(code)) continue;
    codes.push(code);
    rows.push({
      id: deps.ids.uuid(nowMs),
      user_id: userId,
      code_hash: recoveryCodeHash(deps, userId, normalizeRecoveryCode(code) as string),
      created_at: toStoredInstant(nowMs),
      used_at: null,
    });
  }
  return { codes, rows };
}
