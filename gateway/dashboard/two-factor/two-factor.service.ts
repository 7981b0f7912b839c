/**
 * Two-step sign-in (TOTP, RFC 6238, with the otpauth library): a user sets it up for themselves
 * (any role), by scanning a new secret and entering a current code with their password; it is
 * turned off with the password and a code or a recovery code. At sign-in, after a right password,
 * a code is asked (see pending-sign-ins.ts): a 6-digit code within one 30-second step of the
 * gateway's clock, or an unused recovery code. A code works once: the last accepted step is
 * recorded, and only later steps are accepted after it. Wrong codes are failed sign-ins, counted
 * with wrong passwords, and each code is reserved under their limits before it is checked (see
 * accounts.service.ts).
 *
 * The secret is kept sealed (AES-256-GCM under the service secret, bound to the user) in
 * `dashboard_users.totp_secret`, from the setup page on; `totp_enabled_at` says whether it is on.
 */
import { Secret, TOTP } from 'otpauth';
import {
  advanceTotpStep,
  countUnusedRecoveryCodes,
  deletePendingSignIn,
  deleteRecoveryCodes,
  deleteUserPendingSignIns,
  replaceRecoveryCodes,
  useRecoveryCode,
} from '../../../storage/dashboard-two-factor.repository.js';
import { findDashboardUser } from '../../../storage/dashboard-user.repository.js';
import type { DashboardUserRow } from '../../../storage/dashboard-user.table.js';
import type { Executor } from '../../../storage/database.js';
import { toStoredInstant } from '../../domain/clock.js';
import type { Deps } from '../../runtime/deps.js';
import { openSignedInSession, reserveSignIn, type SignedIn, settleSignInAttempt } from '../accounts.service.js';
import { recordAudit } from '../audit/audit.service.js';
import { DASHBOARD_DICTIONARIES } from '../i18n/index.js';
import { verifyPassword } from '../passwords.js';
import { peekPendingSignIn } from './pending-sign-ins.js';
import { newRecoveryCodes, normalizeRecoveryCode, recoveryCodeHash } from './recovery-codes.js';

export const TOTP_PERIOD_SECONDS = 30;
export const TOTP_DIGITS = 6;
/** Codes of one step before or after the clock's are accepted (a phone's clock a little off). */
export const TOTP_WINDOW = 1;
/** The issuer shown in authenticator apps: the product's name, the same in every language. */
export const TOTP_ISSUER = DASHBOARD_DICTIONARIES.en.product;

/** The sealing context of a user's TOTP secret (binds the sealed value to its row). */
export function totpSecretContext(userId: string): string {
  return `dashboard_users.totp_secret:${userId}`;
}

function totpOf(secretBase32: string, email: string): TOTP {
  return new TOTP({
    issuer: TOTP_ISSUER,
    label: email,
    algorithm: 'SHA1',
    digits: TOTP_DIGITS,
    period: TOTP_PERIOD_SECONDS,
    secret: Secret.fromBase32(secretBase32),
  });
}

function openSecret(deps: Deps, user: DashboardUserRow): string | null {
  if (user.totp_secret === null) return null;
  try {
    return deps.sealer.open(user.totp_secret, totpSecretContext(user.id));
  } catch {
    return null;
  }
}

/**
 * The time step of a right current code (within the window of the gateway's clock), else null.
 * otpauth compares codes in constant time.
 */
function matchingStep(secretBase32: string, email: string, code: string, nowMs: number): number | null {
  if (!/^\d{6}$/.test(code)) return null;
  const delta = totpOf(secretBase32, email).validate({ token: code, timestamp: nowMs, window: TOTP_WINDOW });
  return delta === null ? null : Math.floor(nowMs / 1000 / TOTP_PERIOD_SECONDS) + delta;
}

/** A code as typed, without spaces (apps show `123 456`). */
function compact(code: string): string {
  return code.replace(/\s/g, '').slice(0, 64);
}

export interface Enrolment {
  /** The secret in base32, for typing into an app. */
  readonly secret: string;
  /** The `otpauth://` URI the QR code holds. */
  readonly uri: string;
}

/**
 * The secret a user without two-step sign-in is setting up: kept (sealed, not on) from the first
 * view of the setup page, so that reloading it shows the same secret; made when there is none.
 */
export async function pendingEnrolment(deps: Deps, user: DashboardUserRow): Promise<Enrolment> {
  let secret = openSecret(deps, user);
  if (secret === null) {
    const candidate = new Secret({ buffer: new Uint8Array(Buffer.from(deps.ids.token(20), 'base64url')).buffer })
      .base32;
    const sealed = deps.sealer.seal(candidate, totpSecretContext(user.id));
    let query = deps.db
      .updateTable('dashboard_users')
      .set({ totp_secret: sealed, updated_at: toStoredInstant(deps.clock.nowMs()) })
      .where('id', '=', user.id)
      .where('totp_enabled_at', 'is', null);
    query =
      user.totp_secret === null
        ? query.where('totp_secret', 'is', null)
        : query.where('totp_secret', '=', user.totp_secret);
    const stored = await query.executeTakeFirst();
    if (stored.numUpdatedRows > 0n) {
      secret = candidate;
    } else {
      // Another request of the user set one up at the same moment: show theirs.
      const now = await findDashboardUser(deps.db, user.id);
      secret = now === undefined ? null : openSecret(deps, now);
      if (secret === null) throw new Error('the two-step secret could not be kept');
    }
  }
  return { secret, uri: totpOf(secret, user.email).toString() };
}

export type CodeProblem = 'required' | 'wrong_code';
export interface TwoFactorProblems {
  code?: CodeProblem;
  current_password?: 'required' | 'wrong_password';
}

export type EnableResult =
  | { readonly kind: 'problems'; readonly problems: TwoFactorProblems }
  /** Already on, or the secret changed meanwhile: the setup page is shown again. */
  | { readonly kind: 'stale' }
  | { readonly kind: 'enabled'; readonly recoveryCodes: readonly string[] };

/** Turns two-step sign-in on with the pending secret, given the password and a current code. */
export async function enableTwoFactor(
  deps: Deps,
  user: DashboardUserRow,
  input: { readonly currentPassword: string; readonly code: string; readonly address: string },
): Promise<EnableResult> {
  if (user.totp_enabled_at !== null || user.totp_secret === null) return { kind: 'stale' };
  const secret = openSecret(deps, user);
  if (secret === null) return { kind: 'stale' };
  const problems: TwoFactorProblems = {};
  if (input.currentPassword === '') problems.current_password = 'required';
  else if (!(await verifyPassword(input.currentPassword.slice(0, 1000), user.password_hash))) {
    problems.current_password = 'wrong_password';
  }
  const code = compact(input.code);
  const nowMs = deps.clock.nowMs();
  const step = matchingStep(secret, user.email, code, nowMs);
  if (code === '') problems.code = 'required';
  else if (step === null) problems.code = 'wrong_code';
  if (step === null || Object.keys(problems).length > 0) return { kind: 'problems', problems };

  const { codes, rows } = newRecoveryCodes(deps, user.id);
  return deps.transact(async (trx) => {
    const now = toStoredInstant(nowMs);
    const turnedOn = await trx
      .updateTable('dashboard_users')
      .set({ totp_enabled_at: now, totp_last_step: step, updated_at: now })
      .where('id', '=', user.id)
      .where('totp_enabled_at', 'is', null)
      .where('totp_secret', '=', user.totp_secret)
      .executeTakeFirst();
    if (turnedOn.numUpdatedRows === 0n) return { kind: 'stale' } as const;
    await replaceRecoveryCodes(trx, user.id, rows);
    await recordAudit(deps, trx, {
      merchantId: user.merchant_id,
      actor: { userId: user.id, email: user.email, address: input.address },
      action: 'totp.enabled',
      subject: user.email,
    });
    return { kind: 'enabled', recoveryCodes: codes } as const;
  });
}

/**
 * Whether `typed` is a right second factor of the user now, using it: a current code of a step
 * later than the last one accepted, or an unused recovery code (marked used).
 */
async function useSecondFactor(deps: Deps, db: Executor, user: DashboardUserRow, typed: string): Promise<boolean> {
  if (user.totp_enabled_at === null) return false;
  const code = compact(typed);
  const nowMs = deps.clock.nowMs();
  if (/^\d{6}$/.test(code)) {
    const secret = openSecret(deps, user);
    const step = secret === null ? null : matchingStep(secret, user.email, code, nowMs);
    return step !== null && (await advanceTotpStep(db, user.id, step));
  }
  const recovery = normalizeRecoveryCode(code);
  if (recovery === null) return false;
  return useRecoveryCode(db, user.id, recoveryCodeHash(deps, user.id, recovery), toStoredInstant(nowMs));
}

export type ChangeResult =
  | { readonly kind: 'problems'; readonly problems: TwoFactorProblems }
  /** Too many failed sign-ins (wrong codes here among them): nothing is checked until the pause ends. */
  | { readonly kind: 'locked' }
  | { readonly kind: 'stale' }
  | { readonly kind: 'done'; readonly recoveryCodes: readonly string[] };

/**
 * The password and a second factor, asked before turning it off or making new recovery codes. A
 * wrong code counts as a failed sign-in, so codes cannot be guessed here either.
 */
async function confirmChange(
  deps: Deps,
  user: DashboardUserRow,
  input: { readonly currentPassword: string; readonly code: string; readonly address: string },
  change: (trx: Executor) => Promise<readonly string[]>,
): Promise<ChangeResult> {
  if (user.totp_enabled_at === null) return { kind: 'stale' };
  const attempt = await reserveSignIn(deps, user.email, input.address);
  if (attempt === null) return { kind: 'locked' };
  const problems: TwoFactorProblems = {};
  if (input.currentPassword === '') problems.current_password = 'required';
  else if (!(await verifyPassword(input.currentPassword.slice(0, 1000), user.password_hash))) {
    problems.current_password = 'wrong_password';
  }
  if (compact(input.code) === '') problems.code = 'required';
  if (Object.keys(problems).length > 0) {
    // No code was checked: nothing to count.
    await settleSignInAttempt(deps, attempt, false);
    return { kind: 'problems', problems };
  }
  const result = await deps.transact(async (trx) => {
    if (!(await useSecondFactor(deps, trx, user, input.code))) {
      return { kind: 'problems', problems: { code: 'wrong_code' } } as const;
    }
    return { kind: 'done', recoveryCodes: await change(trx) } as const;
  });
  await settleSignInAttempt(deps, attempt, result.kind === 'problems');
  return result;
}

/** Turns two-step sign-in off (password and a code or a recovery code asked); forgets its secret and codes. */
export function disableTwoFactor(
  deps: Deps,
  user: DashboardUserRow,
  input: { readonly currentPassword: string; readonly code: string; readonly address: string },
): Promise<ChangeResult> {
  return confirmChange(deps, user, input, async (trx) => {
    const now = toStoredInstant(deps.clock.nowMs());
    await trx
      .updateTable('dashboard_users')
      .set({ totp_secret: null, totp_enabled_at: null, totp_last_step: null, updated_at: now })
      .where('id', '=', user.id)
      .execute();
    await deleteRecoveryCodes(trx, user.id);
    await deleteUserPendingSignIns(trx, user.id);
    await recordAudit(deps, trx, {
      merchantId: user.merchant_id,
      actor: { userId: user.id, email: user.email, address: input.address },
      action: 'totp.disabled',
      subject: user.email,
    });
    return [];
  });
}

/** New recovery codes (shown once; the earlier ones stop working), password and a code asked. */
export function regenerateRecoveryCodes(
  deps: Deps,
  user: DashboardUserRow,
  input: { readonly currentPassword: string; readonly code: string; readonly address: string },
): Promise<ChangeResult> {
  return confirmChange(deps, user, input, async (trx) => {
    const { codes, rows } = newRecoveryCodes(deps, user.id);
    await replaceRecoveryCodes(trx, user.id, rows);
    await recordAudit(deps, trx, {
      merchantId: user.merchant_id,
      actor: { userId: user.id, email: user.email, address: input.address },
      action: 'totp.recovery_codes_renewed',
      subject: user.email,
    });
    return codes;
  });
}

export function unusedRecoveryCodes(deps: Deps, userId: string): Promise<number> {
  return countUnusedRecoveryCodes(deps.db, userId);
}

export type SecondStepResult =
  | { readonly kind: 'expired' }
  | { readonly kind: 'locked' }
  | { readonly kind: 'wrong' }
  | ({ readonly kind: 'signed_in' } & SignedIn);

/** Thrown inside the transaction to undo the use of a code when the pending sign-in was used meanwhile. */
class PendingSignInGone extends Error {}

/**
 * The second step of a sign-in: the code (or a recovery code) for the pending sign-in `pendingId`.
 * Locked like passwords (the same failures, the same limits); a wrong code is a failed sign-in.
 * A right one ends the pending sign-in (used once) and opens the session.
 */
export async function completeSignIn(
  deps: Deps,
  input: { readonly pendingId: string | undefined; readonly code: string; readonly address: string },
): Promise<SecondStepResult> {
  const pending = await peekPendingSignIn(deps, input.pendingId);
  if (pending === undefined) return { kind: 'expired' };
  const user = await findDashboardUser(deps.db, pending.user_id);
  if (user === undefined || user.totp_enabled_at === null) {
    await deletePendingSignIn(deps.db, pending.id_hash);
    return { kind: 'expired' };
  }
  const attempt = await reserveSignIn(deps, user.email, input.address);
  if (attempt === null) return { kind: 'locked' };
  let opened: SignedIn | null;
  try {
    opened = await deps.transact(async (trx) => {
      if (!(await useSecondFactor(deps, trx, user, input.code))) return null;
      if (!(await deletePendingSignIn(trx, pending.id_hash))) throw new PendingSignInGone();
      return openSignedInSession(deps, trx, user, input.address);
    });
  } catch (error) {
    // A right code for a sign-in used meanwhile is no failure.
    if (error instanceof PendingSignInGone) {
      await settleSignInAttempt(deps, attempt, false);
      return { kind: 'expired' };
    }
    throw error;
  }
  // Opening the session cleared the account's failures, this reservation among them.
  if (opened !== null) return { kind: 'signed_in', ...opened };
  await settleSignInAttempt(deps, attempt, true);
  return { kind: 'wrong' };
}

/** Whether the pending sign-in `pendingId` still waits for its code. */
export async function pendingSignInLive(deps: Deps, pendingId: string | undefined): Promise<boolean> {
  return (await peekPendingSignIn(deps, pendingId)) !== undefined;
}
